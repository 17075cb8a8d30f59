"""PDF filings: metadata priority (manifest > file name > cover), fiscal periods, pages, sections."""

from __future__ import annotations

import json
import os
import shutil
from datetime import date
from pathlib import Path

import pymupdf
import pytest

from finagent.errors import ParseError
from finagent.finance.document_records import ParsedDocument
from finagent.ingest.pdf import discover_pdfs, page_text_blocks
from finagent.ingest.pdf_tables import compact_table_rows
from finagent.ingest.sec.cover import parse_cover
from finagent.ingest.sec.pdf_items import match_heading

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
SEC10Q = SHARED / "data" / "filings" / "pdf" / "sec10q"
AAPL_DIR = SHARED / "data" / "filings" / "pdf" / "aapl"


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"needs the shared data set at {path} (../shared beside the repo)")
    return path


@pytest.fixture(scope="module")
def sec10q_docs() -> dict[str, ParsedDocument]:
    """All 20 sec10q PDFs parsed once (about 4 s)."""
    _need(SEC10Q)
    items = discover_pdfs(SEC10Q)
    return {Path(item.uri).name: item.load() for item in items}


@pytest.mark.shared
def test_sec10q_manifest_gives_every_pdf_its_metadata(sec10q_docs: dict[str, ParsedDocument]) -> None:
    manifest = {e["file"]: e for e in json.loads((SEC10Q / "manifest.json").read_text())}
    assert len(sec10q_docs) == 20
    assert set(sec10q_docs) == set(manifest)
    for name, doc in sec10q_docs.items():
        entry = manifest[name]
        assert doc.ticker == entry["ticker"], name
        assert doc.kind == "10-Q", name
        assert doc.period_end == date.fromisoformat(entry["period_end"]), name
        assert doc.fiscal_year is not None and doc.fiscal_quarter in (1, 2, 3, 4), name
        assert doc.metadata["metadata_sources"]["period_end"] == "manifest"
        assert doc.company_name and doc.fiscal_year_end_month


@pytest.mark.shared
def test_sec10q_fiscal_quarters_come_from_period_end_not_file_names(
    sec10q_docs: dict[str, ParsedDocument],
) -> None:
    by_key = {(d.ticker, d.period_end): d for d in sec10q_docs.values()}
    expected = {
        ("AAPL", date(2023, 7, 1)): (2023, 3),  # file "2023 Q3 AAPL.pdf"
        ("AAPL", date(2022, 12, 31)): (2023, 1),  # file "2023 Q1 AAPL.pdf"
        ("MSFT", date(2022, 9, 30)): (2023, 1),  # file "2022 Q3 MSFT.pdf"
        ("MSFT", date(2023, 9, 30)): (2024, 1),
        ("NVDA", date(2022, 10, 30)): (2023, 3),  # file "2022 Q3 NVDA.pdf"
        ("NVDA", date(2023, 4, 30)): (2024, 1),
        ("AMZN", date(2023, 3, 31)): (2023, 1),
        ("INTC", date(2023, 7, 1)): (2023, 2),
    }
    for key, (fy, fq) in expected.items():
        doc = by_key[key]
        assert (doc.fiscal_year, doc.fiscal_quarter) == (fy, fq), key


@pytest.mark.shared
def test_pages_are_kept_in_order(sec10q_docs: dict[str, ParsedDocument]) -> None:
    for name, doc in sec10q_docs.items():
        assert all(b.page is not None for b in doc.blocks), name
        pages = [b.page or 0 for b in doc.blocks]
        assert pages == sorted(pages), name
        count = pymupdf.open(SEC10Q / name).page_count
        assert pages[0] == 0 and pages[-1] <= count - 1, name
        assert len(set(pages)) >= count - 3, name  # only blank pages may be missing
    doc = sec10q_docs["2022 Q3 AAPL.pdf"]
    cover = " ".join(b.text for b in doc.blocks if b.page == 0)
    assert "For the quarterly period ended June 25, 2022" in cover


