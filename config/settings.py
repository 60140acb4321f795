"""Settings, all from the environment.

With nothing set the server runs on embedded defaults (SQLite, a filesystem Celery
broker under var/) so one command starts everything on one machine. Production sets
DATABASE_URL (PostgreSQL), CELERY_BROKER_URL / REDIS_URL (Redis), SECRET_KEY,
ALLOWED_HOSTS and DEBUG=0; `manage.py check --deploy` passes with DEBUG=0.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dj_database_url
import orjson
from django.conf.locale import LANG_INFO
from django.utils.csp import CSP
from kombu import Exchange, Queue

from grants.scopes import SCOPES as GRANT_SCOPES

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "insecure-development-key-only-for-debug-runs-" + "x" * 20

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The base of invite links; empty means "the host the request came to".
PUBLIC_BASE_URL = env_str("PUBLIC_BASE_URL", "").rstrip("/")

INSTALLED_APPS = [
    # First, so `runserver` serves ASGI (HTTP and the WebSockets) in development.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",
    "channels",
    "rest_framework",
    # Only for migration 0008 of accounts, which moved its tokens to sign-ins of their own.
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "drf_standardized_errors",
    "accounts",
    "games",
    "api",
    "moderation",
    "notifications",
    "ratings",
    "web",
    "uptime",
    "operations",
    "privacy",
    "grants",
    "talk",
    # After `web`, whose templates (the authorize page) take the place of its own.
    "oauth2_provider",
]

MIDDLEWARE = [
    # /healthz, /readyz and /metrics: for the deployment's probes, before anything else.
    "operations.middleware.OperationsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # WhiteNoise: the static files, and the documentation site at /docs/ (config/static_files.py).
    "config.static_files.StaticFilesMiddleware",
    # The Content-Security-Policy (SECURE_CSP, below) of every answer past the static
    # files: Django's, with a fresh nonce in every HTML page's (core/csp.py).
    "core.csp.ContentSecurityPolicyMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # Inside CORS, so its headers reach the error answers this makes too.
    "api.middleware.ApiErrorsMiddleware",
    # Django's own, except that API calls carrying a token pass them (api/token_calls.py).
    "api.token_calls.TokenCallsPassSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "api.token_calls.TokenCallsPassAuthenticationMiddleware",
    # After the session's user is known: a page is in their account's language.
    "accounts.middleware.PersonLanguageMiddleware",
    "api.token_calls.TokenCallsPassMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE and LANGUAGE_BIDI, for a page's <html lang dir>.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # `csp_nonce`, the request's nonce, for the scripts a page writes.
                "django.template.context_processors.csp",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=env_bool("DB_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend with a health check that skips connections in use a moment ago.
    DATABASES["default"]["ENGINE"] = "core.postgresql"
    # psycopg prepares a statement after this many runs on a connection. Only the hot
    # path's statements (core/prepared.py: the token and table reads, a table's flush)
    # bind on the server, so only they are prepared; the ORM keeps Django's client-side
    # binding. (A pooler in transaction mode must support prepared statements, as
    # PgBouncer does since 1.21.)
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 3)
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded start has writers in several processes (the web server, the Celery
    # worker's children, beat). As Django's SQLite notes advise: WAL lets readers and the
    # one writer proceed together; every transaction takes the write lock when it begins
    # (IMMEDIATE), so it waits for it under the busy timeout instead of failing with
    # "database is locked" when a read-then-write transaction meets another writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": env_int("SQLITE_BUSY_TIMEOUT", 20),
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The languages of the page, the notices, the mails and the API's error details
# (accounts/languages.py says which one is used when); each has its catalogue in
# locale/ (`make messages`; docs/translating.md). A string a catalogue lacks is English.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español"), ("hi", "हिन्दी"), ("gu", "ગુજરાતી")]
# Gujarati is not among Django's own languages: its name and direction, for
# get_language_info (a page's `dir`, `GET languages`).
LANG_INFO.setdefault("gu", {"bidi": False, "code": "gu", "name": "Gujarati", "name_local": "ગુજરાતી"})
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # Each game's web client renderer, from the game's folder (web/finders.py).
    "web.finders.GameRendererFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve static files straight from the apps in development and tests, no collectstatic.
WHITENOISE_USE_FINDERS = DEBUG or env_bool("WHITENOISE_USE_FINDERS", False)
WHITENOISE_AUTOREFRESH = WHITENOISE_USE_FINDERS
# The documentation site `make docs` builds, served at /docs/ when it is there
# (config/static_files.py); a folder's URL serves its index.html.
DOCS_SITE_DIR = Path(env_str("DOCS_SITE_DIR", str(BASE_DIR / "var" / "docs-site")))
WHITENOISE_INDEX_FILE = True

REDIS_URL = env_str("REDIS_URL", "")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Live change notices: Redis across processes. Without Redis the layer is in memory,
# so it only carries the serving process's own notices; that process then also reads
# the versions of the rooms it has sockets for every LIVE_WATCH_SECONDS, which carries
# the changes made by the Celery worker and beat (games/live_watch.py).
# The Redis layer is channels_redis' with a pool that waits for a free connection
# instead of refusing one, and dropped notices logged at WARNING and counted
# (api/channel_layer.py; docs/operations/configuration.md).
CHANNEL_LAYERS = {
    "default": (
        {
            "BACKEND": "api.channel_layer.SizedRedisChannelLayer",
            "CONFIG": {
                # A socket's consumer waits for its next notice with BZPOPMIN, which Redis
                # answers after channels_redis' `brpop_timeout` (5 s) when nothing came;
                # redis-py's own read timeout (5 s since redis-py 8) would end that wait
                # first and close every socket quiet for 5 s.
                "hosts": [{"address": env_str("CHANNELS_REDIS_URL", REDIS_URL), "socket_timeout": 15}],
                "prefix": env_str("CHANNELS_PREFIX", "asgi"),
                # Redis connections per process (per event loop); a command beyond them
                # waits this many seconds for one to come free.
                "pool_size": env_int("CHANNELS_REDIS_POOL_SIZE", 100),
                "pool_timeout": float(env_str("CHANNELS_REDIS_POOL_TIMEOUT", "10")),
                # Notices waiting for one socket process (all its sockets share one Redis
                # channel), and for one socket inside it; beyond, a notice is dropped.
                "capacity": env_int("CHANNELS_CAPACITY", 1000),
            },
        }
        if env_str("CHANNELS_REDIS_URL", REDIS_URL)
        else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    )
}
LIVE_WATCH_SECONDS = float(env_str("LIVE_WATCH_SECONDS", "0.5"))
# A room socket answers a ping from the process's record of its room when that was
# confirmed (read, or announced) within this many seconds (api/room_versions.py).
LIVE_PING_FRESH_SECONDS = float(env_str("LIVE_PING_FRESH_SECONDS", "2"))
# Token buckets of socket messages (api/socket_limits.py): each socket, and each
# account's sockets in one process together (opening a socket counts too), may send
# BURST at once and RATE a second after; beyond, the socket is closed with 4429.
WS_SOCKET_RATE = float(env_str("WS_SOCKET_RATE", "1"))
WS_SOCKET_BURST = float(env_str("WS_SOCKET_BURST", "10"))
WS_ACCOUNT_RATE = float(env_str("WS_ACCOUNT_RATE", "5"))
WS_ACCOUNT_BURST = float(env_str("WS_ACCOUNT_BURST", "50"))
# Moves over a room socket are HTTP requests, throttled as HTTP's are; besides, a socket
# may send BURST at once and RATE a second after (HTTP's default per-user rate), beyond
# which it is a flood, closed with 4429.
WS_ACTION_RATE = float(env_str("WS_ACTION_RATE", "20"))
WS_ACTION_BURST = float(env_str("WS_ACTION_BURST", "40"))
# A socket process is overloaded (api/socket_limits.py, HandshakeGate) when more than
# WS_HANDSHAKES_WAITING_MAX handshakes wait to be served (their credentials and room
# read), or when one is not served within WS_ACCEPT_BUDGET_SECONDS (under daphne's
# --websocket_connect_timeout, 5 s, past which it would answer 403): such a socket is
# accepted and closed with 1013, "try again later".
WS_HANDSHAKES_WAITING_MAX = env_int("WS_HANDSHAKES_WAITING_MAX", 100)
WS_ACCEPT_BUDGET_SECONDS = float(env_str("WS_ACCEPT_BUDGET_SECONDS", "3"))
# Sockets one account may hold open on every socket process together (in Redis); one
# more is closed with 4409.
WS_ACCOUNT_SOCKETS_MAX = env_int("WS_ACCOUNT_SOCKETS_MAX", 30)
# Threads of a socket process serving moves (api/socket_moves.py), each with its own
# database connection: as many as moves that may wait on the database at once.
SOCKET_MOVE_THREADS = env_int("SOCKET_MOVE_THREADS", 4)
# Threads of a socket process for everything else its sockets read or write in the
# database (credentials, rooms, presence: api/db_async.py), each with its own connection.
SOCKET_DB_THREADS = env_int("SOCKET_DB_THREADS", 4)

# Frontends on other sites (`https://app.example`, exactly scheme, host and port): CORS
# answers for the API, and their pages' session sockets are trusted too (api/ws_auth.py).
# No credentials: such a frontend signs in with a token, the site's cookies stay its own.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", [])
# The API, and the OAuth2 endpoints a browser app calls itself (the token and its
# revocation); never the authorize page, which is the site's own.
CORS_URLS_REGEX = r"^/(api/|oauth/(token|revoke_token)/)"
CORS_ALLOW_HEADERS = (
    "accept",
    "authorization",
    "content-type",
    "idempotency-key",
    # A poll that names the answer it holds (api/conditional.py); no header a browser
    # sends without asking.
    "if-none-match",
    "x-csrftoken",
)
# The headers of the API's answers a client acts on, which a cross-origin script may
# read only when they are listed (api/middleware.py writes them on errors; `Link` names
# the next page of the event log and the hand summaries; `Location` what a 201 made;
# `ETag` what a poll sends back as `If-None-Match`).
CORS_EXPOSE_HEADERS = ("Retry-After", "WWW-Authenticate", "Allow", "Link", "Location", "ETag")

# -- security (production: DEBUG=0) ------------------------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# The Content-Security-Policy of every page (docs/operations/security.md): scripts only
# with the request's nonce (and what they load), no inline style or script without it,
# nothing framing the site, forms posted only to it. `'self'` in connect-src covers the
# site's own ws:/wss: sockets (CSP level 3). The documentation site at /docs/ has a policy
# of its own (core.csp.DOCS_POLICY), the authorize page a form-action that names the app.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.NONCE, CSP.STRICT_DYNAMIC],
    "style-src": [CSP.SELF, CSP.NONCE],
    # The invite's QR code is an SVG the page makes (a blob: URL); the authenticator app's
    # QR code comes from the API as a data: URL, and Swagger UI's icons are data: too.
    "img-src": [CSP.SELF, "blob:", "data:", *env_list("CSP_IMG_SRC", [])],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF, *env_list("CSP_CONNECT_SRC", [])],
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "frame-src": [CSP.NONE],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# -- REST framework ----------------------------------------------------------------
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        # Apps' OAuth2 access tokens and players' personal tokens, within their scopes.
        "grants.authentication.BearerAuthentication",
        "accounts.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # orjson writes the same compact UTF-8 JSON as DRF's own renderer, several times faster.
    "DEFAULT_RENDERER_CLASSES": ["drf_orjson_renderer.renderers.ORJSONRenderer"],
    # Keys that are not strings become strings, as the standard library writes them.
    "ORJSON_RENDERER_OPTIONS": (orjson.OPT_NON_STR_KEYS,),
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.SingleRendererNegotiation",
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "drf_standardized_errors.handler.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "api.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.AnonRateThrottle",
        "api.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("THROTTLE_ANON", "60/min"),
        "user": env_str("THROTTLE_USER", "1200/min"),
        "auth": env_str("THROTTLE_AUTH", "30/min"),
        # Failed sign-ins to one account from addresses that never signed in to it, and
        # from one address to one account (api/sign_in_limits.py).
        "auth_account": env_str("THROTTLE_AUTH_ACCOUNT", "10/min"),
        "auth_account_address": env_str("THROTTLE_AUTH_ACCOUNT_ADDRESS", "5/min"),
        # `PUT client_seed` per seat.
        "client_seed": env_str("THROTTLE_CLIENT_SEED", "10/min"),
        # Asking for a password-reset link, per address (the cap per e-mail address is
        # PASSWORD_RESET_ADDRESS_MAX); changing one's password, per account: a stolen
        # token cannot try current passwords quickly.
        "password_reset": env_str("THROTTLE_PASSWORD_RESET", "5/hour"),
        "password": env_str("THROTTLE_PASSWORD", "10/hour"),
        # Table talk: lines one person says (anywhere), and lines said at one table by
        # everyone together (talk; docs/talk/table-talk.md).
        "chat": env_str("THROTTLE_CHAT", "20/min"),
        "chat_room": env_str("THROTTLE_CHAT_ROOM", "60/min"),
        # Reports of people to the moderators, per account.
        "report": env_str("THROTTLE_REPORT", "10/hour"),
    },
    # How many proxies of ours append to X-Forwarded-For. DRF's default (None) would take
    # the header as the client sends it, so anyone could pick a new identity per request
    # and escape every per-address limit; 0 trusts no header and counts REMOTE_ADDR.
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# An address that signed in to an account is exempt from that account's limit on
# addresses it never signed in from, for this long after (api/sign_in_limits.py).
THROTTLE_AUTH_KNOWN_DAYS = env_int("THROTTLE_AUTH_KNOWN_DAYS", 90)
if env_bool("DEBUG_BROWSABLE_API", False):
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append("api.browsable_api.BrowsableAPIRenderer")

DRF_STANDARDIZED_ERRORS = {
    "ENABLE_IN_DEBUG_FOR_UNHANDLED_EXCEPTIONS": True,
    "EXCEPTION_HANDLER_CLASS": "api.errors.ApiExceptionHandler",
}

# -- limits on what the API accepts (docs/api/limits.md) ---------------------------
API_PATH_PREFIX = "/api/"
# Below the ~4 KB request line front servers (gunicorn, nginx) allow, so a client
# reads the API's own 414 rather than theirs.
API_MAX_URI_CHARS = 2048
# Any JSON body; the actions endpoint, the one players hit all game, takes far less
# (a legal action is under 1 KB).
API_MAX_BODY_BYTES = 64 * 1024
API_MAX_ACTION_BYTES = 4 * 1024
# No body of the API nests deeper than 4; the rest is headroom.
API_MAX_JSON_DEPTH = 10

SPECTACULAR_SETTINGS = {
    "TITLE": "Trick-taking game server",
    # OpenAPI 3.1: its schemas are JSON Schema 2020-12, so null is a type (`["string",
    # "null"]`) that strict validators and generators read as meant.
    "OAS_VERSION": "3.1.0",
    "VERSION": "1.0.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # The document describes the API under /api/v1/, not itself.
    "SERVE_INCLUDE_SCHEMA": False,
    # One name for an enum drf-spectacular would otherwise name after each field.
    "ENUM_NAME_OVERRIDES": {
        "PublicKeyCredentialTypeEnum": ["public-key"],
    },
    # `<id:…>` (core/ids.py): a whole number a 64-bit signed column holds; beyond, 404.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.add_error_codes",
        "api.game_schemas.add_game_components",
        "api.event_schemas.add_event_components",
        "api.answer_schemas.type_answers",
        "api.schema.strict_requests",
        "api.schema.room_links",
    ],
}

# -- apps acting for players (docs/third-party-apps.md) ----------------------------
# OAuth2 authorization code with PKCE (S256 only) for the apps a moderator registers in
# the admin or a person registers from their settings (`me/apps/made`); the scopes are
# grants.scopes'. Every RFC 9700 recommendation is on: no implicit or password grant, no
# `plain` PKCE, no token in a query string, `iss` in the authorization answer, and only
# SHA-256 checksums of tokens stored.
OAUTH2_PROVIDER = {
    "SCOPES": GRANT_SCOPES,
    "DEFAULT_SCOPES": ["read"],
    # An app a person registered asks only for the scopes it was registered with.
    "SCOPES_BACKEND_CLASS": "grants.app_scopes.AppScopes",
    # The toolkit's, with a grace window for a replayed refresh token (below).
    "OAUTH2_VALIDATOR_CLASS": "grants.oauth2_validator.OAuth2Validator",
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "REFRESH_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_REFRESH_TOKEN_SECONDS", 60 * 24 * 3600),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    # The toolkit's own grace period stays off: it answers a replay with stored tokens,
    # which checksum storage does not keep (grants.oauth2_validator keeps a window of its
    # own, OAUTH_REFRESH_REPLAY_GRACE_SECONDS).
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    # Schemes a redirect may use to any host, besides https. Native apps' redirects
    # need none of this: a private-use scheme (`com.example.app:/cb`) and `http` to
    # 127.0.0.1 or [::1] on any port are allowed always (RFC 8252, grants.redirect_uris);
    # development adds `http` to any host.
    "ALLOWED_REDIRECT_URI_SCHEMES": env_list("OAUTH_REDIRECT_SCHEMES", ["http", "https"] if DEBUG else ["https"]),
}
# A rotated-out refresh token replayed within this many seconds (an answer lost on the
# network) gets the same answer again; later, or once the new one was used, the replay
# revokes every token of that sign-in (grants.oauth2_validator).
OAUTH_REFRESH_REPLAY_GRACE_SECONDS = env_int("OAUTH_REFRESH_REPLAY_GRACE_SECONDS", 120)
# Apps a person may register themselves (`me/apps/made`), and how often.
OAUTH_APPS_PER_PERSON = env_int("OAUTH_APPS_PER_PERSON", 10)
OAUTH_APP_REGISTRATION_RATE = env_str("THROTTLE_APP_REGISTRATION", "10/day")
# Where the authorize page sends a person who is not signed in on the site.
LOGIN_URL = "oauth-login"

# -- Celery ------------------------------------------------------------------------
# Embedded default: kombu's filesystem transport, which needs no server.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL or "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem"):
    # kombu's own lets the worker read a message half written, and die of it.
    CELERY_BROKER_TRANSPORT = "config.filesystem_broker:Transport"
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 600)
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {
        "data_folder_in": str(VAR_DIR / "broker"),
        "data_folder_out": str(VAR_DIR / "broker"),
        "processed_folder": str(VAR_DIR / "broker-processed"),
        # kombu's default is ./control, which would litter the directory run.sh starts in.
        "control_folder": str(VAR_DIR / "broker-control"),
        "store_processed": False,
        # The worker looks for new messages this often (kombu's default is 1 s, which
        # would add up to a second to every computer player's move).
        "polling_interval": 0.2,
    }
    if CELERY_BROKER_URL.startswith("filesystem")
    # Redis gives a task that no worker acknowledged within this many seconds to a
    # worker again, so the tasks a killed worker had reserved come back this late (the
    # sweeper acts on overdue rounds meanwhile, and a task that comes back finds its
    # work done and does nothing: it checks the version and the clock under the
    # room lock). kombu's default is an hour; a task held for its ETA longer than this
    # would come back while still waiting, so GAME_TASK_HORIZON_SECONDS stays below it.
    else {
        "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
        # Before every key the broker writes, so that deployments (or test runs) sharing
        # one Redis database never take each other's tasks; as CHANNELS_PREFIX for notices.
        "global_keyprefix": env_str("CELERY_KEY_PREFIX", ""),
    }
)
# Players' clocks have a queue of their own (games.services.clock): a turn's deadline
# task must not wait behind computer players' moves, sweeps and notices. A worker
# started without -Q takes both queues; a deployment runs its workers with `-Q celery`
# and one or more clock workers with `-Q clock` (deploy/Procfile), so that nothing
# slower ever holds up a clock. GAME_CLOCK_QUEUE="" sends the clocks' tasks to the
# default queue.
GAME_CLOCK_QUEUE = env_str("GAME_CLOCK_QUEUE", "clock")
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name) for name in dict.fromkeys(["celery", GAME_CLOCK_QUEUE]) if name
)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-rounds": {
        "task": "games.sweep_overdue",
        "schedule": float(env_str("SWEEP_SECONDS", "5")),
        "options": {"expires": 30},
    },
    "erase-closed-accounts": {
        "task": "privacy.erase_closed_accounts",
        "schedule": float(env_str("ERASE_CLOSED_SECONDS", "3600")),
        "options": {"expires": 600},
    },
    "lift-ended-bans": {
        "task": "moderation.lift_ended_bans",
        "schedule": float(env_str("LIFT_BANS_SECONDS", "60")),
        "options": {"expires": 60},
    },
    "notify-waiting-turns": {
        "task": "notifications.notify_waiting_turns",
        "schedule": float(env_str("NOTIFY_SCAN_SECONDS", "30")),
        "options": {"expires": float(env_str("NOTIFY_SCAN_SECONDS", "30"))},
    },
}

# -- game timing -------------------------------------------------------------------
# Computer players move this long after their turn starts (0: at once, in the request).
BOT_DELAY_SECONDS = float(env_str("BOT_DELAY_SECONDS", "1.0"))
# Rated matches a player needs in a game before the leaderboard lists them.
LEADERBOARD_MIN_MATCHES = env_int("LEADERBOARD_MIN_MATCHES", 5)
# Schedule deadline tasks after each change; the sweeper alone would also do, slower.
GAME_TASKS_ENABLED = env_bool("GAME_TASKS_ENABLED", True)
# Only for due times at most this far ahead (games.timing.task_horizon): at most half
# the visibility timeout, so a task waiting for its ETA is never handed out twice; a
# shorter horizon holds fewer tasks in the workers' memory.
GAME_TASK_HORIZON_SECONDS = min(
    env_int("GAME_TASK_HORIZON_SECONDS", CELERY_VISIBILITY_TIMEOUT // 2), CELERY_VISIBILITY_TIMEOUT // 2
)
# How often beat queues the tasks of the rounds whose due time has come within the
# horizon since (games.services.clock.due_tasks_queue): well under the horizon, so that
# each is queued before it is due and the sweeper is left only what was lost.
GAME_TASK_PICKUP_SECONDS = float(
    env_str("GAME_TASK_PICKUP_SECONDS", str(max(1.0, min(60.0, GAME_TASK_HORIZON_SECONDS / 5))))
)
CELERY_BEAT_SCHEDULE["queue-due-tasks"] = {
    "task": "games.queue_due_tasks",
    "schedule": GAME_TASK_PICKUP_SECONDS,
    "options": {"expires": 30},
}
# games.store reads and writes tables through portable ORM queries on any database, not
# only off PostgreSQL (tests compare the two paths).
TABLE_STORE_PORTABLE = False
# games.store checks at each flush that every field changed was named to `save`, from a
# copy of each row taken when it was read (the tests turn it on; it costs a deep copy).
TABLE_STORE_CHECK_WRITES = False

# -- uptime: the heartbeat of the processes serving the API (uptime/heartbeat.py) ----
# Each such process beats every eighth of this once it has served an answer, and asks
# itself after this long when it has served none; 0 turns the heartbeat and outage
# accounting off.
UPTIME_HEARTBEAT_SECONDS = float(env_str("UPTIME_HEARTBEAT_SECONDS", "2"))
# No beat for longer than this is an outage, until the API answers again: the clocks of
# the turns it overlapped are extended by it, and no clock runs out while it lasts.
UPTIME_OUTAGE_AFTER_SECONDS = float(env_str("UPTIME_OUTAGE_AFTER_SECONDS", "6"))
# After an outage, every turn it overlapped has at least this much serving time from the
# first answer served (the whole clock when shorter) before it may run out.
UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS = float(env_str("UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS", "15"))
# The ASGI application beats too (development's runserver serves the API over ASGI;
# production's daphne serves only the sockets, so it must not speak for the API).
UPTIME_ASGI_BEATS = env_bool("UPTIME_ASGI_BEATS", False)

# -- notifications when a player is away (docs/notifications.md) ------------------
# A turn is told once it has waited this long with no ws/me/ socket of its player open.
NOTIFY_AFTER_SECONDS = env_int("NOTIFY_AFTER_SECONDS", 60)
# On turn clocks of an hour or more, one reminder per turn once the time left falls under
# a quarter of the clock, at most this long (a one-day clock: 6 h before; one hour: 15
# min); 0: no reminders (notifications.services.reminders).
NOTIFY_REMINDER_BEFORE_SECONDS = env_int("NOTIFY_REMINDER_BEFORE_SECONDS", 6 * 3600)
# An open ws/me/ socket says so this often; one unheard of for the TTL is gone.
NOTIFY_PRESENCE_REFRESH_SECONDS = float(env_str("NOTIFY_PRESENCE_REFRESH_SECONDS", "60"))
NOTIFY_PRESENCE_TTL_SECONDS = float(env_str("NOTIFY_PRESENCE_TTL_SECONDS", "150"))
# Web Push: `manage.py vapid_keys` prints a pair; without both, push is off.
# `/metrics` asks for this bearer token when it is set (docs/operations/metrics.md).
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
# Who runs this server, for push services to reach (a mailto: or https: URL).
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "")
PUSH_TIMEOUT_SECONDS = float(env_str("PUSH_TIMEOUT_SECONDS", "10"))
PUSH_SUBSCRIPTIONS_MAX = env_int("PUSH_SUBSCRIPTIONS_MAX", 10)
# Host names (and their subdomains) push endpoints may have; empty: any public host.
PUSH_ENDPOINT_HOSTS = env_list("PUSH_ENDPOINT_HOSTS", [])
# Tests only: endpoints on http://127.0.0.1 or localhost (a fake push service).
PUSH_ALLOW_LOOPBACK = env_bool("PUSH_ALLOW_LOOPBACK", False)
# E-mail: to the SMTP server EMAIL_HOST names; without one, in development written to
# files in EMAIL_FILE_PATH (`make run` sets it) or printed on the console, and not sent
# at all in production, where no mailer is defined (`check --deploy` refuses a console
# backend, which would lose every mail without a word).
MAILERS: dict[str, dict[str, Any]]
if env_str("EMAIL_HOST", ""):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": env_str("EMAIL_HOST", ""),
                "port": env_int("EMAIL_PORT", 587),
                "username": env_str("EMAIL_HOST_USER", ""),
                "password": env_str("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
                "timeout": env_int("EMAIL_TIMEOUT", 10),
            },
        }
    }
elif DEBUG and env_str("EMAIL_FILE_PATH", ""):
    # `make run`: each message a file in this folder, where a person (or a test) reads it.
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": env_str("EMAIL_FILE_PATH", "")},
        }
    }
elif DEBUG:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "webmaster@localhost")
# Notices go only to an address confirmed by the link mailed to it (double opt-in): how
# long such a link works, and how often one may be mailed to an account at most.
EMAIL_CONFIRMATION_MAX_AGE_SECONDS = env_int("EMAIL_CONFIRMATION_MAX_AGE_SECONDS", 3 * 24 * 3600)
EMAIL_CONFIRMATION_RESEND_SECONDS = env_int("EMAIL_CONFIRMATION_RESEND_SECONDS", 300)
# And at most this many links to one address (ignoring case) per this many seconds, from
# all accounts together: no one mails a stranger through many fresh accounts.
EMAIL_CONFIRMATION_ADDRESS_MAX = env_int("EMAIL_CONFIRMATION_ADDRESS_MAX", 3)
EMAIL_CONFIRMATION_ADDRESS_SECONDS = env_int("EMAIL_CONFIRMATION_ADDRESS_SECONDS", 24 * 3600)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django's own console handler (development) would print each of its lines a second
    # time beside the root's: runserver's every access line, for one.
    "filters": {"dropped_notices": {"()": "api.channel_layer.DroppedNoticeLog"}},
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # Its only INFO line is a notice dropped over capacity, which the filter makes a
        # WARNING and counts: kept at INFO whatever LOG_LEVEL, or the line is never made.
        "channels_redis.core": {"level": "INFO", "filters": ["dropped_notices"]},
    },
}

# A password-reset link works once, for this long (accounts/passwords.py). Requests for
# one are limited per requester (the `password_reset` throttle) and per address: at most
# PASSWORD_RESET_ADDRESS_MAX per PASSWORD_RESET_ADDRESS_SECONDS, from everyone together.
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_SECONDS", 3600)
PASSWORD_RESET_ADDRESS_MAX = env_int("PASSWORD_RESET_ADDRESS_MAX", 3)
PASSWORD_RESET_ADDRESS_SECONDS = env_int("PASSWORD_RESET_ADDRESS_SECONDS", 3600)
# A display name changes at most once per this many days (accounts.services).
DISPLAY_NAME_CHANGE_DAYS = env_int("DISPLAY_NAME_CHANGE_DAYS", 7)
# Staff sign in to the admin (and any form sign-in) only with two-step sign-in turned on.
ADMIN_SECOND_FACTOR_REQUIRED = env_bool("ADMIN_SECOND_FACTOR_REQUIRED", False)
# Passkeys (accounts/passkeys.py): the relying party is WEBAUTHN_RP_ID (the site's domain,
# `example.com`, when the API is served from a subdomain of it), else the host a request
# names; answers may come from that host's own origin, the CORS origins, and
# WEBAUTHN_ORIGINS (a native app's, `android:apk-key-hash:…`). A ceremony's challenge
# works once, for WEBAUTHN_CEREMONY_SECONDS.
WEBAUTHN_RP_ID = env_str("WEBAUTHN_RP_ID", "")
WEBAUTHN_ORIGINS = env_list("WEBAUTHN_ORIGINS", [])
WEBAUTHN_CEREMONY_SECONDS = env_int("WEBAUTHN_CEREMONY_SECONDS", 300)
# Playbans (moderation/playbans.py): from the PLAYBAN_THRESHOLD-th rated match a person
# abandons within PLAYBAN_WINDOW_HOURS, each one brings a wait before the next rated
# table, the steps of PLAYBAN_MINUTES in turn.
PLAYBAN_THRESHOLD = env_int("PLAYBAN_THRESHOLD", 3)
PLAYBAN_WINDOW_HOURS = env_int("PLAYBAN_WINDOW_HOURS", 24)
PLAYBAN_MINUTES = [int(m) for m in env_list("PLAYBAN_MINUTES", ["15", "60", "1440"])]
# A closed account is restored by signing in within this many days; after that its
# personal data is erased for good (privacy.closure, checked hourly).
ACCOUNT_CLOSURE_GRACE_DAYS = env_int("ACCOUNT_CLOSURE_GRACE_DAYS", 7)
# Download my data (privacy/exports.py): at most one request per interval; the mailed
# link works once, for this many days.
EXPORT_INTERVAL_SECONDS = env_int("EXPORT_INTERVAL_SECONDS", 3600)
EXPORT_LINK_DAYS = env_int("EXPORT_LINK_DAYS", 7)
