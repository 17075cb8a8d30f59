"""Time phrases -> concrete fiscal periods per company, on that company's calendar and store.

"Q2 2024", "last 3 quarters" or "between June 2022 and June 2023" mean different filings for
Apple (FYE September), Microsoft (June) and Nvidia (late January). The graph needs exact
(ticker, fiscal year, fiscal quarter) targets to filter retrieval, and honest warnings when the
store lacks them, so this is plain deterministic code with tests, never a model's guess.

Two steps: ``parse_time_phrases`` turns the question into company-independent ``TimeSpec``\\ s;
``resolve_periods`` turns specs into ``TargetPeriod``\\ s for one company, using its
``CompanyCalendar`` (``fiscal_calendar``) and the ``AvailablePeriod`` inventory the store reports
(``db.periods``).

Modules: ``period`` (``FiscalPeriod``: a fiscal year and a span of it, and its label),
``fiscal_calendar`` (``FiscalCalendar``: dates <-> fiscal periods),
``spec`` (TimeSpec, inventory records, month arithmetic), ``rules`` (the phrase rules),
``grammar`` (phrases → specs), ``named_documents`` (documents named by kind or day), ``inventory``
(the store's periods, indexed), ``by_month`` (the periods that months name) and ``resolve`` (the
resolver).

Rules for the ambiguous cases:

* fiscal years: a year in a question ("in 2023", "2019 vs 2021") is the company's fiscal year;
  "calendar 2023" / "CY2023" / "during 2023" / "over the course of 2023" is a calendar span instead:
  the fiscal quarters with at least two of their three months inside it when the question speaks
  of quarters, else the fiscal years with more than half their months inside it (exactly half:
  the year ending inside it). Apple FY2023 (Oct 2022 - Sep 2023), Microsoft FY2023 (Jul 2022 -
  Jun 2023, half inside: it ends inside), Nvidia FY2024 (Feb 2023 - Jan 2024), Amazon FY2023;
* months and dates ("March/April 2023", "the quarter ended July 1, 2023", "between June 2022 and
  June 2023") name the periods whose end falls in those months: the *actual* end from the store
  (Apple's quarter ended April 1, 2023 ends in April) or the nominal month (April 1 nominally
  closes March), the nominal month alone when the store has no end. "around"/"about"/"near" also
  accept ends within a week outside the months; an exact date first looks for a stored end within
  a week of it. "the (fiscal) year(s) / twelve months ended ..." names fiscal years, not quarters.
  Months with no period end are warned about and the period containing them is used;
* "reported / filed / released in 2023" names the periods whose report was filed then: the stored
  filing date, else period end + 45 days (quarters 1-3, 10-Q) or + 60 days (Q4 and years, 10-K);
  "the first three (fiscal) quarters reported in 2023" keeps fiscal quarters 1-3 among them;
* FY without a 10-K in the store: the quarters of that year the store holds are targeted instead,
  with a warning; with neither, the annual period is still targeted (unavailable) and warned about;
* Q4 is normally reported only in the 10-K: a Q4 with no quarter-level document (10-Q, transcript,
  earnings release) but a FY 10-K targets the annual period too, with a warning;
* "last N quarters" counts back from the newest quarter the store holds (a FY 10-K covers Q4),
  or, with nothing stored, from the last quarter ended before ``today`` (warned); "the last N
  10-Qs" (or last N quarters in a question about 10-Qs only) counts the quarters with a 10-Q;
* "latest" / no time phrase: the newest period the store holds, quarterly or annual per ``prefer``
  (a question saying "quarter(ly)" or "annual"/"10-K" sets the unit itself);
* ranges, "since" and "last N years" are annual unless the question says quarters ("quarterly
  revenue since 2022"); generated periods that have not ended by ``today`` and have no documents
  are dropped with one warning; more than ``max_quarters`` periods keep the most recent ones;
* a document named by its day ("the 8-K dated / of / filed on December 2, 2024", "its December 2,
  2024 8-K") is the stored document of that day, by its event or filing date, the nearest within
  ``DATED_DOCUMENT_DAYS`` (warned when not exact), never the fiscal quarter around the day; only
  when the store has none is the day read as a period (``named_documents.dated_documents``);
* XBRL facts (inventory kind ``"facts"``) make an explicitly named period available, but never
  move "latest", the "last N" anchors, "across these quarters" or the nearest earlier report:
  a filing's comparative columns must not add periods the store has no document for.
"""

from finagent.finance.periods.earlier import nearest_earlier_report
from finagent.finance.periods.fiscal_calendar import CompanyCalendar, FiscalCalendar
from finagent.finance.periods.grammar import (
    PERIOD_EXAMPLES,
    invalid_quarters,
    parse_time_phrases,
    period_problem,
    preferred_granularity,
    specs_per_company,
)
from finagent.finance.periods.inventory import PeriodResolution, TargetPeriod
from finagent.finance.periods.named_documents import (
    DATED_DOCUMENT_DAYS,
    DatedDocument,
    dated_documents,
    named_kinds,
    undated_document,
)
from finagent.finance.periods.period import FiscalPeriod, Span, period_label
from finagent.finance.periods.resolve import resolve_periods
from finagent.finance.periods.spec import FACTS_KIND, AvailablePeriod, TimeSpec

__all__ = [
    "DATED_DOCUMENT_DAYS",
    "FACTS_KIND",
    "PERIOD_EXAMPLES",
    "AvailablePeriod",
    "CompanyCalendar",
    "DatedDocument",
    "FiscalCalendar",
    "FiscalPeriod",
    "PeriodResolution",
    "Span",
    "TargetPeriod",
    "TimeSpec",
    "dated_documents",
    "invalid_quarters",
    "named_kinds",
    "nearest_earlier_report",
    "parse_time_phrases",
    "period_label",
    "period_problem",
    "preferred_granularity",
    "resolve_periods",
    "specs_per_company",
    "undated_document",
]
