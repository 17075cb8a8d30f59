"""The answer's first sentences, computed: they answer the ask (``finance.ask.asks.Ask``) with the
figures and the calculator's results, each cited, before any table or prose.

A ranking gives the order with values and periods (the period of a company whose fiscal year differs
is named); an overtake or a threshold says yes or no and when; a direction question says yes or no
with the change that decides it; a change gives the rate against the figure it is measured from; a
restatement gives the original value and filing, the later one and the difference. Every number
written here is a cell or a calculator result, so the figures check verifies it like any other.

This module holds what the sentences are computed from (``Facts``, ``Opening``) and the sentences of
values, formulas and rankings; those of a movement are in ``movements``; ``compute.opening`` picks
the sentences the ask wants.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from finagent.agent.answer.wording import (
    amount,
    cite,
    day_text,
    format_amount,
    is_currency,
    joined,
    metric_label,
    metric_scales,
    name,
    owned,
    period_phrase,
    possessive,
)
from finagent.finance.ask.asks import Ask
from finagent.finance.ask.long_history import History
from finagent.finance.check.verdict import sign_verdict
from finagent.finance.compute.compare import Cell, Comparisons, scale_unit, unreported_margins
from finagent.finance.compute.outcomes import Ranking, growth_kinds, growth_ranking, ranking
from finagent.finance.compute.safe_calculator import difference
from finagent.finance.computed import COMPUTED
from finagent.finance.figure_records import describe_calculation
from finagent.finance.looked_up import Figure, FigureRecord, Gap
from finagent.finance.periods.period import FiscalPeriod, period_word, year_to_date

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
    figures: Sequence[FigureRecord] = ()
    gaps: Sequence[Gap] = ()
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
            key=lambda c: (c.period_end or date.min, c.period),
        )

    def calcs(self, kind: str, ticker: str | None = None) -> list[dict[str, Any]]:
        return [
            c
            for c in self.comparisons.calculations
            if c.get("kind") == kind
            and c.get("metric") == self.metric
            and (ticker is None or c.get("ticker") == ticker)
        ]

    def cell(self, ticker: str, period: FiscalPeriod | str) -> Cell | None:
        """A company's cell of the metric for a period (a calculation record names it by its label)."""
        wanted = FiscalPeriod.from_label(period) if isinstance(period, str) else period
        return next(
            (c for c in self.cells if (c.ticker, c.metric, c.period) == (ticker, self.metric, wanted)), None
        )


def whole_company(facts: Facts) -> list[str]:
    """ "That is the whole company's: Google Cloud's own revenue is not among the figures read." The
    figures read are the company's totals; a part the question names is not one of them."""
    tickers = {c.ticker for c in facts.targets()}
    if not facts.parts or len(tickers) != 1:
        return []
    part = joined([owned(p) for p in facts.parts])
    said = f"That is the whole company's: {part} own {facts.words()} is not among the figures read"
    return [f"{said}, so the question's yes or no is not given for it." if facts.ask.yes_no else f"{said}."]


def unreported_sentences(facts: Facts) -> list[str]:
    """ "American Express's income statement prints no operating income line [10K1]: operating margin
    is not a measure it reports, and none is computed." """
    pairs = [(line.ticker, line.period, base) for line, base in unreported_margins(facts.cells, facts.metric)]
    pairs += _unprinted_lines(facts, {(t, p) for t, p, _ in pairs})
    sentences = []
    for ticker, period, base in pairs:
        label, first = COMPUTED[facts.metric].label, COMPUTED[facts.metric].inputs[0]
        sentences.append(
            f"{facts.of(ticker)} statement for {period} prints {facts.words(base.metric)} but no "
            f"{facts.words(first)} line{cite(base.sources)}: {label.lower()} is not a measure it reports, "
            "and none is computed."
        )
    return sentences


def _unprinted_lines(
    facts: Facts, known: set[tuple[str, FiscalPeriod]]
) -> list[tuple[str, FiscalPeriod, Cell]]:
    """A margin asked whose line nothing states (no fact, no row, no copy that passed its checks)
    while its base was read from the statement table of that period: the statement prints the base
    and not the line (American Express prints revenue, no gross profit)."""
    if facts.metric not in COMPUTED or COMPUTED[facts.metric].helper != "margin":
        return []
    first, second = COMPUTED[facts.metric].inputs
    found = []
    for gap in facts.gaps:
        if gap.metric != first or gap.parts or (gap.ticker, gap.period) in known:
            continue
        base = next(
            (
                c
                for c in facts.cells
                if (c.ticker, c.metric, c.period) == (gap.ticker, second, gap.period) and c.note == "table"
            ),
            None,
        )
        if base is not None:
            found.append((gap.ticker, gap.period, base))
    return found


# -- values -------------------------------------------------------------------------------------------
def values_opening(facts: Facts) -> Opening:
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
                f"{how}{cite(cell.sources)}{_line_read(facts, [cell])}."
            )
        elif cells:
            parts = [f"{facts.show(c)} in {c.period}{cite(c.sources)}" for c in cells]
            sentences.append(
                f"{facts.of(ticker)} {facts.words()} was {joined(parts)}{_line_read(facts, cells)}."
            )
    sentences += gap_sentences(facts)
    return Opening(sentences)


