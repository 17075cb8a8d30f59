"""Statement-table figures read by period, never by position: real chunks from ../shared (10-Q and
10-K PDFs, iXBRL filings, FinanceBench pages) and small synthetic tables for the edge cases."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest

from finagent.finance.document_records import ChunkDraft
from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.line_item import BALANCE, CASH_FLOW, INCOME
from finagent.finance.read.statement_titles import classify_statement
from finagent.finance.read.tables import (
    PeriodTable,
    PeriodTarget,
    TableCell,
    cell_for,
    columns_for,
    find_row,
    parse_number,
    parse_table,
    parse_tables,
    table_cells,
)
from finagent.ingest.chunking import chunk_blocks
from finagent.ingest.discover import discover
from tests.conftest import require_shared
from tests.helpers import financebench_page_chunks

DECEMBER = FiscalCalendar(12)
APPLE = FiscalCalendar(9)
MICROSOFT = FiscalCalendar(6)
NVIDIA = FiscalCalendar(1)
HOME_DEPOT = FiscalCalendar(1, -1)
CALENDARS = {"AAPL": APPLE, "AMZN": DECEMBER, "INTC": DECEMBER, "MSFT": MICROSOFT, "NVDA": NVIDIA}
YEAR_TO_DATE = {1: "quarter", 2: "six_months", 3: "nine_months"}


@cache
def _chunks(*parts: str) -> tuple[ChunkDraft, ...]:
    doc = discover(require_shared(*parts)).items[0].load()
    return tuple(chunk_blocks(doc.blocks))


def _table(parts: tuple[str, ...], *needles: str, form: str | None = None) -> PeriodTable:
    """The first table of the first table chunk that holds every needle."""
    for chunk in _chunks(*parts):
        if chunk.is_table and all(n in chunk.text for n in needles):
            table = parse_table(chunk.text, chunk.metadata.get("caption"), form=form)
            assert table is not None, chunk.text[:400]
            return table
    raise AssertionError(f"no table chunk in {parts} holds {needles}")


def _value(table: PeriodTable, phrase: str, target: PeriodTarget, calendar: FiscalCalendar) -> Decimal | None:
    cell = cell_for(table, phrase, target, calendar)
    return cell.value if cell else None


def quarter(year: int, q: int, end: date | None = None) -> PeriodTarget:
    return PeriodTarget(year, q, "quarter", end)


def fiscal_year(year: int) -> PeriodTarget:
    return PeriodTarget(year, None, "year")


# -- real filings --------------------------------------------------------------------------------------

AMZN_10Q = ("filings", "pdf", "sec10q", "2023 Q3 AMZN.pdf")


@pytest.mark.shared
def test_amazon_10q_reads_the_column_of_the_period_not_the_first() -> None:
    table = _table(AMZN_10Q, "CONSOLIDATED STATEMENTS OF OPERATIONS", "Total net sales")
    cell = cell_for(table, "total net sales", quarter(2023, 3, date(2023, 9, 30)), DECEMBER)
    assert cell is not None
    assert cell.value == 143_083  # the first column is 2022's 127,101
    assert (cell.unit, cell.scale, cell.base_value) == ("USD", 6, Decimal(143_083_000_000))
    assert cell.header == "Three Months Ended September 30, 2023"
    assert cell.period.end == date(2023, 9, 30) and cell.period.months == 3
    assert cell.period_label == "Q3 FY2023"
    assert _value(table, "total net sales", quarter(2022, 3), DECEMBER) == 127_101
    assert _value(table, "total net sales", PeriodTarget(2023, 3, "nine_months"), DECEMBER) == 404_824
    assert _value(table, "net income", PeriodTarget(2022, 3, "nine_months"), DECEMBER) == -3_000
    assert _value(table, "interest expense", quarter(2023, 3), DECEMBER) == -806
    eps = cell_for(table, "diluted earnings per share", quarter(2023, 3), DECEMBER)
    assert eps is not None and (eps.value, eps.unit, eps.scale) == (Decimal("0.94"), "USD/share", 0)


@pytest.mark.shared
def test_amazon_10q_balance_sheet_instants_and_segment_table() -> None:
    balance = _table(AMZN_10Q, "CONSOLIDATED BALANCE SHEETS", "Total assets")
    assert [c.instant for c in balance.columns] == [True, True]
    assert _value(balance, "total assets", PeriodTarget(2023, 3, "instant"), DECEMBER) == 486_883
    assert _value(balance, "total assets", PeriodTarget(2022, None, "instant"), DECEMBER) == 462_675
    # A balance is no quarter's flow, and a quarter's flow no balance.
    assert cell_for(balance, "total assets", quarter(2023, 3), DECEMBER) is None
    # The segment note repeats "Net sales" per segment; the consolidated block is the total.
    segments = _table(AMZN_10Q, "Information on reportable segments", "AWS")
    assert _value(segments, "total net sales", quarter(2023, 3), DECEMBER) == 143_083
    assert _value(segments, "north america net sales", quarter(2023, 3), DECEMBER) == 87_887
    assert _value(segments, "aws net sales", PeriodTarget(2023, 3, "nine_months"), DECEMBER) == 66_553


@pytest.mark.shared
def test_amazon_10q_trailing_twelve_months_is_no_fiscal_year() -> None:
    cash_flow = _table(AMZN_10Q, "CONSOLIDATED STATEMENTS OF CASH FLOWS", "OPERATING ACTIVITIES")
    periods = [p.label if p else None for p in columns_for(cash_flow, DECEMBER)]
    assert periods == ["Q3 FY2022", "Q3 FY2023", "9M FY2022", "9M FY2023", None, None]
    target = PeriodTarget(2023, 3, "nine_months")
    assert _value(cash_flow, "net cash provided by operating activities", target, DECEMBER) == 42_481
    assert cell_for(cash_flow, "operating activities", fiscal_year(2023), DECEMBER) is None


@pytest.mark.shared
def test_amazon_10k_ixbrl_oldest_year_first() -> None:
    parts = ("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html")
    table = _table(parts, "CONSOLIDATED STATEMENTS OF OPERATIONS", "Total net sales", form="10-K")
    assert _value(table, "total net sales", fiscal_year(2024), DECEMBER) == 637_959
    assert _value(table, "total net sales", fiscal_year(2022), DECEMBER) == 513_983
    balance = _table(parts, "CONSOLIDATED BALANCE SHEETS", "Total assets", form="10-K")
    assert [c.header for c in balance.columns] == ["December 31, 2023", "December 31, 2024"]
    assert _value(balance, "total assets", PeriodTarget(2024, None, "instant"), DECEMBER) == 624_894


@pytest.mark.shared
def test_microsoft_10q_newest_first_in_its_fiscal_calendar() -> None:
    parts = ("filings", "pdf", "sec10q", "2023 Q2 MSFT.pdf")
    table = _table(parts, "INCOME STATEMENTS", "Total revenue")
    assert _value(table, "total revenue", quarter(2023, 3, date(2023, 3, 31)), MICROSOFT) == 52_857
    assert _value(table, "total revenue", quarter(2022, 3), MICROSOFT) == 49_360
    assert _value(table, "total revenue", PeriodTarget(2023, 3, "nine_months"), MICROSOFT) == 155_726
    # "Diluted" under "Earnings per share:" (not under "Weighted average shares outstanding:").
    eps = cell_for(table, "diluted earnings per share", quarter(2023, 3), MICROSOFT)
    assert eps is not None and (eps.value, eps.unit) == (Decimal("2.45"), "USD/share")
    shares = cell_for(table, "diluted weighted average shares outstanding", quarter(2023, 3), MICROSOFT)
    assert shares is not None and (shares.value, shares.unit, shares.scale) == (7_464, "shares", 6)
    # The MD&A summary interleaves "Percentage Change" columns after each span.
    summary = _table(parts, "SUMMARY RESULTS OF OPERATIONS", "Revenue")
    assert _value(summary, "revenue", quarter(2023, 3), MICROSOFT) == 52_857
    assert _value(summary, "net income", PeriodTarget(2022, 3, "nine_months"), MICROSOFT) == 55_998
    balance = _table(parts, "BALANCE SHEETS", "Total assets")
    assert _value(balance, "total assets", PeriodTarget(2023, 3, "instant"), MICROSOFT) == 380_088
    assert _value(balance, "total assets", PeriodTarget(2022, None, "instant"), MICROSOFT) == 364_840


@pytest.mark.shared
def test_apple_10q_ixbrl_with_share_scale_and_per_share_rows() -> None:
    parts = ("filings", "edgar", "AAPL", "10-Q", "aapl-10-q-2025-08-01.html")
    table = _table(parts, "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS", "Total net sales")
    assert (table.scale, table.share_scale) == (6, 3)
    assert _value(table, "total net sales", quarter(2025, 3, date(2025, 6, 28)), APPLE) == 94_036
    assert _value(table, "total net sales", quarter(2024, 3), APPLE) == 85_777
    assert _value(table, "total net sales", PeriodTarget(2025, 3, "nine_months"), APPLE) == 313_695
    eps = cell_for(table, "diluted earnings per share", quarter(2025, 3), APPLE)
    assert eps is not None
    assert eps.value == eps.base_value == Decimal("1.57")
    assert (eps.unit, eps.scale) == ("USD/share", 0)
    shares = cell_for(table, "shares used in computing earnings per share diluted", quarter(2025, 3), APPLE)
    assert shares is not None
    assert (shares.value, shares.unit, shares.base_value) == (14_948_179, "shares", Decimal(14_948_179_000))
    # Net sales per region: which region is "net sales" is ambiguous, so there is no row.
    segments = _table(parts, "Segment Information", "Greater China")
    assert find_row(segments, "net sales") is None
    assert _value(segments, "greater china net sales", quarter(2025, 3), APPLE) == 15_369


@pytest.mark.shared
def test_apple_10q_pdf_cash_flow_is_year_to_date_only() -> None:
    parts = ("filings", "pdf", "sec10q", "2023 Q3 AAPL.pdf")
    table = _table(parts, "STATEMENTS OF CASH FLOWS", "Cash generated by operating activities")
    phrase = "cash generated by operating activities"
    assert _value(table, phrase, PeriodTarget(2023, 3, "nine_months", date(2023, 7, 1)), APPLE) == 88_945
    assert _value(table, phrase, PeriodTarget(2022, 3, "nine_months"), APPLE) == 98_024
    assert cell_for(table, phrase, quarter(2023, 3), APPLE) is None  # no quarter column: no figure


@pytest.mark.shared
def test_3m_financebench_page_in_millions() -> None:
    chunk = financebench_page_chunks([("3M_2018_10K", 55)])[("3M_2018_10K", 55)]
    table = parse_table(chunk.text, chunk.metadata.get("caption"), form="10-K")
    assert table is not None and table.scale == 6  # "(Millions, except per share amounts)"
    assert _value(table, "net sales", fiscal_year(2018), DECEMBER) == 32_765
    assert _value(table, "net sales", fiscal_year(2016), DECEMBER) == 30_109
    eps = cell_for(table, "earnings per share diluted", fiscal_year(2018), DECEMBER)
    assert eps is not None and (eps.value, eps.unit) == (Decimal("8.89"), "USD/share")
    shares = cell_for(table, "weighted average shares outstanding diluted", fiscal_year(2017), DECEMBER)
    assert shares is not None and (shares.value, shares.unit, shares.scale) == (Decimal("612.7"), "shares", 6)


@pytest.mark.shared
def test_apple_10k_pdf_segment_table_skips_change_columns() -> None:
    parts = ("filings", "pdf", "aapl", "AAPL_2023_10K.pdf")
    for chunk in _chunks(*parts):
        if chunk.is_table and "net sales by reportable segment for 2023" in chunk.text:
            break
    else:
        raise AssertionError("segment table not found")
    table = parse_table(chunk.text, form="10-K")
    assert table is not None
    assert _value(table, "total net sales", fiscal_year(2023), APPLE) == 383_285
    assert _value(table, "total net sales", fiscal_year(2021), APPLE) == 365_817
    assert _value(table, "americas", fiscal_year(2022), APPLE) == 169_658  # not the "(4)%" beside it
    # Bare years with no span: a 10-K's columns are fiscal years; elsewhere nothing is guessed.
    undated = parse_table(chunk.text)
    assert undated is not None and cell_for(undated, "total net sales", fiscal_year(2023), APPLE) is None
    # "Total net sales | ... | (1)": the trailing footnote mark is no column.
    products = _table(parts, "net sales by category for 2023", form="10-K")
    assert _value(products, "total net sales", fiscal_year(2022), APPLE) == 394_328


@pytest.mark.shared
def test_home_depot_mdna_amounts_not_percent_of_sales() -> None:
    parts = ("filings", "edgar", "HD", "10-K", "hd-10-k-2025-03-21.html")
    table = _table(parts, "RESULTS OF OPERATIONS", "Gross profit", form="10-K")
    assert [c.header for c in table.columns] == ["Fiscal 2024", "Fiscal 2023", "Fiscal 2022"]
    assert _value(table, "net sales", fiscal_year(2024), HOME_DEPOT) == 159_514
    assert _value(table, "gross profit", fiscal_year(2024), HOME_DEPOT) == 53_308  # not 33.4%
    assert _value(table, "gross profit", fiscal_year(2022), HOME_DEPOT) == 52_778
    assert _value(table, "interest income and other, net", fiscal_year(2022), HOME_DEPOT) == -55
    statement = _table(parts, "CONSOLIDATED STATEMENTS OF EARNINGS", "Net sales", form="10-K")
    assert _value(statement, "diluted earnings per share", fiscal_year(2024), HOME_DEPOT) == Decimal("14.91")


@pytest.mark.shared
def test_hubspot_in_thousands_and_split_header_dates() -> None:
    parts = ("edgar-more", "HUBS", "10-Q", "hubs-10-q-2025-08-06.html")
    table = _table(parts, "Consolidated Balance Sheets", "Total assets")
    assert [c.header for c in table.columns] == ["June 30, 2025", "December 31, 2024"]
    cell = cell_for(table, "total assets", PeriodTarget(2025, 2, "instant"), DECEMBER)
    assert cell is not None and (cell.value, cell.scale) == (3_683_964, 3)
    assert cell.base_value == Decimal(3_683_964_000)


@pytest.mark.shared
def test_nvidia_segment_blocks_per_period_give_no_figure() -> None:
    """Periods written between row blocks ("Three Months Ended October 30, 2022") with segments as
    columns: one period, four values per row; no row is read."""
    parts = ("filings", "pdf", "sec10q", "2023 Q3 NVDA.pdf")
    for chunk in _chunks(*parts):
        if chunk.is_table and "Compute & Networking Graphics All Other Consolidated" in chunk.text:
            tables = parse_tables(chunk.text)
            break
    else:
        raise AssertionError("segment table not found")
    assert tables and all(row.ambiguous for table in tables[:4] for row in table.rows)
    assert all(cell_for(t, "revenue", quarter(2024, 3), NVIDIA) is None for t in tables[:4])


# -- every statement of the 10-Q PDFs --------------------------------------------------------------------

REVENUE = ["total net sales", "total revenue", "net revenue", "revenue"]
OPERATING_CASH = [
    "net cash provided by operating activities",
    "cash generated by operating activities",
    "net cash from operations",
]
# Own-quarter revenue of each filing (the statement, its MD&A summaries and segment totals agree).
SEC10Q_REVENUE = {
    "2022 Q3 AAPL.pdf": 82_959,
    "2023 Q1 AAPL.pdf": 117_154,
    "2023 Q2 AAPL.pdf": 94_836,
    "2023 Q3 AAPL.pdf": 81_797,
    "2022 Q3 AMZN.pdf": 127_101,
    "2023 Q1 AMZN.pdf": 127_358,
    "2023 Q2 AMZN.pdf": 134_383,
    "2023 Q3 AMZN.pdf": 143_083,
    "2022 Q3 INTC.pdf": 15_338,
    "2023 Q1 INTC.pdf": 11_715,
    "2023 Q2 INTC.pdf": 12_949,
    "2023 Q3 INTC.pdf": 14_158,
    "2022 Q3 MSFT.pdf": 50_122,
    "2023 Q1 MSFT.pdf": 52_747,
    "2023 Q2 MSFT.pdf": 52_857,
    "2023 Q3 MSFT.pdf": 56_517,
    "2022 Q3 NVDA.pdf": 5_931,
    "2023 Q1 NVDA.pdf": 7_192,
    "2023 Q2 NVDA.pdf": 13_507,
    "2023 Q3 NVDA.pdf": 18_120,
}
# Intel's Q1 2023 cash-flow header is printed below the table in the PDF text: no column is dated.
UNDATED_CASH_FLOW = {"2023 Q1 INTC.pdf"}


@cache
def _sec10q_manifest() -> dict[str, dict[str, str]]:
    path = require_shared("filings", "pdf", "sec10q", "manifest.json")
    return {e["file"]: e for e in json.loads(Path(path).read_text())}


def _readings(file: str, statement: str, phrases: list[str], duration: str) -> set[Decimal]:
    entry = _sec10q_manifest()[file]
    calendar = CALENDARS[entry["ticker"]]
    end = date.fromisoformat(entry["period_end"])
    year, q = calendar.period_of(end)
    target = PeriodTarget(year, q, duration, end)  # type: ignore[arg-type]
    found: set[Decimal] = set()
    for chunk in _chunks("filings", "pdf", "sec10q", file):
        if chunk.is_table and classify_statement(chunk.text, chunk.metadata.get("caption")) == statement:
            for table in parse_tables(chunk.text, form="10-Q"):
                cell = cell_for(table, find_row(table, phrases) or "", target, calendar)
                if cell is not None and cell.unit == "USD":
                    found.add(cell.value)
    return found


@pytest.mark.shared
@pytest.mark.parametrize("file", sorted(SEC10Q_REVENUE))
def test_every_10q_reads_its_own_period(file: str) -> None:
    """Each filing's own quarter: revenue from every income table agrees with the statement, total
    assets at the quarter end, and year-to-date operating cash flow."""
    assert _readings(file, INCOME, REVENUE, "quarter") == {SEC10Q_REVENUE[file]}
    assert len(_readings(file, BALANCE, ["total assets"], "instant")) == 1
    quarter_number = CALENDARS[_sec10q_manifest()[file]["ticker"]].period_of(
        date.fromisoformat(_sec10q_manifest()[file]["period_end"])
    )[1]
    cash = _readings(file, CASH_FLOW, OPERATING_CASH, YEAR_TO_DATE[quarter_number])
    cash |= _readings(file, BALANCE, OPERATING_CASH, YEAR_TO_DATE[quarter_number])  # MSFT's is mislabelled
    assert len(cash) == (0 if file in UNDATED_CASH_FLOW else 1)


# -- synthetic tables ------------------------------------------------------------------------------------


def test_dash_placeholders_keep_their_columns() -> None:
    table = parse_table(
        "(in millions)\nThree Months Ended September 30, Nine Months Ended\n"
        "September 30, | 2022 | 2023 | 2022 | 2023\n"
        "Acquisition cost | — | 1,353 | - | $—\nOther | – | (5) | 7 | 8"
    )
    assert table is not None
    row = find_row(table, "acquisition cost")
    assert row is not None and row.cells == (None, "1,353", None, None) and not row.ambiguous
    assert _value(table, "acquisition cost", quarter(2023, 3), DECEMBER) == 1_353
    assert cell_for(table, "acquisition cost", quarter(2022, 3), DECEMBER) is None
    assert _value(table, "other", quarter(2023, 3), DECEMBER) == -5


GROUP_TOTALS = """Net Revenues by Segment
Year Ended December 31, | 2022 | 2021
(In thousands)
Las Vegas Strip Resorts
Casino | $2,104,096 | $1,549,419
Rooms | 2,729,715 | 1,402,712 | 4,833,811 | 2,952,131
MGM China
Casino | 567,573 | 1,057,962
Rooms | 43,216 | 66,498 | 610,789 | 1,124,460
Reportable segment net revenues | 5,444,600 | 4,076,591
Corporate and other | 239,635 | 339,831 | $5,684,235 | $4,416,422
"""


def test_a_groups_total_printed_beside_its_last_row_becomes_the_groups_row() -> None:
    table = parse_table(GROUP_TOTALS, form="10-K")
    assert table is not None
    by_label = [(r.label, r.cells, r.ambiguous) for r in table.rows]
    assert ("Rooms", ("2,729,715", "1,402,712"), False) in by_label
    assert ("Las Vegas Strip Resorts", ("4,833,811", "2,952,131"), False) in by_label
    assert ("MGM China", ("610,789", "1,124,460"), False) in by_label
    assert by_label[-1] == ("Total", ("$5,684,235", "$4,416,422"), False)  # the rows above, not a group


def test_a_second_set_of_values_that_adds_up_to_nothing_stays_ambiguous() -> None:
    table = parse_table(GROUP_TOTALS.replace("4,833,811", "4,833,911"), form="10-K")
    assert table is not None
    rooms = next(r for r in table.rows if r.label == "Rooms")
    assert rooms.ambiguous and rooms.cells == (None, None)
    assert "Las Vegas Strip Resorts" not in [r.label for r in table.rows]


def test_a_currency_sign_before_a_singular_scale_word_states_the_scale() -> None:
    table = parse_table(
        "Twelve Months Ended June 30, | 2023 | 2022\n($ million)\nAdjusted EBITDA | 2,018 | 2,117"
    )
    assert table is not None and table.scale == 6
    worded = parse_table("Year ended | 2023 | 2022\nA million customers | 2,018 | 2,117")
    assert worded is not None and worded.scale is None


def test_fiscal_year_and_quarter_headers() -> None:
    fiscal = parse_table("in millions | Fiscal 2024 | Fiscal 2023\nNet sales | $153,108 | $152,669")
    assert fiscal is not None
    assert [(c.fiscal_year, c.months) for c in fiscal.columns] == [(2024, 12), (2023, 12)]
    assert _value(fiscal, "net sales", fiscal_year(2023), HOME_DEPOT) == 152_669
    quarters = parse_table("($ in millions) | Q3 FY23 | Q2 FY23 | Q3 FY22\nRevenue | 5,931 | 6,704 | 7,103")
    assert quarters is not None
    assert [(c.fiscal_year, c.fiscal_quarter) for c in quarters.columns] == [(2023, 3), (2023, 2), (2022, 3)]
    assert _value(quarters, "revenue", quarter(2023, 2), NVIDIA) == 6_704
    assert cell_for(quarters, "revenue", fiscal_year(2023), NVIDIA) is None
    stacked = parse_table("Fiscal | Fiscal\n2024 | 2023\nin millions | |\nNet sales | 10 | 9")
    assert stacked is not None and [c.header for c in stacked.columns] == ["Fiscal 2024", "Fiscal 2023"]


def test_52_53_week_dates_name_the_previous_month() -> None:
    table = parse_table(
        "(In millions)\nThree Months Ended | Six Months Ended\n"
        "April 1, 2023 | March 26, 2022 | April 1, 2023 | March 26, 2022\n"
        "Total net sales | 94,836 | 97,278 | 211,990 | 221,223"
    )
    assert table is not None
    assert _value(table, "total net sales", quarter(2023, 2, date(2023, 3, 31)), APPLE) == 94_836
    assert _value(table, "total net sales", PeriodTarget(2022, 2, "six_months"), APPLE) == 221_223
    # An actual end date that names another month is another period.
    assert cell_for(table, "total net sales", quarter(2023, 2, date(2023, 6, 30)), APPLE) is None


def test_month_days_pair_with_years_below() -> None:
    """NVIDIA's PDF header: the month-days of all columns on one line, the years on the next."""
    table = parse_table(
        "(In millions) Three Months Ended Nine Months Ended October 29, October 30, October 29,\n"
        "October 30, | 2023 | 2022 | 2023 | 2022\nRevenue | $18,120 | $5,931 | $38,819 | $20,923"
    )
    assert table is not None
    assert [c.end for c in table.columns] == [date(2023, 10, 29), date(2022, 10, 30)] * 2
    assert _value(table, "revenue", PeriodTarget(2023, 3, "nine_months"), NVIDIA) == 20_923


