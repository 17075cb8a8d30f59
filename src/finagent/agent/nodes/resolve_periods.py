"""resolve_periods node: each company's concrete fiscal periods, on its calendar and the store's inventory."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import date
from typing import Any

from langgraph.runtime import Runtime

from finagent.agent.context import Context
from finagent.agent.nodes.fan_out import REPORT_KINDS
from finagent.agent.resources import get_resources
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.db.periods import DatedMatch, documents_dated, load_inventory
from finagent.finance.ask.long_history import History, held_range
from finagent.finance.fiscal import calendar_for
from finagent.finance.periods import (
    DATED_DOCUMENT_DAYS,
    DatedDocument,
    TimeSpec,
    nearest_earlier_report,
    period_label,
    resolve_periods,
    specs_per_company,
)
from finagent.finance.periods.inventory import PeriodResolution, TargetPeriod
from finagent.finance.periods.spec import ANNUAL_KINDS


def _today(context: Context) -> date:
    return date.fromisoformat(context.today) if context.today else date.today()


def _any_period(
    ticker: str | None, kinds: list[str] | None = None, available: bool = False
) -> dict[str, Any]:
    """A target with no period: the company's (or the store's) whole history, ranked by content."""
    return {
        "ticker": ticker,
        "fiscal_year": None,
        "fiscal_quarter": None,
        "label": "any period",
        "kinds": kinds or [],
        "available": available,
    }


def _specs(plan: Question, context: Context) -> tuple[list[TimeSpec], frozenset[str] | None]:
    """The question's time phrases, and the kinds of an undated document it points at ("this 10-K").
    No period named but a change, a trend or the company's reports asked about: every report held."""
    specs = list(plan.time_specs)
    undated_kinds = plan.undated_kinds
    undated = (
        frozenset(undated_kinds)
        if undated_kinds is not None and context.ablations.rank_undated_years
        else None
    )
    if undated is None and not specs and plan.annual_topic and context.ablations.annual_topics_undated:
        # The business, its risks or legal matters with no period named: every stored annual
        # report, ranked by content, rather than the newest quarter's release.
        undated = frozenset(ANNUAL_KINDS)
    if undated is None and not specs and _dated_by_subject(plan) and context.ablations.subjects_undated:
        undated = frozenset()  # every kind: the 8-K, the call or the report that names it
    if not specs and undated is None and plan.ask.coverage == "all":
        specs = [TimeSpec.held(unit="year" if plan.granularity == "annual" else "quarter")]
    return specs, undated


def _dated_by_subject(plan: Question) -> bool:
    """Asked in words about a name the store holds beyond the companies' own ("Luca Maestri",
    "Vision Pro"), with no figure to read: the passages naming it date the answer, not the calendar."""
    held = [s for s in plan.subjects if s not in plan.unmentioned]
    return bool(held) and not plan.quantities and not plan.status


def _kinds(plan: Question, context: Context) -> frozenset[str]:
    """The kinds whose periods count: "the latest quarter" of a filings question is the latest 10-Q,
    not a newer earnings call."""
    if not context.ablations.narrow_kinds:
        return frozenset()
    named = frozenset(plan.named_kinds)
    return named or (REPORT_KINDS if "transcript" not in plan.sources else frozenset())


def _company_targets(
    ticker: str, specs: list[TimeSpec], company: Any, held: list[Any], context: Context, plan: Question
) -> tuple[list[dict[str, Any]], list[str]]:
    """One company's targets on its calendar and inventory, the nearest earlier report when none of
    the periods asked is stored, its whole history when nothing resolves."""
    kinds = _kinds(plan, context)
    specs = _reports_only(specs, held, plan)
    # Companies ranked on their latest figures compare whole fiscal years: their quarters end months apart.
    ranked = plan.ask.kind == "ranking" and len(plan.tickers) > 1 and not specs
    prefer: Any = "annual" if plan.granularity == "annual" or ranked else "quarter"
    calendar = calendar_for(company)
    history = plan.long_history
    if history is not None:
        specs = _history_specs(history, specs, held)
    resolution = resolve_periods(
        specs,
        calendar,
        held,
        today=_today(context),
        max_quarters=context.max_history_periods if history else context.max_quarters,
        prefer=prefer,
        kinds=kinds,
        whole_years=bool(plan.metrics) and history is None,
    )
    if history is not None and history.unit == "year":
        resolution = _years_only(resolution, calendar)
    warnings = list(resolution.warnings)
    fallback = nearest_earlier_report(resolution.periods, held, kinds)
    if fallback is not None:
        earlier = resolve_periods([fallback], calendar, held, today=_today(context), kinds=kinds)
        labels = ", ".join(p.label for p in earlier.periods)
        warnings.append(
            f"{ticker}: nothing stored for the periods asked; searching {labels}, the latest before"
        )
        resolution.periods.extend(earlier.periods)
    periods = [p.to_dict() for p in resolution.periods]
    return periods or [_any_period(ticker)], warnings


