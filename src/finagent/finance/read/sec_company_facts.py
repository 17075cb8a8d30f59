"""SEC company facts (the XBRL API's ``CIK##########.json``): what a filing is, and the calendar.

Why a module of its own: the API lists every fact a company reported with the filing that reported
it (``accn``, ``form``, ``filed``) and that filing's own focus (``fy``, ``fp``). A 10-K's comparative
columns and a 10-Q's prior-year quarter carry the *filing's* fy/fp, so no fact's period is read from
them: each fact is labelled from its own start/end through the company's fiscal calendar, which is
inferred here from the annual facts (the month its years end) and the 10-Ks' own year naming.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.fiscal import fiscal_period, nominal_month_end

# Taxonomies whose facts are stored; the API also serves a few others (e.g. 'invest').
TAXONOMIES = ("us-gaap", "ifrs-full", "srt", "dei")

_ANNUAL_FORMS = ("10-K", "10-KT", "10-K405", "20-F", "40-F")


def form_kind(form: str) -> str:
    """The document kind of a filing form: 10-K/A and 10-KT are 10-Ks, 20-F an annual report."""
    base = form.upper().split("/", 1)[0].strip()
    if base in ("10-K", "10-KT", "10-K405", "10-KSB"):
        return "10-K"
    if base in ("10-Q", "10-QT", "10-QSB"):
        return "10-Q"
    if base == "8-K":
        return "8-K"
    if base in ("20-F", "40-F"):
        return "annual_report"
    return "other"


def annual_form(form: str) -> bool:
    return form.upper().split("/", 1)[0].strip() in _ANNUAL_FORMS


def edgar_url(cik: str | int, accession: str) -> str:
    """The filing's folder on EDGAR: where its documents (text, XBRL) can be read."""
    return f"https://www.sec.gov/Archives/edgar/data/{int(cik)}/{accession.replace('-', '')}/"


def inferred_decimals(value: int | Decimal) -> int | None:
    """The precision a value shows (the API states none): 2,806,489,000 is at least to thousands
    (-3), 383,285,000,000 to millions (-6, the coarsest assumed), 1.23 to cents (2); zero None.
    Text copies of the filing print the number at that precision, so its chunk can be found."""
    if isinstance(value, int):
        if value == 0:
            return None
        if value % 1_000_000 == 0:
            return -6
        return -3 if value % 1000 == 0 else 0
    exponent = value.normalize().as_tuple().exponent
    if not isinstance(exponent, int):
        return None
    return -exponent if exponent < 0 else inferred_decimals(int(value))


@dataclass(slots=True)
class FilingFacts:
    """What the facts of one filing (accession) say about it, gathered while they stream by."""

    accession: str
    form: str
    filed: date | None
    fy: int | None = None
    fp: str | None = None
    facts: int = 0
    last_annual_end: date | None = None  # latest end of a year-long fact
    last_duration_end: date | None = None  # latest end of a quarter/half/nine-month/year fact
    last_instant_end: date | None = None  # latest balance date (dei cover facts excluded)

    @property
    def period_end(self) -> date | None:
        """The filing's own period: the latest period its statements cover (a 10-K's year, a 10-Q's
        quarter), else its latest balance date."""
        return self.last_duration_end or self.last_instant_end

    def saw(self, duration: str, end: date, taxonomy: str) -> None:
        """A period the filing reports facts for (``taxonomy`` 'dei': the cover's dates, not its own)."""
        if duration == "year" and (self.last_annual_end is None or end > self.last_annual_end):
            self.last_annual_end = end
        if duration != "other" and duration != "instant":
            if self.last_duration_end is None or end > self.last_duration_end:
                self.last_duration_end = end
        elif (
            duration == "instant"
            and taxonomy != "dei"
            and (self.last_instant_end is None or end > self.last_instant_end)
        ):
            self.last_instant_end = end


@dataclass(slots=True)
class CompanyFile:
    """One company-facts file as read: the company and, per filing, what its facts showed."""

    cik: str | None = None
    name: str | None = None
    filings: dict[str, FilingFacts] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # concept -> the API's label
    period_ends: set[date] = field(default_factory=set)
    facts: int = 0
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> facts not stored


def infer_calendar(filings: list[FilingFacts]) -> FiscalCalendar | None:
    """The company's fiscal calendar from its annual reports, or None when it filed none.

    Year-end month: the nominal month the latest annual report's own year ends in (a January 31
    year end is month 1; 52/53-week years ending early in a month count as the month before).
    Naming: the offset most annual reports' own ``fy`` imply for their own year (the latest period
    they cover), so a year ending January 2024 that its 10-K calls fiscal 2024 is FY2024, and a
    retailer naming it 2023 gets offset -1. Only each report's own year is used: its comparative
    columns carry the same ``fy``.
    """
    annual = [f for f in filings if annual_form(f.form) and f.last_annual_end is not None]
    if not annual:
        return None
    latest = max(annual, key=lambda f: (f.filed or date.min, f.last_annual_end or date.min))
    assert latest.last_annual_end is not None
    fye_month = nominal_month_end(latest.last_annual_end)[1]
    offsets: Counter[int] = Counter()
    for filing in annual:
        assert filing.last_annual_end is not None
        if filing.fy is None or nominal_month_end(filing.last_annual_end)[1] != fye_month:
            continue
        offset = filing.fy - fiscal_period(filing.last_annual_end, fye_month)[0]
        if -1 <= offset <= 1:
            offsets[offset] += 1
    offset = max(offsets, key=lambda o: (offsets[o], o == 0)) if offsets else 0
    return FiscalCalendar(fye_month, offset)
