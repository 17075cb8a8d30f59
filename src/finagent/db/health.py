"""What a store is, read without changing it: for `finagent doctor`, which must not migrate or write."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from finagent.db.migrate import migration_files
from finagent.resources import read_sql


@dataclass(frozen=True)
class StoreHealth:
    """The server, its pgvector, the migrations applied and shipped, and the stored vectors' size."""

    server_version: str
    pgvector: str | None
    applied: tuple[int, ...]
    shipped: tuple[int, ...]
    embedding_dim: int | None  # None: no chunks table yet
    documents: int

    @property
    def pending(self) -> tuple[int, ...]:
        return tuple(version for version in self.shipped if version not in self.applied)


def store_health(conn: psycopg.Connection) -> StoreHealth:
    """Read the store's state in one short, read-only look."""
    row = conn.execute(read_sql("queries/store_health.sql")).fetchone()
    assert row is not None
    server_version, pgvector, has_migrations, has_documents, typmod = row
    applied: tuple[int, ...] = ()
    if has_migrations:
        applied = tuple(r[0] for r in conn.execute(read_sql("queries/applied_migrations.sql")))
    documents = 0
    if has_documents:
        count = conn.execute(read_sql("queries/ready_documents.sql")).fetchone()
        documents = int(count[0]) if count else 0
    return StoreHealth(
        server_version=str(server_version),
        pgvector=pgvector,
        applied=applied,
        shipped=tuple(version for version, _ in migration_files()),
        embedding_dim=int(typmod) if typmod is not None and typmod > 0 else None,
        documents=documents,
    )
