import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from api.http_requests import ApiWSGIRequest  # noqa: E402

# A Content-Type Django cannot read is the API's 400, not a 500 (api/http_requests.py).
application.request_class = ApiWSGIRequest
