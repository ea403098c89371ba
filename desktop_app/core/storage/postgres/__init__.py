"""A library in PostgreSQL with pgvector, behind the same interface as the SQLite + hnswlib folder.

Nothing here is imported unless a library is opened by a postgresql:// address (the `postgres` extra
installs psycopg and pgvector's Python package), so the SQLite default starts no slower.
"""

URL_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(location: str | None) -> bool:
    return bool(location) and location.strip().lower().startswith(URL_SCHEMES)