@pytest.mark.shared
def test_item_sections_skip_the_table_of_contents(sec10q_docs: dict[str, ParsedDocument]) -> None:
    doc = sec10q_docs["2023 Q3 AAPL.pdf"]
    sections = {b.section for b in doc.blocks}
    assert {"part1_item_1", "part1_item_2", "part2_item_1a", "part2_item_6"} <= sections
    front = {b.section for b in doc.blocks if b.page in (0, 1, 2)}
    assert front == {"cover", None}  # the cover page, and the contents (no part)
    assert all(b.section is None for b in doc.blocks if b.metadata.get("toc"))
    mdna = [b for b in doc.blocks if b.section == "part1_item_2"]
    assert mdna[0].section_title is not None and mdna[0].section_title.startswith("Management")
    assert any("net sales" in b.text.lower() for b in mdna)
    risk = [b for b in doc.blocks if b.section == "part2_item_1a"]
    assert risk and risk[0].section_title == "Risk Factors"
    # Microsoft repeats "PART I / Item 2" as a running header: sections still change only at items.
    msft = sec10q_docs["2022 Q3 MSFT.pdf"]
    order = [b.section for b in msft.blocks if b.section and b.section != "cover"]
    firsts = list(dict.fromkeys(order))
    assert firsts[:3] == ["part1_item_1", "part1_item_2", "part1_item_3"]
    assert "part2_item_1a" in firsts
    # Intel's 10-Q has no Item headings, only a cross-reference index: its pages take the Items it
    # lists them under (Legal Proceedings' pages inside the notes' range), then the signatures.
    intel = sec10q_docs["2023 Q1 INTC.pdf"]
    parts = {b.section for b in intel.blocks}
    assert {"cover", "part1_item_1", "part1_item_2", "part2_item_1"} <= parts
    legal = " ".join(b.text for b in intel.blocks if b.section == "part2_item_1")
    assert "litigation" in legal.lower() or "court" in legal.lower()
    statements = [b for b in intel.blocks if b.section == "part1_item_1"]
    assert any("Balance Sheets" in b.text for b in statements)


@pytest.mark.shared
def test_financial_statement_rows_are_compacted_into_table_blocks(
    sec10q_docs: dict[str, ParsedDocument],
) -> None:
    doc = sec10q_docs["2022 Q3 AAPL.pdf"]
    tables = [b for b in doc.blocks if b.is_table]
    assert tables
    income = next(b for b in tables if "Total net sales |" in b.text)
    assert "Net income | $19,442 | $21,744 | $79,082 | $74,129" in income.text
    assert income.section == "part1_item_1" and income.page == 3


@pytest.mark.shared
def test_content_hash_is_stable_and_distinct(sec10q_docs: dict[str, ParsedDocument]) -> None:
    again = discover_pdfs(SEC10Q / "2023 Q3 AAPL.pdf")[0].load()
    assert again.content_sha256 == sec10q_docs["2023 Q3 AAPL.pdf"].content_sha256
    assert len({d.content_sha256 for d in sec10q_docs.values()}) == 20


@pytest.mark.shared
def test_cover_page_fallback_without_manifest(tmp_path: Path) -> None:
    _need(SEC10Q)
    shutil.copy(SEC10Q / "2023 Q3 AAPL.pdf", tmp_path / "filing-a.pdf")
    shutil.copy(SEC10Q / "2022 Q3 MSFT.pdf", tmp_path / "filing-b.pdf")
    docs = {Path(i.uri).name: i.load() for i in discover_pdfs(tmp_path)}
    apple, msft = docs["filing-a.pdf"], docs["filing-b.pdf"]
    assert (apple.ticker, apple.kind, apple.period_end) == ("AAPL", "10-Q", date(2023, 7, 1))
    assert (apple.fiscal_year, apple.fiscal_quarter) == (2023, 3)
    assert apple.metadata["metadata_sources"]["ticker"] == "cover"
    assert (msft.ticker, msft.period_end, msft.fiscal_year, msft.fiscal_quarter) == (
        "MSFT",
        date(2022, 9, 30),
        2023,
        1,
    )


