"""A looked-up figure is a typed record (``finance.looked_up``): the graph state carries its JSON
form, which reads back to the same record and keeps the shape the lookup has always written (Studio,
checkpoints of earlier runs)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.agent.answer.figures import figure_for, figures_of, lookup
from finagent.agent.state import FactsTask
from finagent.finance.fact_records import StoredFact
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import Figure, FigureRecord, Gap, Role, record_from_dict
from finagent.finance.read.lookup import PeriodWanted

REV = "us-gaap:Revenues"
K23, K24, Q3, Q3_2010 = "X|10-K|2023-12-31", "X|10-K|2024-12-31", "X|10-Q|2023-09-30", "X|10-Q|2010-09-30"
K23_PRINTED = {"form": "10-K", "title": "X 10-K 2023", "chunk_id": 11, "document_id": 101, "page": 40}
K24_PRINTED = {"form": "10-K", "title": "X 10-K 2024", "chunk_id": 12, "document_id": 102, "page": 41}
FIRST = {
    **K23_PRINTED,
    "filed_at": date(2024, 2, 1),
    "source_uri": "https://example/10k23",
    "display": "1,000",
}
LATEST = {
    **K24_PRINTED,
    "filed_at": date(2025, 2, 1),
    "source_uri": "https://example/10k24",
    "display": "1,010",
}
# the nine months to Q3 are printed in no stored text: SEC's company facts only
EDGAR = "https://www.sec.gov/Archives/edgar/data/1/x.htm"
NINE = {"form": "10-Q", "title": "X 10-Q Q3 2023", "document_id": 103, "source_uri": EDGAR, "display": "700"}
STUB_PRINTED = {"form": "10-Q", "title": "X 10-Q Q3 2010", "chunk_id": 21, "document_id": 201, "page": 5}


def _fact(id_: int, value: str, start: str, end: str, duration: str, filing: str, **more: Any) -> StoredFact:
    ends = date.fromisoformat(end)
    return StoredFact(
        id=id_,
        ticker="X",
        concept=REV,
        value=Decimal(value),
        unit="USD",
        decimals=more.pop("decimals", -6),
        period_start=date.fromisoformat(start),
        period_end=ends,
        duration=duration,
        fiscal_year=ends.year,
        fiscal_quarter=more.pop("fiscal_quarter", None),
        filing_key=filing,
        filing_period_end=date.fromisoformat(filing.split("|")[-1]),
        **more,
    )


FACTS = [
    # FY2023 as first reported, then restated by the next 10-K
    _fact(1, "1000000000", "2023-01-01", "2023-12-31", "year", K23, **FIRST),
    _fact(2, "1010000000", "2023-01-01", "2023-12-31", "year", K24, **LATEST),
    _fact(3, "700000000", "2023-01-01", "2023-09-30", "nine_months", Q3, fiscal_quarter=3, **NINE),
    # Q4 derived: the year less the nine months
    _fact(4, "310000000", "2023-10-01", "2023-12-31", "quarter", K24, fiscal_quarter=4, derived=True),
    _fact(
        5, "900000000", "2022-01-01", "2022-12-31", "year", K23, decimals=None, display="900", **K23_PRINTED
    ),
    # a quarter reported only in two parts (an emergence splits Q3 2010)
    _fact(6, "120000000", "2010-07-01", "2010-07-21", "stub", Q3_2010, fiscal_quarter=3, **STUB_PRINTED),
    _fact(7, "250000000", "2010-07-22", "2010-09-30", "stub", Q3_2010, fiscal_quarter=3, **STUB_PRINTED),
]
FACTS[3] = replace(FACTS[3], derivation="fy_minus_9m", inputs=(2, 3))


def _task(
    year: int, quarter: int | None, metrics: list[str], comparatives: list[str], **more: Any
) -> FactsTask:
    label = f"Q{quarter} FY{year}" if quarter else f"FY{year}"
    return FactsTask(
        ticker="X",
        fiscal_year=year,
        fiscal_quarter=quarter,
        period_label=label,
        period_end=None,
        metrics=metrics,
        comparatives=comparatives,
        as_reported=more.get("as_reported", False),
    )


def records() -> list[FigureRecord]:
    """A derived Q4 with its inputs, a restated year, a comparative, gaps with their reasons, the year
    a Q4 gap may be completed from, and a quarter reported only in parts."""
    found = [
        *lookup(FACTS, _task(2023, 4, ["revenue"], ["prior_year", "prior_quarter"])),
        *lookup(FACTS, _task(2023, None, ["revenue", "net_income"], ["prior_year"], as_reported=True)),
        *lookup(FACTS, _task(2022, 4, ["revenue"], [])),
    ]
    asked: list[tuple[PeriodWanted, Role]] = [
        (PeriodWanted(2010, 3), "target"),
        (PeriodWanted(2023), "comparative"),
    ]
    for period, role in asked:
        record = figure_for(FACTS, "X", REPORTED["revenue"], period, role=role)
        assert record is not None
        found.append(record)
    return found


EXPECTED: list[dict[str, Any]] = [
    {
        "ticker": "X",
        "metric": "revenue",
        "metric_label": "Revenue",
        "period": "Q4 FY2023",
        "fiscal_year": 2023,
        "fiscal_quarter": 4,
        "duration": "quarter",
        "period_start": "2023-10-01",
        "period_end": "2023-12-31",
        "value": "310000000",
        "unit": "USD",
        "decimals": -6,
        "display": None,
        "concept": "us-gaap:Revenues",
        "fact_id": 4,
        "source": "derived",
        "derivation": "fy_minus_9m",
        "inputs": [
            {
                "fact_id": 2,
                "value": "1010000000",
                "period": "FY2023",
                "duration": "year",
                "period_end": "2023-12-31",
                "display": "1,010",
                "chunk_id": 12,
                "document_id": 102,
                "filing": "X|10-K|2024-12-31",
                "form": "10-K",
                "source_uri": "https://example/10k24",
                "title": "X 10-K 2024",
                "page": 41,
            },
            {
                "fact_id": 3,
                "value": "700000000",
                "period": "9M FY2023",
                "duration": "nine_months",
                "period_end": "2023-09-30",
                "display": "700",
                "chunk_id": None,
                "document_id": 103,
                "filing": "X|10-Q|2023-09-30",
                "form": "10-Q",
                "source_uri": "https://www.sec.gov/Archives/edgar/data/1/x.htm",
                "title": "X 10-Q Q3 2023",
                "page": None,
            },
        ],
        "chunk_id": None,
        "document_id": None,
        "filing": "X|10-K|2024-12-31",
        "form": None,
        "source_uri": None,
        "title": None,
        "page": None,
        "role": "target",
        "restated": [],
    },
    {
        "ticker": "X",
        "metric": "revenue",
        "metric_label": "Revenue",
        "period": "FY2023",
        "fiscal_year": 2023,
        "fiscal_quarter": None,
        "duration": "year",
        "period_start": "2023-01-01",
        "period_end": "2023-12-31",
        "value": "1000000000",
        "unit": "USD",
        "decimals": -6,
        "display": "1,000",
        "concept": "us-gaap:Revenues",
        "fact_id": 1,
        "source": "xbrl",
        "derivation": None,
        "inputs": [],
        "chunk_id": 11,
        "document_id": 101,
        "filing": "X|10-K|2023-12-31",
        "form": "10-K",
        "source_uri": "https://example/10k23",
        "title": "X 10-K 2023",
        "page": 40,
        "role": "target",
        "restated": [
            {
                "original": "1000000000",
                "original_filing": "X|10-K|2023-12-31",
                "latest": "1010000000",
                "latest_filing": "X|10-K|2024-12-31",
                "chunk_id": 11,
                "document_id": 101,
                "latest_chunk_id": 12,
                "latest_document_id": 102,
            }
        ],
    },
    {
        "ticker": "X",
        "metric": "revenue",
        "metric_label": "Revenue",
        "period": "Q4 FY2022",
        "fiscal_year": 2022,
        "fiscal_quarter": 4,
        "value": None,
        "role": "target",
        "source": "none",
        "reason": "not derivable: no nine-month year-to-date figure in the store to subtract from the "
        "year, and no filing of the year that also states its first three quarters",
    },
    {
        "ticker": "X",
        "metric": "revenue",
        "metric_label": "Revenue",
        "period": "Q3 FY2010",
        "fiscal_year": 2010,
        "fiscal_quarter": 3,
        "value": None,
        "role": "target",
        "source": "none",
        "reason": "no single figure: the filings report it in two parts, predecessor Jul 1–Jul 21, 2010 "
        "and successor Jul 22–Sep 30, 2010; they are separate reporting periods, before and "
        "after a change of basis such as a merger or an emergence from bankruptcy, and are not "
        "added up",
        "parts": [
            {
                "fact_id": 6,
                "value": "120000000",
                "period": "stub Jul 1–Jul 21, 2010",
                "duration": "stub",
                "period_end": "2010-07-21",
                "display": None,
                "chunk_id": 21,
                "document_id": 201,
                "filing": "X|10-Q|2010-09-30",
                "form": "10-Q",
                "source_uri": None,
                "title": "X 10-Q Q3 2010",
                "page": 5,
                "ticker": "X",
                "part": "predecessor Jul 1–Jul 21, 2010",
                "period_start": "2010-07-01",
                "concept": "us-gaap:Revenues",
                "unit": "USD",
                "decimals": -6,
            },
            {
                "fact_id": 7,
                "value": "250000000",
                "period": "stub Jul 22–Sep 30, 2010",
                "duration": "stub",
                "period_end": "2010-09-30",
                "display": None,
                "chunk_id": 21,
                "document_id": 201,
                "filing": "X|10-Q|2010-09-30",
                "form": "10-Q",
                "source_uri": None,
                "title": "X 10-Q Q3 2010",
                "page": 5,
                "ticker": "X",
                "part": "successor Jul 22–Sep 30, 2010",
                "period_start": "2010-07-22",
                "concept": "us-gaap:Revenues",
                "unit": "USD",
                "decimals": -6,
            },
        ],
        "complete": True,
    },
]

"""The JSON form of four of them: the shape the lookup wrote into the state before it was typed."""


def test_the_state_carries_the_json_form_the_lookup_has_always_written() -> None:
    by_key = {(r.period.label, r.role, r.metric): r for r in records()}
    for data in EXPECTED:
        record = by_key[(data["period"], data["role"], data["metric"])]
        assert record.to_dict() == data
        assert list(record.to_dict()) == list(data)  # the keys in the same order too (Studio shows them)


def test_every_record_reads_back_from_its_json_form_unchanged() -> None:
    found = records()
    assert [(type(r).__name__, r.period.label, r.role) for r in found] == [
        ("Figure", "Q4 FY2023", "target"),
        ("Figure", "FY2023", "target"),
        ("Figure", "FY2022", "comparative"),
        ("Gap", "FY2023", "target"),
        ("Gap", "Q4 FY2022", "target"),
        ("Figure", "FY2022", "input"),
        ("Gap", "Q3 FY2010", "target"),
        ("Figure", "FY2023", "comparative"),
    ]
    for record in found:
        data = json.loads(json.dumps(record.to_dict()))
        assert record_from_dict(data) == record
        assert record_from_dict(data).to_dict() == data
    assert (
        figures_of({"question": "", "figures": [r.to_dict() for r in found]}) == found
    )  # what the readers get
    for data in EXPECTED:
        assert record_from_dict(data).to_dict() == data


def test_a_record_is_read_typed() -> None:
    derived, restated = (record_from_dict(d) for d in EXPECTED[:2])
    assert isinstance(derived, Figure) and isinstance(restated, Figure)
    assert derived.derived and derived.value == Decimal("310000000")
    assert [i.value for i in derived.inputs] == [Decimal("1010000000"), Decimal("700000000")]
    assert derived.inputs[1].provenance.document_id == 103 and derived.period_end == date(2023, 12, 31)
    [change] = restated.restated
    assert (change.original, change.latest) == (Decimal("1000000000"), Decimal("1010000000"))
    assert change.original_place.form == "10-K" and change.original_place.chunk_id == 11
    split = record_from_dict(EXPECTED[3])
    assert isinstance(split, Gap) and split.complete and split.role == "target"
    assert [p.label for p in split.parts] == [
        "predecessor Jul 1–Jul 21, 2010",
        "successor Jul 22–Sep 30, 2010",
    ]
    assert split.parts[0].period_start == date(2010, 7, 1) and split.parts[1].value == Decimal("250000000")
    # the answer's gap of an asked target carries the period's end, and reads back with it
    asked = replace(split, period_end=date(2010, 9, 30))
    assert asked.to_dict()["period_end"] == "2010-09-30" and record_from_dict(asked.to_dict()) == asked
