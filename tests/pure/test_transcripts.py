"""Earnings-call transcripts: the three manifest formats, fiscal periods, speakers, encodings."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from finagent.errors import ParseError
from finagent.finance.document_records import ParsedDocument
from finagent.ingest.transcript_formats import PREPARED, QA
from finagent.ingest.transcripts import (
    discover_transcripts,
)

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
TRANSCRIPTS = SHARED / "data" / "transcripts"


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"needs the shared data set at {path} (../shared beside the repo)")
    return path


def _load_all(directory: Path) -> tuple[dict[str, ParsedDocument], dict[str, str]]:
    docs: dict[str, ParsedDocument] = {}
    failed: dict[str, str] = {}
    for item in discover_transcripts(_need(directory)):
        try:
            docs[Path(item.uri).name] = item.load()
        except ParseError as exc:
            failed[Path(item.uri).name] = exc.reason
    return docs, failed


@pytest.mark.shared
def test_bigtech_titles_give_fiscal_quarters_and_speakers() -> None:
    docs, failed = _load_all(TRANSCRIPTS / "bigtech-2022-2024")
    assert not failed
    assert len(docs) == 84
    apple = docs["2022-01-27-AAPL.txt"]
    assert (apple.kind, apple.ticker, apple.fiscal_year, apple.fiscal_quarter) == (
        "transcript",
        "AAPL",
        2022,
        1,
    )
    assert apple.title == "Q1 2022 Apple Inc Earnings Call"
    assert apple.published_at == datetime(2022, 1, 27, 22, 0, tzinfo=UTC)  # header: 10:00PM GMT
    assert apple.period_end == date(2021, 12, 31)  # nominal end of Apple's fiscal Q1 2022
    msft = docs["2022-10-25-MSFT.txt"]
    assert (msft.fiscal_year, msft.fiscal_quarter) == (2023, 1)
    nvda = docs["2022-11-16-NVDA.txt"]
    assert (nvda.fiscal_year, nvda.fiscal_quarter) == (2023, 3)

    turns = [b for b in apple.blocks if b.section in (PREPARED, QA)]
    assert all(b.metadata.get("speaker") and b.section_title == b.metadata["speaker"] for b in turns)
    cook = [b for b in turns if b.metadata["speaker"] == "Timothy D. Cook"]
    assert cook and cook[0].metadata["role"] == "CEO & Director"
    assert cook[0].metadata["participant"] == "corporate"
    assert cook[0].section == PREPARED and "biggest quarter ever" in cook[0].text
    assert {b.section for b in turns} == {PREPARED, QA}
    analysts = [b for b in turns if b.metadata.get("participant") == "analyst"]
    assert analysts and all(b.section == QA for b in analysts)
    assert not any("Refinitiv" in b.text and "RESPONSIBILITY" in b.text for b in turns)  # disclaimer cut
    for name, doc in docs.items():
        sections = Counter(b.section for b in doc.blocks)
        assert sections[PREPARED] >= 2 and sections[QA] >= 5, name
        assert doc.fiscal_year and doc.fiscal_quarter and doc.published_at, name


@pytest.mark.shared
def test_amzn_manifest_and_mislabelled_files() -> None:
    docs, failed = _load_all(TRANSCRIPTS / "amzn-2015-2022")
    assert len(docs) + len(failed) == 32
    # Nine "AMZN" files of 2015-2016 are Whole Foods Market calls: reported, not ingested as Amazon.
    assert len(failed) == 9 and all("manifest ticker looks wrong" in r for r in failed.values())
    assert "AMZN_Q1_2015.txt" in failed
    q4 = docs["AMZN_Q4_2022.txt"]
    assert (q4.ticker, q4.fiscal_year, q4.fiscal_quarter) == ("AMZN", 2022, 4)
    assert q4.published_at == datetime(2023, 2, 2, tzinfo=UTC)  # "as of today, February 2, 2023"
    speakers = {b.metadata.get("speaker") for b in q4.blocks}
    assert {"Operator", "Brian Olsavsky", "Andrew Jassy", "Dave Fildes"} <= speakers
    assert {b.section for b in q4.blocks} >= {PREPARED, QA}
    # Windows-1252 files decode cleanly (curly quotes, no replacement characters).
    cp1252 = docs["AMZN_Q2_2017.txt"]
    assert not any("\ufffd" in b.text for b in cp1252.blocks)
    for doc in docs.values():
        assert doc.fiscal_year and doc.fiscal_quarter and len(doc.blocks) > 5


@pytest.mark.shared
def test_maec_quarter_is_derived_from_the_call_date() -> None:
    docs, failed = _load_all(TRANSCRIPTS / "maec-2015-2018")
    assert not failed and len(docs) == 130
    boeing = docs["BA_20150422.txt"]
    assert (boeing.fiscal_year, boeing.fiscal_quarter, boeing.period_end) == (2015, 1, date(2015, 3, 31))
    assert boeing.metadata["fiscal_period_derived"] is True
    assert boeing.published_at == datetime(2015, 4, 22, tzinfo=UTC)
    general_mills = docs["GIS_20150701.txt"]  # fiscal year ends in May: the call reports Q4 FY2015
    assert (general_mills.fiscal_year, general_mills.fiscal_quarter) == (2015, 4)
    target = docs["TGT_20171115.txt"]  # FYE January, years named after the year they begin
    assert (target.fiscal_year, target.fiscal_quarter) == (2017, 3)
    assert "fiscal_calendar_assumed" not in target.metadata
    assert all(len(d.blocks) == 1 and d.blocks[0].section == PREPARED for d in docs.values())


def _manifest(tmp_path: Path, rows: list[dict[str, object]]) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps(rows))


def test_text_encodings(tmp_path: Path) -> None:
    _manifest(
        tmp_path,
        [
            {"ticker": "MSFT", "call_date": "2023-04-25", "file": "cp1252.txt"},
            {"ticker": "MSFT", "call_date": "2023-04-25", "file": "garbage.txt"},
            {"ticker": "MSFT", "call_date": "2023-04-25", "file": "utf8bom.txt"},
            {"ticker": "MSFT", "call_date": "2023-04-25", "file": "missing.txt"},
        ],
    )
    (tmp_path / "cp1252.txt").write_bytes(
        "We\u2019re pleased with Microsoft\u2019s quarter.\n".encode("cp1252")
    )
    (tmp_path / "garbage.txt").write_bytes(b"\x81\x8d\x8f\x90\x9d not text")  # invalid in both
    (tmp_path / "utf8bom.txt").write_bytes("\ufeffMicrosoft Cloud revenue grew.\n".encode())
    items = {Path(i.uri).name: i for i in discover_transcripts(tmp_path)}
    doc = items["cp1252.txt"].load()
    assert "We\u2019re pleased" in doc.blocks[0].text
    assert (doc.fiscal_year, doc.fiscal_quarter) == (2023, 3)  # quarter ended March 2023, June FYE
    with pytest.raises(ParseError, match="neither UTF-8 nor Windows-1252"):
        items["garbage.txt"].load()
    assert items["utf8bom.txt"].load().blocks[0].text.startswith("Microsoft")
    with pytest.raises(ParseError, match="cannot read"):
        items["missing.txt"].load()


def test_bad_manifest_is_reported(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text("{not json")
    [item] = discover_transcripts(tmp_path)
    with pytest.raises(ParseError, match="unreadable manifest"):
        item.load()


def test_refinitiv_turns_without_section_markers(tmp_path: Path) -> None:
    text = "\n".join(
        [
            "Q2 2023 Example Corp Earnings Call",
            "Operator    [1]",
            "Welcome to the Apple call.",
            "Jane Doe,  Apple Inc. - CFO    [2]",
            "Revenue grew 5%. Apple did well.",
            "Operator    [3]",
            "We will now take questions. First question from John Roe.",
            "John Roe,  Big Bank - Analyst    [4]",
            "What about margins?",
            "Jane Doe,  Apple Inc. - CFO    [5]",
            "They improved.",
        ]
    )
    (tmp_path / "call.txt").write_text(text)
    _manifest(
        tmp_path,
        [{"ticker": "AAPL", "call_date": "2023-05-04", "title": "Q2 2023 Apple", "file": "call.txt"}],
    )
    doc = discover_transcripts(tmp_path)[0].load()
    turns = [(b.metadata["speaker"], b.section) for b in doc.blocks if "speaker" in b.metadata]
    assert turns == [
        ("Operator", PREPARED),
        ("Jane Doe", PREPARED),
        ("Operator", QA),
        ("John Roe", QA),
        ("Jane Doe", QA),
    ]
    assert (doc.fiscal_year, doc.fiscal_quarter) == (2023, 2)
