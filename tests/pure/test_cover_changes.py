"""Which securities two cover pages differ by: read by their titles' shape, compared exactly.

Covers of our own, printed as filings print them (a table's rows; one flattened paragraph cut across
two chunks). Tuned on Contoso's 8-Ks; Fabrikam's 10-K covers were written at the same time and run
only after.
"""

from __future__ import annotations

from typing import Any

from finagent.agent.answer.filing_changes import changes_answer
from finagent.agent.understand.question import Question
from finagent.agent.understand.question_words import read_wording
from finagent.finance.compute.cover_changes import registered_securities
from finagent.finance.compute.filing_changes import FilingPart, Passage

CONTOSO_2024 = (
    "Securities registered pursuant to Section 12(b) of the Act:\n"
    "Title of each class Trading symbol(s) Name of each exchange on which registered Common Stock, "
    "$0.001 par value per share CTSO The Nasdaq Stock Market LLC 1.250% Notes due 2025 — The Nasdaq "
    "Stock Market LLC 2.375% Notes due 2030 — The Nasdaq"
)
CONTOSO_2024_REST = " Stock Market LLC 3.100% Notes due 2041 — The Nasdaq Stock Market LLC"
CONTOSO_2025 = (
    "Securities registered pursuant to Section 12(b) of the Act:\n"
    "Title of each class | Trading symbol(s) | Name of each exchange on which registered\n"
    "Common Stock, $0.001 par value per share | CTSO | The Nasdaq Stock Market LLC\n"
    "2.375% Notes due 2030 | — | The Nasdaq Stock Market LLC\n"
    "3.100% Notes due 2041 | — | The Nasdaq Stock Market LLC\n"
    "4.000% Notes due 2035 | — | The Nasdaq Stock Market LLC"
)
FABRIKAM_2023 = (
    "Class A Common Stock, $0.0001 par value | FBK | New York Stock Exchange\n"
    "Class B Common Stock, $0.0001 par value | FBK.B | New York Stock Exchange\n"
    "0.750% Senior Notes due 2027 | FBK27 | New York Stock Exchange"
)
FABRIKAM_2024 = (
    "Class A Common Stock, $0.0001 par value | FBK | New York Stock Exchange\n"
    "0.750% Senior Notes due 2027 | FBK27 | New York Stock Exchange\n"
    "0.750% Senior Notes due 2029 | FBK29 | New York Stock Exchange"
)


def _rows(
    ticker: str, kind: str, day: str, year: int, quarter: int | None, *texts: str
) -> list[dict[str, Any]]:
    document = int(day.replace("-", ""))
    rows, start = [], 0
    for n, text in enumerate(texts):
        rows.append(
            {
                "chunk_id": document * 10 + n,
                "document_id": document,
                "ticker": ticker,
                "kind": kind,
                "fiscal_year": year,
                "fiscal_quarter": quarter,
                "period_end": day,
                "section": "cover",
                "char_start": start,
                "char_end": start + len(text),
                "text": text,
            }
        )
        start += len(text)
    return rows


def test_a_flattened_cover_cut_across_chunks_lists_every_title_once() -> None:
    rows = _rows("CTSO", "8-K", "2024-02-01", 2024, 2, CONTOSO_2024, CONTOSO_2024_REST)
    passages = tuple(Passage(r["chunk_id"], r["text"], r["char_start"], r["char_end"]) for r in rows)
    part = FilingPart(1, "8-K", "8-K for Q2 FY2024", 2024, 2, "2024-02-01", "cover", passages)
    assert [h.text for h in registered_securities(part)] == [
        "Common Stock, $0.001 par value per share",
        "1.250% Notes due 2025",
        "2.375% Notes due 2030",
        "3.100% Notes due 2041",
    ]


def _answer(question: str, ticker: str, name: str, rows: list[dict[str, Any]], asked: list[Any]) -> str:
    wording = read_wording(question)
    plan = Question(
        tickers=(ticker,),
        names={ticker: [ticker, name]},
        filing_changes=wording.filing_changes,
        named_kinds=tuple(sorted(wording.named_kinds)),
    )
    computed = changes_answer(plan, rows, asked)
    assert computed is not None
    return computed.text


def test_the_security_no_longer_on_an_8k_cover_is_named_with_its_filing_cited() -> None:  # tuned
    question = (
        "Which Contoso security listed on Nasdaq in February 2024 was no longer on the 8-K cover in 2025?"
    )
    rows = _rows("CTSO", "8-K", "2024-02-01", 2024, 2, CONTOSO_2024, CONTOSO_2024_REST)
    rows += _rows("CTSO", "8-K", "2025-02-03", 2025, 2, CONTOSO_2025)
    said = _answer(question, "CTSO", "Contoso", rows, [(2024, 2), (2025, 2)])
    assert said == (
        "Between Contoso's 8-K for Q2 FY2024 and its 8-K for Q2 FY2025, Contoso no longer lists one "
        "security: “1.250% Notes due 2025” [8K1]; newly lists one security: “4.000% Notes due 2035” "
        "[8K2]. Three are listed on both."
    )


def test_share_classes_and_notes_dropped_or_added_between_two_annual_covers() -> None:  # held
    question = "How did the securities registered on Fabrikam's 10-K cover change from fiscal 2023 to 2024?"
    rows = _rows("FBK", "10-K", "2023-12-31", 2023, None, FABRIKAM_2023)
    rows += _rows("FBK", "10-K", "2024-12-31", 2024, None, FABRIKAM_2024)
    said = _answer(question, "FBK", "Fabrikam", rows, [(2023, None), (2024, None)])
    assert "no longer lists one security: “Class B Common Stock, $0.0001 par value”" in said
    assert "newly lists one security: “0.750% Senior Notes due 2029”" in said
    assert said.endswith("Two are listed on both.")
