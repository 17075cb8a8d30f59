r"""``TimeSpec``\ s -> ``TargetPeriod``\ s for one company, on its calendar and the store's inventory
(rules in ``finagent.finance.periods``)."""

from __future__ import annotations

import calendar as _calendar
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from typing import cast

from finagent.finance.periods.fiscal_calendar import CompanyCalendar, last_quarter_end_before
from finagent.finance.periods.grammar import TWELVE_MONTHS
from finagent.finance.periods.inventory import (
    Inventory,
    PeriodResolution,
    TargetPeriod,
    count_back,
    period_order,
)
from finagent.finance.periods.period import period_label
from finagent.finance.periods.rules import FISCAL_WORD
from finagent.finance.periods.spec import (
    ANNUAL_KINDS,
    FACTS_KIND,
    FILING_KINDS,
    AvailablePeriod,
    Key,
    Prefer,
    TimeSpec,
    Unit,
    from_quarter_index,
    quarter_index,
)
from finagent.finance.periods.year_to_date import SpanReader


class _Resolver(SpanReader):
    """Expands specs into period keys for one company, then into targets with warnings (the periods
    that months name are ``MonthReader``'s)."""

    def __init__(
        self,
        cal: CompanyCalendar,
        inventory: Inventory,
        today: date,
        *,
        whole_years: bool = False,
        annual_named: bool = False,
    ) -> None:
        super().__init__(cal, inventory, today)
        self.whole_years = whole_years
        """A year is asked for its figures: its quarters never stand in for it (searched only)."""
        self.annual_named = annual_named
        """The question names a year's report ("its fiscal 2024 10-K"): a year without one stays a
        target (not stored, so the answer says it is missing) beside the quarters searched instead."""
        self.spans = {}
        self.companions: set[Key] = set()
        """Annual periods added only because their 10-K reports a requested Q4 (not counted when trimming)."""

    # -- anchors ------------------------------------------------------------------------------
    def calendar_quarter(self) -> tuple[int, int]:
        """The last fiscal quarter that ended before today, by the calendar alone."""
        return self.cal.period_of(last_quarter_end_before(self.today, self.cal.fye_month))

    def quarter_anchor(self) -> tuple[int, int]:
        """Newest quarter the store covers (a FY 10-K covers Q4), else the calendar's (warned)."""
        candidates = [quarter_index(*q) for q in (self.inv.latest_quarter_report(),) if q]
        annual = self.inv.latest_annual()
        if annual is not None:
            candidates.append(quarter_index(annual, 4))
        if candidates:
            return from_quarter_index(max(candidates))
        anchor = self.calendar_quarter()
        self.warn(
            f"no quarterly documents for {self.ticker} in the store; counting back from "
            f"{period_label(*anchor)}, the last fiscal quarter ended before {self.today.isoformat()}"
        )
        return anchor

    def year_anchor(self) -> int:
        """Newest fiscal year with a 10-K, else with quarterly documents, else the calendar's (warned)."""
        annual = self.inv.latest_annual()
        if annual is not None:
            return annual
        quarter = self.inv.latest_quarter_report()
        if quarter is not None:
            return quarter[0]
        year, q = self.calendar_quarter()
        anchor = year if q == 4 else year - 1
        self.warn(
            f"no documents for {self.ticker} in the store; using {period_label(anchor, None)}, the last "
            f"fiscal year ended before {self.today.isoformat()}"
        )
        return anchor

    # -- expansion ----------------------------------------------------------------------------
    def calendar_reading(self, spec: TimeSpec) -> Key | None:
        """The fiscal quarter that overlaps calendar "Qn YYYY" most, when "Qn YYYY" did not say fiscal.

        For a company whose year ends in December the readings agree; for others "Q1 2023" is often
        meant as January-March 2023. Exactly one fiscal quarter ends within a month of March.
        """
        if (
            spec.year is None
            or spec.quarter is None
            or self.cal.fye_month == 12
            or FISCAL_WORD.search(spec.text)
        ):
            return None
        month_index = spec.year * 12 + 3 * spec.quarter - 1  # the calendar quarter's last month, 0-based
        for shift in (0, 1, -1):
            year, month0 = divmod(month_index + shift, 12)
            if (month0 + 1 - self.cal.fye_month) % 3 == 0:
                last_day = _calendar.monthrange(year, month0 + 1)[1]
                return self.cal.period_of(date(year, month0 + 1, last_day))
        return None

    def quarters_between(self, start: tuple[int, int], end: tuple[int, int]) -> list[Key]:
        low, high = sorted((quarter_index(*start), quarter_index(*end)))
        return [from_quarter_index(i) for i in range(low, high + 1)]

    def last_with(self, kind: str, n: int) -> list[Key]:
        """The last ``n`` quarters with a ``kind`` document; missing ones counted back (no Q4 10-Q)."""
        keys = self.inv.quarters_with(kind)[-n:]
        before = quarter_index(*keys[0]) - 1 if keys else quarter_index(*self.quarter_anchor())
        return [*count_back(before, n - len(keys), without_q4=kind == "10-Q"), *keys]

    def latest(self, unit: Unit | None, prefer: Prefer) -> list[Key]:
        annual_first = unit == "year" or (unit is None and prefer == "annual")
        latest_q = self.inv.latest_quarter_report()
        latest_y = self.inv.latest_annual()
        if annual_first and latest_y is not None:
            return [(latest_y, None)]
        if unit == "year" and self.whole_years and latest_q is not None:
            return [(latest_q[0], None)]  # its year, which the quarters held never stand in for
        if annual_first and (latest_q is not None or self.inv.latest_any() is not None):
            self.warn(f"no 10-K for {self.ticker} in the store; using its latest quarter instead")
        if latest_q is not None or latest_y is not None:
            quarter_key: Key | None = latest_q
            if latest_y is not None and (
                latest_q is None or quarter_index(latest_y, 4) > quarter_index(*latest_q)
            ):
                # The 10-K is newer than every quarterly document: its year, or its fourth quarter
                # when a quarter is asked ("the latest quarter" is not the whole year).
                quarter_key = (latest_y, 4) if unit == "quarter" else (latest_y, None)
            return [quarter_key] if quarter_key else []
        anything = self.inv.latest_any()
        if anything is not None:
            return [anything]
        self.warn(f"no documents for {self.ticker} in the store")
        return []

    def expand(self, spec: TimeSpec, prefer: Prefer) -> list[tuple[Key, bool]]:
        """Period keys a spec asks for, each flagged True when generated (not named explicitly)."""
        if spec.kind in ("fiscal_year", "fiscal_quarter", "year_range", "quarter_range"):
            return self.named(spec)
        if spec.kind in ("date_range", "reported"):
            return self.dated(spec)
        if spec.kind == "fiscal_span":
            return self.spanned(spec)
        return self.counted(spec, prefer)

    def named(self, spec: TimeSpec) -> list[tuple[Key, bool]]:
        """A fiscal year or quarter named, or a range of them ("FY2019 to FY2021", "Q1 to Q3 2023")."""
        quarterly = spec.unit == "quarter"
        if spec.kind == "fiscal_year" and spec.year is not None:
            if quarterly:  # every quarter, or the first n ("the first three quarters of fiscal 2024")
                return [((spec.year, q), True) for q in range(1, min(spec.n or 4, 4) + 1)]
            return [((spec.year, None), False)]
        if spec.kind == "fiscal_quarter" and spec.year is not None and spec.quarter is not None:
            named: Key = (spec.year, spec.quarter)
            calendar = self.calendar_reading(spec)
            if calendar is None or calendar == named or not self.inv.documented(calendar):
                return [(named, False)]
            self.warn(
                f"'{spec.text}' read as {self.ticker} fiscal {period_label(*named)}; the quarter closest to "
                f"calendar Q{spec.quarter} {spec.year} is {period_label(*calendar)}, searched too"
            )
            return [(named, False), (calendar, True)]
        if spec.kind == "year_range" and spec.start_year is not None and spec.end_year is not None:
            if quarterly:
                return [(k, True) for k in self.quarters_between((spec.start_year, 1), (spec.end_year, 4))]
            return [((y, None), True) for y in range(spec.start_year, spec.end_year + 1)]
        if spec.kind == "quarter_range" and spec.start_quarter and spec.end_quarter:
            return [(k, True) for k in self.quarters_between(spec.start_quarter, spec.end_quarter)]
        return []

    def dated(self, spec: TimeSpec) -> list[tuple[Key, bool]]:
        """Months or days named ("the quarter ended June 30, 2023", "during 2023"), or the months the
        periods were reported in."""
        if spec.kind == "date_range" and spec.start_date is not None:
            last = spec.end_date or self.today
            if spec.span:
                return [
                    (k, True)
                    for k in self.within_span(spec.start_date, last, quarterly=spec.unit == "quarter")
                ]
            annual = spec.unit == "year"
            keys = self.ending_in(spec.start_date, last, annual=annual, slack=spec.slack, day=spec.day)
            if keys:
                return [(k, True) for k in keys]
            if annual and TWELVE_MONTHS.search(spec.text):
                trailing = self.trailing_year(spec, last)
                if trailing:
                    return [(k, True) for k in trailing]
            return self.containing(spec, last, annual=annual)
        if spec.kind == "reported" and spec.start_date is not None:
            return [(k, True) for k in self.reported_in(spec)]
        return []

    def counted(self, spec: TimeSpec, prefer: Prefer) -> list[tuple[Key, bool]]:
        """Periods counted from what the store holds: the last n quarters or years, since a year, the
        latest, every period held."""
        quarterly = spec.unit == "quarter"
        if spec.kind == "last_quarters" and spec.n:
            if spec.start_date is not None and spec.end_date is not None:
                return [(k, True) for k in self.quarters_through(spec)]
            if spec.report:
                return [(k, True) for k in self.last_with(spec.report, spec.n)]
            end = quarter_index(*self.quarter_anchor())
            return [(k, True) for k in count_back(end, spec.n)]
        if spec.kind == "last_years" and spec.n:
            if quarterly:
                end = quarter_index(*self.quarter_anchor())
                return [(from_quarter_index(i), True) for i in range(end - 4 * spec.n + 1, end + 1)]
            anchor = self.year_anchor()
            return [((y, None), True) for y in range(anchor - spec.n + 1, anchor + 1)]
        if spec.kind == "since_year" and spec.year is not None:
            if quarterly:
                newest = self.quarter_anchor()
                return [(k, True) for k in self.quarters_between((spec.year, spec.quarter or 1), newest)]
            last_year = self.inv.latest_reported_year() or self.calendar_quarter()[0]
            return [((y, None), True) for y in range(spec.year, max(spec.year, last_year) + 1)]
        if spec.kind == "latest":
            return [(k, False) for k in self.latest(spec.unit, prefer)]
        if spec.kind == "held":
            return [(k, True) for k in self.inv.held(annual=spec.unit == "year")]
        return []

    # -- materialisation ----------------------------------------------------------------------
    def target(self, key: Key) -> TargetPeriod:
        kinds = self.inv.kinds_of(key)
        stored = self.inv.ends.get(key)
        span = self.spans.get(key)
        return TargetPeriod(
            ticker=self.ticker,
            fiscal_year=key[0],
            fiscal_quarter=key[1],
            label=self.label(key),
            period_end=stored[1] if stored else self.nominal_end(key),
            kinds=kinds,
            available=bool(kinds),
            span=span.value if span is not None else None,
        )

    def only(self, key: Key) -> str:
        kinds = self.inv.kinds_of(key)
        return f" (only {', '.join(kinds)})" if kinds else ""

    def materialise(self, key: Key) -> list[TargetPeriod]:
        year, quarter = key
        if quarter is None:
            if self.inv.has_annual(year):
                return [self.target(key)]
            quarters: list[Key] = [(year, q) for q in range(1, 5) if self.inv.has_quarter_report(year, q)]
            if quarters and self.whole_years:
                labels = ", ".join(self.label(k) for k in quarters)
                self.warn(
                    f"no {self.label(key)} figures for {self.ticker} in the store: it holds only part of "
                    f"that year ({labels}), which is not the full year"
                )
                self.companions.update(quarters)
                return [self.target(key), *(self.target(k) for k in quarters)]
            if quarters:
                labels = ", ".join(self.label(k) for k in quarters)
                self.warn(
                    f"no 10-K for {self.ticker} {self.label((year, None))} in the store; "
                    f"using its quarterly documents ({labels})"
                )
                unheld = [self.target(key)] if self.annual_named else []
                return [*unheld, *(self.target(k) for k in quarters)]
            self.warn(f"no 10-K for {self.ticker} {self.label((year, None))} in the store{self.only(key)}")
            return [self.target(key)]
        targets = [self.target(key)]
        if self.inv.has_quarter_document(year, quarter):
            return targets
        if quarter == 4 and self.inv.has_annual_document(year):
            self.warn(
                f"no Q4-specific document for {self.ticker} {self.label(key)} in the store; "
                f"Q4 is reported in the {self.label((year, None))} 10-K, which is targeted too"
            )
            self.companions.add((year, None))
            return [*targets, self.target((year, None))]
        if self.inv.has_quarter_report(year, quarter):
            return targets  # XBRL facts report the quarter
        if quarter == 4 and self.inv.has_annual(year):
            self.warn(
                f"no Q4-specific document for {self.ticker} {self.label(key)} in the store; "
                f"its {self.label((year, None))} figures are targeted too"
            )
            self.companions.add((year, None))
            return [*targets, self.target((year, None))]
        missing = "no 10-Q" if quarter != 4 else "no Q4 document or 10-K"
        self.warn(f"{missing} for {self.ticker} {self.label(key)} in the store{self.only(key)}")
        return targets

    def not_ended(self, key: Key) -> bool:
        """A generated period still running at ``today`` with nothing stored is not asked for."""
        if self.nominal_end(key) <= self.today:
            return False
        if key[1] is None:
            return not self.inv.has_any_in_year(key[0])
        return key not in self.inv.kinds


