"""EDGAR iXBRL/HTML parsing: metadata from dei facts, sections, tables; on real and synthetic filings."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from finagent.errors import ParseError
from finagent.finance.document_records import ParsedDocument
from finagent.ingest.chunking import chunk_blocks
from finagent.ingest.ixbrl import discover_edgar, parse_edgar_submission, parse_ixbrl_html

EDGAR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "filings" / "edgar"


def _edgar() -> Path:
    if not EDGAR.is_dir():
        pytest.skip(f"needs the shared EDGAR filings at {EDGAR} (../shared beside the repo)")
    return EDGAR


def _one(ticker: str, form: str) -> Path:
    files = sorted((_edgar() / ticker / form).glob("*.htm*"))
    if not files:
        pytest.skip(f"no {ticker} {form} filing under {EDGAR}")
    return files[0]


_CACHE: dict[Path, ParsedDocument] = {}


def _parse(path: Path) -> ParsedDocument:
    if path not in _CACHE:
        _CACHE[path] = parse_ixbrl_html(path)
    return _CACHE[path]


def _all_filings() -> list[Path]:
    if not EDGAR.is_dir():
        return []
    return sorted(EDGAR.glob("*/*/*.htm*"))


# --------------------------------------------------------------------------- real filings


@pytest.mark.shared
def test_apple_10q_metadata() -> None:
    doc = _parse(_one("AAPL", "10-Q"))
    assert doc.ticker == "AAPL"
    assert doc.kind == "10-Q"
    assert doc.company_name == "Apple Inc."
    assert (doc.fiscal_year, doc.fiscal_quarter) == (2025, 3)
    assert doc.period_end == date(2025, 6, 28)
    assert doc.fiscal_year_end_month == 9
    assert doc.title == "Apple Inc. 10-Q Q3 FY2025"
    assert doc.metadata["cik"] == "0000320193"
    assert doc.published_at is None  # a loose file has no SGML header
    assert doc.source_uri == str(_one("AAPL", "10-Q").resolve())
    assert re.fullmatch(r"[0-9a-f]{64}", doc.content_sha256)


@pytest.mark.shared
def test_apple_10k_metadata_and_statements() -> None:
    doc = _parse(_one("AAPL", "10-K"))
    assert (doc.ticker, doc.kind, doc.fiscal_year, doc.fiscal_quarter) == ("AAPL", "10-K", 2024, None)
    assert doc.period_end == date(2024, 9, 28)
    assert doc.fiscal_year_end_month == 9
    assert doc.title == "Apple Inc. 10-K FY2024"
    income = [b for b in doc.blocks if b.is_table and b.section == "item_8" and "Total net sales" in b.text]
    assert income, "Apple's income statement should be a table in item_8"
    rows = income[0].text.split("\n")
    assert any(re.fullmatch(r"Total net sales \| \$?391,035 \| \$?383,285 \| \$?394,328", r) for r in rows)
    assert "Net income | $93,736 | $96,995 | $99,803" in rows
    assert income[0].section_title == "Financial Statements and Supplementary Data"
    assert "caption" in income[0].metadata
    # Pipe format: no stray "$" or ")" cells, negative numbers kept in parentheses.
    assert not re.search(r"(^|\| )(\$|\)|%)( \||$)", income[0].text, re.M)
    assert "Other income/(expense), net | 269 | (565) | (334)" in rows


@pytest.mark.shared
def test_apple_10q_income_statement_rows() -> None:
    doc = _parse(_one("AAPL", "10-Q"))
    tables = [b.text for b in doc.blocks if b.is_table and "Total net sales" in b.text]
    rows = [r for t in tables for r in t.split("\n")]
    assert any(
        re.match(r"Total net sales \| \$?94,036 \| \$?85,777 \| \$?313,695 \| \$?296,105$", r) for r in rows
    )
    sections = {b.section for b in doc.blocks if b.is_table and "Total net sales" in b.text}
    assert "part1_item_1" in sections


@pytest.mark.shared
def test_apple_10q_sections() -> None:
    doc = _parse(_one("AAPL", "10-Q"))
    order = list(dict.fromkeys(b.section for b in doc.blocks))
    assert order[0] == "cover"
    for sid in (
        "part1_item_1",
        "part1_item_2",
        "part1_item_3",
        "part1_item_4",
        "part2_item_1a",
        "part2_item_6",
    ):
        assert sid in order
    assert order.index("part1_item_2") < order.index("part2_item_1a")
    mdna = next(b for b in doc.blocks if b.section == "part1_item_2")
    assert mdna.section_title is not None
    assert mdna.section_title.startswith("Management")
    assert "Discussion and Analysis" in mdna.section_title


@pytest.mark.shared
def test_10k_sections_present() -> None:
    for path in _all_filings():
        if "10-K" not in path.parent.name:
            continue
        doc = _parse(path)
        sections = {b.section for b in doc.blocks}
        for sid in ("cover", "item_1", "item_1a", "item_7", "item_8"):
            assert sid in sections, f"{path.name}: {sid} missing from {sorted(s or '' for s in sections)}"
        mdna = sum(len(b.text) for b in doc.blocks if b.section == "item_7")
        risk = sum(len(b.text) for b in doc.blocks if b.section == "item_1a")
        assert mdna > 5000 and risk > 5000, path.name
        order = list(dict.fromkeys(b.section for b in doc.blocks))
        assert order.index("item_1") < order.index("item_1a") < order.index("item_7") < order.index("item_8")
        assert len(order) == len(set(order)), f"{path.name}: a section starts twice: {order}"


@pytest.mark.shared
def test_toc_does_not_switch_sections() -> None:
    doc = _parse(_one("AAPL", "10-K"))
    toc = next(b for b in doc.blocks if b.is_table and "Risk Factors" in b.text and "Item 1A" in b.text)
    assert toc.section == "cover"
    item1 = next(b for b in doc.blocks if b.section == "item_1")
    assert item1.text.startswith("Item 1.")


@pytest.mark.shared
def test_every_filing_parses_with_metadata() -> None:
    files = _all_filings()
    if not files:
        pytest.skip(f"needs the shared EDGAR filings at {EDGAR} (../shared beside the repo)")
    assert len(files) >= 20
    for path in files:
        doc = _parse(path)
        form = path.parent.name
        assert doc.ticker == path.parent.parent.name, path.name
        assert doc.kind == form, path.name
        assert doc.period_end is not None, path.name
        assert doc.fiscal_year is not None and 2023 <= doc.fiscal_year <= 2026, path.name
        assert doc.fiscal_year_end_month is not None, path.name
        if form == "10-K":
            assert doc.fiscal_quarter is None, path.name
        else:
            assert doc.fiscal_quarter in (1, 2, 3), path.name
        assert doc.company_name, path.name
        assert sum(b.is_table for b in doc.blocks) >= 10, path.name
        assert sum(len(b.text) for b in doc.blocks) > 50_000, path.name
        # Hidden iXBRL header facts never leak into the text.
        assert not any("dei:" in b.text or "xbrli:" in b.text for b in doc.blocks), path.name
        chunks = chunk_blocks(doc.blocks)
        assert chunks and all(c.text.strip() for c in chunks)


@pytest.mark.shared
def test_fiscal_calendars_from_dei() -> None:
    nvda_q = _parse(_one("NVDA", "10-Q"))
    assert (nvda_q.fiscal_year, nvda_q.fiscal_quarter, nvda_q.fiscal_year_end_month) == (2026, 2, 1)
    assert nvda_q.period_end == date(2025, 7, 27)
    nvda_k = _parse(_one("NVDA", "10-K"))
    assert (nvda_k.fiscal_year, nvda_k.fiscal_year_end_month) == (2025, 1)
    # Home Depot's year ending 2025-02-02 is "fiscal 2024" in its own words (dei), FYE month January.
    hd = _parse(_one("HD", "10-K"))
    assert (hd.fiscal_year, hd.fiscal_year_end_month, hd.period_end) == (2024, 1, date(2025, 2, 2))
    pg = _parse(_one("PG", "10-Q"))
    assert (pg.fiscal_year, pg.fiscal_quarter, pg.fiscal_year_end_month) == (2025, 3, 6)


@pytest.mark.shared
def test_netflix_10q_without_item1_heading_gets_financial_statements() -> None:
    doc = _parse(_one("NFLX", "10-Q"))
    statements = [b for b in doc.blocks if b.is_table and "Revenues" in b.text and "Net income" in b.text]
    assert statements and statements[0].section == "part1_item_1"


@pytest.mark.shared
def test_discover_real_folder() -> None:
    folder = _one("AAPL", "10-Q").parent
    items = discover_edgar(folder)
    assert len(items) == 1 and items[0].kind_hint == "filing"
    assert items[0].load().ticker == "AAPL"


# --------------------------------------------------------------------------- synthetic filings

_IX_DOC = """<?xml version='1.0' encoding='ASCII'?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:dei="http://xbrl.sec.gov/dei/2024"><head><title>x</title><style>p {{color: red}}</style></head>
<body><div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="c">{fy}</ix:nonNumeric>
<ix:nonNumeric name="dei:CurrentFiscalYearEndDate" contextRef="c">--12-31</ix:nonNumeric>
</ix:hidden></ix:header></div>
<div>FORM <ix:nonNumeric name="dei:DocumentType" contextRef="c">{form}</ix:nonNumeric></div>
<div>For the quarterly period ended <ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="c"
 format="ixt:date-monthname-day-year-en">March&#160;31, 2024</ix:nonNumeric></div>
