"""Settings for the test suite: the real PostgreSQL, fast hashing, no HTTPS redirects."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gameserver")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
# Whole matches over HTTP send thousands of requests a minute; throttling has its own test.
for scope in ("USER", "ANON", "AUTH"):
    os.environ.setdefault(f"THROTTLE_{scope}", "1000000/min")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
