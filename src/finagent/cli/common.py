"""Helpers shared by CLI commands: opening the store with a status line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

from finagent.cli.console import err_console
from finagent.db import Database, open_database
from finagent.errors import FinagentError
from finagent.settings import get_settings


@contextmanager
def store(database: str | None = None, *, fresh: bool = False) -> Iterator[Database]:
    """Open the configured store (or another database on its server) for one command, then close it."""
    settings = get_settings()
    where = "external database" if settings.database_url else "embedded PostgreSQL"
    with err_console.status(f"opening {where}…"):
        db = open_database(settings, database=database, fresh=fresh)
    try:
        yield db
    finally:
        db.close()


def parse_date_option(value: str | None, option: str) -> date | None:
    """A YYYY-MM-DD command-line value, or a clear error naming the option."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise FinagentError(f"{option} must be a date like 2023-06-30, got '{value}'") from exc