<div><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c">Example Corp</ix:nonNumeric>
 (<ix:nonNumeric name="dei:TradingSymbol" contextRef="c">EXMP</ix:nonNumeric>)</div>
<script>var hidden = 1;</script>
<table><tr><td>Item 1.</td><td>Financial Statements</td><td>3</td></tr>
<tr><td>Item 2.</td><td>MD&amp;A</td><td>9</td></tr></table>
<div><span>PART I &#8212; FINANCIAL INFORMATION</span></div>
<div><span>Item 1.</span><span>&#160;&#160;Financial Statements</span></div>
<table>
<tr><td></td><td colspan="2">Three Months Ended</td></tr>
<tr><td></td><td>March 31, 2024</td><td>March 31, 2023</td></tr>
<tr><td>Revenue</td><td>$</td><td>1,234</td><td>$</td><td>1,000</td></tr>
<tr><td>Net loss</td><td>(</td><td>56</td><td>)</td><td>(12</td><td>)</td></tr>
<tr><td>Margin</td><td>12.5</td><td>%</td><td>&#160;</td><td>10.0</td><td>%</td></tr>
</table>
<table><tr><td>&#8226;</td><td>A bullet point laid out as a table.</td></tr></table>
<div>Item 2. Management&#8217;s Discussion and Analysis of Financial Condition and Results of Operations</div>
<p>Revenue increased 23% driven by strong demand for widgets across all regions.</p>
<div>PART II &#8212; OTHER INFORMATION</div>
<div>Item 1A. Risk Factors</div>
<p>There have been no material changes to our risk factors since the annual report.</p>
</body></html>
"""


def _submission(doc: str, form: str = "10-Q") -> str:
    return f"""<SEC-DOCUMENT>0000000000-24-000001.txt : 20240425
