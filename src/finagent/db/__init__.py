"""The PostgreSQL + pgvector store: embedded or external server, pool, migrations."""

from finagent.db.database import Database, open_database

__all__ = ["Database", "open_database"]