def test_change_columns_in_the_header_are_skipped() -> None:
    apple = parse_table(
        "Net sales by segment (dollars in millions): 2023 Change 2022 Change 2021 Net sales:\n"
        "Americas | $162,560 | (4)% | $169,658 | 11% | $153,306",
        form="10-K",
    )
    assert apple is not None and apple.columns[2].fiscal_year == 2021
    assert _value(apple, "americas", fiscal_year(2021), APPLE) == 153_306
    visa = parse_table(
        "For the Years Ended September 30, | % Change\n2024 | 2023 | 2022 | 2024 vs. 2023 | 2023 vs. 2022\n"
        "(in millions, except percentages)\nNet revenue | $35,926 | $32,653 | $29,310 | 10% | 11%"
    )
    assert visa is not None and len(visa.columns) == 3
    assert _value(visa, "net revenue", fiscal_year(2022), FiscalCalendar(9)) == 29_310


def test_periods_named_in_a_caption_head_no_column() -> None:
    """HubSpot's MD&A: the caption names spans and dates of its own above the column header."""
    table = parse_table(
        "Three and Six Months Ended June 30, 2025 Compared to the Three and Six Months Ended June 30, 2024\n"
        "Three Months Ended June 30, | Six Months Ended June 30,\n"
        "(dollars in thousands) | 2025 | 2024 | $ Change | % Change | 2025 | 2024 | $ Change | % Change\n"
        "Subscription | $744,532 | $623,763 | $120,769 | 19% | $1,443,260 | $1,227,559 | $215,701 | 18%"
    )
    assert table is not None and table.scale == 3
    assert _value(table, "subscription", quarter(2025, 2), DECEMBER) == 744_532
    assert _value(table, "subscription", PeriodTarget(2024, 2, "six_months"), DECEMBER) == 1_227_559
    summary = parse_table(
        "Fiscal Year 2023 Summary\nYear Ended\nJanuary 29, 2023 | January 30, 2022 | Change\n"
        "($ in millions, except per share data)\nRevenue | $26,974 | $26,914 | —%"
    )
    assert summary is not None and len(summary.columns) == 2
    assert _value(summary, "revenue", fiscal_year(2022), NVIDIA) == 26_914


