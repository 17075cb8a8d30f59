"""An earnings release's parts read from its headings: the page text a release gives (no store)."""

from __future__ import annotations

from finagent.ingest.pdf import page_text_blocks
from finagent.ingest.sec.release_parts import RELEASE_FORM, release_heading

# A release of our own writing, page by page, laid out as releases are (a headline and highlights,
# titled parts, statements, reconciliations, the notes).
PAGES = [
    (
        0,
        "Northwind Reports Fourth Quarter Results; Raises Full-Year\nGuidance\n"
        "Fourth Quarter Highlights\nRevenue of $4.1 billion, up 6%\n"
        "Increased Quarterly Dividend 4% to $0.52\n"
        "MILWAUKEE - Northwind Corp. today reported results for its fourth quarter.",
    ),
    (
        1,
        "Fiscal 2025 Outlook\nThe company expects revenue growth of 3% to 5% for fiscal 2025.\n"
        "Segment Results\nIndustrial revenue rose 8%, driven by higher volumes.\n"
        "Non-GAAP diluted EPS 1.42 1.30\nContact lenses and other revenue was flat.",
    ),
    (
        2,
        "Share Repurchases and Dividends\nThe company repurchased $200 million of its shares.\n"
        "Conference Call\nNorthwind will host a call at 8:00 a.m. ET.\n"
        "Forward-Looking Statements\nThis release contains forward-looking statements.",
    ),
    (3, "CONDENSED CONSOLIDATED STATEMENTS OF EARNINGS\nRevenue 4,100 3,870\nNet earnings 410 380"),
    (4, "Reconciliation of GAAP to Non-GAAP Financial Measures\nOperating income 520 480"),
]


def _parts() -> list[tuple[int | None, str | None, str]]:
    return [(b.page, b.section, b.text.split("\n")[0]) for b in page_text_blocks(PAGES, RELEASE_FORM)]


def test_each_titled_part_of_a_release_is_read_from_its_heading() -> None:
    opened = {text: section for _, section, text in _parts()}
    assert opened["Fiscal 2025 Outlook"] == "outlook"
    assert opened["Segment Results"] == "segment_results"
    assert opened["Share Repurchases and Dividends"] == "capital_returns"
    assert opened["Conference Call"] == "release_notes"
    assert opened["CONDENSED CONSOLIDATED STATEMENTS OF EARNINGS"] == "statements"
    assert opened["Reconciliation of GAAP to Non-GAAP Financial Measures"] == "non_gaap"


def test_the_first_page_is_the_highlights_whatever_its_headline_says() -> None:
    """The headline ("… Raises Full-Year Guidance") and a highlight ("Increased Quarterly Dividend")
    read like headings, but the first page is the release's opening."""
    assert {section for page, section, _ in _parts() if page == 0} == {"highlights"}


def test_a_table_row_or_a_sentence_opens_no_part() -> None:
    assert release_heading("Non-GAAP diluted EPS 1.42 1.30") is None
    assert release_heading("Contact lenses and other revenue was flat.") is None
    assert release_heading("Contact Lenses / Other") is None
    assert release_heading("The company expects revenue growth of 3% to 5% for fiscal 2025.") is None
    sections = {text: section for _, section, text in _parts()}
    assert "Non-GAAP diluted EPS 1.42 1.30" not in sections  # stayed inside the segment results' block