def _reports_only(specs: list[TimeSpec], held: list[Any], plan: Question) -> list[TimeSpec]:
    """A year a forecast looks ahead to, of which nothing is stored, is read in the earlier report the
    question names ("as of FY2021 ... in 2024"), not searched for as a report of its own."""
    ahead = set(plan.ahead_years)
    stored = {period.fiscal_year for period in held}
    kept = [s for s in specs if not (s.kind == "fiscal_year" and s.year in ahead and s.year not in stored)]
    return kept or specs


def _history_specs(history: History, specs: list[TimeSpec], held: list[Any]) -> list[TimeSpec]:
    """ "ever" / "all years": from the earliest period the store holds (a filing or its facts) to the
    latest, every period in between kept so that those with no figure are named; a range or "since"
    as the question says, in its unit."""
    if history.everything:
        keys = [(a.fiscal_year, None if a.kind in ANNUAL_KINDS else a.fiscal_quarter) for a in held]
        spec = held_range([k for k in keys if k[0] is not None], history.unit)
        return [spec] if spec is not None else specs
    unit: Any = "quarter" if history.unit == "quarter" else None
    return [
        replace(s, unit=unit) if s.kind in ("year_range", "since_year") and s.unit is None else s
        for s in specs
    ]


def _years_only(resolution: PeriodResolution, calendar: Any) -> PeriodResolution:
    """An annual series stays annual: a year with no 10-K whose quarters were targeted instead is the
    year again, a gap to name, never a quarter set beside years."""
    periods: dict[tuple[int, int | None], TargetPeriod] = {}
    for period in resolution.periods:
        if period.fiscal_quarter is not None and not period.companion:
            period = TargetPeriod(
                period.ticker, period.fiscal_year, None, period_label(period.fiscal_year, None), None
            )
        periods.setdefault((period.fiscal_year, period.fiscal_quarter), period)
    notes = [w for w in resolution.warnings if "using its quarterly documents" not in w]
    return PeriodResolution(list(periods.values()), notes)


def _dated(plan: Question, context: Context) -> list[DatedDocument]:
    """Documents the question names by their day ("the 8-K dated December 2, 2024")."""
    if not context.ablations.resolve_dated_documents:
        return []
    return list(plan.dated_documents)


def _document_target(match: DatedMatch) -> dict[str, Any]:
    """A stored document as a target: searched alone (``document_ids``), labelled by its date."""
    day = match.period_end if match.kind in ("8-K", "earnings_release") and match.period_end else match.filed
    return {
        "ticker": match.ticker,
        "fiscal_year": match.fiscal_year,
        "fiscal_quarter": match.fiscal_quarter,
        "label": f"{match.kind} dated {day.isoformat() if day else 'undated'}",
        "period_end": match.period_end.isoformat() if match.period_end else None,
        "kinds": [match.kind],
        "available": True,
        "document_ids": [match.document_id],
    }


def _document_targets(
    ticker: str | None, dated: list[DatedDocument], found: dict[tuple[str | None, int], list[DatedMatch]]
) -> tuple[list[dict[str, Any]], list[str], list[DatedDocument]]:
    """(targets, warnings, days with no stored document) of the documents named by their day."""
    targets: list[dict[str, Any]] = []
    warnings: list[str] = []
    missing: list[DatedDocument] = []
    who = ticker or "any company"
    for index, wanted in enumerate(dated):
        kinds = " or ".join(sorted(wanted.kinds)) if len(wanted.kinds) <= 2 else "filing"
        matches = found.get((ticker, index)) or []
        if not matches:
            warnings.append(
                f"no {kinds} of {who} dated within {DATED_DOCUMENT_DAYS} days of {wanted.day.isoformat()} "
                f"in the store; '{wanted.text}' read as a period instead"
            )
            missing.append(wanted)
            continue
        for match in matches:
            target = _document_target(match)
            targets.append(target)
            if match.distance:
                away = f"{match.distance} day{'s' if match.distance > 1 else ''} away"
                if match.filed and match.filed != match.period_end:
                    away = f"filed {match.filed.isoformat()}; {away}"
                warnings.append(
                    f"no {kinds} of {who} dated {wanted.day.isoformat()} in the store; using the nearest, "
                    f"{match.title} ({target['label']}, {away})"
                )
    return targets, warnings, missing