def test_value_and_percent_groups_take_the_amount() -> None:
    table = parse_table(
        "Fiscal | Fiscal\n2024 | 2023\ndollars in millions | $% of Net Sales | $% of Net Sales\n"
        "Net sales | $159,514 | $152,669\nGross profit | 53,308 | 33.4% | 50,960 | 33.4%\n"
        "Operating income | 21,526 | 13.5 | 21,689 | 14.2"
    )
    assert table is not None
    assert _value(table, "gross profit", fiscal_year(2024), HOME_DEPOT) == 53_308
    assert _value(table, "operating income", fiscal_year(2023), HOME_DEPOT) == 21_689


def test_rows_that_fit_no_layout_give_no_figure() -> None:
    table = parse_table(
        "(in millions)\nThree Months Ended September 30, | 2023 | 2022\n"
        "Net sales | 100 | 90\nOperating income | 40\nHumira | United States | 7,142"
    )
    assert table is not None
    assert _value(table, "net sales", quarter(2023, 3), DECEMBER) == 100
    short = find_row(table, "operating income")
    assert short is not None and short.ambiguous  # one value for two columns: which one?
    assert cell_for(table, short, quarter(2023, 3), DECEMBER) is None
    assert cell_for(table, "humira", quarter(2023, 3), DECEMBER) is None  # text where a number belongs