def _line_read(facts: Facts, cells: Sequence[Cell]) -> str:
    """ ", read from the income statement's "Research and development" line (its concept), not
    (another concept)": which line was read, when another candidate concept stated another value."""
    keys = {(c.ticker, c.metric, c.period) for c in cells}
    lines = [
        f.line
        for f in facts.figures
        if isinstance(f, Figure) and f.role == "target" and (f.ticker, f.metric, f.period) in keys and f.line
    ]
    return f", {joined(list(dict.fromkeys(lines)))}" if lines else ""


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
    if (span := year_to_date(cell.period)) is not None:
        year = cell.fiscal_year
        quarters = " + ".join(
            FiscalPeriod.of_quarter(year, q).label for q in range(1, span.end_month // 3 + 1)
        )
        return f", derived as the sum of its quarters ({quarters}): no filing in the store states it"
    return ", derived from the year-to-date figures"


def gap_sentences(facts: Facts) -> list[str]:
    return [
        f"{facts.of(g.ticker)} {facts.words(g.metric)} for {g.period} "
        f"{'has' if g.parts else 'is not available:'} {g.reason}."
        for g in facts.gaps
        if g.metric == facts.metric
    ]


def formula_opening(facts: Facts) -> Opening:
    """A computed metric (working capital, a quick ratio), led by the yes/no its sign decides when the
    question asks one ("Does Corning have positive working capital?")."""
    verdict = sign_verdict(facts.ask, [*facts.formulas, *facts.comparisons.calculations])
    if verdict is None:
        return Opening([f"{_formula_sentence(facts, facts.formulas[0])}."])
    said = "; ".join([*(_formula_ground(facts, calc) for calc in verdict.grounds), *verdict.rules()])
    return Opening([f"{'Yes' if verdict.yes else 'No'} (computed from the figures: {said})."])


def asked_formulas(facts: Facts, limit: int = 3) -> list[str]:
    """ "J&J's inventory turnover for FY2022 was 2.72 (computed: ...)": the computed metric the question
    asks for, its mean over the years when one was taken."""
    averages = [c for c in facts.formulas if str(c.get("metric") or "").startswith("average ")]
    asked = {c.period.label for c in facts.cells if c.role == "target"}
    levels = [c for c in facts.formulas if "from_period" not in c]
    # the asked periods' own first: a year before is computed too when an average needs its balance
    levels.sort(key=lambda c: c.get("period") not in asked)
    return [f"{_formula_sentence(facts, calc)}." for calc in (averages or levels)[:limit]]


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
        f"{facts.of(calc['ticker'])} {calc['metric']} {change_verb(calc['result'])} {by} "
        f"from {old['result_text']} in {old['period']} to {new['result_text']} in {new['period']} "
        f"(computed: {calc['expression']}){cite(calc.get('sources') or [])}"
    )


def _formula_sentence(facts: Facts, calc: dict[str, Any]) -> str:
    return (
        f"{facts.of(calc['ticker'])} {calc['metric']} for {calc['period']} was {calc['result_text']} "
        f"(computed: {calc['expression']}){cite(calc.get('sources') or [])}"
    )


# -- rankings and comparisons -------------------------------------------------------------------------
def ranking_opening(facts: Facts) -> Opening:
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
        f"{who_of(facts, c)} {facts.show(c)} ({entry_period(c, rank)}){cite(c.sources)}" for c in rank.cells
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
            f"{facts.show(first)} in {entry_period(first, rank)}{cite(first.sources)} against "
            f"{facts.show(second)} in {entry_period(second, rank)}{cite(second.sources)}."
        )
    order = "highest first" if rank.highest_first else "lowest first"
    lead = f"In {period_phrase(first)}, ranked" if rank.same_period else "Ranked"
    return f"{lead} by {facts.words()}, {order}: " + "; ".join(entries) + "." + _unranked(facts, rank)


def _unranked(facts: Facts, rank: Ranking) -> str:
    """The companies asked about that a ranking leaves out, said in it: no figure for the period asked."""
    ranked = {c.ticker for c in rank.cells}
    missing = [
        f"{name(t, facts.names)}{_why_unranked(facts, t)}" for t in facts.ask.subjects if t not in ranked
    ]
    if not missing:
        return ""
    return f" Not ranked, with no {facts.words()} for the period asked: {joined(missing)}."


def _why_unranked(facts: Facts, ticker: str) -> str:
    """ " (only Q3 FY2023, a quarter)": a company asked about whose figures are of another length than
    the ranking's (a gap is said in its own sentence after it)."""
    held = facts.targets(ticker)
    if not held:
        return ""
    labels = ", ".join(c.period.label for c in held)
    return f" (only {labels}, a {period_word(held[-1].period, held[-1].fiscal_quarter)})"


def who_of(facts: Facts, cell: Cell) -> str:
    return name(cell.ticker, facts.names)


def entry_period(cell: Cell, rank: Ranking | None) -> str:
    """The period of an entry: its label, with its end when the companies' periods differ."""
    if (rank is not None and rank.same_period) or cell.period_end is None:
        return cell.period.label
    what = period_word(cell.period, cell.fiscal_quarter)
    return f"{cell.period}, the {what} ended {day_text(cell.period_end)}"


def comparison_opening(facts: Facts) -> Opening:
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
    return Opening([s for s in sentences if s] + gap_sentences(facts), records)


def _gap(facts: Facts, rank: Ranking) -> dict[str, Any] | None:
    """The difference between two compared figures of one unit, for the sentence that compares them."""
    first, second = rank.cells
    if first.unit != second.unit or not is_currency(first.unit):
        return None  # amounts only (a per-share or percent gap is not worth a sentence's number)
    scale = facts.scales.get(facts.metric, first.scale)
    record = difference_text(first, second, facts.metric, scale, [*first.sources, *second.sources])
    if record is None:
        return None
    return record | {"text": format_amount(abs(first.value - second.value), first.unit, scale)}


def difference_text(
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
        "period": a.period.label,
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


def change_verb(result: float) -> str:
    return "grew" if result > 0 else "declined" if result < 0 else "was unchanged"
