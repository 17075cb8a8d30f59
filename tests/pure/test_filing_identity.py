"""Company, form and date of filings without XBRL (plain HTML, full submissions): from the SGML header,
the cover page, the downloader's folders and the user's options; and questions that name a filing by
its day."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from finagent.errors import ParseError
from finagent.finance.periods import dated_documents
from finagent.ingest.discover import discover
from finagent.ingest.ixbrl import parse_edgar_submission, parse_ixbrl_html
from finagent.ingest.sec.cover import parse_cover
from tests.conftest import require_shared
from tests.helpers import plain_8k, write_edgar_8k
from tests.pure.test_ixbrl import _IX_DOC


def _identity(doc: object) -> tuple[object, ...]:
    return tuple(getattr(doc, name) for name in ("ticker", "kind", "company_name", "period_end"))


def test_full_submission_8k_is_the_company_of_its_header_dated_by_its_event(tmp_path: Path) -> None:
    doc = parse_edgar_submission(write_edgar_8k(tmp_path))
    assert _identity(doc) == ("AAPL", "8-K", "Apple Inc.", date(2024, 12, 2))
    assert doc.published_at is not None and doc.published_at.date() == date(2024, 12, 3)
    assert doc.title == "Apple Inc. 8-K 2024-12-02"
    assert doc.metadata["metadata_sources"]["ticker"] == "cover"  # "Trading Symbol(s)" column
    assert any(b.section == "item_8_01" and "Orchard research campus" in b.text for b in doc.blocks)


def test_loose_plain_html_8k_reads_its_cover(tmp_path: Path) -> None:
    path = tmp_path / "apple-8k.htm"
    path.write_text(plain_8k(day="November 1, 2024"), encoding="utf-8")
    doc = parse_ixbrl_html(path)
    assert _identity(doc) == ("AAPL", "8-K", "Apple Inc.", date(2024, 11, 1))
    assert doc.metadata["metadata_sources"] == {
        "form": "cover",
        "ticker": "cover",
        "company_name": "cover",
        "period_end": "cover",
    }


def test_cover_reads_a_lower_case_period_line_and_symbol_columns() -> None:
    cover = parse_cover(
        "FORM 10-Q\n☑ | Quarterly Report Pursuant to Section 13\n"
        "for the quarterly period ended June 29, 2025\n"
        "Johnson & Johnson\n(Exact name of registrant as specified in its charter)\n"
        "Title of each class | Trading Symbol(s) | Name of each exchange on which registered\n"
        "Common Stock, Par Value $1.00 | JNJ | New York Stock Exchange\n"
    )
    assert (cover.form, cover.period_end, cover.company_name, cover.trading_symbol) == (
        "10-Q",
        date(2025, 6, 29),
        "Johnson & Johnson",
        "JNJ",
    )


def test_options_fill_gaps_and_overrule_the_text_but_not_dei_facts(tmp_path: Path) -> None:
    bare = tmp_path / "widgets-8k.htm"
    bare.write_text(plain_8k(company="Orchard Widgets Inc.", symbol=None, day=None), encoding="utf-8")
    (item,) = discover(bare, ticker="owi", period_end=date(2024, 11, 5)).items
    doc = item.load()
    assert _identity(doc) == ("OWI", "8-K", "Orchard Widgets Inc.", date(2024, 11, 5))
    assert "identity_notes" not in doc.metadata  # filled gaps, contradicted nothing

    loose = tmp_path / "apple-8k.htm"
    loose.write_text(plain_8k(), encoding="utf-8")
    (item,) = discover(loose, ticker="MSFT").items
    doc = item.load()
    assert (doc.ticker, doc.company_name) == ("MSFT", "Microsoft Corporation")  # the user's company
    assert doc.metadata["identity_notes"] == ["--ticker MSFT used instead of AAPL read from the cover"]

    ixbrl = tmp_path / "exmp.htm"
    ixbrl.write_text(_IX_DOC.format(fy="2024", form="10-Q"), encoding="ascii")
    (item,) = discover(ixbrl, ticker="MSFT", form="10-K").items
    doc = item.load()
    assert (doc.ticker, doc.kind) == ("EXMP", "10-Q")  # the filer's tagged dei facts win
    assert doc.metadata["identity_notes"] == [
        "--form 10-K ignored: the filing's dei facts say 10-Q",
        "--ticker MSFT ignored: the filing's dei facts say EXMP",
    ]


def test_downloader_folder_names_company_and_form_of_a_document_without_cover(tmp_path: Path) -> None:
    """An earnings-release exhibit has no 8-K cover: its folder (or --form) says what it is."""
    release = "<html><body><p>Apple reports fourth quarter results. Revenue grew 6 percent.</p></body></html>"
    folder = tmp_path / "AAPL" / "8-K"
    folder.mkdir(parents=True)
    (folder / "ex99-1.htm").write_text(release, encoding="utf-8")
    (item,) = discover(folder / "ex99-1.htm", period_end=date(2024, 10, 31)).items
    assert _identity(item.load()) == ("AAPL", "8-K", "Apple Inc.", date(2024, 10, 31))
    loose = tmp_path / "release.htm"
    loose.write_text(release, encoding="utf-8")
    with pytest.raises(ParseError, match="not an SEC filing"):
        discover(loose).items[0].load()
    (item,) = discover(loose, ticker="AAPL", form="8-K").items
    assert _identity(item.load())[:2] == ("AAPL", "8-K")


def test_xbrl_instance_takes_the_options_too() -> None:
    path = require_shared("edgar-more", "xbrl-instances", "AAPL", "aapl-20230930_htm.xml")
    (item,) = discover(path, ticker="MSFT").items
    doc = item.load()
    assert doc.ticker == "AAPL"
    assert doc.metadata["identity_notes"] == ["--ticker MSFT ignored: the filing's dei facts say AAPL"]


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("What did Apple announce in its 8-K of December 2, 2024?", [("2024-12-02", ["8-K"])]),
        ("Summarise the 8-K dated December 2, 2024", [("2024-12-02", ["8-K"])]),
        ("the current report filed on Dec 3, 2024", [("2024-12-03", ["8-K"])]),
        ("Apple's December 2, 2024 8-K", [("2024-12-02", ["8-K"])]),
        ("AMCOR's 8k filing dated 1st July 2022", [("2022-07-01", ["8-K"])]),
        ("the 10-K filed on November 1, 2024", [("2024-11-01", ["10-K", "annual_report"])]),
        ("Apple's press release of October 31, 2024", [("2024-10-31", ["8-K", "earnings_release"])]),
        # a call named by its day is that day's call, not the fiscal quarter the day falls in
        ("What did Oracle say on its December 11, 2023 earnings call?", [("2023-12-11", ["transcript"])]),
        ("Adobe's guidance on the call of March 14, 2024", [("2024-03-14", ["transcript"])]),
        ("What was revenue for the quarter ended July 1, 2023?", []),
        ("What happened at Apple on December 2, 2024?", []),
        ("Cash as of May 26, 2023", []),
    ],
)
def test_a_document_named_by_its_day(question: str, days: list[tuple[str, list[str]]]) -> None:
    found = [(d.day.isoformat(), sorted(d.kinds)) for d in dated_documents(question)]
    assert found == days


def test_a_pdf_notes_an_option_its_cover_contradicts() -> None:
    path = require_shared("filings", "pdf", "aapl", "AAPL_2024-05-02_8K.pdf")
    (item,) = discover(path, period_end=date(2024, 5, 3)).items
    doc = item.load()
    assert (doc.ticker, doc.kind, doc.period_end) == ("AAPL", "8-K", date(2024, 5, 3))
    assert doc.metadata["identity_notes"] == [
        "--period-end 2024-05-03 used instead of 2024-05-02 read from the cover"
    ]
