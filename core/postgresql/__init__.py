"""Django's PostgreSQL backend with a cheaper health check and a faster JSON writer (see base.py)."""
