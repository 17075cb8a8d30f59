"""The format registry: one table says which reader takes which file; unknown files are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from finagent.ingest.discover import discover
from finagent.ingest.formats import READERS, reader_for, supported_formats
from finagent.ingest.sec.cover import parse_cover
from finagent.ingest.sec.headings import ITEMS_10K, LINE_ITEM_RE, PART_RE


@pytest.mark.parametrize(
    ("name", "reader"),
    [
        ("aapl-20240928.htm", "edgar"),
        ("full-submission.txt", "edgar"),
        ("AAPL_2023_10K.pdf", "pdf"),
        ("pages.jsonl.gz", "financebench"),
        ("AAPL_2023_2024.csv", "news"),
        ("notes.docx", None),
    ],
)
def test_each_file_goes_to_its_formats_reader(tmp_path: Path, name: str, reader: str | None) -> None:
    path = tmp_path / name
    path.write_text("x")
    found = reader_for(path)
    assert (found.name if found else None) == reader


def test_a_transcript_is_a_text_file_beside_its_manifest(tmp_path: Path) -> None:
    call = tmp_path / "call.txt"
    call.write_text("Operator: welcome")
    assert reader_for(call) is None
    (tmp_path / "manifest.json").write_text("[]")
    assert reader_for(call) is not None and reader_for(call).name == "transcripts"  # type: ignore[union-attr]


def test_an_unsupported_file_names_every_supported_format(tmp_path: Path) -> None:
    path = tmp_path / "notes.docx"
    path.write_text("x")
    found = discover(path)
    assert not found.items and len(found.failed) == 1
    reason = found.failed[0][1]
    assert "unsupported file type '.docx'" in reason
    assert all(reader.supported in reason for reader in READERS) and supported_formats() in reason


def test_html_and_pdf_share_one_heading_and_cover_vocabulary() -> None:
    assert LINE_ITEM_RE.match("Item 7. Management's Discussion") and not LINE_ITEM_RE.match("item 7 of this")
    assert PART_RE.match("PART II — OTHER INFORMATION") and ITEMS_10K["1A"] == "Risk Factors"
    cover = parse_cover(
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 20-F\n"
        "For the period ended December 31, 2023\nExample Ltd\n"
        "(Exact name of registrant as specified in its charter)"
    )
    assert cover.form == "20-F" and str(cover.period_end) == "2023-12-31"
    assert cover.company_name == "Example Ltd"