def test_no_column_for_the_period_gives_no_figure() -> None:
    table = parse_table("(in millions)\nThree Months Ended June 30, | 2023 | 2022\nRevenue | 10 | 9")
    assert table is not None
    assert cell_for(table, "revenue", quarter(2023, 3), DECEMBER) is None
    assert cell_for(table, "revenue", PeriodTarget(2023, 2, "six_months"), DECEMBER) is None
    assert cell_for(table, "revenue", PeriodTarget(2023, 2, "instant"), DECEMBER) is None
    # A bare year in a quarterly table does not say which quarter.
    undated = parse_table("(in millions)\nThree Months Ended | 2023 | 2022\nRevenue | 10 | 9")
    assert undated is not None and columns_for(undated, DECEMBER) == [None, None]


def test_row_matching_rules() -> None:
    table = parse_table(
        "(in millions)\nYear Ended December 31, | 2024 | 2023\n"
        "Revenue | 100 | 90\nCost of revenue | 60 | 50\nTotal cost of revenue | 61 | 51\n"
        "Revenue: | |\nProduct | 30 | 20\nCost of revenue: | |\nProduct | 10 | 9"
    )
    assert table is not None
    assert _value(table, "revenue", fiscal_year(2024), DECEMBER) == 100  # cost of revenue is another item
    assert _value(table, "total cost of revenue", fiscal_year(2024), DECEMBER) == 61
    assert _value(table, "product revenue", fiscal_year(2024), DECEMBER) == 30  # section + label
    assert find_row(table, "product") is None  # two different "Product" rows
    assert find_row(table, ["gross margin", "revenue"]) is not None  # phrases tried in order


