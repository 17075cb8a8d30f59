"""Numbered SQL migrations from sql/, applied once each, in order, under an advisory lock."""

from __future__ import annotations

import re

import psycopg

from finagent.resources import resource_dir

_MIGRATION_FILE = re.compile(r"^(\d{3})_[\w-]+\.sql$")
# Any constant shared by all finagent processes: serialises concurrent migrators.
_ADVISORY_LOCK_KEY = 7_245_001


def migration_files() -> list[tuple[int, str]]:
    """(version, filename) of every migration shipped, sorted by version."""
    found = []
    for path in resource_dir("sql").iterdir():
        match = _MIGRATION_FILE.match(path.name)
        if match:
            found.append((int(match.group(1)), path.name))
    return sorted(found)


def apply_migrations(conn: psycopg.Connection, up_to: int | None = None) -> list[str]:
    """Apply pending migrations (those numbered <= ``up_to`` only, when given: a store as an older
    release left it); return the filenames applied (empty when up to date)."""
    applied_now: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_ADVISORY_LOCK_KEY,))
        conn.execute(
            """CREATE TABLE IF NOT EXISTS schema_migrations (
                   version integer PRIMARY KEY,
                   filename text NOT NULL,
                   applied_at timestamptz NOT NULL DEFAULT now())"""
        )
        done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        for version, filename in migration_files():
            if version in done or (up_to is not None and version > up_to):
                continue
            sql_text = (resource_dir("sql") / filename).read_text(encoding="utf-8")
            conn.execute(sql_text.encode())  # bytes: no client-side placeholder parsing
            conn.execute(
                "INSERT INTO schema_migrations (version, filename) VALUES (%s, %s)", (version, filename)
            )
            applied_now.append(filename)
    return applied_now
