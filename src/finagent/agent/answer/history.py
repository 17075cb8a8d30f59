"""The computed opening of a long-history question (``finance.ask.long_history``): earliest against
latest with the calculator's change and CAGR, or for "ever" a yes or no decided over every period
held, naming the periods and values that decide it; the periods with no figure are named, never
filled in."""

from __future__ import annotations

from typing import Any

from finagent.agent.answer.wording import cite, counted, joined
from finagent.finance.ask.long_history import History, gap_runs, meeting
from finagent.finance.compute.compare import Cell
from finagent.finance.periods.period import FiscalPeriod

MAX_NAMED = 8
"""Periods that meet an "ever" test named one by one; more are counted, the first and last named."""


def history_sentences(facts: Any, history: History) -> tuple[list[str], str]:
    """Per company of the ask (``facts`` is ``statements.Facts``): the sentences of a long history, and
    the counts they state (how many periods are held), for the figures check."""
    sentences: list[str] = []
    counts: list[str] = []
    tickers = list(dict.fromkeys([*facts.ask.subjects, *(c.ticker for c in facts.targets())]))
    for ticker in tickers:
        cells = [c for c in facts.targets(ticker) if (c.fiscal_quarter is None) == (history.unit == "year")]
        cells.sort(key=lambda c: c.period)
        if history.test is not None:
            sentences.append(_ever(facts, history, ticker, cells))
            counts.append(f"{len(cells)} periods held")
        elif cells:
            sentences += _span(facts, ticker, cells)
        gaps = _gaps(facts, ticker, cells)
        if gaps:
            sentences.append(f"No {facts.words()} figure for {gaps} in the store.")
    return sentences, "; ".join(counts)


def _unit_words(history: History, n: int) -> str:
    return f"{counted(n)} {'quarter' if history.unit == 'quarter' else 'fiscal year'}{'s' if n != 1 else ''}"


def _ever(facts: Any, history: History, ticker: str, cells: list[Cell]) -> str:
    """Yes when a period held meets the test ("a loss": a negative figure), naming them; else no, over
    the periods held, with the one closest to meeting it."""
    sign = "negative" if history.test == "negative" else "positive"
    who = facts.of(ticker)
    if not cells:
        company = (facts.names.get(ticker) or [ticker])[0]
        return f"The store holds no {facts.words()} figure for {company}, so it cannot say."
    held = _unit_words(history, len(cells))
    span = f"{cells[0].period} to {cells[-1].period}" if len(cells) > 1 else cells[0].period.label
    by_period = {c.period: c for c in cells}
    hits = [
        by_period[p] for p, _ in meeting([(c.period, c.value) for c in cells], history.test or "negative")
    ]
    if hits:
        shown = hits if len(hits) <= MAX_NAMED else [hits[0], hits[-1]]
        parts = [f"{facts.show(c)} in {c.period}{cite(c.sources)}" for c in shown]
        listed = joined(parts) if len(hits) <= MAX_NAMED else f"from {parts[0]} to {parts[1]}"
        return (
            f"Yes: {who} {facts.words()} was {sign} in {counted(len(hits))} of the {held} the store holds "
            f"({span}). It was {listed}."
        )
    closest = (
        min(cells, key=lambda c: c.value) if history.test == "negative" else max(cells, key=lambda c: c.value)
    )
    other = "positive" if history.test == "negative" else "negative"
    return (
        f"No: {who} {facts.words()} was {other} in every one of the {held} the store holds ({span}). "
        f"The {'lowest' if history.test == 'negative' else 'highest'} was {facts.show(closest)} in "
        f"{closest.period}{cite(closest.sources)}."
    )


def _span(facts: Any, ticker: str, cells: list[Cell]) -> list[str]:
    """Earliest against latest, with the calculator's change and CAGR, and the peak in between."""
    first, last = cells[0], cells[-1]
    who = f"{facts.of(ticker)} {facts.words()}"
    if len(cells) == 1:
        return [
            f"{who} was {facts.show(first)} in {first.period}{cite(first.sources)}, the only period of "
            "those asked the store holds."
        ]
    change = _calc(facts.calcs("change", ticker), first.period, last.period)
    rate = ""
    if change is not None:
        rate = f": {'up' if change['result'] > 0 else 'down'} {abs(change['result']):.1f}%"
    cagr = _calc(facts.calcs("cagr", ticker), first.period, last.period)
    if cagr is not None:
        word = "growth" if cagr["result"] >= 0 else "decline"
        rate += f"{',' if rate else ':'} a compound annual {word} rate of {abs(cagr['result']):.1f}%"
    sentences = [
        f"{who} went from {facts.show(first)} in {first.period}{cite(first.sources)} to {facts.show(last)} "
        f"in {last.period}{cite(last.sources)}{rate}."
    ]
    if cagr is None and first.fiscal_quarter is None and first.value <= 0:
        sentences.append(f"No compound annual growth rate is defined from {facts.show(first)}.")
    peak = max(cells, key=lambda c: c.value)
    if len(cells) > 2 and peak not in (first, last):
        sentences.append(f"The highest was {facts.show(peak)} in {peak.period}{cite(peak.sources)}.")
    return sentences


def _calc(calcs: list[dict[str, Any]], start: FiscalPeriod, end: FiscalPeriod) -> dict[str, Any] | None:
    span = (start.label, end.label)  # calculation records name periods by label
    return next((c for c in calcs if (c.get("from_period"), c.get("to_period")) == span), None)


def _gaps(facts: Any, ticker: str, cells: list[Cell]) -> str:
    """The asked periods with no figure, in order, runs of three or more written "A to B"."""
    missing = [g for g in facts.gaps if g.ticker == ticker and g.metric == facts.metric]
    if not missing:
        return ""
    periods = sorted([*(c.period for c in cells), *(g.period for g in missing)])
    return gap_runs([p.label for p in periods], [g.period.label for g in missing])
