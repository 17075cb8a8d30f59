"""The answer's first sentences, computed: they answer the ask (``finance.asks.Ask``) with the
figures and the calculator's results, each cited, before any table or prose.

A ranking gives the order with values and periods (the period of a company whose fiscal year differs
is named); an overtake or a threshold says yes or no and when; a direction question says yes or no
with the change that decides it; a change gives the rate against the figure it is measured from; a
restatement gives the original value and filing, the later one and the difference. Every number
written here is a cell or a calculator result, so the figures check verifies it like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.agent.answer.history import history_sentences
from finagent.agent.answer.wording import (
    amount,
    cite,
    counted,
    day_text,
    format_amount,
    joined,
    metric_label,
    metric_scales,
    name,
    owned,
    period_phrase,
    possessive,
)
from finagent.finance.asks import Ask
from finagent.finance.calculator import difference, growth_pct
from finagent.finance.compare import Cell, Comparisons, scale_unit, unreported_margins
from finagent.finance.computed import COMPUTED
from finagent.finance.figures.text import describe_calculation
from finagent.finance.figures.verdict import factor_limit, sign_verdict
from finagent.finance.history import History
from finagent.finance.outcomes import (
    Crossing,
    Ranking,
    crossing,
    growth_kinds,
    growth_ranking,
    ranking,
    restatements,
    steadiness,
    threshold_crossing,
    trend,
)

HISTORY_KEEPS = frozenset({"restatement", "overtake", "threshold", "ranking", "comparison", "stability"})
"""Asks whose own opening answers a long history too ("did its net income ever exceed $100 billion")."""
CHANGE_WORDS = {"yoy": " year over year", "qoq": " quarter over quarter", "change": "", "cagr": ""}


@dataclass
class Opening:
    """The computed sentences, the calculations they add (a restatement's difference) and text the
    figures check may read their numbers in (a threshold the question names)."""

    sentences: list[str] = field(default_factory=list)
    calculations: list[dict[str, Any]] = field(default_factory=list)
    known_text: str = ""

    @property
    def text(self) -> str:
        return " ".join(s for s in self.sentences if s)


@dataclass(frozen=True)
class Facts:
    """What the sentences are computed from."""

    ask: Ask
    metric: str
    cells: Sequence[Cell]
    comparisons: Comparisons
    names: dict[str, list[str]]
    figures: Sequence[dict[str, Any]] = ()
    gaps: Sequence[dict[str, Any]] = ()
    formulas: Sequence[dict[str, Any]] = ()
    labels: Mapping[int, str] = field(default_factory=dict)  # chunk id -> citation label
    document_labels: Mapping[int, str] = field(default_factory=dict)  # a document no text cites
    history: History | None = None  # a long history ("since 2010", "ever"): its own opening
    parts: Sequence[str] = ()  # parts of the company the question names ("Google Cloud"): not what was read

    @property
    def scales(self) -> dict[str, int]:
        return metric_scales(self.cells)

    def words(self, metric: str | None = None) -> str:
        """ "revenue", "diluted EPS": the metric as a sentence says it."""
        label = metric_label(metric or self.metric)
        return label if label[:2].isupper() else label[0].lower() + label[1:]

    def show(self, cell: Cell) -> str:
        return amount(cell, self.scales)

    def of(self, ticker: str) -> str:
        return possessive(ticker, self.names)

    def targets(self, ticker: str | None = None) -> list[Cell]:
        return sorted(
            (
                c
                for c in self.cells
                if c.metric == self.metric and c.role == "target" and (ticker is None or c.ticker == ticker)
            ),
            key=lambda c: (c.period_end or date.min, c.order),
        )

    def calcs(self, kind: str, ticker: str | None = None) -> list[dict[str, Any]]:
        return [
            c
            for c in self.comparisons.calculations
            if c.get("kind") == kind
            and c.get("metric") == self.metric
            and (ticker is None or c.get("ticker") == ticker)
        ]

    def cell(self, ticker: str, period: str) -> Cell | None:
        return next(
            (c for c in self.cells if (c.ticker, c.metric, c.period) == (ticker, self.metric, period)), None
        )


def primary_metric(ask: Ask, computed: Sequence[str], metrics: Sequence[str]) -> str:
    """What the first sentence is about: a computed metric the question asks for (a margin), else the
    ask's metric, else the first metric looked up."""
    if computed:
        return computed[0]
    if ask.metric and ask.metric in metrics:
        return ask.metric
    return metrics[0] if metrics else ask.metric or ""


def opening(facts: Facts) -> Opening:
    """The sentences that answer the ask, computed (empty when nothing was found to compute from)."""
    ask = facts.ask
    if facts.formulas and not facts.targets():
        return _formula_opening(facts)
    handlers = {
        "restatement": _restatement,
        "overtake": _overtake,
        "threshold": _threshold,
        "direction": _direction,
        "stability": _stability,
        "ranking": _ranking,
        "comparison": _comparison,
        "change": _change,
    }
    if facts.history is not None and ask.kind not in HISTORY_KEEPS:
        sentences, counts = history_sentences(facts, facts.history)
        if sentences:
            return Opening(sentences, known_text=counts)
    handler = handlers.get(ask.kind, _values)
    if ask.yes_no and _whole_company(facts):  # a verdict on the whole would pass for one on the part
        handler = _change if ask.change and ask.change != "change" else _values
    result = handler(facts)
    if not result.sentences:
        result = _values(facts)
    if facts.formulas and ask.kind in ("value", "narrative"):  # the ratio asked before its lines
        result.sentences = [*_asked_formulas(facts), *result.sentences]
    unreported = _unreported(facts)
    if unreported:  # said first: the asked margin is not a measure the company reports
        result.sentences = [*unreported, *result.sentences]
    result.sentences += _whole_company(facts) if result.sentences else []
    return result


def _whole_company(facts: Facts) -> list[str]:
    """ "That is the whole company's: Google Cloud's own revenue is not among the figures read." The
    figures read are the company's totals; a part the question names is not one of them."""
    tickers = {c.ticker for c in facts.targets()}
    if not facts.parts or len(tickers) != 1:
        return []
    part = joined([owned(p) for p in facts.parts])
    said = f"That is the whole company's: {part} own {facts.words()} is not among the figures read"
    return [f"{said}, so the question's yes or no is not given for it." if facts.ask.yes_no else f"{said}."]


def _unreported(facts: Facts) -> list[str]:
    """ "American Express's income statement prints no operating income line [10K1]: operating margin
    is not a measure it reports, and none is computed." """
    sentences = []
    for line, base in unreported_margins(facts.cells, facts.metric):
        label, first = COMPUTED[facts.metric].label, COMPUTED[facts.metric].inputs[0]
        sentences.append(
            f"{facts.of(line.ticker)} statement for {line.period} prints {facts.words(base.metric)} but no "
            f"{facts.words(first)} line{cite(base.sources)}: {label.lower()} is not a measure it reports, "
            "and none is computed."
        )
    return sentences


# -- values -------------------------------------------------------------------------------------------
def _values(facts: Facts) -> Opening:
    """Each company's figure for each asked period, and what could not be found."""
    sentences: list[str] = []
    tickers = list(dict.fromkeys([*facts.ask.subjects, *(c.ticker for c in facts.targets())]))
    for ticker in tickers:
        cells = facts.targets(ticker)
        if len(cells) == 1:
            cell = cells[0]
            how = _how_derived(cell)
            sentences.append(
                f"{facts.of(ticker)} {facts.words()} in {period_phrase(cell)} was {facts.show(cell)}"
                f"{how}{cite(cell.sources)}."
            )
        elif cells:
            parts = [f"{facts.show(c)} in {c.period}{cite(c.sources)}" for c in cells]
            sentences.append(f"{facts.of(ticker)} {facts.words()} was {joined(parts)}.")
    sentences += _gap_sentences(facts)
    return Opening(sentences)


def _how_derived(cell: Cell) -> str:
    """How a figure no filing states was obtained: a fourth quarter from the year, another quarter
    from year-to-date figures, a margin or free cash flow from two lines of the same period."""
    if cell.metric in COMPUTED:
        first, second = COMPUTED[cell.metric].inputs
        verb = "divided by" if COMPUTED[cell.metric].helper == "margin" else "less"
        return f", computed as {metric_label(first).lower()} {verb} {metric_label(second).lower()}"
    if cell.note != "derived":
        return ""
    if cell.fiscal_quarter == 4 and len(cell.inputs) == 4:
        return ", derived as the fiscal year less its first three quarters, all from the same filing"
    if cell.fiscal_quarter == 4:
        return ", derived as the fiscal year less the nine months to the third quarter"
    return ", derived from the year-to-date figures"


def _gap_sentences(facts: Facts) -> list[str]:
    return [
        f"{facts.of(g['ticker'])} {facts.words(g['metric'])} for {g['label']} "
        f"{'has' if g.get('parts') else 'is not available:'} {g['reason']}."
        for g in facts.gaps
        if g.get("metric") == facts.metric
    ]


def _formula_opening(facts: Facts) -> Opening:
    """A computed metric (working capital, a quick ratio), led by the yes/no its sign decides when the
    question asks one ("Does Corning have positive working capital?")."""
    verdict = sign_verdict(facts.ask, [*facts.formulas, *facts.comparisons.calculations])
    if verdict is None:
        return Opening([f"{_formula_sentence(facts, facts.formulas[0])}."])
    said = "; ".join([*(_formula_ground(facts, calc) for calc in verdict.grounds), *verdict.rules()])
    return Opening([f"{'Yes' if verdict.yes else 'No'} (computed from the figures: {said})."])


def _asked_formulas(facts: Facts, limit: int = 3) -> list[str]:
    """ "J&J's inventory turnover for FY2022 was 2.72 (computed: ...)": the computed metric the question
    asks for, its mean over the years when one was taken."""
    averages = [c for c in facts.formulas if str(c.get("metric") or "").startswith("average ")]
    return [f"{_formula_sentence(facts, calc)}." for calc in (averages or facts.formulas)[:limit]]


def _formula_ground(facts: Facts, calc: dict[str, Any]) -> str:
    """A computed level, or a computed metric's change between two of its computed levels ("Microsoft's
    total debt declined 5.1% (-$2,544 million) from $49,781 million in FY2022 to ...")."""
    if "from_period" not in calc:
        return _formula_sentence(facts, calc)
    levels = {
        c["period"]: c
        for c in facts.formulas
        if (c["ticker"], c["metric"]) == (calc["ticker"], calc["metric"])
    }
    old, new = levels.get(calc["from_period"]), levels.get(calc["to_period"])
    if old is None or new is None:
        return describe_calculation(calc)
    by = calc["result_text"].lstrip("+-")
    return (
        f"{facts.of(calc['ticker'])} {calc['metric']} {_verb(calc['result'])} {by} "
        f"from {old['result_text']} in {old['period']} to {new['result_text']} in {new['period']} "
        f"(computed: {calc['expression']}){cite(calc.get('sources') or [])}"
    )


def _formula_sentence(facts: Facts, calc: dict[str, Any]) -> str:
    return (
        f"{facts.of(calc['ticker'])} {calc['metric']} for {calc['period']} was {calc['result_text']} "
        f"(computed: {calc['expression']}){cite(calc.get('sources') or [])}"
    )


# -- rankings and comparisons -------------------------------------------------------------------------
def _ranking(facts: Facts) -> Opening:
    ask = facts.ask
    if ask.by_growth:
        return Opening([_growth_sentence(facts, "Ranked by")])
    return _ranked_opening(facts, len(facts.ask.subjects) > 2)


def _rankings(facts: Facts) -> list[Ranking]:
    return ranking(facts.cells, facts.metric, facts.ask.highest_first)


def _ranked(facts: Facts, rank: Ranking, listing: bool) -> str:
    """ "Ranked by revenue, highest first: Walmart $680,985 million (FY2025, the year ended January 31,
    2025) [10K1], Amazon ..."; two companies read as a comparison."""
    entries = [
        f"{_who(facts, c)} {facts.show(c)} ({_entry_period(c, rank)}){cite(c.sources)}" for c in rank.cells
    ]
    first, second = rank.cells[0], rank.cells[1]
    if not listing and len(rank.cells) == 2:
        word = "higher" if rank.highest_first else "lower"
        if first.value == second.value:
            same = f"{facts.of(first.ticker)} {facts.words()} was the same as {facts.of(second.ticker)}"
            return f"{same}: {joined(entries)}."
        gap = _gap(facts, rank)
        by = f" by {gap['text']}" if gap else ""
        return (
            f"{facts.of(first.ticker)} {facts.words()} was {word} than {facts.of(second.ticker)}{by}: "
            f"{facts.show(first)} in {_entry_period(first, rank)}{cite(first.sources)} against "
            f"{facts.show(second)} in {_entry_period(second, rank)}{cite(second.sources)}."
        )
    order = "highest first" if rank.highest_first else "lowest first"
    lead = f"In {period_phrase(first)}, ranked" if rank.same_period else "Ranked"
    return f"{lead} by {facts.words()}, {order}: " + "; ".join(entries) + "." + _unranked(facts, rank)


def _unranked(facts: Facts, rank: Ranking) -> str:
    """The companies asked about that a ranking leaves out, said in it: no figure for the period asked."""
    ranked = {c.ticker for c in rank.cells}
    missing = [name(t, facts.names) for t in facts.ask.subjects if t not in ranked]
    if not missing:
        return ""
    return f" Not ranked, with no {facts.words()} for the period asked: {joined(missing)}."


def _who(facts: Facts, cell: Cell) -> str:
    return name(cell.ticker, facts.names)


def _entry_period(cell: Cell, rank: Ranking | None) -> str:
    """The period of an entry: its label, with its end when the companies' periods differ."""
    if (rank is not None and rank.same_period) or cell.period_end is None:
        return cell.period
    what = "year" if cell.fiscal_quarter is None else "quarter"
    return f"{cell.period}, the {what} ended {day_text(cell.period_end)}"


def _comparison(facts: Facts) -> Opening:
    if facts.ask.change:
        growth = _growth_sentence(facts, "Compared by")
        if growth:
            return Opening([growth])
    return _ranked_opening(facts, None)


def _ranked_opening(facts: Facts, listing: bool | None) -> Opening:
    """The ranking sentences (a list, or two companies compared with their difference) and the
    differences they state, for the figures check."""
    rankings = _rankings(facts)
    sentences = [
        _ranked(facts, r, listing if listing is not None else len({c.ticker for c in r.cells}) > 2)
        for r in rankings
    ]
    gaps = [_gap(facts, r) for r in rankings if len(r.cells) == 2 and r.cells[0].value != r.cells[1].value]
    records = [g for g in gaps if g is not None]
    return Opening([s for s in sentences if s] + _gap_sentences(facts), records)


def _gap(facts: Facts, rank: Ranking) -> dict[str, Any] | None:
    """The difference between two compared figures of one unit, for the sentence that compares them."""
    first, second = rank.cells
    if first.unit != "USD" or second.unit != "USD":
        return None  # amounts only (a per-share or percent gap is not worth a sentence's number)
    scale = facts.scales.get(facts.metric, first.scale)
    record = _difference(first, second, facts.metric, scale, [*first.sources, *second.sources])
    if record is None:
        return None
    return record | {"text": format_amount(abs(first.value - second.value), "USD", scale)}


def _difference(
    a: Cell, b: Cell, metric: str, scale: int, sources: list[str], unit: str = ""
) -> dict[str, Any] | None:
    """a − b for the answer's calculations, computed from the figures as printed (at ``scale``) so
    the figures check can trace its inputs; in ``unit``, else the dollars of that scale."""
    change = difference(a.value.scaleb(-scale), b.value.scaleb(-scale))
    if change.result is None:
        return None
    return {
        "kind": "difference",
        "ticker": a.ticker,
        "metric": metric,
        "period": a.period,
        "expression": change.expression,
        "result": change.result,
        "unit": unit or scale_unit(scale),
        "sources": sources,
    }


def _growth_sentence(facts: Facts, lead: str) -> str:
    """Companies ordered by the growth of the metric over the span asked (or year over year)."""
    kinds = growth_kinds(facts.ask.change)
    ranked = growth_ranking(facts.comparisons.calculations, facts.metric, kinds, facts.ask.highest_first)
    if ranked is None:
        return ""
    entries = []
    for calc in ranked.changes:
        what = CHANGE_WORDS.get(calc["kind"], "")
        entries.append(
            f"{_who_ticker(facts, calc['ticker'])} {calc['result']:+.1f}%{what} "
            f"({calc['from_period']} to {calc['to_period']}){cite(calc.get('sources') or [])}"
        )
    order = "highest first" if ranked.highest_first else "lowest first"
    best = ranked.changes[0]
    verb = "grew the most" if ranked.highest_first else "grew the least"
    text = (
        f"{lead} {facts.words()} growth, {order}: {'; '.join(entries)}. "
        f"{_who_ticker(facts, best['ticker'])} {verb}."
    )
    if facts.ask.leader:  # "did A grow more than B?": yes when A leads the order
        return f"{'Yes' if best['ticker'] == facts.ask.leader else 'No'}. {text}"
    return text


def _who_ticker(facts: Facts, ticker: str) -> str:
    return name(ticker, facts.names)


# -- changes ------------------------------------------------------------------------------------------
def _change(facts: Facts) -> Opening:
    sentences: list[str] = []
    for ticker in facts.ask.subjects or sorted({c.ticker for c in facts.targets()}):
        sentences += _company_changes(facts, ticker)
    return Opening(sentences + _gap_sentences(facts))


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
    verb = _verb(calc["result"])
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
    rate = f", {_verb(overall['result'])} {abs(overall['result']):.1f}%" if overall else ""
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


def _find(calcs: Sequence[dict[str, Any]], start: str, end: str) -> dict[str, Any] | None:
    return next((c for c in calcs if c.get("from_period") == start and c.get("to_period") == end), None)


def _verb(result: float) -> str:
    return "grew" if result > 0 else "declined" if result < 0 else "was unchanged"


# -- yes or no ----------------------------------------------------------------------------------------
def _overtake(facts: Facts) -> Opening:
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
            f"{facts.show(a)} ({_who(facts, a)}, {a.period}){cite(a.sources)} against "
            f"{facts.show(b)} ({_who(facts, b)}, {_entry_period(b, None)}){cite(b.sources)}"
        )
    return f"{facts.show(a)} in {a.period}{cite(a.sources)}"


