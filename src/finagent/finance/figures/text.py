"""Figures: verify extracted values against their evidence, compute changes with the calculator, format.

The model only copies labelled numbers out of the evidence; every figure it returns must appear in
the evidence item it names, and every derived number (growth, differences) comes from sympy.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal
from itertools import pairwise
from typing import Any

from finagent.finance.calculator import HELPERS, growth_pct
from finagent.finance.facts import FiscalCalendar, report_calendar
from finagent.finance.figures.written import counts_something, numbers_in, scan_figures
from finagent.finance.periods.period import FiscalPeriod
from finagent.finance.tables import PeriodTarget, cell_for, find_row, parse_table
from finagent.finance.words import SCALE_UNITS, UNIT_SCALES, line_words, names_line, split_sentences


def value_in_text(value: float, text: str) -> bool:
    """``value`` is written in ``text`` as a whole number ("81,797", "(1,234)", "$94.9 billion")."""
    target = abs(value)
    return any(math.isclose(target, n, rel_tol=1e-9, abs_tol=1e-9) for n in numbers_in(text))


def labelled_by_passage(metric: str, value: float, text: str) -> bool:
    """A copied figure's label is the passage's own: a line (a table row) or a sentence that writes
    its value names most of the label's words. A label made of the question's words ("much expect
    pay spin off upjohn" for a 15% royalty) names no figure of the passage."""
    if not line_words(metric):
        return True
    pieces = (s for line in text.splitlines() for s in split_sentences(line))
    return any(value_in_text(value, piece) and names_line(metric, piece) for piece in pieces)


def period_key(label: str) -> tuple[int, int]:
    """Chronological order of "Q3 FY2023" / "FY2023" labels (a year sorts after its quarters)."""
    period = FiscalPeriod.leading(label)
    if period is None or not (period.is_quarter or period.is_year):
        return (0, 0)
    return (period.fiscal_year, period.quarter or 5)


def after_its_report(fact: dict[str, Any], item: dict[str, Any] | None) -> bool:
    """A reported line copied for a later fiscal year than the report it cites (FY2023's inventories
    from the FY2022 10-K): a report states its own year's lines and earlier ones, never a later one's."""
    own = period_key(str((item or {}).get("period_label") or ""))[0]
    return bool(own) and period_key(str(fact.get("period") or ""))[0] > own


# A label written as a calculation ("diff(9.0, 8.0)") names no line of a passage: a model's working.
_EXPRESSION = re.compile(rf"\b(?:{'|'.join(HELPERS)})\s*\(", re.I)


def verify_facts(
    facts: Sequence[dict[str, Any]], evidence_by_label: dict[str, dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split facts into (verified, rejected): a verified value is written in the item it cites, under a
    label that is no calculation."""
    verified: list[dict[str, Any]] = []
    rejected: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for fact in facts:
        item = evidence_by_label.get(fact["source"])
        key = (fact["ticker"], fact["period"], _metric_key(fact["metric"]))
        if (
            item is None
            or not value_in_text(fact["value"], item["text"])
            or key in seen
            or _EXPRESSION.search(str(fact["metric"]))
        ):
            rejected.append(fact)
            continue
        unit = fact.get("unit")
        if unit in (None, "other"):  # read the unit where the passage writes the value
            unit = written_unit(fact["value"], item["text"])
            if unit is None:
                rejected.append(fact)
                continue
        seen.add(key)
        verified.append({**fact, "unit": unit, "verified": True})
    return verified, rejected


_SCALED_UNITS = {scale: unit for unit, scale in UNIT_SCALES.items()} | {1.0: "USD"}


def written_unit(value: float, text: str) -> str | None:
    """The unit ``text`` writes ``value`` in ("$13.2 billion" → "USD billions", "44.5%" → "percent"),
    "other" when it is a plain number, and None when it is written only as a year or as a bare small
    number counting nothing (a note, item or day number is no figure)."""
    written = [f for f in scan_figures(text) if math.isclose(f.mantissa, abs(value), rel_tol=1e-9)]
    for figure in written:
        if figure.kind == "percent":
            return "percent"
        if figure.currency and figure.scale in _SCALED_UNITS:
            return _SCALED_UNITS[figure.scale]
    if all(f.kind == "date" or (f.kind == "count" and not counts_something(f, text)) for f in written):
        return None
    return "other"


def _metric_key(metric: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", metric.lower()).strip()


def compute_changes(facts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Period-over-period change of each metric per company, each evaluated by the calculator."""
    series: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for fact in facts:
        if fact.get("unit") in ("percent", "ratio"):
            continue
        annual = fact["period"].startswith("FY")
        key = (fact["ticker"], _metric_key(fact["metric"]), f"{fact.get('unit') or ''}|{annual}")
        series[key].append(fact)
    calculations: list[dict[str, Any]] = []
    for (ticker, _, _), items in series.items():
        ordered = sorted(items, key=lambda f: period_key(f["period"]))
        pairs = list(pairwise(ordered))
        if len(ordered) >= 3:
            pairs.append((ordered[0], ordered[-1]))
        for old, new in pairs:
            if old["period"] == new["period"]:
                continue  # two readings of one period (a line and its copy) are no change
            change = growth_change(
                ticker, new["metric"], (old["period"], old["value"]), (new["period"], new["value"])
            )
            if change is not None:
                calculations.append(change | {"sources": [old["source"], new["source"]]})
    return calculations


def growth_change(
    ticker: str, metric: str, old: tuple[str, float], new: tuple[str, float]
) -> dict[str, Any] | None:
    """The calculator's percent change of ``metric`` from (period, value) ``old`` to ``new``, as a
    calculation record; None when it cannot be computed (a zero base)."""
    result = growth_pct(old[1], new[1])
    if not result.ok or result.result is None:
        return None
    return {
        "ticker": ticker,
        "metric": metric,
        "from_period": old[0],
        "to_period": new[0],
        "expression": result.expression,
        "result": result.result,
        "result_text": percent_text(result.result),
    }


def percent_text(value: float) -> str:
    """ "+2.1%"; a change smaller than 0.05% keeps enough digits to be told from no change."""
    return f"{value:+.4f}%" if 0 < abs(value) < 0.05 else f"{value:+.1f}%"


def format_value(value: float, unit: str | None) -> str:
    """Human form of a figure in its stated unit: "$81,797 million", "44.5%", "$1.26 per share"."""
    number = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}".rstrip("0").rstrip(".")
    match unit:
        case "USD millions":
            return f"${number} million"
        case "USD billions":
            return f"${number} billion"
        case "USD thousands":
            return f"${number} thousand"
        case "USD":
            return f"${number}"
        case "percent":
            return f"{number}%"
        case "per share":
            return f"${number} per share"
        case "shares":
            return f"{number} shares"
        case _:
            return number


def format_facts(facts: Sequence[dict[str, Any]]) -> str:
    if not facts:
        return "(none)"
    return "\n".join(
        f"- {f['ticker']} {f['period']} {f['metric']}: "
        f"{format_value(f['value'], f.get('unit'))} [{f['source']}]"
        for f in facts
    )


# -- deterministic extraction from statement tables ------------------------------------------------


_REPORT_KINDS = ("10-Q", "10-K", "annual_report", "earnings_release", "8-K")


def _own_period(item: dict[str, Any]) -> tuple[int | None, int | None]:
    """(fiscal year, quarter) of the report a chunk belongs to, from its fields or its label."""
    year, quarter = item.get("fiscal_year"), item.get("fiscal_quarter")
    if year is None:
        period = FiscalPeriod.from_label(item.get("period_label"))
        if period is not None and (period.is_quarter or period.is_year):
            year, quarter = period.key
    return year, quarter


def _own_targets(item: dict[str, Any], prior: bool = False) -> list[tuple[PeriodTarget, str]]:
    """The periods a report's tables state for the report itself: its quarter or year, the balance at
    its end, and (10-Q cash flows) the year to date. ``prior``: an annual report's previous year (its
    second column: the opening balance of an average, last year's inventory of a change)."""
    year, quarter = _own_period(item)
    if year is None:
        return []
    if prior:
        if quarter is None or item.get("kind") in ("10-K", "annual_report"):
            return [(PeriodTarget(year - 1, None, "year"), ""), (PeriodTarget(year - 1, None, "instant"), "")]
        return []
    if quarter is None or item.get("kind") in ("10-K", "annual_report"):
        return [(PeriodTarget(year, None, "year"), ""), (PeriodTarget(year, None, "instant"), "")]
    targets = [(PeriodTarget(year, quarter, "quarter"), ""), (PeriodTarget(year, quarter, "instant"), "")]
    span = {2: "six_months", 3: "nine_months"}.get(int(quarter))
    if span:
        targets.append((PeriodTarget(year, quarter, span), " (year to date)"))  # type: ignore[arg-type]
    if int(quarter) == 4 and item.get("kind") == "earnings_release":  # a year's last release reports it
        targets.append((PeriodTarget(year, None, "year"), ""))
    return targets


def _legacy_unit(unit: str | None, scale: int) -> str:
    if unit == "USD":
        return SCALE_UNITS.get(scale, "USD")
    return {"USD/share": "per share", "shares": "shares", "percent": "percent"}.get(unit or "", "other")


def _report_table(item: dict[str, Any], calendar: FiscalCalendar | None) -> tuple[Any, FiscalCalendar] | None:
    """A report's table and the fiscal calendar its columns are read by, or None."""
    if "|" not in item["text"] or item.get("kind") not in _REPORT_KINDS:
        return None
    kind = item.get("kind")
    table = parse_table(item["text"], form="10-K" if kind in ("10-K", "annual_report") else kind)
    if table is None:
        return None
    ends = [c.end for c in table.columns if c.end is not None]
    # The company's calendar, else the one the report implies: its own period ends on its period end
    # date, or (no date stored, e.g. page-text corpora) on the latest date its table's header names.
    calendar = (
        calendar
        or report_calendar(_date(item.get("period_end")), *_own_period(item))
        or report_calendar(max(ends, default=None), *_own_period(item))
        or (FiscalCalendar(12) if not ends else None)  # fiscal-year headers only: no calendar needed
    )
    return (table, calendar) if calendar is not None else None


def _table_fact(
    item: dict[str, Any], target: PeriodTarget, prior: bool, metric: str, cell: Any
) -> dict[str, Any]:
    return {
        "ticker": item.get("ticker") or "",
        "period": FiscalPeriod.year(target.fiscal_year).label
        if prior or target.duration == "year"
        else item["period_label"],
        "metric": metric[:80],
        "value": float(cell.value),
        "unit": _legacy_unit(cell.unit, cell.scale),
        "source": item["label"],
        "method": "table",
        "column": cell.header,
    }


def table_facts(
    item: dict[str, Any], phrases: Sequence[str], calendar: FiscalCalendar | None = None, prior: bool = False
) -> list[dict[str, Any]]:
    """Figures a statement table states for the report's own period: the row named by a search phrase,
    the column whose header names that period (never the first column by position: Amazon lists the
    oldest year first). No such column, no figure."""
    read = _report_table(item, calendar)
    if read is None:
        return []
    table, calendar = read
    facts = []
    for phrase in phrases:
        row = find_row(table, phrase)
        if row is None:
            continue
        for target, suffix in _own_targets(item, prior):
            cell = cell_for(table, row, target, calendar)
            if cell is not None:
                facts.append(_table_fact(item, target, prior, row.label.rstrip(":") + suffix, cell))
                break
    return facts


def parts_sum_fact(
    item: dict[str, Any], headings: Sequence[str], parts: re.Pattern[str], prior: bool = False
) -> dict[str, Any] | None:
    """A line a statement prints only as its parts under its heading, summed and labelled so: Amcor's
    "Inventories, net" is "Raw materials and supplies" 992 and "Work in process and finished goods"
    1,221, with no total row. Every part must be read for the period, in one unit."""
    read = _report_table(item, None)
    if read is None:
        return None
    table, calendar = read
    rows = [
        r
        for r in table.rows
        if any(h in (r.section or "").lower() for h in headings) and parts.search(r.label)
    ]
    if len(rows) < 2:
        return None
    for target, _ in _own_targets(item, prior):
        cells = [cell_for(table, row, target, calendar) for row in rows]
        read_all = [c for c in cells if c is not None]
        if len(read_all) == len(rows) and len({(c.unit, c.scale) for c in read_all}) == 1:
            total = replace(read_all[0], value=sum((c.value for c in read_all), Decimal(0)))
            label = f"{(rows[0].section or headings[0]).rstrip(':')} (sum of {len(rows)} lines)"
            return _table_fact(item, target, prior, label, total) | {"summed": len(rows)}
    return None


def _date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def deterministic_facts(items: Sequence[dict[str, Any]], phrases: Sequence[str]) -> list[dict[str, Any]]:
    """One figure per (ticker, period, row) from the best-ranked statement tables."""
    ranked = sorted(items, key=lambda i: (i.get("statement") is None, -i.get("fused_score", 0.0)))
    chosen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for item in ranked:
        for fact in table_facts(item, phrases):
            key = (fact["ticker"], fact["period"], _metric_key(fact["metric"]))
            chosen.setdefault(key, fact)
    return list(chosen.values())


_ASKS_A_VALUE = re.compile(r"^\s*(?:what\s+(?:was|is|were|are)\b|how\s+much\b)", re.I)
_LINE_WORD = re.compile(r"[a-z][a-z&\-]+")
_GENERIC_LINE_WORDS = frozenset({"total", "net", "and", "of", "the"})


def asks_a_value(question: str) -> bool:
    """ "What was …", "How much …": the question asks the value of a line."""
    return bool(_ASKS_A_VALUE.match(question))


def value_line_words(question: str) -> list[str]:
    """The words of a "what was X for P" question a table line's label may be made of ("What was
    Amcor's adjusted non-GAAP EBITDA for FY2023"); none when the question asks no value. Read once, by
    the question's analysis."""
    return sorted(set(_LINE_WORD.findall(question.lower()))) if asks_a_value(question) else []


def asked_line_facts(
    asked: Collection[str], facts: Sequence[dict[str, Any]], periods: Sequence[str]
) -> list[dict[str, Any]]:
    """The table figures a "what was X for P" question asks for, one per company and period: a row
    read from a table whose label's words the question all names (``asked``: its value_line_words),
    in an asked period. Empty when the question asks no value, or when rows of one company and period
    tie with different values."""
    named = set(asked)
    if not named:
        return []
    best: dict[tuple[str, str], tuple[int, list[dict[str, Any]]]] = {}
    for fact in facts:
        words = set(_LINE_WORD.findall(fact["metric"].lower())) - _GENERIC_LINE_WORDS
        if fact.get("method") != "table" or fact["period"] not in periods or not words or not words <= named:
            continue
        key = (fact["ticker"], fact["period"])
        score, found = best.get(key, (0, []))
        if len(words) > score:
            best[key] = (len(words), [fact])
        elif len(words) == score:
            found.append(fact)
    return [found[0] for _, found in best.values() if len({f["value"] for f in found}) == 1]


def sort_facts(facts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """By company, then chronologically (a fiscal year after its quarters)."""
    return sorted(facts, key=lambda f: (f["ticker"], period_key(f["period"]), f["metric"]))


def figures_by_company(facts: Sequence[dict[str, Any]], calculations: Sequence[dict[str, Any]]) -> str:
    """Figures and computed changes grouped under each company, so none is attributed to another."""
    if not facts:
        return "(none)"
    blocks = []
    for ticker in dict.fromkeys(f["ticker"] for f in sort_facts(facts)):
        lines = [f"{ticker}:"]
        lines += [
            f"- {f['period']} {f['metric']}: {format_value(f['value'], f.get('unit'))} [{f['source']}]"
            for f in sort_facts(facts)
            if f["ticker"] == ticker
        ]
        lines += [f"- {describe_calculation(c)}" for c in calculations if c["ticker"] == ticker]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def describe_calculation(calculation: dict[str, Any]) -> str:
    """ "gross margin FY2022: 43.3%" or "revenue change Q1 FY2023 -> Q2 FY2023: +2.1%"."""
    c = calculation
    if "from_period" in c:
        return f"{c['metric']} change {c['from_period']} -> {c['to_period']}: {c['result_text']}"
    if "since" in c:  # an amount's difference between two years
        return f"{c['metric']} change {c['since']} -> {c['period']}: {c['result_text']}"
    return f"{c['metric']} {c['period']}: {c['result_text']} (= {c.get('formula', c['expression'])})"


def _figure(fact: dict[str, Any]) -> str:
    return f"{format_value(fact['value'], fact.get('unit'))} in {fact['period']} [{fact['source']}]"


def summary_lines(facts: Sequence[dict[str, Any]], calculations: Sequence[dict[str, Any]]) -> str:
    """A plain, verified summary: first and last figure of each company's series and the change."""
    lines = []
    for ticker in dict.fromkeys(f["ticker"] for f in sort_facts(facts)):
        own = [f for f in sort_facts(facts) if f["ticker"] == ticker and not f["period"].startswith("FY")]
        own = own or [f for f in sort_facts(facts) if f["ticker"] == ticker]
        first, last = own[0], own[-1]
        text = f"{ticker} {last['metric']}: {_figure(last)}"
        if first is not last and _metric_key(first["metric"]) == _metric_key(last["metric"]):
            change = next(
                (
                    c
                    for c in calculations
                    if c["ticker"] == ticker
                    and "from_period" in c
                    and c["from_period"] == first["period"]
                    and c["to_period"] == last["period"]
                ),
                None,
            )
            text += f", from {_figure(first)}"
            if change:
                text += f" ({change['result_text']})"
        lines.append(text + ".")
        lines += [
            f"{ticker} {describe_calculation(c)} [{', '.join(c['sources'])}]."
            for c in calculations
            if c["ticker"] == ticker and "from_period" not in c
        ]
    return " ".join(lines)
