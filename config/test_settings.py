"""Settings for the test suite: the real PostgreSQL, fast hashing, no HTTPS redirects."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gameserver")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")
os.environ.setdefault("WHITENOISE_USE_FINDERS", "1")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
# The apps of the OAuth2 tests are served on loopback, over http.
os.environ.setdefault("OAUTH_REDIRECT_SCHEMES", "http,https")
# Whole matches over HTTP send thousands of requests a minute; throttling has its own test.
_SCOPES = ("USER", "ANON", "AUTH", "AUTH_ACCOUNT", "AUTH_ACCOUNT_ADDRESS", "CLIENT_SEED", "PASSWORD_RESET", "PASSWORD")
for scope in _SCOPES:
    os.environ.setdefault(f"THROTTLE_{scope}", "1000000/min")
# Tests mail one address from many accounts; the cap on one address has its own tests.
os.environ.setdefault("EMAIL_CONFIRMATION_ADDRESS_MAX", "1000000")
os.environ.setdefault("PASSWORD_RESET_ADDRESS_MAX", "1000000")

# One Redis database per xdist worker, so parallel test processes never share a queue.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
os.environ.setdefault("CELERY_BROKER_URL", f"redis://127.0.0.1:6379/{1 + int(_worker[2:] or 0) % 15}")
# Unit tests drive time by calling services with an injected clock; the Celery
# integration tests switch task scheduling on and run a real worker.
os.environ.setdefault("GAME_TASKS_ENABLED", "0")
os.environ.setdefault("CHANNELS_REDIS_URL", os.environ["CELERY_BROKER_URL"])
os.environ.setdefault("CHANNELS_PREFIX", f"test-{_worker}")
os.environ.setdefault("BOT_DELAY_SECONDS", "0")

from .settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# A mailer as in development; the test runner swaps it for its mailbox (mail.outbox).
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
# Every table written in the tests proves it named each field it changed (games.store).
TABLE_STORE_CHECK_WRITES = True

# The pseudo-locales of the layout's browser tests (tests/i18n/pseudo_locales.py writes
# their catalogues into this folder): longer words, and right to left. A test's own
# server only; never offered to a person.
if _pseudo := os.environ.get("PSEUDO_LOCALES"):
    import json
    from pathlib import Path

    for _language in json.loads((Path(_pseudo) / "languages.json").read_text(encoding="utf-8")):
        LANGUAGES = [*LANGUAGES, (_language["code"], _language["name"])]  # noqa: F405
        LANG_INFO[_language["code"]] = {**_language, "name_local": _language["name"]}  # noqa: F405
    LOCALE_PATHS = [*LOCALE_PATHS, Path(_pseudo)]  # noqa: F405