def resolve_periods(
    specs: Sequence[TimeSpec],
    calendar: CompanyCalendar,
    available: Sequence[AvailablePeriod],
    *,
    today: date,
    max_quarters: int = 12,
    prefer: str = "quarter",
    kinds: frozenset[str] = frozenset(),
    whole_years: bool = False,
) -> PeriodResolution:
    """Concrete, chronological target periods of one company for the question's time specs.

    No specs means "latest" (quarterly or annual per ``prefer``). ``today`` is passed in so the
    result is reproducible; ``available`` is that company's store inventory, narrowed to ``kinds``
    when the question names document kinds the store holds ("the latest 10-Q" is not a newer call).
    XBRL facts rows stay in a narrowed inventory when ``kinds`` includes a filing kind (facts come
    from 10-Ks and 10-Qs). ``whole_years``: the question asks a year's figures, which its quarters
    or nine months never stand in for (they are searched as companions, the year is a gap).
    """
    if prefer not in ("quarter", "annual"):
        raise ValueError(f"prefer must be 'quarter' or 'annual', got {prefer!r}")
    named = [row for row in available if row.kind in kinds and row.kind != FACTS_KIND] if kinds else []
    if named and kinds & FILING_KINDS:
        named += [row for row in available if row.kind == FACTS_KIND]
    resolver = _Resolver(
        calendar,
        Inventory(calendar.ticker.upper(), named or available),
        today,
        whole_years=whole_years,
        annual_named=bool(kinds & ANNUAL_KINDS),
    )
    if kinds and available and not named:
        resolver.warn(
            f"no {' or '.join(sorted(kinds))} of {calendar.ticker} in the store; using what it holds"
        )
    keys = _requested(resolver, specs, cast(Prefer, prefer), max(1, max_quarters))
    return _targeted(resolver, keys, max(1, max_quarters))