@pytest.mark.shared
def test_overrides_beat_everything(tmp_path: Path) -> None:
    _need(SEC10Q)
    shutil.copy(SEC10Q / "2022 Q3 NVDA.pdf", tmp_path / "x.pdf")
    doc = discover_pdfs(tmp_path, ticker="AAPL", form="10-Q", period_end=date(2023, 7, 1))[0].load()
    assert (doc.ticker, doc.fiscal_year, doc.fiscal_quarter) == ("AAPL", 2023, 3)
    assert doc.metadata["metadata_sources"]["ticker"] == "override"


@pytest.mark.shared
def test_structured_file_names_carry_fiscal_periods() -> None:
    _need(AAPL_DIR)
    items = {Path(i.uri).name: i for i in discover_pdfs(AAPL_DIR)}
    q1 = items["AAPL_2023Q1_10Q.pdf"].load()
    assert (q1.ticker, q1.kind, q1.fiscal_year, q1.fiscal_quarter) == ("AAPL", "10-Q", 2023, 1)
    assert q1.period_end == date(2022, 12, 31)  # read from the cover
    annual = items["AAPL_2023_10K.pdf"].load()
    assert (annual.kind, annual.fiscal_year, annual.fiscal_quarter) == ("10-K", 2023, None)
    assert {"item_1a", "item_7", "item_8"} <= {b.section for b in annual.blocks}
    eight_k = items["AAPL_2023-05-04_8K.pdf"].load()
    assert (eight_k.kind, eight_k.period_end) == ("8-K", date(2023, 5, 4))
    # It reports the quarter ended April 1, 2023: fiscal Q2 2023.
    assert (eight_k.fiscal_year, eight_k.fiscal_quarter) == (2023, 2)
    assert "item_2_02" in {b.section for b in eight_k.blocks}


def _write_pdf(path: Path, lines: list[str]) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 60.0
    for line in lines:
        page.insert_text((50, y), line, fontsize=10)
        y += 14
    doc.save(path)


def test_unknown_company_reads_its_fiscal_calendar_from_the_cover(tmp_path: Path) -> None:
    cover = [
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
        "FORM 10-Q",
        "For the quarterly period ended March 31, 2024",
        "Globex Widgets Corp.",
        "(Exact name of registrant as specified in its charter)",
        "Title of each class",
        "Trading Symbol(s)",
        "Common stock",
        "GLBX",
        "See our Annual Report for the fiscal year ended June 30, 2023.",
    ]
    _write_pdf(tmp_path / "a.pdf", cover)
    doc = discover_pdfs(tmp_path / "a.pdf")[0].load()
    assert (doc.ticker, doc.kind, doc.period_end) == ("GLBX", "10-Q", date(2024, 3, 31))
    assert doc.fiscal_year_end_month == 6
    assert (doc.fiscal_year, doc.fiscal_quarter) == (2024, 3)
    assert "fiscal_calendar_assumed" not in doc.metadata

    _write_pdf(tmp_path / "b.pdf", cover[:-1])
    doc = discover_pdfs(tmp_path / "b.pdf")[0].load()
    assert doc.metadata["fiscal_calendar_assumed"] is True
    assert (doc.fiscal_year, doc.fiscal_quarter) == (2024, 1)