async def resolve_periods_node(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Concrete (fiscal_year, fiscal_quarter) targets per ticker from its calendar and the store."""
    context = runtime.context or Context()
    plan = Question.of(state)
    tickers = list(plan.tickers)
    resources = get_resources()
    specs, undated = _specs(plan, context)
    dated = _dated(plan, context)
    companies_asked: list[str | None] = list(tickers) or [None]
    per_company = specs_per_company(specs, plan.mentions) if plan.question_periods_only else None

    def load() -> tuple[dict[str, Any], dict[str, Any], dict[tuple[str | None, int], list[DatedMatch]]]:
        companies = {c.ticker: c for c in resources.companies()}
        with resources.database().connection() as conn:
            documents = {
                (ticker, index): documents_dated(
                    conn, ticker, sorted(wanted.kinds), wanted.day, DATED_DOCUMENT_DAYS
                )
                for ticker in companies_asked
                for index, wanted in enumerate(dated)
            }
            return companies, load_inventory(conn, tickers), documents

    companies, available, documents = await asyncio.to_thread(load)
    targets: list[dict[str, Any]] = []
    warnings: list[str] = []
    for ticker in companies_asked:
        named, notes, missing = _document_targets(ticker, dated, documents)
        targets += named
        warnings += notes
        if ticker is None:  # no company named: the days with a document are no periods to search
            specs = [s for s in specs if not any(d.names(s) for d in dated if d not in missing)]
            continue
        if undated is not None:  # "this 10-K" with no year: every stored year, ranked by content
            targets.append(_any_period(ticker, sorted(undated), available=True))
            continue
        own = per_company.get(ticker, specs) if per_company else specs
        # A day that named a stored document is no period; one with no document still is.
        own = [s for s in own if not any(d.names(s) for d in dated if d not in missing)]
        if named and not own:
            continue
        found, notes = _company_targets(
            ticker, own, companies[ticker], available.get(ticker, []), context, plan
        )
        targets += found
        warnings += notes
    if not tickers:
        named = unnamed_company_periods(specs) if context.ablations.periods_without_company else []
        targets += named or ([] if targets else [_any_period(None)])
    return {"targets": targets, "warnings": warnings}


MAX_UNNAMED_YEARS = 5
MAX_UNNAMED_QUARTERS = 6


def unnamed_company_periods(specs: list[TimeSpec]) -> list[dict[str, Any]]:
    """Fiscal periods a question names without naming a company ("Q2 of FY2024", "FY2021-FY2023"):
    each company's documents carry their own fiscal labels, so these are searched across companies and
    ranked by content. Relative periods ("last quarter") depend on a company: none here."""
    keys: list[tuple[int, int | None]] = []
    for spec in specs:
        if spec.kind == "fiscal_year" and spec.year:
            keys.append((spec.year, None))
        elif spec.kind == "fiscal_quarter" and spec.year and spec.quarter:
            keys.append((spec.year, spec.quarter))
        elif spec.kind == "year_range" and spec.start_year and spec.end_year:
            years = range(spec.start_year, spec.end_year + 1)
            keys += [(y, None) for y in list(years)[-MAX_UNNAMED_YEARS:]]
        elif spec.kind == "quarter_range" and spec.start_quarter and spec.end_quarter:
            (year, quarter), quarters = spec.start_quarter, []
            while (year, quarter) <= spec.end_quarter:
                quarters.append((year, quarter))
                year, quarter = (year + 1, 1) if quarter == 4 else (year, quarter + 1)
            keys += quarters[-MAX_UNNAMED_QUARTERS:]
    return [
        {
            "ticker": None,
            "fiscal_year": year,
            "fiscal_quarter": quarter,
            "label": period_label(year, quarter),
            "kinds": [],
            "available": False,
        }
        for year, quarter in dict.fromkeys(keys)
    ]
