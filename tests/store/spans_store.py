"""Companies on different fiscal calendars written to the test store: 10-Ks and 10-Qs whose XBRL
facts carry their own start and end dates (three-, six-, nine- and twelve-month columns)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from finagent.finance.document_records import Block, ParsedDocument
from finagent.finance.fact_records import Fact, FiscalCalendar

REV = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"


@dataclass(frozen=True)
class Column:
    """One revenue column of a filing: its dates and its value in millions."""

    start: date
    end: date
    millions: int


def report(
    ticker: str,
    name: str,
    fye_month: int,
    kind: str,
    end: date,
    columns: Sequence[Column],
    *,
    fiscal_quarter: int | None = None,
) -> ParsedDocument:
    """A 10-K or 10-Q of ``ticker`` whose statement table prints each column's revenue."""
    calendar = FiscalCalendar(fye_month)
    header = " | ".join(f"{c.start:%b %d, %Y}-{c.end:%b %d, %Y}" for c in columns)
    values = " | ".join(f"{c.millions:,}" for c in columns)
    block = Block(
        f"CONSOLIDATED STATEMENTS OF OPERATIONS (In millions)\nPeriod | {header}\nTotal revenue | {values}",
        section="item_8" if kind == "10-K" else "part1_item_1",
        is_table=True,
    )
    facts = [
        Fact(
            REV,
            Decimal(c.millions) * 1_000_000,
            "USD",
            -6,
            c.start,
            c.end,
            display=f"{c.millions:,}",
            block_index=1,
        ).in_calendar(calendar)
        for c in columns
    ]
    year = calendar.period_of(end)[0]
    return ParsedDocument(
        kind=kind,
        title=f"{name} {kind}",
        source_uri=f"test://{ticker.lower()}-{kind.lower()}-{end.isoformat()}",
        content_sha256=f"{ticker}-{kind}-{end.isoformat()}",
        blocks=[Block(f"{name} {kind}", section="cover"), block],
        ticker=ticker,
        company_name=name,
        fiscal_year=year,
        fiscal_quarter=fiscal_quarter,
        period_end=end,
        fiscal_year_end_month=fye_month,
        metadata={"form": kind, "fiscal_year_offset": 0},
        facts=facts,
    )


def _c(start: tuple[int, int, int], end: tuple[int, int, int], millions: int) -> Column:
    return Column(date(*start), date(*end), millions)


def calendar_year_company() -> list[ParsedDocument]:
    """Coca-Cola (year ends in December): its FY2024 10-K, its Q1 and Q2 2025 10-Qs; the Q2 10-Q prints
    the quarter and the six months, each beside the year before."""
    ko = ("KO", "The Coca-Cola Company", 12)
    return [
        report(*ko, "10-K", date(2024, 12, 31), [_c((2024, 1, 1), (2024, 12, 31), 47_061)]),
        report(
            *ko,
            "10-Q",
            date(2025, 3, 31),
            [_c((2025, 1, 1), (2025, 3, 31), 11_129), _c((2024, 1, 1), (2024, 3, 31), 11_300)],
            fiscal_quarter=1,
        ),
        report(
            *ko,
            "10-Q",
            date(2025, 6, 30),
            [
                _c((2025, 4, 1), (2025, 6, 30), 12_535),
                _c((2024, 4, 1), (2024, 6, 30), 12_363),
                _c((2025, 1, 1), (2025, 6, 30), 23_664),
                _c((2024, 1, 1), (2024, 6, 30), 23_663),
            ],
            fiscal_quarter=2,
        ),
    ]


def quarters_only_company() -> list[ParsedDocument]:
    """PepsiCo (year ends in December): Q1 and Q2 2025 10-Qs printing the quarter alone, no six months."""
    pep = ("PEP", "PepsiCo, Inc.", 12)
    return [
        report(*pep, "10-Q", date(2025, 3, 31), [_c((2025, 1, 1), (2025, 3, 31), 17_919)], fiscal_quarter=1),
        report(*pep, "10-Q", date(2025, 6, 30), [_c((2025, 4, 1), (2025, 6, 30), 22_726)], fiscal_quarter=2),
    ]