def test_units_and_scales() -> None:
    text = (
        "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (In millions, except number of shares, which are "
        "reflected in thousands, and per-share amounts)\nThree Months Ended\nJune 28, 2025 | June 29, 2024\n"
        "Net income | $23,434 | $21,448\nEarnings per share:\nDiluted | $1.57 | $1.40\n"
        "Shares used in computing earnings per share:\nDiluted | 14,948,179 | 15,348,175\n"
        "Gross margin percentage | 46.5% | 46.3%"
    )
    table = parse_table(text)
    assert table is not None and (table.scale, table.share_scale) == (6, 3)
    target = quarter(2025, 3)
    units = {
        cell.label if cell.label != "Diluted" else f"Diluted {cell.unit}": (cell.unit, cell.scale)
        for cell in table_cells(table, APPLE)
        if cell.target == columns_for(table, APPLE)[0]
    }
    assert units == {
        "Net income": ("USD", 6),
        "Diluted USD/share": ("USD/share", 0),
        "Diluted shares": ("shares", 3),
        "Gross margin percentage": ("percent", 0),
    }
    margin = cell_for(table, "gross margin percentage", target, APPLE)
    assert margin is not None and margin.value == Decimal("46.5")
    for caption, scale in [
        ("(in thousands)", 3),
        ("Millions of dollars", 6),
        ("dollars in millions", 6),
        ("($ in billions)", 9),
        ("(Millions, except per share amounts)", 6),
    ]:
        scaled = parse_table(f"{caption}\nYear Ended December 31, | 2024\nRevenue | 5")
        assert scaled is not None and scaled.scale == scale, caption
    unstated = parse_table("Year Ended December 31, | 2024\nRevenue | 5")
    assert unstated is not None
    cell = cell_for(unstated, "revenue", fiscal_year(2024), DECEMBER)
    assert cell is not None and (cell.unit, cell.base_value) == (None, None)


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("(617)", (Decimal(-617), False)),
        ("$(3,000)", (Decimal(-3000), False)),
        ("(4)%", (Decimal(-4), True)),
        ("-1.2", (Decimal("-1.2"), False)),
        ("$ 59,340", (Decimal(59340), False)),
        ("44.5%", (Decimal("44.5"), True)),
        ("—", None),
        ("$—", None),
        ("3.9 pts", None),
    ],
)
def test_parse_number(cell: str, expected: tuple[Decimal, bool] | None) -> None:
    assert parse_number(cell) == expected


