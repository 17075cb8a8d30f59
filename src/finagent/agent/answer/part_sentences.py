"""The computed first sentences about the parts of a company: the figure of a part the question names
("AWS operating income": Amazon Web Services' figure of the period, against a year earlier), and which
part drove a change ("which product category drove Apple's net sales change": each part's change,
its share of the total's change, ranked; whether the parts add up to the total).

The figures are the XBRL facts of the axis members (``part_figures``), cited to the chunk that prints
them; every change and share is a calculator result in the answer's calculations, so the figures
check finds each number it states.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from finagent.agent.answer.part_figures import Breakdown, same_parts, total_of
from finagent.agent.answer.wording import possessive
from finagent.agent.understand.question import Question
from finagent.finance.compute.part_changes import Contribution, contributions
from finagent.finance.compute.safe_calculator import growth_pct
from finagent.finance.figure_records import format_value
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import Figure
from finagent.finance.read.xbrl.members import opens_with_line

_MILLION = Decimal(10**6)
_LISTED = 8


@dataclass
class PartSentences:
    """The sentences and the calculations behind their computed numbers."""

    sentences: list[str] = field(default_factory=list)
    calculations: list[dict[str, Any]] = field(default_factory=list)


def _m(value: Decimal) -> Decimal:
    """Dollars in millions, as the statements print them (the calculator's inputs are printed numbers)."""
    return value / _MILLION


def _money(value: Decimal, signed: bool = False) -> str:
    """A value in dollars as "$201,183 million" (``signed``: "+$600 million")."""
    text = format_value(float(abs(value) / _MILLION), "USD millions")
    sign = ("+" if value >= 0 else "-") if signed else ("-" if value < 0 else "")
    return f"{sign}{text}"


def _cite(figure: Figure | None, labels: Mapping[int, str]) -> str:
    chunk = figure.provenance.chunk_id if figure is not None else None
    label = labels.get(chunk) if chunk is not None else None
    return f" [{label}]" if label else ""


def _metric(breakdown: Breakdown) -> str:
    line = REPORTED.get(breakdown.metric)
    return (line.label if line else breakdown.metric).lower()


def part_sentences(
    plan: Question,
    breakdowns: Sequence[Breakdown],
    periods: Mapping[str, list[str]],
    labels: Mapping[int, str],
) -> PartSentences:
    """The sentences about the parts the question names, then which part drove the asked change
    (``periods``: each company's asked period labels, the latest last)."""
    said = PartSentences()
    for part in plan.parts:
        for period in periods.get(part.ticker, [])[-1:]:
            for metric in plan.part_metrics:
                _named_part(
                    said,
                    plan,
                    breakdowns,
                    (part.ticker, metric, part.kind, part.member, part.label),
                    period,
                    labels,
                )
    if plan.part_driver:
        for ticker in plan.tickers:
            for period in periods.get(ticker, [])[-1:]:
                for metric in plan.part_metrics[:1]:
                    _driver(said, plan, breakdowns, (ticker, metric, plan.part_driver), period, labels)
    return said


def _find(
    breakdowns: Sequence[Breakdown], ticker: str, metric: str, kind: str, period: str
) -> Breakdown | None:
    return next(
        (b for b in breakdowns if (b.ticker, b.metric, b.kind, b.period) == (ticker, metric, kind, period)),
        None,
    )


def _part_line(label: str, metric: str) -> str:
    """A part's figure named: "iPhone revenue", but "Net sales – outside the U.S." or "Sales and other
    operating revenue" as printed when its label already names the line."""
    said = re.search(rf"\b{re.escape(metric)}\b", label, re.IGNORECASE)
    return label if opens_with_line(label) or said else f"{label} {metric}"


def _prior_label(breakdowns: Sequence[Breakdown], later: Breakdown) -> str | None:
    """The period a year before ``later``'s (its parts' own figures say which that is)."""
    period = later.parts[0].figure.period if later.parts else None
    return period.previous_year().label if period is not None else None


def _named_part(
    said: PartSentences,
    plan: Question,
    breakdowns: Sequence[Breakdown],
    key: tuple[str, str, str, str, str],
    period: str,
    labels: Mapping[int, str],
) -> None:
    """ "Amazon's Amazon Web Services operating income was $39,834 million in FY2024 [10K1], against
    $24,631 million in FY2023 [10K1]: +$15,203 million, +61.7% (computed)." """
    ticker, metric, kind, member, label = key
    later = _find(breakdowns, ticker, metric, kind, period)
    part = later.part(member, label) if later else None
    if later is None or part is None:
        return
    prior_period = _prior_label(breakdowns, later)
    earlier = _find(breakdowns, ticker, metric, kind, prior_period) if prior_period else None
    before = earlier.part(member, label) if earlier else None
    metric_label = _part_line(part.label, _metric(later))
    head = (
        f"{possessive(ticker, plan.names)} {metric_label} was {_money(part.figure.value)} in "
        f"{period}{_cite(part.figure, labels)}"
    )
    if before is None:
        said.sentences.append(f"{head}.")
        return
    change = part.figure.value - before.figure.value
    growth = growth_pct(_m(before.figure.value), _m(part.figure.value))
    pct = f", {growth.result:+.1f}%" if growth.ok and growth.result is not None else ""
    said.sentences.append(
        f"{head}, against {_money(before.figure.value)} in {before.figure.period.label}"
        f"{_cite(before.figure, labels)}: {_money(change, signed=True)}{pct} (computed)."
    )
    periods = (before.figure.period.label, part.figure.period.label)
    said.calculations.append(
        _record(ticker, metric_label, periods, _m(before.figure.value), _m(part.figure.value))
    )
    if growth.ok and growth.result is not None:
        said.calculations.append(
            _result(ticker, metric_label, periods, growth.expression, growth.result, f"{growth.result:+.1f}%")
        )


def _record(ticker: str, metric: str, periods: tuple[str, str], old: Decimal, new: Decimal) -> dict[str, Any]:
    """The change of a figure in millions, as the calculator's record ("201183 - 200583 = 600"): an
    amount of the later period, in millions (a record with a "from_period" is a percent change)."""
    change = new - old
    return {
        "ticker": ticker,
        "metric": f"{metric} change from {periods[0]}",
        "period": periods[1],
        "unit": "USD millions",
        "expression": f"{new} - {old}",
        "result": float(change),
        "result_text": _money(change * _MILLION, True),
        "sources": [],
    }


def _result(
    ticker: str, metric: str, periods: tuple[str, str], expression: str, result: float, text: str
) -> dict[str, Any]:
    return {
        "ticker": ticker,
        "metric": metric,
        "from_period": periods[0],
        "to_period": periods[1],
        "expression": expression,
        "result": result,
        "result_text": text,
        "sources": [],
    }


def _driver(
    said: PartSentences,
    plan: Question,
    breakdowns: Sequence[Breakdown],
    key: tuple[str, str, str],
    period: str,
    labels: Mapping[int, str],
) -> None:
    """Which part moved the total most: its change and share of the total's change, then every part."""
    ticker, metric, kind = key
    later = _find(breakdowns, ticker, metric, kind, period)
    prior_period = _prior_label(breakdowns, later) if later else None
    earlier = _find(breakdowns, ticker, metric, kind, prior_period) if later and prior_period else None
    pairs = same_parts(later, earlier) if later else []
    if later is None or earlier is None or not pairs:
        return
    totals = (earlier.total, later.total)
    whole = totals[1].value - totals[0].value if totals[0] and totals[1] else None
    parts_change = total_of([p for _, p in pairs]) - total_of([b for b, _ in pairs])
    ranked = contributions(
        [(p.label, _m(b.figure.value), _m(p.figure.value)) for b, p in pairs],
        _m(whole if whole is not None else parts_change),
    )
    cite = _cite(pairs[0][1].figure, labels)
    said.sentences.append(_driver_sentence(plan, later, earlier, ranked, whole, parts_change, cite))
    said.sentences.append(_sums_sentence(later, earlier, cite))
    periods = (earlier.period, later.period)
    for c in ranked:
        said.calculations.append(_record(ticker, f"{c.label} {_metric(later)}", periods, c.prior, c.current))
        if c.share is not None:
            metric = f"{c.label} share of the {_metric(later)} change"
            said.calculations.append(
                _result(ticker, metric, periods, c.share_expression, c.share, f"{c.share:.1f}%")
            )
    if totals[0] and totals[1]:
        said.calculations.append(
            _record(ticker, f"total {_metric(later)}", periods, _m(totals[0].value), _m(totals[1].value))
        )


def _driver_sentence(
    plan: Question,
    later: Breakdown,
    earlier: Breakdown,
    ranked: list[Contribution],
    whole: Decimal | None,
    parts_change: Decimal,
    cite: str,
) -> str:
    top = ranked[0]
    total = whole if whole is not None else parts_change
    share = f", {top.share:.1f}% of the total's {_money(total, signed=True)}" if top.share is not None else ""
    each = "; ".join(f"{c.label} {_money(c.change * _MILLION, signed=True)}" for c in ranked[:_LISTED])
    whose = possessive(later.ticker, plan.names)
    return (
        f"{top.label} drove the largest part of {whose} {_metric(later)} change "
        f"from {earlier.period} to {later.period}: {_money(top.change * _MILLION, signed=True)} "
        f"({_money(top.prior * _MILLION)} to {_money(top.current * _MILLION)}){share} (computed){cite}. "
        f"By {later.kind}: {each} (computed){cite}."
    )


def _sums_sentence(later: Breakdown, earlier: Breakdown, cite: str) -> str:
    """Whether the parts add up to the company's total in both periods, said either way."""
    if later.total is None:
        return f"The filing gives no total to add the parts up to{cite}."
    if later.sums and earlier.sums:
        return (
            f"The parts by {later.kind} add up to the total {_metric(later)} of "
            f"{_money(later.total.value)} in {later.period}{cite}."
        )
    return (
        f"The parts do not add up to the total {_metric(later)}: {_money(total_of(later.parts))} against "
        f"{_money(later.total.value)} in {later.period}{cite}."
    )
