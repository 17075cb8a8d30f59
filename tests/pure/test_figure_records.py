"""A looked-up figure is a typed record (``finance.figure_record``): the graph state carries its JSON
form, which reads back to the same record and keeps the shape the lookup has always written (Studio,
checkpoints of earlier runs)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.finance.figure_record import Figure, Gap, record_from_dict

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

"""The JSON form of four records: the shape the lookup wrote into the state before it was typed."""


def test_every_record_reads_back_from_its_json_form_unchanged() -> None:
    for data in EXPECTED:
        record = record_from_dict(json.loads(json.dumps(data)))
        assert record.to_dict() == data
        assert list(record.to_dict()) == list(data)  # the keys in the same order too (Studio shows them)
        assert record_from_dict(record.to_dict()) == record


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