def test_comparative_columns_from_one_table() -> None:
    table = parse_table(
        "(in millions)\nThree Months Ended September 30, Nine Months Ended\n"
        "September 30, | 2022 | 2023 | 2022 | 2023\nTotal net sales | 127,101 | 143,083 | 364,779 | 404,824"
    )
    assert table is not None
    cells: list[TableCell] = list(table_cells(table, DECEMBER))
    assert [(c.period_label, c.value) for c in cells] == [
        ("Q3 FY2022", 127_101),
        ("Q3 FY2023", 143_083),
        ("9M FY2022", 364_779),
        ("9M FY2023", 404_824),
    ]


def test_a_chunk_with_two_tables_and_a_wrapped_label() -> None:
    text = (
        "Stock-based compensation as follows: Three Months Ended October 29, 2023 October 30, 2022 "
        "(In millions)\n"
        "Cost of revenue | $38 | $32\nResearch and development | 701 | 530\n\n"
        "Other information (In millions) Three Months Ended April 30, 2023 May 1, 2022\n"
        "Net income tax benefit related to transfer of\nintangible properties | 0 | (3,291)"
    )
    tables = parse_tables(text)
    assert len(tables) == 2
    assert _value(tables[0], "research and development", quarter(2024, 3), NVIDIA) == 701
    row = find_row(tables[1], "tax benefit related to transfer of intangible properties")
    assert row is not None and row.label.startswith("Net income tax benefit")
    cell = cell_for(tables[1], row, quarter(2023, 1), NVIDIA)  # May 1, 2022 closes April: Q1 FY2023
    assert cell is not None and cell.value == -3_291


def test_columns_named_by_something_else_are_no_period_table() -> None:
    text = (
        "For the three months ended June 30, 2025 and 2024 (Unaudited)\n"
        "(Dollars in millions) | Common stock | Retained earnings | Total\nNet loss | (1,439) | (1,439)"
    )
    assert parse_table(text) is None
