"""The computed opening of a question that ranks the parts of a whole ("which region fell the most?"):
the parts are read from the passages' statement tables (``finance.compute.part_blocks``), ranked by
code, and the sentence names the winner, its figure and the others, citing the passage; the shares
and changes are calculator results, so the answer's check finds every number it states."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from finagent.agent.answer.wording import joined
from finagent.agent.answer.wording import name as display_name
from finagent.finance.ask.parts_ask import PartsAsk
from finagent.finance.check.scope import item_calendar
from finagent.finance.compute.part_blocks import (
    Part,
    PartsBlock,
    block_score,
    blocks_for,
    kind_named,
    named_block,
    ranked,
    sums_segments,
    totals_for,
    whole_key,
)
from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.read.tables import PeriodTable, grouped_tables, parse_tables, transposed_tables
from finagent.finance.words import SCALE_NAMES

_MAX_LISTED = 6


@dataclass(frozen=True, slots=True)
class PartsOpening:
    """The sentences, the calculations that back their computed numbers, and the figures the question
    itself gives (a share asked about)."""

    text: str
    calculations: list[dict[str, Any]]
    givens: str = ""


def parts_opening(
    ask: PartsAsk,
    items: Sequence[dict[str, Any]],
    wanted: dict[str, list[tuple[int, int | None]]],
    calendars: dict[str, Any],
    names: dict[str, list[str]],
) -> PartsOpening | None:
    """The ranking's sentences from the best block of parts in the passages (None: no table of the
    asked company and period has parts adding up to a whole the question names)."""
    found = _best_block(ask, items, wanted, calendars)
    if found is None:
        return None
    block, item = found
    order = ranked(block, ask)
    if not order:
        return None
    ticker = str(item.get("ticker") or "")
    label = str(item["label"])
    text = _sentences(ask, block, order, display_name(ticker, names), label)
    givens = f"{ask.share_over:g}%" if ask.share_over is not None else ""
    return PartsOpening(text, _calculations(ask, block, order, ticker, label), givens)


def _best_block(
    ask: PartsAsk,
    items: Sequence[dict[str, Any]],
    wanted: dict[str, list[tuple[int, int | None]]],
    calendars: dict[str, Any],
) -> tuple[PartsBlock, dict[str, Any]] | None:
    """The block whose whole the question names best, then whose passage names the parts' kind
    ("geographic", "segment"), then the finest breakdown (segments before "products and services"),
    then the best-ranked passage."""
    found = _qualifying(ask, items, wanted, calendars)
    if not found:
        return None
    _, block, item = max(found, key=lambda f: f[0])
    return block, item


def parts_passages(
    ask: PartsAsk,
    items: Sequence[dict[str, Any]],
    wanted: dict[str, list[tuple[int, int | None]]],
    calendars: dict[str, Any],
) -> set[int]:
    """The chunk ids of the passages holding a block of the asked parts that adds up to the whole."""
    return {int(item["chunk_id"]) for _, _, item in _qualifying(ask, items, wanted, calendars)}


def _qualifying(
    ask: PartsAsk,
    items: Sequence[dict[str, Any]],
    wanted: dict[str, list[tuple[int, int | None]]],
    calendars: dict[str, Any],
) -> list[tuple[tuple[int, int, int, int], PartsBlock, dict[str, Any]]]:
    """Every block of the asked parts, with its rank key. A block whose total is below the largest
    value its whole takes in the passages for that period breaks down a part (one segment's revenue
    by line of business), not the company's, unless it is the segments' own total ("Reportable
    segment net revenues", which leaves out corporate items)."""
    found: list[tuple[int, dict[str, Any], PartsBlock]] = []
    largest: dict[tuple[str, str], Decimal] = {}
    for rank, item in enumerate(items):
        for table, calendar in _tables(item, calendars):
            periods = wanted.get(str(item.get("ticker")), [])
            found += [(rank, item, block) for block in _blocks(ask, table, calendar, periods)]
            for whole, period, value in totals_for(table, calendar, periods):
                largest[(whole, period)] = max(largest.get((whole, period), value), value)
    kept = []
    for rank, item, block in found:
        score = block_score(block, ask)
        kind = kind_named(ask.noun, str(item.get("text") or ""), [p.label for p in block.parts])
        if not score or not kind or (ask.by == "change" and block.prior_total is None):
            continue
        company_total = largest.get((whole_key(block.whole), block.period.label), abs(block.total))
        if not ask.named and not sums_segments(block) and abs(block.total) < company_total * Decimal("0.99"):
            continue
        kept.append(((score, kind, len(block.parts), -rank), block, item))
    return kept


def _tables(item: dict[str, Any], calendars: dict[str, Any]) -> list[tuple[PeriodTable, FiscalCalendar]]:
    """A filing passage's tables, each with the calendar its columns are read in; a table of column
    groups (one per segment), or printed on its side (a column per region, a group of rows per year),
    also as one table per line item, whose rows are the segments or regions."""
    ticker, text = item.get("ticker"), str(item.get("text") or "")
    calendar = item_calendar(item, calendars) if ticker and "|" in text else None
    if calendar is None or item.get("kind") == "news":
        return []
    form = "10-K" if item.get("kind") in ("10-K", "annual_report") else item.get("kind")
    tables = parse_tables(text, form=form)
    turned = (*grouped_tables(tables), *transposed_tables(tables))
    return [(table, calendar) for table in (*tables, *turned)]


def _blocks(
    ask: PartsAsk, table: PeriodTable, calendar: FiscalCalendar, periods: list[tuple[int, int | None]]
) -> list[PartsBlock]:
    """The blocks of parts of one table in the asked company's periods (the parts a question names)."""
    if ask.named:
        named = named_block(table, calendar, periods, ask)
        return [named] if named is not None else []
    return blocks_for(table, calendar, periods)


def _amount(value: Decimal, scale: int | None) -> str:
    sign = "-" if value < 0 else ""
    number = f"{abs(value):,f}"
    word = SCALE_NAMES.get(scale or 0)
    if scale is None:
        return f"{sign}{number}"
    return f"{sign}${number} {word}" if word else f"{sign}${number}"


def _when(block: PartsBlock, prior: bool = False) -> str:
    period = block.prior_period if prior and block.prior_period else block.period
    if prior and block.prior_period is None:
        return "a year earlier"
    return f"at {period.label}" if period.duration == "instant" else f"in {period.label}"


def _whole(block: PartsBlock) -> str:
    whole = block.whole.strip(" :")
    return whole if re.search(r"[A-Z]{2}", whole) else whole.lower()


def _percent(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.1f}%" if signed else f"{value:.1f}%"


def _sentences(ask: PartsAsk, block: PartsBlock, order: list[Part], name: str, label: str) -> str:
    whole, when, scale = _whole(block), _when(block), block.scale
    top, rest = order[0], order[1:_MAX_LISTED]
    total = f"{whole} of {_amount(block.total, scale)}"
    if ask.by == "share":
        over = [p for p in order if (p.share or 0.0) > (ask.share_over or 0.0)]
        limit = f"{ask.share_over:g}%"
        if not over:
            return (
                f"No (computed from the table): no part makes up more than {limit} of {name}'s {total} "
                f"{when}; "
                f"the largest, {top.label}, makes up {_percent(top.share)} [{label}]."
            )
        listed = "; ".join(f"{p.label} {_amount(p.value, scale)} ({_percent(p.share)})" for p in over)
        each = "makes" if len(over) == 1 else "each make"
        return (
            f"Yes (computed from the table): {listed} {each} up more than {limit} of {name}'s {total} "
            f"{when} [{label}]."
        )
    if ask.by == "list":
        shown = [f"{p.label} {_amount(p.value, scale)} ({_percent(p.share)})" for p in order[:_MAX_LISTED]]
        return (
            f"{name} reports its {whole} in these {_plural(ask.noun)} {when}: {joined(shown)}, "
            f"of {_amount(block.total, scale)} in all (shares computed) [{label}]."
        )
    if ask.by == "change":
        change = top.change or 0.0
        size = "largest" if (change < 0) != ask.highest else "smallest"
        way = "decline" if change < 0 else "increase"
        first = (
            f"{top.label} had the {size} {way} in {name}'s {whole} {when}: {_amount(top.value, scale)}, "
            f"against {_amount(top.prior or Decimal(0), scale)} {_when(block, prior=True)}, "
            f"{_percent(change, True)} (computed) [{label}]."
        )
        others = ", ".join(f"{p.label} {_percent(p.change, True)}" for p in rest)
        return first + (f" The others: {others} (computed) [{label}]." if others else "")
    if ask.named:
        size = "highest" if ask.highest else "lowest"
        others = "; ".join(f"{p.label} {_amount(p.value, scale)}" for p in rest)
        return (
            f"{top.label} was the {size} of those named for {name} {when}: "
            f"{_amount(top.value, scale)}; {others} [{label}]."
        )
    if _kind_is_whole(ask.noun, whole):  # the largest liability of the liabilities
        size = "largest" if ask.highest else "smallest"
        first = (
            f"{top.label} was the {size} of {name}'s {whole} {when}: {_amount(top.value, scale)} of {total} "
            f"[{label}]."
        )
    else:  # the segment with the lowest net revenue
        size = "highest" if ask.highest else "lowest"
        first = (
            f"{top.label} had the {size} {whole} of {name}'s {_plural(ask.noun)} {when}: "
            f"{_amount(top.value, scale)}, "
            f"of {_amount(block.total, scale)} in all [{label}]."
        )
    others = ", ".join(f"{p.label} {_amount(p.value, scale)}" for p in rest)
    return first + (f" The others: {others} [{label}]." if others else "")


def _plural(noun: str) -> str:
    """ "region" -> "regions", "category" -> "categories"; a plural stays."""
    if noun.endswith("s"):
        return noun
    return f"{noun[:-1]}ies" if noun.endswith("y") else f"{noun}s"


def _kind_is_whole(noun: str, whole: str) -> bool:
    """The parts are of the whole's own kind (liabilities of total liabilities), not a breakdown of a
    line by segment or region."""
    return noun[:5].lower() in whole.lower() or not whole


def _calculations(
    ask: PartsAsk, block: PartsBlock, order: list[Part], ticker: str, label: str
) -> list[dict[str, Any]]:
    """The calculator's results the sentences state, in the form the answer's check reads."""
    period = block.period.label
    found: list[dict[str, Any]] = []
    for part in order:
        if ask.by == "change" and part.change is not None:
            found.append(
                {
                    "ticker": ticker,
                    "metric": f"{part.label} {_whole(block)}",
                    "from_period": block.prior_period.label if block.prior_period else "a year earlier",
                    "to_period": period,
                    "expression": part.change_expression,
                    "result": part.change,
                    "result_text": _percent(part.change, True),
                    "sources": [label],
                }
            )
        if ask.by in ("share", "list") and part.share is not None:
            found.append(
                {
                    "ticker": ticker,
                    "metric": f"{part.label} share of {_whole(block)}",
                    "period": period,
                    "unit": "percent",
                    "expression": part.share_expression,
                    "result": part.share,
                    "result_text": _percent(part.share),
                    "sources": [label],
                }
            )
    return found