def _threshold(facts: Facts) -> Opening:
    ask = facts.ask
    if not ask.leader or not ask.threshold:
        return Opening()
    limit = Decimal(ask.threshold)
    result = threshold_crossing(facts.cells, facts.metric, ask.leader, limit)
    if result is None:
        return Opening()
    return Opening([_crossing_sentence(facts, result, False)], known_text=_amount_text(facts, limit))


def _direction(facts: Facts) -> Opening:
    """ "No (computed from the figures: Microsoft's long-term debt declined 10.7% from FY2022 ($47,032
    million) to FY2023 ($41,990 million) [10K1])."""
    if facts.metric in COMPUTED and COMPUTED[facts.metric].helper == "margin":
        return _level_direction(facts)  # a margin asked is decided by the margin, not by its inputs
    verdict = sign_verdict(facts.ask, [*facts.comparisons.calculations, *facts.formulas])
    if verdict is None:
        return Opening() if facts.ask.factor else _level_direction(facts)
    limit = f"{abs(factor_limit(facts.ask.factor)):g}%" if facts.ask.factor else ""
    return Opening([verdict.sentence([_ground(facts, c) for c in verdict.grounds])], known_text=limit)


def _stability(facts: Facts) -> Opening:
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
        "from_period": a.period,
        "to_period": b.period,
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
    cells = facts.targets(ticker)
    if len(cells) == 1:  # one period asked: against its prior year, when the answer holds it
        prior = [
            c
            for c in [*facts.cells, *facts.comparisons.cells]
            if c.ticker == ticker
            and c.metric == facts.metric
            and c.fiscal_quarter == cells[0].fiscal_quarter
            and c.fiscal_year == cells[0].fiscal_year - 1
        ]
        cells = prior[:1] + cells
    points = bool(cells) and cells[0].unit == "percent"  # a margin moves in points
    if len(cells) < 2 or cells[0].value == cells[-1].value or (cells[0].value > 0 and not points):
        return Opening()
    old, new = cells[0], cells[-1]
    scale = 0 if points else facts.scales.get(facts.metric, old.scale)
    sources = [*old.sources, *new.sources]
    record = _difference(new, old, facts.metric, scale, sources, "percent" if points else "")
    if record is None:
        return Opening()
    went_up = new.value > old.value
    if points:
        record |= {"from_period": old.period, "to_period": new.period}
    size = abs(new.value - old.value)
    by = f"{size:.1f} percentage points" if points else format_amount(size, new.unit, scale)
    sentence = (
        f"{'Yes' if went_up == ask.up else 'No'} (computed from the figures: {facts.of(ticker)} "
        f"{facts.words()} {'rose' if went_up else 'fell'} by {by} from "
        f"{old.period} ({facts.show(old)}) to {new.period} ({facts.show(new)}){cite(sources)})."
    )
    return Opening([sentence], [record])


def _ground(facts: Facts, calc: dict[str, Any]) -> str:
    """A change or result that decides a yes/no, with the figures it is computed from when known."""
    old = facts.cell(calc["ticker"], calc.get("from_period", ""))
    new = facts.cell(calc["ticker"], calc.get("to_period", ""))
    if old is None or new is None:
        return describe_calculation(calc)
    return (
        f"{facts.of(calc['ticker'])} {facts.words(calc.get('metric'))} {_verb(calc['result'])} "
        f"{abs(calc['result']):.1f}% from {calc['from_period']} ({facts.show(old)}) to "
        f"{calc['to_period']} ({facts.show(new)}){cite(calc.get('sources') or [])}"
    )


def _restatement(facts: Facts) -> Opening:
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
                "period": item.period,
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
