"""Quarters derived the way filings allow, and periods named for what they are (stubs, transition
periods, 52/53-week years)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from datetime import date
from decimal import Decimal

from finagent.finance.fact_records import Fact, FiscalCalendar, StoredFact
from finagent.finance.lines import REPORTED
from finagent.finance.read.derive import (
    FY_MINUS_9M,
    FY_MINUS_QUARTERS,
    DerivedFact,
    derive_quarters,
    missing_reason,
)
from finagent.finance.read.lookup import PeriodWanted, Selection, select
from tests.helpers import as_stored
from tests.pure.test_finance_figures import REV, stored

K2024 = "AAPL|10-K|2024-09-28"


def ten_k_with_quarters(filing: str = K2024, filed: date | None = date(2024, 11, 1)) -> list[StoredFact]:
    """A 10-K that tags its fiscal year and its first three quarters (no nine-month span)."""
    return [
        stored(1, "391035000000", date(2023, 10, 1), date(2024, 9, 28), filing=filing, filed=filed),
        stored(2, "119575000000", date(2023, 10, 1), date(2023, 12, 30), filing=filing, filed=filed),
        stored(3, "90753000000", date(2023, 12, 31), date(2024, 3, 30), filing=filing, filed=filed),
        stored(4, "85777000000", date(2024, 3, 31), date(2024, 6, 29), filing=filing, filed=filed),
    ]


def test_q4_is_the_year_less_the_three_quarters_the_same_filing_tags() -> None:
    (q4,) = derive_quarters(ten_k_with_quarters())
    assert q4.derivation == FY_MINUS_QUARTERS and q4.inputs == (1, 2, 3, 4)
    assert q4.value == Decimal("94930000000")
    assert (q4.period_start, q4.period_end, q4.fiscal_year, q4.fiscal_quarter) == (
        date(2024, 6, 30),
        date(2024, 9, 28),
        2024,
        4,
    )
    assert q4.filing_key == K2024
    chosen = select([*ten_k_with_quarters(), _as_stored(q4, 9)], REPORTED["revenue"], PeriodWanted(2024, 4))
    assert chosen is not None and chosen.fact.derived and chosen.fact.value == Decimal("94930000000")


def test_a_later_restated_first_quarter_never_mixes_into_the_10k_s_fourth_quarter() -> None:
    restated_q1 = stored(
        5,
        "119000000000",
        date(2023, 10, 1),
        date(2023, 12, 30),
        filing="AAPL|10-Q|2024-12-28",
        filed=date(2025, 1, 31),
    )
    (q4,) = derive_quarters([*ten_k_with_quarters(), restated_q1])
    assert q4.value == Decimal("94930000000") and 5 not in q4.inputs


def test_the_nine_month_rule_comes_first_and_a_gap_names_both_rules() -> None:
    nine = stored(6, "296105000000", date(2023, 10, 1), date(2024, 6, 29), filing="AAPL|10-Q|2024-06-29")
    (q4,) = derive_quarters([*ten_k_with_quarters(), nine])
    assert q4.derivation == FY_MINUS_9M and q4.inputs == (1, 6)
    year_only = ten_k_with_quarters()[:1]
    assert derive_quarters(year_only) == []
    reason = missing_reason([REV], "USD", False, 2024, 4, year_only)
    assert "nine-month" in reason and "three quarters" in reason
    # quarters of another filing do not complete a filing's year
    other = [stored(1, "391035000000", date(2023, 10, 1), date(2024, 9, 28))] + [
        stored(i, v, s, e, filing="AAPL|10-K|2025-09-27")
        for i, v, s, e in [
            (2, "1", date(2023, 10, 1), date(2023, 12, 30)),
            (3, "2", date(2023, 12, 31), date(2024, 3, 30)),
            (4, "3", date(2024, 3, 31), date(2024, 6, 29)),
        ]
    ]
    assert derive_quarters(other) == []


def _as_stored(derived: DerivedFact, id_: int) -> StoredFact:
    names = {f.name for f in fields(StoredFact)} - {"id", "derived"}
    data = {k: getattr(derived, k) for k in names if hasattr(derived, k)}
    return StoredFact(id=id_, derived=True, **data)


# -- periods named for what they are ------------------------------------------------------------------------
def reported(
    start: date | None,
    end: date,
    value: str = "1",
    dims: tuple[tuple[str, str], ...] = (),
    calendar: FiscalCalendar | None = None,
) -> Fact:
    fact = Fact(REV, Decimal(value), "USD", -6, start, end, dimensions=dims)
    return fact.in_calendar(calendar or FiscalCalendar(12))


def kinds(facts: Sequence[Fact]) -> dict[tuple[date | None, date], str]:
    return {(f.period_start, f.period_end): f.duration for f in facts}


def test_a_quarter_split_by_an_emergence_is_two_stubs_and_the_comparatives_stay_periods() -> None:
    from finagent.finance.read.split_periods import name_periods

    facts = [
        reported(date(2010, 7, 1), date(2010, 7, 21)),
        reported(date(2010, 7, 22), date(2010, 9, 30)),
        reported(date(2010, 1, 1), date(2010, 7, 21)),
        reported(date(2009, 7, 1), date(2009, 9, 30)),
        reported(date(2009, 1, 1), date(2009, 9, 30)),
        reported(None, date(2010, 9, 30)),
    ]
    named = kinds(name_periods(facts, "10-Q", date(2010, 9, 30)))
    assert named[(date(2010, 7, 1), date(2010, 7, 21))] == "stub"
    assert named[(date(2010, 7, 22), date(2010, 9, 30))] == "stub"
    assert named[(date(2010, 1, 1), date(2010, 7, 21))] == "stub"
    assert named[(date(2009, 7, 1), date(2009, 9, 30))] == "quarter"
    assert named[(date(2009, 1, 1), date(2009, 9, 30))] == "nine_months"
    assert named[(None, date(2010, 9, 30))] == "instant"
    # a successor part long enough to pass for a quarter is still a part
    near = [reported(date(2010, 7, 1), date(2010, 7, 5)), reported(date(2010, 7, 6), date(2010, 9, 30))]
    assert set(kinds(name_periods(near, "10-Q", date(2010, 9, 30))).values()) == {"stub"}


def test_short_events_tagged_beside_a_quarter_do_not_split_it() -> None:
    """Small filers tag events of a few days (a note issued Jul 1–Jul 7, a subsequent event Oct 1–Oct 2)
    right after a quarter: they complete no period, so the quarters stay quarters (seen in a real 10-Q)."""
    from finagent.finance.read.split_periods import name_periods

    facts = [
        reported(date(2024, 7, 1), date(2024, 9, 30)),
        reported(date(2024, 1, 1), date(2024, 9, 30)),
        reported(date(2024, 10, 1), date(2024, 10, 2)),
        reported(date(2023, 4, 1), date(2023, 6, 30)),
        reported(date(2023, 7, 1), date(2023, 7, 7)),
    ]
    named = name_periods(facts, "10-Q", date(2024, 9, 30))
    assert [f.duration for f in named] == ["quarter", "nine_months", "other", "quarter", "other"]
    # a one-day "duration" the day before a fiscal year (seen in a real 10-K) leaves the year a year
    year = [reported(date(2024, 1, 31), date(2024, 1, 31)), reported(date(2024, 2, 1), date(2025, 1, 31))]
    assert [f.duration for f in name_periods(year, "10-K", date(2025, 1, 31))] == ["other", "year"]


def test_predecessor_and_successor_members_are_their_parts_consolidated_figures() -> None:
    from finagent.finance.read.split_periods import name_periods

    axis = "us-gaap:StatementScenarioAxis"
    facts = [
        reported(date(2010, 7, 1), date(2010, 7, 21), dims=((axis, "abc:PredecessorMember"),)),
        reported(date(2010, 7, 22), date(2010, 9, 30), dims=((axis, "abc:SuccessorMember"),)),
        reported(date(2010, 7, 22), date(2010, 9, 30), dims=(("us-gaap:SegmentAxis", "abc:EastMember"),)),
    ]
    named = name_periods(facts, "10-Q", date(2010, 9, 30))
    assert [(f.dimensions == (), f.duration) for f in named] == [
        (True, "stub"),
        (True, "stub"),
        (False, "stub"),
    ]


def test_quarters_of_a_10k_and_52_53_week_periods_are_not_stubs() -> None:
    from finagent.finance.fact_records import duration_class
    from finagent.finance.read.split_periods import name_periods

    apple = FiscalCalendar(9)
    year53 = (date(2022, 9, 25), date(2023, 9, 30))  # 53 weeks: 371 days
    q14 = (date(2022, 9, 25), date(2022, 12, 31))  # a 14-week first quarter: 98 days
    assert ((year53[1] - year53[0]).days + 1, (q14[1] - q14[0]).days + 1) == (371, 98)
    assert duration_class(*year53) == "year" and duration_class(*q14) == "quarter"
    assert duration_class(date(2023, 10, 1), date(2024, 9, 28)) == "year"  # 52 weeks: 364 days
    facts = [
        reported(*year53, calendar=apple),
        reported(*q14, calendar=apple),
        reported(date(2023, 1, 1), date(2023, 4, 1), calendar=apple),
        reported(date(2023, 4, 2), date(2023, 7, 1), calendar=apple),
        reported(date(2023, 7, 2), date(2023, 9, 30), calendar=apple),
    ]
    named = name_periods(facts, "10-K", date(2023, 9, 30))
    assert [f.duration for f in named] == ["year", "quarter", "quarter", "quarter", "quarter"]
    assert named[0].period_label == "FY2023" and named[1].period_label == "Q1 FY2023"


def test_a_transition_period_is_named_so_and_never_a_year() -> None:
    from finagent.finance.read.split_periods import name_periods

    facts = [
        reported(date(2019, 7, 1), date(2019, 12, 31)),  # six months after a change from a June year end
        reported(date(2018, 7, 1), date(2019, 6, 30)),  # the last June fiscal year
        reported(None, date(2019, 12, 31)),
    ]
    named = name_periods(facts, "10-K", date(2019, 12, 31))
    assert [f.duration for f in named] == ["transition", "year", "instant"]
    assert named[0].period_label == "transition period Jul 1–Dec 31, 2019"
    assert not select_annual(named, 2019)


def select_annual(facts: Sequence[Fact], year: int) -> Selection | None:
    """The fiscal-year figure lookup finds in these facts (as stored), if any."""
    kept = [f for f in facts if (f.period_start, f.period_end) != (date(2018, 7, 1), date(2019, 6, 30))]
    return select(as_stored(kept, "X", "X|10-K|2019-12-31"), REPORTED["revenue"], PeriodWanted(year))


def test_the_successor_part_stated_as_the_quarter_is_unsupported() -> None:
    from finagent.finance.check.scope import PeriodScope
    from finagent.finance.check.verify import UNSUPPORTED, verify_answer

    known = [
        {
            "ticker": "RISE",
            "period": "successor Jul 22–Sep 30, 2010",
            "value": 481_200_000.0,
            "kind": "amount",
        }
    ]
    scope = PeriodScope(known=[{**k, "what": "revenue"} for k in known], names={"RISE": ["Phoenix Rising"]})
    wrong = verify_answer("Phoenix Rising's revenue in Q3 FY2010 was $481.2 million.", [], [], scope=scope)
    right = verify_answer(
        "Phoenix Rising's revenue for successor Jul 22–Sep 30, 2010 was $481.2 million.", [], [], scope=scope
    )
    assert wrong.status == UNSUPPORTED and any("not Q3 FY2010" in c.how for c in wrong.unverified)
    assert right.status != UNSUPPORTED