def september_company() -> list[ParsedDocument]:
    """Apple (year ends in September): its FY2024 10-K, its Q3 FY2024 10-Q with the quarter and the
    nine months, and its Q2 FY2024 10-Q with the quarter and the six months."""
    aapl = ("AAPL", "Apple Inc.", 9)
    return [
        report(
            *aapl,
            "10-K",
            date(2024, 9, 28),
            [_c((2023, 10, 1), (2024, 9, 28), 391_035), _c((2022, 9, 25), (2023, 9, 30), 383_285)],
        ),
        report(
            *aapl,
            "10-Q",
            date(2024, 3, 30),
            [_c((2023, 12, 31), (2024, 3, 30), 90_753), _c((2023, 10, 1), (2024, 3, 30), 210_328)],
            fiscal_quarter=2,
        ),
        report(
            *aapl,
            "10-Q",
            date(2024, 6, 29),
            [_c((2024, 3, 31), (2024, 6, 29), 85_777), _c((2023, 10, 1), (2024, 6, 29), 296_105)],
            fiscal_quarter=3,
        ),
    ]


def june_company() -> list[ParsedDocument]:
    """Microsoft (year ends in June): its FY2024 10-K and its Q3 FY2025 10-Q (the quarter and nine
    months): of fiscal 2025 the store holds nine months only."""
    msft = ("MSFT", "Microsoft Corporation", 6)
    return [
        report(*msft, "10-K", date(2024, 6, 30), [_c((2023, 7, 1), (2024, 6, 30), 245_122)]),
        report(
            *msft,
            "10-Q",
            date(2025, 3, 31),
            [
                _c((2025, 1, 1), (2025, 3, 31), 70_066),
                _c((2024, 7, 1), (2025, 3, 31), 205_283),
                _c((2023, 7, 1), (2024, 3, 31), 180_381),
            ],
            fiscal_quarter=3,
        ),
    ]


def january_company() -> list[ParsedDocument]:
    """Walmart (year ends in January): its FY2025 10-K."""
    wmt = ("WMT", "Walmart Inc.", 1)
    return [
        report(
            *wmt,
            "10-K",
            date(2025, 1, 31),
            [_c((2024, 2, 1), (2025, 1, 31), 680_985), _c((2023, 2, 1), (2024, 1, 31), 648_125)],
        )
    ]


def may_company() -> list[ParsedDocument]:
    """Nike (year ends in May): its FY2024 and FY2025 10-Ks."""
    nke = ("NKE", "NIKE, Inc.", 5)
    return [
        report(*nke, "10-K", date(2024, 5, 31), [_c((2023, 6, 1), (2024, 5, 31), 51_362)]),
        report(*nke, "10-K", date(2025, 5, 31), [_c((2024, 6, 1), (2025, 5, 31), 46_309)]),
    ]


def every_company() -> list[ParsedDocument]:
    return [
        *calendar_year_company(),
        *quarters_only_company(),
        *september_company(),
        *june_company(),
        *january_company(),
        *may_company(),
    ]


def quarters_only_june_company() -> list[ParsedDocument]:
    """Microsoft with no 10-K: its Q3 FY2023 10-Q (the quarter and nine months of each year)."""
    msft = ("MSFT", "Microsoft Corporation", 6)
    return [
        report(
            *msft,
            "10-Q",
            date(2023, 3, 31),
            [
                _c((2023, 1, 1), (2023, 3, 31), 52_857),
                _c((2022, 1, 1), (2022, 3, 31), 49_360),
                _c((2022, 7, 1), (2023, 3, 31), 157_626),
                _c((2021, 7, 1), (2022, 3, 31), 146_407),
            ],
            fiscal_quarter=3,
        )
    ]


def apple_with_newer_quarter() -> list[ParsedDocument]:
    """Apple's FY2024 10-K and its Q3 FY2025 10-Q (three and nine months of both years)."""
    aapl = ("AAPL", "Apple Inc.", 9)
    return [
        *september_company()[:1],
        report(
            *aapl,
            "10-Q",
            date(2025, 6, 28),
            [
                _c((2025, 3, 30), (2025, 6, 28), 94_036),
                _c((2024, 3, 31), (2024, 6, 29), 85_777),
                _c((2024, 9, 29), (2025, 6, 28), 313_695),
                _c((2023, 10, 1), (2024, 6, 29), 296_105),
            ],
            fiscal_quarter=3,
        ),
    ]


def real_like() -> list[ParsedDocument]:
    """Apple with a newer 10-Q than its 10-K, Microsoft with 10-Qs only, Walmart, Nike's latest 10-K."""
    return [
        *apple_with_newer_quarter(),
        *quarters_only_june_company(),
        *january_company(),
        *may_company()[1:],
    ]
