"""The computed first sentences of an ask about how a figure moved: a change and its rate, a trend,
an overtake or a threshold (yes or no, and when), a direction or stability verdict, a restatement
(original and later value, and the difference)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.agent.answer.statements import (
    CHANGE_WORDS,
    Facts,
    Opening,
    change_verb,
    difference_text,
    entry_period,
    gap_sentences,
    values_opening,
    who_of,
)
from finagent.agent.answer.wording import cite, counted, day_text, format_amount, joined, period_phrase
from finagent.finance.check.verdict import factor_limit, sign_verdict
from finagent.finance.compute.compare import Cell, growth_record, has_rate, scale_unit
from finagent.finance.compute.outcomes import (
    Crossing,
    crossing,
    restatements,
    steadiness,
    threshold_crossing,
    trend,
)
from finagent.finance.compute.safe_calculator import difference, growth_pct
from finagent.finance.computed import COMPUTED
from finagent.finance.figure_records import describe_calculation
from finagent.finance.periods.period import FiscalPeriod


# -- changes ------------------------------------------------------------------------------------------
def change_opening(facts: Facts) -> Opening:
    sentences: list[str] = []
    calculations: list[dict[str, Any]] = []
    for ticker in facts.ask.subjects or sorted({c.ticker for c in facts.targets()}):
        if facts.ask.change == "change" and len(facts.targets(ticker)) == 1:
            against_prior = _one_period_change(facts, ticker)
            if against_prior.sentences:
                sentences += against_prior.sentences
                calculations += against_prior.calculations
                continue
        sentences += _company_changes(facts, ticker)
    return Opening(sentences + gap_sentences(facts), calculations)


def several_metrics_opening(facts: Facts, sentences: list[str]) -> list[str]:
    """A question asking some metrics' values and the change of others ("revenue and operating
    income in 2024, and how did operating income change"): the values first, in the order they are
    looked up, then each asked change (``sentences`` holds the first one's)."""
    changed = facts.ask.changed
    metrics = dict.fromkeys(c.metric for c in facts.cells if c.role == "target")
    values = [
        s
        for m in metrics
        if m not in changed
        for s in values_opening(replace(facts, metric=m, gaps=())).sentences
    ]
    more = [
        s
        for m in changed[1:]
        if m in metrics
        for s in change_opening(replace(facts, metric=m, gaps=())).sentences
    ]
    return [*values, *sentences, *more]


def _company_changes(facts: Facts, ticker: str) -> list[str]:
    change = facts.ask.change
    if change == "cagr" and (calcs := facts.calcs("cagr", ticker)):
        return [_cagr_sentence(facts, c) for c in calcs]
    series = trend(facts.cells, ticker, facts.metric) if change == "cagr" else None
    if series is not None and series.cells[0].value <= 0:
        start = "a loss" if series.cells[0].value < 0 else "zero"
        return [
            *_trend_sentences(facts, ticker),
            f"No compound annual growth rate is defined from {start}, as in {series.cells[0].period}.",
        ]
    for kind in ("yoy", "qoq") if change in (None, "yoy", "qoq") else ():
        if change not in (None, kind):
            continue
        calcs = facts.calcs(kind, ticker)
        bases = {c["from_period"] for c in calcs}
        calcs = [c for c in calcs if c["to_period"] not in bases] or calcs  # the newer one covers both
        if calcs:
            return [_rate_sentence(facts, c) for c in calcs]
    return _trend_sentences(facts, ticker)


def _rate_sentence(facts: Facts, calc: dict[str, Any]) -> str:
    """ "Microsoft's revenue grew 17.0% year over year in Q3 FY2024: $61,858 million against $52,857
    million in Q3 FY2023 [10Q1]."""
    new = facts.cell(calc["ticker"], calc["to_period"])
    old = facts.cell(calc["ticker"], calc["from_period"])
    verb = change_verb(calc["result"])
    values = f": {facts.show(new)} against {facts.show(old)} in {calc['from_period']}" if new and old else ""
    return (
        f"{facts.of(calc['ticker'])} {facts.words()} {verb} {abs(calc['result']):.1f}%"
        f"{CHANGE_WORDS[calc['kind']]} in {calc['to_period']}{values}{cite(calc.get('sources') or [])}."
    )


def _cagr_sentence(facts: Facts, calc: dict[str, Any]) -> str:
    first = facts.cell(calc["ticker"], calc["from_period"])
    last = facts.cell(calc["ticker"], calc["to_period"])
    span = f" ({facts.show(first)} to {facts.show(last)})" if first and last else ""
    return (
        f"{facts.of(calc['ticker'])} {facts.words()} grew at a compound annual rate of {calc['result']:.1f}% "
        f"from {calc['from_period']} to {calc['to_period']}{span}{cite(calc.get('sources') or [])}."
    )


def _trend_sentences(facts: Facts, ticker: str) -> list[str]:
    """From the first asked period to the last, then each step, by the calculator's changes."""
    series = trend(facts.cells, ticker, facts.metric)
    if series is None:
        return []
    first, last = series.cells[0], series.cells[-1]
    overall = _find(facts.calcs("change", ticker), first.period, last.period)
    rate = f", {change_verb(overall['result'])} {abs(overall['result']):.1f}%" if overall else ""
    sentences = [
        f"{facts.of(ticker)} {facts.words()} went from {facts.show(first)} in {first.period} to "
        f"{facts.show(last)} in {last.period}{rate}{cite([*first.sources, *last.sources])}."
    ]
    steps = [
        _find(facts.calcs("change", ticker), a.period, b.period)
        for a, b in zip(series.cells, series.cells[1:], strict=False)
    ]
    if len(series.cells) > 2 and all(steps):
        ups = sum(1 for s in steps if s and s["result"] > 0)
        parts = [f"{s['result']:+.1f}% to {s['to_period']}" for s in steps if s]
        sentences.append(f"It rose in {counted(ups)} of {counted(len(steps))} steps: {joined(parts)}.")
    return sentences


def _find(calcs: Sequence[dict[str, Any]], start: FiscalPeriod, end: FiscalPeriod) -> dict[str, Any] | None:
    """The calculation from ``start`` to ``end`` (calculation records name periods by label)."""
    span = (start.label, end.label)
    return next((c for c in calcs if (c.get("from_period"), c.get("to_period")) == span), None)


# -- yes or no ----------------------------------------------------------------------------------------
def overtake_opening(facts: Facts) -> Opening:
    ask = facts.ask
    if not ask.leader or not ask.trailer:
        return Opening()
    result = crossing(facts.cells, facts.metric, ask.leader, ask.trailer)
    if result is None:
        return Opening()
    return Opening([_crossing_sentence(facts, result, ask.crossing)])


def _crossing_sentence(facts: Facts, result: Crossing, already_is_no: bool) -> str:
    """Yes or no, the first period the leader was above, and both values of that period."""
    leader = facts.of(result.leader)
    other = facts.of(result.trailer) if result.trailer else ""
    n = len(result.pairs)
    compared = f"{counted(n)} period{'s' if n != 1 else ''} compared"
    if result.first_above is None and n == 1:
        a, b = result.pairs[0]
        below = other or _amount_text(facts, b)
        return f"No: {leader} {facts.words()} was not above {below}: {_pair_text(facts, a, b)}."
    if result.first_above is None:
        a, b = max(result.pairs, key=lambda p: p[0].value - _level(p[1]))
        return (
            f"No: {leader} {facts.words()} was not above {other or _amount_text(facts, b)} in any of the "
            f"{compared}; the closest was {_pair_text(facts, a, b)}."
        )
    a, b = result.pairs[result.first_above]
    above = f"above in {counted(len(result.above_in))} of the {compared}"
    if result.crossed:
        before_a, before_b = result.pairs[result.first_above - 1]
        return (
            f"Yes: {leader} {facts.words()} first exceeded {other or _amount_text(facts, b)} in "
            f"{period_phrase(a)}: {_pair_text(facts, a, b)}; in {before_a.period} it was "
            f"{_pair_text(facts, before_a, before_b)} ({above})."
        )
    if already_is_no and n > 1:
        return (
            f"No: {leader} {facts.words()} was already above {other or _amount_text(facts, b)} in the first "
            f"period compared, {period_phrase(a)}: {_pair_text(facts, a, b)} ({above})."
        )
    return (
        f"Yes: {leader} {facts.words()} was above {other or _amount_text(facts, b)} in {period_phrase(a)}: "
        f"{_pair_text(facts, a, b)}" + (f" ({above})." if n > 1 else ".")
    )


def _level(item: Cell | Decimal) -> Decimal:
    return item.value if isinstance(item, Cell) else item


def _amount_text(facts: Facts, item: Cell | Decimal) -> str:
    if isinstance(item, Cell):
        return facts.of(item.ticker)
    return format_amount(item, "USD", 9 if abs(item) >= 10**9 else 6 if abs(item) >= 10**6 else 0)


def _pair_text(facts: Facts, a: Cell, b: Cell | Decimal) -> str:
    if isinstance(b, Cell):
        return (
            f"{facts.show(a)} ({who_of(facts, a)}, {a.period}){cite(a.sources)} against "
            f"{facts.show(b)} ({who_of(facts, b)}, {entry_period(b, None)}){cite(b.sources)}"
        )
    return f"{facts.show(a)} in {a.period}{cite(a.sources)}"


def threshold_opening(facts: Facts) -> Opening:
    ask = facts.ask
    if not ask.leader or not ask.threshold:
        return Opening()
    limit = Decimal(ask.threshold)
    result = threshold_crossing(facts.cells, facts.metric, ask.leader, limit)
    if result is None:
        return Opening()
    return Opening([_crossing_sentence(facts, result, False)], known_text=_amount_text(facts, limit))


def direction_opening(facts: Facts) -> Opening:
    """ "No (computed from the figures: Microsoft's long-term debt declined 10.7% from FY2022 ($47,032
    million) to FY2023 ($41,990 million) [10K1])."""
    if facts.metric in COMPUTED and COMPUTED[facts.metric].helper == "margin":
        return _level_direction(facts)  # a margin asked is decided by the margin, not by its inputs
    verdict = sign_verdict(facts.ask, [*facts.comparisons.calculations, *facts.formulas])
    if verdict is None:
        return Opening() if facts.ask.factor else _level_direction(facts)
    limit = f"{abs(factor_limit(facts.ask.factor)):g}%" if facts.ask.factor else ""
    return Opening([verdict.sentence([_ground(facts, c) for c in verdict.grounds])], known_text=limit)


def stability_opening(facts: Facts) -> Opening:
    """ "Yes (computed from the figures: Best Buy's gross margin moved by up to 1.1 percentage points
    from one period to the next from FY2015 to FY2023, within 2%: the largest move was from FY2022
    (22.5%) to FY2023 (21.4%) [10K8, 10K9])."""
    ask = facts.ask
    steady = steadiness(facts.cells, ask.subjects[0], facts.metric) if ask.subjects else None
    if steady is None:
        return Opening()
    i = steady.largest
    a, b, move = steady.cells[i], steady.cells[i + 1], steady.moves[i]
    size = f"{abs(move):.1f} percentage points" if steady.points else f"{abs(move):.1f}%"
    first, last = steady.cells[0], steady.cells[-1]
    sources = [*a.sources, *b.sources]
    moved = difference(b.shown, a.shown) if steady.points else growth_pct(a.shown, b.shown)  # as printed
    record: dict[str, Any] = {
        "kind": "difference" if steady.points else "change",
        "ticker": a.ticker,
        "metric": facts.metric,
        "from_period": a.period.label,
        "to_period": b.period.label,
        "expression": moved.expression,  # the calculator's form, so the check finds its inputs
        "result": move,
        "unit": "percent",
        "sources": sources,
    }
    said = (
        f"{facts.of(a.ticker)} {facts.words()} moved by up to {size} from one period to the next from "
        f"{first.period} to {last.period}"
    )
    largest = f"the largest move was from {a.period} ({facts.show(a)}) to {b.period} ({facts.show(b)})"
    largest += cite(sources)
    if ask.threshold is None:
        return Opening([f"{said}; {largest}."], [record])
    limit = f"{ask.threshold}{' percentage points' if steady.points else '%'}"
    yes = abs(move) <= float(ask.threshold)
    verdict = f"{'within' if yes else 'more than'} {ask.threshold}%"
    asked = {"kind": "limit", "ticker": a.ticker, "metric": facts.metric, "result": float(ask.threshold)}
    return Opening(
        [f"{'Yes' if yes else 'No'} (computed from the figures: {said}, {verdict}: {largest})."],
        [record, asked | {"unit": "percent", "expression": "", "sources": sources}],
        known_text=f"{limit} {ask.threshold}%",
    )


def _level_direction(facts: Facts) -> Opening:
    """A direction no percentage measures (from a loss or from zero: "did Boeing's operating loss
    widen?"; a margin, in points), decided by the difference between the first and the last figure."""
    ask = facts.ask
    if ask.up is None or len(ask.subjects) != 1 or ask.change in ("yoy", "qoq"):
        return Opening()
    ticker = ask.subjects[0]
    cells = _with_prior_year(facts, facts.targets(ticker))
    points = bool(cells) and cells[0].unit == "percent"  # a margin moves in points
    if len(cells) < 2 or (cells[0].value > 0 and not points):
        return Opening()
    old, new = cells[0], cells[-1]
    moved = _level_move(facts, old, new)
    if moved is None:
        return Opening()
    sentence, record = moved
    verdict = "Yes" if (new.value > old.value) == ask.up else "No"
    return Opening([f"{verdict} (computed from the figures: {sentence})."], [record])


def _with_prior_year(facts: Facts, cells: list[Cell]) -> list[Cell]:
    """One period asked: the same period a year before, then it, when the answer holds both (a change
    or a direction asked of one period is against the period before, as its statement's comparative
    column is); several periods: as they are."""
    if len(cells) != 1:
        return cells
    asked = cells[0]
    prior = [
        c
        for c in [*facts.cells, *facts.comparisons.cells]
        if (c.ticker, c.metric, c.fiscal_quarter) == (asked.ticker, facts.metric, asked.fiscal_quarter)
        and c.fiscal_year == asked.fiscal_year - 1
    ]
    return prior[:1] + cells


def _level_move(facts: Facts, old: Cell, new: Cell) -> tuple[str, dict[str, Any]] | None:
    """ "Apple's gross margin fell by 2.2 percentage points from FY2021 (36.8%) to FY2022 (34.6%)
    [10K1, 10K2]": a margin's move in points, another figure's by its amount (None: it did not move)."""
    if old.value == new.value:
        return None
    points = old.unit == "percent"
    scale = 0 if points else facts.scales.get(facts.metric, old.scale)
    sources = [*old.sources, *new.sources]
    record = difference_text(new, old, facts.metric, scale, sources, "percent" if points else "")
    if record is None:
        return None
    if points:
        record |= {"from_period": old.period.label, "to_period": new.period.label}
    size = abs(new.value - old.value)
    by = f"{size:.1f} percentage points" if points else format_amount(size, new.unit, scale)
    sentence = (
        f"{facts.of(new.ticker)} {facts.words()} {'rose' if new.value > old.value else 'fell'} by {by} from "
        f"{old.period} ({facts.show(old)}) to {new.period} ({facts.show(new)}){cite(sources)}"
    )
    return sentence, record


def _one_period_change(facts: Facts, ticker: str) -> Opening:
    """A change asked of one period ("how did Nike's gross margin change in fiscal 2025", "why did its
    revenue fall in 2024"): against the same period a year before, by its rate when it has one (from a
    positive amount), else by its move (a margin in points, an amount from a loss)."""
    cells = _with_prior_year(facts, facts.targets(ticker))
    if len(cells) != 2:
        return Opening()
    old, new = cells
    if not has_rate(old):
        moved = _level_move(facts, old, new)
        return Opening([f"{moved[0]}."], [moved[1]]) if moved else Opening()
    record = growth_record(old, new, "change", ticker, facts.metric)
    if record is None:
        return Opening()
    rate = record["result"]
    sentence = (
        f"{facts.of(ticker)} {facts.words()} {change_verb(rate)} {abs(rate):.1f}% from {facts.show(old)} "
        f"in {old.period} to {facts.show(new)} in {new.period}{cite(record['sources'])}."
    )
    return Opening([sentence], [record])


def _ground(facts: Facts, calc: dict[str, Any]) -> str:
    """A change or result that decides a yes/no, with the figures it is computed from when known."""
    old = facts.cell(calc["ticker"], calc.get("from_period", ""))
    new = facts.cell(calc["ticker"], calc.get("to_period", ""))
    if old is None or new is None:
        return describe_calculation(calc)
    return (
        f"{facts.of(calc['ticker'])} {facts.words(calc.get('metric'))} {change_verb(calc['result'])} "
        f"{abs(calc['result']):.1f}% from {calc['from_period']} ({facts.show(old)}) to "
        f"{calc['to_period']} ({facts.show(new)}){cite(calc.get('sources') or [])}"
    )


def restatement_opening(facts: Facts) -> Opening:
    """Original value and filing, later value and filing, the difference (by the calculator)."""
    found = restatements(facts.figures, facts.metric)
    if not found:
        cells = facts.targets()
        if not cells:
            return Opening()
        parts = [
            f"{facts.of(c.ticker)} {facts.words()} for {c.period} is {facts.show(c)}{cite(c.sources)}"
            for c in cells
        ]
        return Opening([f"No: every filing in the store reports the same value: {joined(parts)}."])
    sentences: list[str] = []
    calculations: list[dict[str, Any]] = []
    for item in found:
        cell = facts.cell(item.ticker, item.period)
        scale = facts.scales.get(facts.metric, 6)
        printed = cell.scale if cell is not None else scale  # the calculator reads the filing's scale
        first = cite([_label_of(facts, item.original_chunk, item.original_document)])
        later = cite([_label_of(facts, item.latest_chunk, item.latest_document)])
        change = difference(item.latest.scaleb(-printed), item.original.scaleb(-printed))
        calculations.append(
            {
                "kind": "difference",
                "ticker": item.ticker,
                "metric": facts.metric,
                "period": item.period.label,
                "expression": change.expression,
                "result": change.result,
                "unit": scale_unit(printed),
                "sources": [s.strip(" []") for s in (first, later) if s],
            }
        )
        original = format_amount(item.original, "USD", scale)
        sentences.append(
            f"Yes: {facts.of(item.ticker)} {facts.words()} for {item.period} was first reported as "
            f"{original} in {_filing(item.original_filing)}{first} and later as "
            f"{format_amount(item.latest, 'USD', scale)} in {_filing(item.latest_filing)}{later}, a "
            f"difference of {format_amount(item.difference, 'USD', scale)}."
        )
    return Opening(sentences, calculations)


def _label_of(facts: Facts, chunk: int | None, document: int | None) -> str:
    """The citation of where a value is printed: its chunk, else its filing."""
    return facts.labels.get(chunk or -1) or facts.document_labels.get(document or -1, "")


def _filing(key: str) -> str:
    """ "AAPL|10-Q|2024-06-29" -> "its 10-Q for the period ended June 29, 2024"."""
    parts = key.split("|")
    if len(parts) != 3:
        return key
    try:
        end = day_text(date.fromisoformat(parts[2]))
    except ValueError:
        return f"its {parts[1]}"
    return f"its {parts[1]} for the period ended {end}"
