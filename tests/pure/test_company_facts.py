"""SEC company facts without a database: the calendar each company's annual reports teach, and the
streaming reader (every fact's period from its own dates, nothing from fy/fp; bad files refused)."""

from __future__ import annotations

import io
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import ijson
import pytest

from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.read.sec_company_facts import FilingFacts, form_kind, infer_calendar, inferred_decimals
from finagent.ingest.companyfacts_reader import CompanyFactsFormatError, read_company_facts
from finagent.ingest.discover import discover


def _annual(accession: str, end: date, fy: int, filed: date, form: str = "10-K") -> FilingFacts:
    filing = FilingFacts(accession, form, filed, fy=fy, fp="FY")
    filing.saw("year", end, "us-gaap")
    return filing


def test_the_calendar_comes_from_the_annual_reports_own_years() -> None:
    # Snowflake: years end January 31 and its 10-Ks call the year ending January 2024 fiscal 2024.
    snow = [
        _annual(f"0001640147-{y - 2000:02d}-000001", date(y, 1, 31), y, date(y, 3, 28)) for y in (2023, 2024)
    ]
    assert infer_calendar(snow) == FiscalCalendar(1, 0)
    # A retailer names the year ending 2025-02-01 (52/53 weeks) after the year it began: 2024.
    retail = [_annual("0000354950-25-000010", date(2025, 2, 1), 2024, date(2025, 3, 20))]
    assert infer_calendar(retail) == FiscalCalendar(1, -1)
    # Apple's 52/53-week year ending 2023-09-30 closes in September.
    assert infer_calendar([_annual("0000320193-23-000106", date(2023, 9, 30), 2023, date(2023, 11, 3))]) == (
        FiscalCalendar(9, 0)
    )
    # Only 10-Qs: no calendar to infer (the stored or built-in one is used).
    quarterly = FilingFacts("0000000001-24-000001", "10-Q", date(2024, 5, 1), fy=2024, fp="Q1")
    quarterly.saw("quarter", date(2024, 3, 31), "us-gaap")
    assert infer_calendar([quarterly]) is None


def test_forms_and_precision() -> None:
    assert [form_kind(f) for f in ("10-K", "10-K/A", "10-KT", "10-Q/A", "8-K", "20-F", "S-1")] == [
        "10-K",
        "10-K",
        "10-K",
        "10-Q",
        "8-K",
        "annual_report",
        "other",
    ]
    assert inferred_decimals(2_806_489_000) == -3
    assert inferred_decimals(383_285_000_000) == -6
    assert inferred_decimals(1_234_567) == 0
    assert inferred_decimals(Decimal("1.23")) == 2
    assert inferred_decimals(0) is None


def _file(facts: dict[str, object]) -> bytes:
    return json.dumps({"cik": 1640147, "entityName": "SNOWFLAKE INC.", "facts": facts}).encode()


_Q3_10Q = {"accn": "0001640147-20-000023", "fy": 2021, "fp": "Q3", "form": "10-Q", "filed": "2020-12-03"}


def test_the_reader_keeps_each_facts_own_dates_and_the_filings_own_period() -> None:
    facts = {
        "us-gaap": {
            "Revenues": {
                "label": "Revenue",
                "units": {
                    "USD": [
                        {"start": "2019-08-01", "end": "2019-10-31", "val": 73012000, **_Q3_10Q},
                        {"start": "2020-08-01", "end": "2020-10-31", "val": 159624000, **_Q3_10Q},
                    ]
                },
            }
        },
        "dei": {
            "EntityCommonStockSharesOutstanding": {
                "units": {"shares": [{"end": "2020-11-30", "val": 290000000, **_Q3_10Q}]}
            }
        },
        "invest": {"Other": {"units": {"USD": [{"end": "2020-10-31", "val": 1, **_Q3_10Q}]}}},
    }
    rows: list[bytes] = []
    read, digests = read_company_facts(io.BytesIO(_file(facts)), rows.append)
    lines = b"".join(rows).decode().splitlines()
    assert lines[0].split("\t") == [
        "0001640147-20-000023",
        "us-gaap:Revenues",
        "USD",
        "2019-08-01",
        "2019-10-31",
        "73012000",
        "-3",
        "quarter",
    ]
    assert lines[2].split("\t")[1:4] == ["dei:EntityCommonStockSharesOutstanding", "shares", "\\N"]
    assert len(lines) == 3 and read.skipped == {"taxonomy invest": 1}
    filing = read.filings["0001640147-20-000023"]
    # The filing's own quarter is its latest span; the cover's share count date is not its period.
    assert filing.period_end == date(2020, 10, 31) and filing.fy == 2021 and filing.facts == 3
    assert read.cik == "1640147" and read.labels == {"us-gaap:Revenues": "Revenue"}
    # The digest does not depend on the order facts are listed in.
    revenue = facts["us-gaap"]["Revenues"]["units"]["USD"]  # type: ignore[index]
    revenue.reverse()
    assert read_company_facts(io.BytesIO(_file(facts)), lambda _: None)[1] == digests


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b'{"cik": 1, "facts": {"us-gaap": {"Revenues": {"units": {"USD": [{"end": "2020-', ijson.JSONError),
        (
            b'{"cik": 1, "facts": {"us-gaap": {"R": {"units": {"USD": [{"end": "2020-13-45", "val": 1, '
            b'"accn": "0000000001-20-000001"}]}}}}}',
            CompanyFactsFormatError,
        ),
        (b'{"hello": "world"}', CompanyFactsFormatError),
        (b"[1, 2, 3]", CompanyFactsFormatError),
    ],
)
def test_bad_files_are_refused(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error):
        read_company_facts(io.BytesIO(data), lambda _: None)


def test_ingest_path_hands_company_facts_to_their_streamed_ingest(tmp_path: Path) -> None:
    path = tmp_path / "CIK0001640147.json"
    path.write_bytes(_file({}))
    assert discover(path).company_facts == [path.resolve()]
    found = discover(tmp_path)
    assert found.company_facts == [path.resolve()] and not found.skipped and not found.items


def test_a_figure_read_from_company_facts_names_them_as_its_source() -> None:
    from finagent.agent.answer.figures import _facts_source

    assert _facts_source("https://www.sec.gov/Archives/edgar/data/1640147/000164014725000052/") == (
        "SEC company facts"
    )
    assert _facts_source("/data/aapl-20240928_htm.xml") == "XBRL facts"


def test_a_ticker_not_held_names_the_companies_held_under_their_cik() -> None:
    from finagent.errors import SearchInputError
    from finagent.finance.company_registry import StoredCompany
    from finagent.reports.facts import resolve_tickers

    held = [
        StoredCompany("NFLX", "Netflix", (), 12, 1),
        StoredCompany("CIK0001640147", "SNOWFLAKE INC.", (), 1, 19),
    ]
    with pytest.raises(SearchInputError) as raised:
        resolve_tickers(held, ["SNOW"])
    said = str(raised.value)
    assert "it holds: NFLX, CIK0001640147 (SNOWFLAKE INC.)" in said
    assert "get their tickers once SEC's list is loaded" in said