<SEC-HEADER>0000000000-24-000001.hdr.sgml : 20240425
ACCESSION NUMBER:\t\t0000000000-24-000001
CONFORMED SUBMISSION TYPE:\t{form}
PUBLIC DOCUMENT COUNT:\t\t3
CONFORMED PERIOD OF REPORT:\t20240331
FILED AS OF DATE:\t\t20240425

FILER:

\tCOMPANY DATA:\t
\t\tCOMPANY CONFORMED NAME:\t\t\tExample Corp
\t\tCENTRAL INDEX KEY:\t\t\t0000000001
\t\tFISCAL YEAR END:\t\t\t1231
</SEC-HEADER>
<DOCUMENT>
<TYPE>EX-31.1
<SEQUENCE>2
<FILENAME>ex31.htm
<TEXT>
<html><body><p>Certification exhibit, not the filing.</p></body></html>
</TEXT>
</DOCUMENT>
<DOCUMENT>
<TYPE>{form}
<SEQUENCE>1
<FILENAME>exmp-20240331.htm
<DESCRIPTION>{form}
<TEXT>
<XBRL>
{doc}
</XBRL>
</TEXT>
</DOCUMENT>
</SEC-DOCUMENT>
"""


def test_synthetic_ixbrl_html(tmp_path: Path) -> None:
    path = tmp_path / "exmp-10q.htm"
    path.write_text(_IX_DOC.format(fy="2024", form="10-Q"), encoding="ascii")
    doc = parse_ixbrl_html(path)
    assert (doc.ticker, doc.kind, doc.company_name) == ("EXMP", "10-Q", "Example Corp")
    assert (doc.fiscal_year, doc.fiscal_quarter, doc.period_end) == (2024, 1, date(2024, 3, 31))
    assert doc.fiscal_year_end_month == 12
    assert doc.title == "Example Corp 10-Q Q1 FY2024"
    texts = [b.text for b in doc.blocks]
    assert not any("hidden" in t or "color: red" in t for t in texts)
    tables = [b for b in doc.blocks if b.is_table]
    assert tables[0].section == "cover"  # the table of contents
    fin = tables[1]
    assert fin.section == "part1_item_1"
    assert fin.text.split("\n") == [
        "Three Months Ended",
        "March 31, 2024 | March 31, 2023",
        "Revenue | $1,234 | $1,000",
        "Net loss | (56) | (12)",
        "Margin | 12.5% | 10.0%",
    ]
    bullet = next(b for b in doc.blocks if "bullet point" in b.text)
    assert not bullet.is_table and bullet.text == "A bullet point laid out as a table."
    mdna = next(b for b in doc.blocks if b.text.startswith("Revenue increased 23%"))
    assert mdna.section == "part1_item_2"
    assert mdna.section_title == (
        "Management’s Discussion and Analysis of Financial Condition and Results of Operations"
    )
    risk = next(b for b in doc.blocks if b.text.startswith("There have been no material changes"))
    assert (risk.section, risk.section_title) == ("part2_item_1a", "Risk Factors")
    assert next(b for b in doc.blocks if b.text.startswith("FORM")).section == "cover"


def test_missing_fiscal_facts_fall_back_to_fiscal_calendar(tmp_path: Path) -> None:
    path = tmp_path / "x.htm"
    text = _IX_DOC.format(fy="", form="10-Q").replace("--12-31", "")
    text = text.replace("EXMP", "AAPL").replace("March&#160;31, 2024", "June 29, 2024")
    path.write_text(text, encoding="ascii")
    doc = parse_ixbrl_html(path)
    # Apple's built-in September year end: the quarter ending June 2024 is Q3 FY2024.
    assert (doc.fiscal_year, doc.fiscal_quarter, doc.fiscal_year_end_month) == (2024, 3, 9)


def test_amendment_maps_to_base_form(tmp_path: Path) -> None:
    path = tmp_path / "a.htm"
    path.write_text(_IX_DOC.format(fy="2024", form="10-K/A"), encoding="ascii")
    doc = parse_ixbrl_html(path)
    assert doc.kind == "10-K"
    assert doc.metadata["amendment"] is True
    assert doc.metadata["form"] == "10-K/A"
    assert doc.fiscal_quarter is None
    assert "10-K/A" in doc.title


def test_parse_edgar_submission(tmp_path: Path) -> None:
    path = tmp_path / "full-submission.txt"
    path.write_text(_submission(_IX_DOC.format(fy="2024", form="10-Q")), encoding="ascii")
    doc = parse_edgar_submission(path)
    assert (doc.ticker, doc.kind, doc.fiscal_year, doc.fiscal_quarter) == ("EXMP", "10-Q", 2024, 1)
    assert doc.published_at is not None and doc.published_at.date() == date(2024, 4, 25)
    assert doc.metadata["accession"] == "0000000000-24-000001"
    assert not any("Certification exhibit" in b.text for b in doc.blocks)
    assert any("strong demand for widgets" in b.text for b in doc.blocks)
    assert doc.source_uri == str(path.resolve())


def test_submission_header_fallbacks_for_plain_html(tmp_path: Path) -> None:
    """An old HTML filing without iXBRL: form, period, name and filing date from the SGML header."""
    folder = tmp_path / "sec-edgar-filings" / "MSFT" / "10-K" / "0000789019-10-000001"
    folder.mkdir(parents=True)
    html = (
        "<HTML><BODY><P>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</P><P>FORM 10-K</P>"
        "<P>ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS</P>"
        "<P>Revenue for fiscal year 2010 was $62.5 billion, up 7% from the prior year.<BR>"
        "Operating income increased.</P>"
        "<TABLE><TR><TD>Revenue</TD><TD>$</TD><TD>62,484</TD><TD>$</TD><TD>58,437</TD></TR></TABLE>"
        "</BODY></HTML>"
    )
    sub = (
        _submission(html, form="10-K")
        .replace("Example Corp", "MICROSOFT CORP")
        .replace("20240331", "20100630")
    )
    path = folder / "full-submission.txt"
    path.write_text(sub.replace("FISCAL YEAR END:\t\t\t1231", "FISCAL YEAR END:\t\t\t0630"), encoding="ascii")
    doc = parse_edgar_submission(path)
    assert doc.kind == "10-K"
    assert doc.company_name == "MICROSOFT CORP"
    assert doc.ticker == "MSFT"  # resolved from the built-in companies by name
    assert doc.period_end == date(2010, 6, 30)
    assert (doc.fiscal_year, doc.fiscal_quarter, doc.fiscal_year_end_month) == (2010, None, 6)
    mdna = [b for b in doc.blocks if b.section == "item_7"]
    assert mdna and mdna[0].section_title == (
        "Management's Discussion and Analysis of Financial Condition and Results of Operations"
    )
    table = next(b for b in doc.blocks if b.is_table)
    assert table.text.splitlines()[-1] == "Revenue | $62,484 | $58,437"
    # The short lines above a table travel with it as its first (caption) line.
    assert table.text.splitlines()[0] == table.metadata["caption"]


def test_discover_downloader_layout_prefers_primary_document(tmp_path: Path) -> None:
    a = tmp_path / "sec-edgar-filings" / "EXMP" / "10-Q" / "0000000000-24-000001"
    b = tmp_path / "sec-edgar-filings" / "EXMP" / "10-Q" / "0000000000-24-000002"
    for folder in (a, b):
        folder.mkdir(parents=True)
        (folder / "full-submission.txt").write_text(_submission(_IX_DOC.format(fy="2024", form="10-Q")))
    (a / "primary-document.html").write_text(_IX_DOC.format(fy="2024", form="10-Q"), encoding="ascii")
    (tmp_path / "loose.html").write_text(_IX_DOC.format(fy="2024", form="10-Q"), encoding="ascii")
    (tmp_path / "notes.txt").write_text("not a filing")
    items = discover_edgar(tmp_path)
    uris = sorted(Path(i.uri).relative_to(tmp_path).as_posix() for i in items)
    assert uris == [
        "loose.html",
        "sec-edgar-filings/EXMP/10-Q/0000000000-24-000001/primary-document.html",
        "sec-edgar-filings/EXMP/10-Q/0000000000-24-000002/full-submission.txt",
    ]
    assert all(i.kind_hint == "filing" for i in items)
    docs = {Path(i.uri).name: i.load() for i in items}
    # The primary document still gets the filing date from the submission header beside it.
    primary = docs["primary-document.html"]
    assert primary.published_at is not None and primary.published_at.date() == date(2024, 4, 25)
    assert docs["full-submission.txt"].ticker == "EXMP"
    assert discover_edgar(tmp_path / "missing") == []
    assert [Path(i.uri).name for i in discover_edgar(a / "full-submission.txt")] == ["primary-document.html"]


def test_non_filing_html_raises_parse_error(tmp_path: Path) -> None:
    page = tmp_path / "blog.html"
    page.write_text(
        "<html><head><title>My blog</title></head><body><h1>Hello</h1>"
        "<p>Today I read about Apple's results. Revenue was up.</p>"
        "<table><tr><td>a</td><td>1</td></tr></table></body></html>"
    )
    items = discover_edgar(page)
    assert len(items) == 1
    with pytest.raises(ParseError) as err:
        items[0].load()
    assert "not an SEC filing" in str(err.value)
    assert err.value.path == str(page)


def test_unreadable_and_non_submission_files_raise_parse_error(tmp_path: Path) -> None:
    with pytest.raises(ParseError):
        parse_ixbrl_html(tmp_path / "nope.htm")
    bogus = tmp_path / "full-submission.txt"
    bogus.write_text("just some text")
    with pytest.raises(ParseError):
        parse_edgar_submission(bogus)


def test_text_table_of_contents_is_ignored(tmp_path: Path) -> None:
    """A TOC of plain paragraphs (no table): entries, including the last one, must not open sections."""
    body = "".join(
        f"<div>{t}</div>"
        for t in (
            "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
            "FORM 10-K",
            "Item 1. Business",
            "1",
            "Item 1A. Risk Factors",
            "4",
            "Item 7.",
            "Management's Discussion and Analysis",
            "20",
            "Forward-looking statements: this report contains forward-looking statements about the future.",
            "PART I",
            "Item 1. Business",
            "We make widgets and sell them worldwide through many channels.",
            "Item 1A. Risk Factors",
            "Demand for widgets may fall and our results could suffer materially.",
            "Item 7 of this report is referenced elsewhere, but this sentence is not a heading.",
            "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS",
            "Revenue grew 10% on widget demand.",
        )
    )
    path = tmp_path / "old.htm"
    path.write_text(f"<html><body>{body}</body></html>")
    doc = parse_ixbrl_html(path)
    section_of = {b.text.split(":")[0].split(",")[0]: b.section for b in doc.blocks}
    assert section_of["Forward-looking statements"] == "cover"
    assert section_of["We make widgets and sell them worldwide through many channels."] == "item_1"
    assert section_of["Demand for widgets may fall and our results could suffer materially."] == "item_1a"
    assert section_of["Item 7 of this report is referenced elsewhere"] == "item_1a"
    mdna = next(b for b in doc.blocks if b.text == "Revenue grew 10% on widget demand.")
    assert mdna.section == "item_7"
    # An all-caps heading gets the standard Item title.
    assert mdna.section_title == (
        "Management's Discussion and Analysis of Financial Condition and Results of Operations"
    )
    assert doc.kind == "10-K" and doc.ticker is None


def test_8k_sections_and_cover_period_fallback(tmp_path: Path) -> None:
    body = "".join(
        f"<p>{t}</p>"
        for t in (
            "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
            "FORM 8-K",
            "CURRENT REPORT",
            "Date of Report (Date of earliest event reported): October 30, 2024",
            "Item 2.02 Results of Operations and Financial Condition.",
            "On October 30, 2024, the company issued a press release announcing its results.",
            "Item 9.01 Financial Statements and Exhibits.",
            "Exhibit 99.1 Press release dated October 30, 2024.",
        )
    )
    path = tmp_path / "8k.htm"
    path.write_text(f"<html><body>{body}</body></html>")
    doc = parse_ixbrl_html(path)
    assert doc.kind == "8-K" and doc.fiscal_quarter is None
    sections = {b.text[:20]: b.section for b in doc.blocks}
    assert sections["On October 30, 2024,"] == "item_2_02"
    assert sections["Exhibit 99.1 Press r"] == "item_9_01"

    tenq = tmp_path / "q.htm"
    tenq.write_text(
        "<html><body><p>SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-Q</p>"
        "<p>For the quarterly period ended March 30, 2024</p><p>Apple Inc.</p></body></html>"
    )
    q = parse_ixbrl_html(tenq)
    assert q.period_end == date(2024, 3, 30)
    assert (q.kind, q.ticker, q.fiscal_year, q.fiscal_quarter) == ("10-Q", None, None, None)


def test_deeply_nested_old_html_does_not_recurse(tmp_path: Path) -> None:
    """Old filings leave <font> tags unclosed; the parser nests them thousands deep."""
    path = tmp_path / "deep.htm"
    cover = "<p>SECURITIES AND EXCHANGE COMMISSION</p><p>FORM 10-K</p>"
    cell = "<table><tr><td>" + "<font size=2>Revenue " * 3000 + "</td><td>1,234</td></tr></table>"
    path.write_text(f"<html><body>{cover}" + "<font size=2>word " * 5000 + cell + "</body></html>")
    doc = parse_ixbrl_html(path)
    assert doc.kind == "10-K"
    assert sum(len(b.text) for b in doc.blocks) > 5000 * 5


def test_bare_item_heading_followed_by_short_answer(tmp_path: Path) -> None:
    """ "Item 1B." then "None." is a real (short) section, and "None." is not taken as its title."""
    body = "".join(
        f"<div>{t}</div>"
        for t in (
            "SECURITIES AND EXCHANGE COMMISSION",
            "FORM 10-K",
            "Item 1A.",
            "Risk Factors",
            "Our business faces many risks that could hurt results.",
            "Item 1B.",
            "None.",
            "Item 2.",
            "Properties",
            "We own a headquarters building.",
        )
    )
    path = tmp_path / "k.htm"
    path.write_text(f"<html><body>{body}</body></html>")
    doc = parse_ixbrl_html(path)
    none = next(b for b in doc.blocks if b.text == "None.")
    assert none.section == "item_1b"
    assert none.section_title == "Unresolved Staff Comments"
    hq = next(b for b in doc.blocks if b.text.startswith("We own"))
    assert (hq.section, hq.section_title) == ("item_2", "Properties")
