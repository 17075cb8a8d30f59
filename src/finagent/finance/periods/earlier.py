"""The report to fall back on when none of the requested periods is stored: the newest older one."""

from __future__ import annotations

from collections.abc import Sequence

from finagent.finance.periods.inventory import TargetPeriod, period_order
from finagent.finance.periods.spec import ANNUAL_KINDS, QUARTER_KINDS, AvailablePeriod, TimeSpec


def nearest_earlier_report(
    periods: Sequence[TargetPeriod], available: Sequence[AvailablePeriod], kinds: frozenset[str] = frozenset()
) -> TimeSpec | None:
    """The newest stored report older than the requested periods, when none of them is stored.

    "What is Boeing forecasting for FY2023?" is answered by the FY2022 10-K when the store has no
    FY2023 documents; the caller says so in a warning.
    """
    if not periods or any(p.available for p in periods):
        return None
    newest = max(periods, key=lambda p: period_order((p.fiscal_year, p.fiscal_quarter)))
    annual = newest.fiscal_quarter is None
    reports = (ANNUAL_KINDS if annual else QUARTER_KINDS) & (kinds or ANNUAL_KINDS | QUARTER_KINDS)
    keys = [
        (row.fiscal_year, None if annual else row.fiscal_quarter)
        for row in available
        if row.kind in reports and (row.fiscal_quarter is None) == annual
    ]
    older = [k for k in keys if period_order(k) < period_order((newest.fiscal_year, newest.fiscal_quarter))]
    if not older:
        return None
    year, quarter = max(older, key=period_order)
    return TimeSpec.fiscal_year(year) if quarter is None else TimeSpec.fiscal_quarter(year, quarter)
