"""The store's inventory of fiscal periods per company: documents by kind, and periods with XBRL facts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
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


@dataclass(frozen=True, slots=True)
class DatedMatch:
    """A stored document dated near a day a question names: by its event (``period_end`` of an 8-K)
    or filing date; ``distance`` is the days between."""

    document_id: int
    ticker: str | None
    kind: str
    title: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    period_end: date | None
    filed: date | None
    distance: int


def documents_dated(
    conn: psycopg.Connection[Any], ticker: str | None, kinds: Sequence[str], day: date, days: int
) -> list[DatedMatch]:
    """The documents of ``kinds`` (of ``ticker``, else of any company) dated within ``days`` of
    ``day``, nearest first: those at the nearest distance are the document the question means."""
    rows = conn.execute(
        read_sql("queries/documents_dated.sql"),
        {"ticker": ticker, "kinds": list(kinds), "day": day, "days": days},
    ).fetchall()
    matches = [DatedMatch(int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7], int(r[8])) for r in rows]
    return [m for m in matches if m.distance == matches[0].distance]