def test_bad_files_raise_parse_error(tmp_path: Path) -> None:
    (tmp_path / "text.pdf").write_text("this is a plain text file, not a PDF\n")
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "random.pdf").write_bytes(os.urandom(4096))
    (tmp_path / "header-only.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(4096))
    secret = pymupdf.open()
    secret.new_page().insert_text((50, 60), "FORM 10-Q")
    aes256: int = getattr(pymupdf, "PDF_ENCRYPT_AES_256")  # noqa: B009 (missing from the type stubs)
    secret.save(tmp_path / "encrypted.pdf", encryption=aes256, owner_pw="o", user_pw="u")
    blank = pymupdf.open()
    blank.new_page()
    blank.save(tmp_path / "blank.pdf")
    items = discover_pdfs(tmp_path)
    assert len(items) == 6
    reasons = {}
    for item in items:
        with pytest.raises(ParseError) as info:
            item.load()
        reasons[Path(item.uri).name] = info.value.reason
    assert reasons["empty.pdf"] == "empty file"
    assert "not a PDF" in reasons["text.pdf"] and "not a PDF" in reasons["random.pdf"]
    assert "encrypted" in reasons["encrypted.pdf"]
    assert "no extractable text" in reasons["blank.pdf"]


def test_missing_path_is_a_failing_item(tmp_path: Path) -> None:
    [item] = discover_pdfs(tmp_path / "nope.pdf")
    with pytest.raises(ParseError, match="no such file"):
        item.load()


def test_compact_table_rows() -> None:
    rows = compact_table_rows(
        ["Net income", "$", "19,442", "$", "21,744", "Gross margin", "70.1 %", "64.6 %", "Page text", "27"]
    )
    assert rows == [
        ("Net income | $19,442 | $21,744", True),
        ("Gross margin | 70.1% | 64.6%", True),
        ("Page text", False),
        ("27", False),  # a lone page number is not a table row
    ]


def test_heading_matching() -> None:
    assert match_heading("Item 2. Management’s Discussion and Analysis", "10-Q") is not None
    assert match_heading("ITEM 1A. RISK FACTORS", "10-K") is not None
    assert match_heading("Item 1A of the Company’s Annual Report on Form 10-K", "10-Q") is None
    assert match_heading("Item 3, 4", "10-Q") is None
    assert match_heading("Item 2.02 Results of Operations and Financial Condition.", "8-K") is not None
    assert match_heading("PART II — OTHER INFORMATION", "10-Q") is not None
    assert match_heading("Item 1. - Business", "10-K") is not None  # a run of separators
    assert match_heading("ITEM 7 — MANAGEMENT'S DISCUSSION", "10-K") is not None


def _page(number: int, *lines: str) -> tuple[int, str]:
    return number - 1, "\n".join([*lines, f"Example Corp 2023 Annual Report {number}"])


def test_a_cross_reference_index_gives_pages_without_item_headings_their_items() -> None:
    """A 10-K in the company's own order: its Items only in an index at the back, its pages numbered
    in the footer. The cover is the first page; the index itself is in no part."""
    pages = [
        (0, "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nExample Corp"),
        _page(2, "Our Business", "We make widgets for customers in forty countries."),
        _page(3, "What could go wrong", "Demand for widgets may fall sharply."),
        _page(4, "Results of Operations", "Revenue rose 4% on higher widget volumes."),
        _page(5, "Lawsuits", "A competitor sued us over a widget patent."),
        _page(6, "Balance Sheets", "Total assets | 1,200 | 1,100"),
        _page(
            7,
            "Form 10-K Cross-Reference Index",
            "Part I",
            "Item 1.",
            "Business",
            "Page 2",
            "Item 1A.",
            "Risk Factors",
            "Page 3",
            "Item 3.",
            "Legal Proceedings",
            "Page 5",
            "Part II",
            "Item 7.",
            "Management's Discussion and Analysis",
            "Pages 4 - 5",
            "Item 8.",
            "Financial Statements and Supplementary Data",
            "Pages 5 - 6",
            "Signatures",
            "Page 8",
        ),
        _page(8, "Signatures", "Pursuant to the requirements of the Securities Exchange Act"),
    ]
    blocks = page_text_blocks(pages, "10-K")
    part = {b.text.splitlines()[0]: b.section for b in blocks}
    assert part["UNITED STATES SECURITIES AND EXCHANGE COMMISSION"] == "cover"
    assert part["Our Business"] == "item_1"
    assert part["What could go wrong"] == "item_1a"
    assert part["Results of Operations"] == "item_7"
    assert part["Lawsuits"] == "item_3"  # the narrowest listing of its page
    assert part["Balance Sheets"] == "item_8"
    assert part["Form 10-K Cross-Reference Index"] is None
    assert part["Signatures"] == "exhibits"


def test_parse_cover_reads_8k_event_dates() -> None:
    cover = parse_cover(
        "FORM 8-K\nCURRENT REPORT\nMay 4, 2023\nDate of Report (Date of earliest event reported)\n"
    )
    assert cover.form == "8-K" and cover.event_date == date(2023, 5, 4)