def _requested(resolver: _Resolver, specs: Sequence[TimeSpec], prefer: Prefer, limit: int) -> list[Key]:
    """The periods the specs name, chronological: generated ones not ended yet dropped, at most
    ``limit`` of the most recent kept (both warned about)."""
    requested: dict[Key, bool] = {}
    for spec in specs or [TimeSpec.latest()]:
        for key, generated in resolver.expand(spec, prefer):
            requested[key] = requested.get(key, True) and generated  # explicit beats generated
    future = [k for k, generated in requested.items() if generated and resolver.not_ended(k)]
    if future:
        labels = ", ".join(resolver.label(k) for k in sorted(future, key=period_order))
        resolver.warn(
            f"{resolver.ticker}: skipped periods not ended by {resolver.today.isoformat()}: {labels}"
        )
    keys = sorted((k for k in requested if k not in future), key=period_order)
    if len(keys) > limit:
        resolver.warn(
            f"{resolver.ticker}: {len(keys)} periods requested; keeping the most recent {limit} "
            f"({resolver.label(keys[-limit])} to {resolver.label(keys[-1])})"
        )
        keys = keys[-limit:]
    return keys


def _targeted(resolver: _Resolver, keys: list[Key], limit: int) -> PeriodResolution:
    """The stored targets of the requested periods, companions (a Q4's 10-K) marked as such."""
    targets: dict[Key, TargetPeriod] = {}
    primary: set[Key] = set()
    for key in keys:
        for target in resolver.materialise(key):
            target_key: Key = (target.fiscal_year, target.fiscal_quarter)
            targets.setdefault(target_key, target)
            if target_key not in resolver.companions or target_key == key:
                primary.add(target_key)
    ordered_keys = sorted(targets, key=period_order)
    counted = [k for k in ordered_keys if k in primary]
    if len(counted) > limit:
        # A FY without a 10-K may have expanded into its quarters: trim again, companions ride along.
        first = counted[-limit]
        resolver.warn(
            f"{resolver.ticker}: {len(counted)} periods to search; keeping the most recent {limit} "
            f"({resolver.label(first)} to {resolver.label(counted[-1])})"
        )
        ordered_keys = ordered_keys[ordered_keys.index(first) :]
    periods = [targets[k] if k in primary else replace(targets[k], companion=True) for k in ordered_keys]
    return PeriodResolution(periods=periods, warnings=resolver.warnings)
