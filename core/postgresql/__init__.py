"""Django's PostgreSQL backend with a cheaper health check (see base.py)."""
