"""The figures withheld as insane (``finance.sanity``): the answer's figures read as the check's
figures, the failing ones dropped before the calculator runs, and the one sentence that tells the
reader a figure could not be read reliably (and the ratio it would feed is not stated).

Two kinds of figure reach the check: the passages' figures of the answer from the passages (dicts:
a statement row or a model copy) and a figure answer's cells (read from a table or copied by the
model). The company's XBRL facts, when the state holds them, are the references of both.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finagent.agent.answer.wording import name
from finagent.finance.check.matching import known_facts, matches_known
from finagent.finance.check.sanity import Failure, Figure, Source, Unit, insane
from finagent.finance.check.scope import item_calendar
from finagent.finance.compute.compare import Cell
from finagent.finance.compute.formulas import Formula, base_name
from finagent.finance.lines import LINES, line
from finagent.finance.looked_up import Figure as LookedUp
from finagent.finance.looked_up import FigureRecord, Gap
from finagent.finance.read.written_figures import scan_figures
from finagent.finance.words import UNIT_SCALES, split_sentences

Inputs = dict[tuple[str, str], dict[str, dict[str, Any]]]

_MONTHS = {"year": 12, "quarter": 3, "six_months": 6, "nine_months": 9, "instant": 0}
_WORDS = re.compile(r"[a-z]+")


def _words(label: str) -> frozenset[str]:
    return frozenset(_WORDS.findall(label.lower())) - {"total", "net", "and"}


_NAMED_BY: dict[frozenset[str], set[str]] = {}
for _item in LINES:
    for _wording in {_item.label, _item.input_label, *_item.rows, *_item.input_rows} - {""}:
        _NAMED_BY.setdefault(_words(_wording), set()).add(_item.name)


def line_named(label: str) -> str | None:
    """The registry line a row's or a copy's label names word for word ("Total assets"), or None
    (a label of several lines' words, or of none: "Diluted" is EPS or a share count)."""
    found = _NAMED_BY.get(_words(label), set())
    return next(iter(found)) if len(found) == 1 else None


def _line_of(fact: dict[str, Any]) -> str | None:
    if fact.get("line_item"):
        return line(base_name(str(fact["line_item"]))).name
    return line_named(str(fact.get("metric") or ""))


def _unit_of(unit: str | None) -> tuple[Unit, float] | None:
    """The check's unit and the figure's precision (a table "in millions": 1e6), None: a percent or
    a bare number, which no identity weighs."""
    if unit == "per share":
        return "per_share", 0.01
    if unit == "shares":
        return "shares", 1.0
    if unit == "USD" or unit in UNIT_SCALES:
        return "money", UNIT_SCALES.get(str(unit), 1.0)
    return None


def _months_of_copy(
    fact: dict[str, Any], item: dict[str, Any] | None, calendars: dict[str, Any]
) -> int | None:
    """The duration of the column of its cited table a model's copy sits in: its own period's when one
    such column is of that period, else the first's (None: prose, or no column holds it)."""
    from finagent.finance.read.tables import parse_tables, table_cells

    text = str((item or {}).get("text") or "")
    calendar = item_calendar(item, calendars) if item and "|" in text else None
    if item is None or calendar is None:
        return None
    form = "10-K" if item.get("kind") in ("10-K", "annual_report") else item.get("kind")
    found = [
        cell.target
        for table in parse_tables(text, form=form)
        for cell in table_cells(table, calendar)
        if cell.target is not None
        and math.isclose(abs(float(cell.value)), abs(float(fact["value"])), rel_tol=1e-9)
    ]
    if not found or any(t.label == fact["period"] for t in found):
        return None
    return _MONTHS.get(found[0].duration)


def fact_figure(
    fact: dict[str, Any], items: dict[str, dict[str, Any]], calendars: dict[str, Any]
) -> Figure | None:
    """A passage's figure as the check reads it (None: no registry line, or a percent)."""
    line_name, unit = _line_of(fact), _unit_of(fact.get("unit"))
    if line_name is None or unit is None:
        return None
    model = fact.get("method") == "model"
    return Figure(
        company=str(fact.get("ticker") or ""),
        period=str(fact.get("period") or ""),
        line=line_name,
        value=float(fact["value"]) * (unit[1] if unit[0] == "money" else 1.0),
        unit=unit[0],
        months=_months_of_copy(fact, items.get(str(fact.get("source"))), calendars) if model else None,
        precision=unit[1],
        source="model" if model else "table",
        label=str(fact.get("source") or ""),
    )


def reported_figures(records: Sequence[FigureRecord]) -> list[Figure]:
    """The company's XBRL facts of the state (the figures lookup's records), as the references."""
    units: dict[str, Unit] = {"USD": "money", "USD/shares": "per_share", "shares": "shares"}
    return [
        Figure(
            company=r.ticker,
            period=r.period.label,
            line=r.metric,
            value=float(r.value),
            unit=units[r.unit or ""],
            source="xbrl",
        )
        for r in records
        if isinstance(r, LookedUp) and r.source == "xbrl" and (r.unit or "") in units
    ]


@dataclass
class Withheld:
    """The passages' figures and a formula's inputs less the insane ones, and those withheld (each
    fact with its ``reason`` and the ``sentence`` the answer says about it)."""

    facts: list[dict[str, Any]]
    inputs: Inputs
    withheld: list[dict[str, Any]] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """One per figure withheld: whose, which, and why."""
        return [
            f"figure not used: {f['ticker']} {f['period']} {f['metric']}: {f['reason']}"
            for f in self.withheld
        ]


def _key(fact: dict[str, Any]) -> tuple[Any, ...]:
    return (fact.get("ticker"), fact.get("period"), fact.get("source"), fact.get("value"), _line_of(fact))


def withhold_insane(
    facts: Sequence[dict[str, Any]],
    inputs: Inputs,
    context: tuple[Sequence[FigureRecord], Sequence[dict[str, Any]], dict[str, Any]],
    formulas: Sequence[Formula],
    names: dict[str, list[str]],
) -> Withheld:
    """``facts`` and ``inputs`` less every figure failing its sanity check; ``context`` is (the
    state's XBRL records, the passages read, the calendars). A formula that read a withheld figure is
    not computed: its input is gone."""
    records, items, calendars = context
    by_label = {str(i.get("label")): i for i in items}
    every = {_key(f): f for f in [*facts, *(f for group in inputs.values() for f in group.values())]}
    figures = {
        key: figure for key, fact in every.items() if (figure := fact_figure(fact, by_label, calendars))
    }
    failed: dict[tuple[Any, ...], Failure] = {}
    for failure in insane([*figures.values(), *reported_figures(records)]):
        for key, figure in figures.items():
            if figure is failure.figure:
                failed[key] = failure
    if not failed:
        return Withheld(list(facts), inputs)
    kept = {
        group: {n: f for n, f in values.items() if _key(f) not in failed} for group, values in inputs.items()
    }
    withheld = [
        every[key]
        | {"reason": failure.reason, "sentence": _sentence(failure.figure, failure.reason, formulas, names)}
        for key, failure in failed.items()
    ]
    return Withheld([f for f in facts if _key(f) not in failed], kept, withheld)


def _sentence(figure: Figure, reason: str, formulas: Sequence[Formula], names: dict[str, list[str]]) -> str:
    """ "finagent could not read ACME's total assets for FY2022 reliably (…); its return on assets is
    not stated." """
    fed = [f.metric for f in formulas if figure.line in {line(base_name(n)).name for n in f.inputs}]
    ratios = f"; its {', '.join(dict.fromkeys(fed))} is not stated" if fed else ""
    what = f"{name(figure.company, names)}'s {line(figure.line).label.lower()} for {figure.period}"
    return f"finagent could not read {what} reliably ({reason}){ratios}."


def without_withheld(text: str, withheld: Sequence[dict[str, Any]], names: dict[str, list[str]]) -> str:
    """``text`` less the sentences stating a withheld figure of the company they name (or of any, when
    they name none): the passage writes it, but it is not the line it claims to be."""
    known = known_facts(withheld)
    kept = []
    for sentence in split_sentences(text):
        named = {t for t, aliases in names.items() if any(a and a in sentence for a in [t, *aliases])}
        own = [k for k in known if not named or k["ticker"] in named]
        if not any(matches_known(figure, k) for figure in scan_figures(sentence) for k in own):
            kept.append(sentence)
    return " ".join(kept)


# -- a figure answer's cells ------------------------------------------------------------------------
_SOURCES: dict[str, Source] = {"xbrl": "xbrl", "model": "model"}


def _cell_figure(cell: Cell) -> Figure | None:
    if cell.metric not in {i.name for i in LINES}:
        return None
    unit: Unit = "per_share" if cell.unit == "USD/shares" else "shares" if cell.unit == "shares" else "money"
    return Figure(
        company=cell.ticker,
        period=cell.period.label,
        line=cell.metric,
        value=float(cell.value),
        unit=unit,
        precision=10.0**cell.scale if unit == "money" else 0.01,
        source=_SOURCES.get(cell.note, "table"),
        label=cell.sources[0] if cell.sources else "",
    )


def withhold_insane_cells(
    cells: list[Cell], derivations: list[dict[str, Any]]
) -> tuple[list[Cell], list[dict[str, Any]], list[Gap]]:
    """A figure answer's cells and derivations less the insane ones, and a gap for each (its reason
    says the figure could not be read reliably, and why)."""
    figures = {id(f): (c, f) for c in cells if (f := _cell_figure(c)) is not None}
    failed = {id(failure.figure): failure.reason for failure in insane([f for _, f in figures.values()])}
    if not failed:
        return cells, derivations, []
    bad = [(c, failed[i]) for i, (c, _) in figures.items() if i in failed]
    dropped = {(c.ticker, c.metric, c.period.label) for c, _ in bad}  # derivations name it by label
    gaps = [
        Gap(
            ticker=c.ticker,
            metric=c.metric,
            period=c.period,
            reason=f"could not be read reliably: {reason}",
        )
        for c, reason in bad
    ]
    return (
        [c for c in cells if (c.ticker, c.metric, c.period.label) not in dropped],
        [d for d in derivations if (d.get("ticker"), d.get("metric"), d.get("period")) not in dropped],
        gaps,
    )
