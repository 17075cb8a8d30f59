"""News documents of the store, newest first (the news tool's recorded source)."""

from __future__ import annotations

from datetime import date
from typing import Any

import psycopg

from finagent.resources import read_sql


def recent_news(
    conn: psycopg.Connection[Any], ticker: str, since: date | None, limit: int
) -> list[tuple[Any, ...]]:
    """(document id, title, published, source uri, text) of a ticker's newest news documents.

    Runs inside a savepoint, so a failure leaves the caller's connection usable.
    """
    with conn.transaction(), conn.cursor() as cur:
        cur.execute(read_sql("queries/recent_news.sql"), {"ticker": ticker, "since": since, "limit": limit})
        return [tuple(row) for row in cur.fetchall()]


def without_dated(
    conn: psycopg.Connection[Any], kind: str, tickers: list[str], start: date, end: date
) -> list[tuple[str, date | None, date | None]]:
    """(ticker, first day, last day of its stored documents of ``kind``) of the companies with no such
    document (a news article, a call transcript) published from ``start`` to ``end``."""
    params = {"kind": kind, "tickers": tickers, "start": start, "end": end}
    rows = conn.execute(read_sql("queries/dated_outside.sql"), params).fetchall()
    return [(str(r[0]), r[1], r[2]) for r in rows]
