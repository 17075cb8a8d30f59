"""TODO docstring."""

from __future__ import annotations

import calendar as calendar_module
import re
from datetime import date

from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.fiscal import fiscal_period, nominal_month_end
from finagent.finance.read.xbrl.xml import norm_space, xml_date

_MONTHS = {
    **{name.lower(): i for i, name in enumerate(calendar_module.month_name) if name},
    **{name.lower(): i for i, name in enumerate(calendar_module.month_abbr) if name},
    "sept": 9,
}


def fye_month(text: str, fmt: str | None = None) -> int | None:
    """Nominal fiscal-year-end month from '--09-27', 'September 28', '11/29', '0927' (fmt 'mmdd').

    52/53-week years ending in the first days of a month nominally end the previous month
    (NVIDIA's '--01-26' is January, Home Depot's 'February 2' is January).
    """
    s = norm_space(text)
    if not s:
        return None
    month = day = None
    if m := re.fullmatch(r"--(\d{2})-(\d{2})", s) or (
        re.fullmatch(r"(\d{2})(\d{2})", s) if fmt == "mmdd" else None
    ):
        month, day = int(m.group(1)), int(m.group(2))
    elif m := re.fullmatch(r"(\d{1,2})[/-](\d{1,2})", s):
        month, day = int(m.group(1)), int(m.group(2))
        if fmt and "day-month" in fmt:
            month, day = day, month
    elif (m := re.match(r"([A-Za-z]{3,9})\.?\s+(\d{1,2})", s)) and m.group(1).lower() in _MONTHS:
        month, day = _MONTHS[m.group(1).lower()], int(m.group(2))
    elif (m := re.match(r"(\d{1,2})\s+([A-Za-z]{3,9})", s)) and m.group(2).lower() in _MONTHS:
        month, day = _MONTHS[m.group(2).lower()], int(m.group(1))
    if month is None or day is None:
        return None
    try:
        return nominal_month_end(date(2000, month, day))[1]  # 2000: a leap year, so --02-29 works
    except ValueError:
        return None


def _dei_date(text: str) -> date | None:
    """dei:DocumentPeriodEndDate as instances ('2023-09-30') and covers ('September 30, 2023') write it."""
    s = norm_space(text)
    if d := xml_date(s):
        return d
    m = re.fullmatch(r"([A-Za-z]{3,9})\.?\s+(\d{1,2})\s*,?\s*(\d{4})", s)
    if m and m.group(1).lower() in _MONTHS:
        month, day, year = _MONTHS[m.group(1).lower()], int(m.group(2)), int(m.group(3))
    elif m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", s):
        month, day, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
    else:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def filing_calendar(dei: dict[str, str]) -> FiscalCalendar | None:
    """The company's fiscal calendar as its own filing states it (dei cover facts).

    Month: ``CurrentFiscalYearEndDate``, else the period end of an annual report. Offset:
    ``DocumentFiscalYearFocus`` minus the year the plain end-year rule gives for
    ``DocumentPeriodEndDate`` (Home Depot's year ended 2025-02-02 is "fiscal 2024": -1); only
    -1, 0 and +1 are believed (anything else is a mistyped cover fact, and 0 is used).
    """
    period_end = _dei_date(dei.get("DocumentPeriodEndDate", ""))
    month = fye_month(dei.get("CurrentFiscalYearEndDate", ""), dei.get("CurrentFiscalYearEndDate@format"))
    form = (dei.get("DocumentType") or "").strip().upper()
    if month is None and period_end is not None and form.startswith(("10-K", "20-F", "40-F")):
        month = nominal_month_end(period_end)[1]
    if month is None:
        return None
    offset = 0
    focus = re.search(r"\d{4}", dei.get("DocumentFiscalYearFocus", ""))
    if focus and period_end is not None:
        diff = int(focus.group(0)) - fiscal_period(period_end, month, 0)[0]
        if diff in (-1, 0, 1):
            offset = diff
    return FiscalCalendar(month, offset)
