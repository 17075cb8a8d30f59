"""The store's inventory of fiscal periods per company: documents by kind, and periods with XBRL facts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import psycopg

from finagent.db.facts import fact_periods
from finagent.finance.periods.spec import FACTS_KIND, AvailablePeriod
from finagent.resources import read_sql


def _periods_by_ticker(
    rows: Iterable[Sequence[Any]], tickers: Sequence[str]
) -> dict[str, list[AvailablePeriod]]:
    """Rows of ``available_periods.sql``; an eighth column, when present, is the filing date."""
    out: dict[str, list[AvailablePeriod]] = {t: [] for t in tickers}
    for ticker, kind, fiscal_year, fiscal_quarter, first_end, last_end, documents, *rest in rows:
        filed = rest[0] if rest else None
        out.setdefault(ticker, []).append(
            AvailablePeriod(
                ticker=ticker,
                kind=kind,
                fiscal_year=int(fiscal_year),
                fiscal_quarter=None if fiscal_quarter is None else int(fiscal_quarter),
                period_end=last_end,
                documents=int(documents),
                first_period_end=first_end,
                filed=filed.date() if isinstance(filed, datetime) else filed,
            )
        )
    return out


def _clean_tickers(tickers: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(t.strip().upper() for t in tickers if t and t.strip()))


def load_available_periods(
    conn: psycopg.Connection[Any], tickers: Sequence[str]
) -> dict[str, list[AvailablePeriod]]:
    """The store's inventory per ticker (every requested ticker is a key, maybe with no periods)."""
    wanted = _clean_tickers(tickers)
    if not wanted:
        return {}
    rows = conn.execute(read_sql("queries/available_periods.sql"), {"tickers": wanted}).fetchall()
    return _periods_by_ticker(rows, wanted)


def load_inventory(conn: psycopg.Connection[Any], tickers: Sequence[str]) -> dict[str, list[AvailablePeriod]]:
    """What the store holds per company: its documents, plus the fiscal periods its XBRL facts report
    (a 10-K's comparative years are answerable figures even without their own 10-K)."""
    available = load_available_periods(conn, tickers)
    for period in fact_periods(conn, _clean_tickers(tickers)):
        available.setdefault(period.ticker, []).append(
            AvailablePeriod(
                ticker=period.ticker,
                kind=FACTS_KIND,
                fiscal_year=period.fiscal_year,
                fiscal_quarter=period.fiscal_quarter,
                period_end=period.last_period_end,
                documents=0,
                first_period_end=period.first_period_end,
            )
        )
    return available


async def aload_available_periods(
    aconn: psycopg.AsyncConnection[Any], tickers: Sequence[str]
) -> dict[str, list[AvailablePeriod]]:
    """Async twin of ``load_available_periods`` (same SQL) for async graph nodes."""
    wanted = _clean_tickers(tickers)
    if not wanted:
        return {}
    cursor = await aconn.execute(read_sql("queries/available_periods.sql"), {"tickers": wanted})
    rows = await cursor.fetchall()
    return _periods_by_ticker(rows, wanted)
