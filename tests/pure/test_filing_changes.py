"""What changed between filings: risk-factor headings found in a filing's text, compared across two
filings (added, removed, reworded), legal matters by their titles, a 10-Q's "no material changes",
which filings are compared, and the answer's prose."""

from __future__ import annotations

from typing import Any

import pytest

from finagent.agent.answer.filing_changes import changes_answer
from finagent.agent.understand.question import Question
from finagent.finance.compute.filing_changes import (
    FilingPart,
    Heading,
    Passage,
    asks_filing_changes,
    compare_headings,
    compared_filings,
    legal_matters,
    missing_filings,
    no_material_changes,
    part_lines,
    risk_headings,
)

ITEM_1A_2023 = """Item 1A. Risk Factors

The Company's business can be affected by a number of factors. When these risks materialize, the \
Company's results can be materially and adversely affected.

Macroeconomic and Industry Risks

The Company's operations depend significantly on global economic conditions and adverse conditions can \
materially affect its results.

Adverse macroeconomic conditions, including inflation and higher interest rates, can adversely impact \
consumer spending. Uncertainty about economic conditions can also affect suppliers.

While the Company maintains insurance coverage, such insurance may be insufficient to cover all losses.

The Company depends on outsourcing partners located outside the U.S. for manufacturing.

Substantially all manufacturing is performed by outsourcing partners in Asia. A significant concentration \
of this manufacturing is performed by a small number of partners, and the Company's supply could be \
disrupted when they

fail to perform. Such failures have happened in the past.

The COVID-19 pandemic has had and could continue to have an adverse impact on the Company's business.

The pandemic disrupted the supply chain and retail stores. Its effects on future results are uncertain.

Business Risks

The price of the Company's stock is subject to volatility.

The stock has experienced substantial volatility. Future price movements could be large."""

ITEM_1A_2024 = (
    ITEM_1A_2023.replace(
        "The COVID-19 pandemic has had and could continue to have an adverse impact on the Company's "
        "business.\n\nThe pandemic disrupted the supply chain and retail stores. Its effects on future "
        "results are uncertain.",
        "The Company's use of artificial intelligence could expose it to new regulation and liability.\n\n"
        "Laws governing artificial intelligence are changing quickly. Complying with them could be costly.",
    )
    .replace(
        "The Company depends on outsourcing partners located outside the U.S. for manufacturing.",
        "The Company depends on component and product manufacturing provided by outsourcing partners located "
        "outside the U.S.",
    )
    .replace("substantial volatility", "significant volatility")
)


def _part(text: str, year: int, quarter: int | None = None, kind: str = "10-K", doc: int = 1) -> FilingPart:
    label = f"{kind} for {f'Q{quarter} ' if quarter else ''}FY{year}"
    passage = Passage(doc * 100, text, 0, len(text))
    section = "item_1a" if kind == "10-K" else "part2_item_1a"
    return FilingPart(doc, kind, label, year, quarter, f"{year}-09-30", section, (passage,))


def test_risk_headings_are_the_one_sentence_paragraphs_that_open_a_discussion() -> None:
    headings = [h.text for h in risk_headings(_part(ITEM_1A_2023, 2023))]
    assert headings == [
        "The Company's operations depend significantly on global economic conditions and adverse conditions "
        "can materially affect its results.",
        "The Company depends on outsourcing partners located outside the U.S. for manufacturing.",
        "The COVID-19 pandemic has had and could continue to have an adverse impact on the Company's "
        "business.",
        "The price of the Company's stock is subject to volatility.",
    ]
    # not the category titles, the introduction, a "While …" paragraph of a discussion, nor the rest of
    # a paragraph a page break cut ("fail to perform. …")


def test_of_paragraphs_in_a_row_that_read_as_headings_the_one_opening_a_discussion_is() -> None:
    opens_a_list = (
        "Competition could adversely impact our market share.\n\n"
        "Our platforms experience rapid changes in technology and competitive products.\n\n"
        "Our success depends on our ability to:\n\n• adapt our products."
    )
    assert [h.text for h in risk_headings(_part(opens_a_list, 2025))] == [
        "Competition could adversely impact our market share."
    ]
    closes_a_discussion = (
        "The Company depends on outsourcing partners.\n\nMost manufacturing is done in Asia. It is "
        "concentrated.\n\nChanges to the supply chain require time and involve significant risks.\n\n"
        "Future results depend upon the Company's ability to obtain components.\n\nComponents come from "
        "single sources. Shortages happen."
    )
    assert [h.text for h in risk_headings(_part(closes_a_discussion, 2025))] == [
        "The Company depends on outsourcing partners.",
        "Future results depend upon the Company's ability to obtain components.",
    ]


def test_two_filings_compare_heading_by_heading() -> None:
    changes = compare_headings(
        risk_headings(_part(ITEM_1A_2023, 2023)), risk_headings(_part(ITEM_1A_2024, 2024))
    )
    assert [h.text for h in changes.added] == [
        "The Company's use of artificial intelligence could expose it to new regulation and liability."
    ]
    assert [h.text for h in changes.removed] == [
        "The COVID-19 pandemic has had and could continue to have an adverse impact on the Company's "
        "business."
    ]
    assert [(a.text[:40], b.text[:60]) for a, b in changes.reworded] == [
        (
            "The Company depends on outsourcing partn",
            "The Company depends on component and product manufacturing p",
        )
    ]
    assert changes.unchanged == 2  # the volatility heading's body changed, the heading did not


def test_overlapping_chunks_are_read_once_and_a_cut_paragraph_whole() -> None:
    text = "First heading could harm us.\n\nA discussion of it. It goes on for a while.\n\nLast words."
    cut = text.index("for a while")
    part = FilingPart(
        1,
        "10-K",
        "10-K for FY2023",
        2023,
        None,
        "2023-09-30",
        "item_1a",
        (Passage(1, text[:cut], 0, cut), Passage(2, text[cut - 10 :], cut - 10, len(text))),
    )
    assert [(line.text, line.chunk_id) for line in part_lines(part)] == [
        ("First heading could harm us.", 1),
        ("A discussion of it. It goes on for a while.", 1),
        ("Last words.", 2),
    ]


def test_a_10q_saying_no_material_changes_is_read_and_a_10k_is_not() -> None:
    text = (
        "Item 1A. Risk Factors\n\nThe Company's business can be affected by the factors described in the "
        "2023 Form 10-K. There have been no material changes to the Company's risk factors since the 2023 "
        "Form 10-K."
    )
    said = no_material_changes(_part(text, 2024, 3, "10-Q"))
    assert said == Heading(
        "There have been no material changes to the Company's risk factors since the 2023 Form 10-K.", 100
    )
    assert no_material_changes(_part(ITEM_1A_2023, 2023)) is None


def test_legal_matters_are_the_titled_paragraphs() -> None:
    earlier = "Item 3. Legal Proceedings\n\nEpic Games\n\nEpic filed a lawsuit alleging violations.\n\n" + (
        "Masimo\n\nMasimo filed a complaint before the ITC.\n\nOther Legal Proceedings\n\nThe Company is "
        "subject to other legal proceedings."
    )
    later = earlier.replace(
        "Masimo\n\nMasimo filed a complaint before the ITC.",
        "Department of Justice Lawsuit\n\nThe DOJ filed a civil antitrust lawsuit against the Company.",
    )
    changes = compare_headings(legal_matters(_part(earlier, 2023)), legal_matters(_part(later, 2024)))
    assert [h.text for h in changes.added] == ["Department of Justice Lawsuit"]
    assert [h.text for h in changes.removed] == ["Masimo"]
    assert changes.unchanged == 1


def test_the_filings_compared_are_of_one_kind_and_the_asked_period() -> None:
    k23, k24 = _part("", 2023, doc=1), _part("", 2024, doc=2)
    q1, q2, q3 = (_part("", 2024, q, "10-Q", doc=10 + q) for q in (1, 2, 3))
    held = [q1, k24, q3, k23, q2]
    assert compared_filings(held, [], []) == [k23, k24]  # two annual reports: the latest two
    assert compared_filings(held, ["10-Q"], []) == [q2, q3]
    assert compared_filings(held, [], [(2024, 2)]) == [q1, q2]  # a quarter asked: its 10-Q and the one before
    assert compared_filings(held, [], [(2024, 1), (2024, 3)]) == [q1, q2, q3]
    assert compared_filings([k24, q1], ["10-K"], []) == [k24]  # one annual report only


def test_an_asked_filing_the_store_lacks_is_bracketed_by_the_filings_either_side() -> None:
    q1, q3 = _part("", 2024, 1, "10-Q", doc=11), _part("", 2024, 3, "10-Q", doc=13)
    assert compared_filings([q3, q1], [], [(2024, 2)]) == [q1, q3]
    assert missing_filings([q3, q1], [], [(2024, 2)]) == [(2024, 2)]
    k23, k24 = _part("", 2023, doc=1), _part("", 2024, doc=2)
    assert compared_filings([k24, k23], ["10-K"], [(2022, None)]) == [k23]  # nothing earlier: the next one
    assert compared_filings([q1, q3], ["10-Q"], [(2025, 1)]) == [q3]  # nothing later: the last one
    q22 = _part("", 2023, 2, "10-Q", doc=22)
    # a year asked whole is every 10-Q of that year, and none is missing
    assert compared_filings([q1, q22, q3], ["10-Q"], [(2024, None)]) == [q1, q3]
    assert missing_filings([q1, q22, q3], ["10-Q"], [(2024, None)]) == []


@pytest.mark.parametrize(
    ("question", "topics"),
    [
        ("How have Apple's risk factors changed over the reporting period?", ("risk factors",)),
        ("What new risk factors did NVIDIA add in its 2025 10-K?", ("risk factors",)),
        (
            "Outline Intel's risk factors and how they have evolved over the reporting periods.",
            ("risk factors",),
        ),
        ("Which legal proceedings are new since its last 10-Q?", ("legal proceedings",)),
        ("What are Apple's key risk factors?", ()),
        ("What are the main risks to Apple in its new product strategy?", ()),
        ("Compare the risk factors of Apple and Microsoft.", ()),
    ],
)
def test_a_change_across_filings_is_asked(question: str, topics: tuple[str, ...]) -> None:
    from finagent.finance.read.filing_sections import section_topics

    assert asks_filing_changes(question, [t.name for t in section_topics(question)]) == topics


def _rows(
    text: str, year: int, document_id: int, quarter: int | None = None, ticker: str = "AAPL"
) -> list[dict[str, Any]]:
    return [
        {
            "chunk_id": document_id * 10,
            "document_id": document_id,
            "ticker": ticker,
            "kind": "10-Q" if quarter else "10-K",
            "fiscal_year": year,
            "fiscal_quarter": quarter,
            "period_label": f"Q{quarter} FY{year}" if quarter else f"FY{year}",
            "period_end": f"{year}-0{quarter}-28" if quarter else f"{year}-09-30",
            "section": "part2_item_1a" if quarter else "item_1a",
            "char_start": 0,
            "char_end": len(text),
            "text": text,
        }
    ]


PLAN = Question(
    tickers=("AAPL",), names={"AAPL": ["AAPL", "Apple Inc.", "Apple"]}, filing_changes=("risk factors",)
)


def test_the_answer_names_each_change_with_its_filing_cited() -> None:
    computed = changes_answer(PLAN, _rows(ITEM_1A_2023, 2023, 1) + _rows(ITEM_1A_2024, 2024, 2), [])
    assert computed is not None
    answer, cited = computed.text, computed.cited
    assert answer.startswith(
        "Between Apple's 10-K for FY2023 and its 10-K for FY2024, Apple added one risk factor: \u201cThe "
        "Company's use of artificial intelligence could expose it to new regulation and liability.\u201d "
        "[10K1]; removed one: \u201cThe COVID-19 pandemic"
    ), answer
    assert "adverse impact on the Company's business.\u201d [10K2]; reworded one:" in answer
    assert "Two headings are unchanged" in answer
    assert {c["label"]: c["fiscal_year"] for c in cited} == {"10K1": 2024, "10K2": 2023}


def test_one_filing_of_the_kind_is_said_with_what_a_comparison_needs() -> None:
    computed = changes_answer(PLAN, _rows(ITEM_1A_2024, 2024, 2), [])
    assert computed is not None
    assert computed.text == (
        "The store holds only one 10-K of Apple with its risk factors (its 10-K for FY2024), so what changed "
        "between filings cannot be computed: comparing needs an earlier or later 10-K of Apple in the store."
    )
    assert changes_answer(PLAN, [], []) is None


NO_CHANGE_10Q = (
    "Item 1A. Risk Factors\n\nThe Company's business is subject to the risks described in its 2023 "
    "Form 10-K. "
    "There have been no material changes to the Company's risk factors since the 2023 Form 10-K."
)
MSFT = Question(
    tickers=("MSFT",),
    names={"MSFT": ["MSFT", "Microsoft"]},
    filing_changes=("risk factors",),
    named_kinds=("10-Q",),
)


def test_an_asked_10q_the_store_lacks_is_said_first_then_the_nearest_are_read() -> None:
    rows = _rows(NO_CHANGE_10Q, 2024, 11, quarter=1, ticker="MSFT")
    rows += _rows(NO_CHANGE_10Q.replace("2023 Form", "2024 Form"), 2024, 13, quarter=3, ticker="MSFT")
    computed = changes_answer(MSFT, rows, [(2024, 2)])
    assert computed is not None
    answer = computed.text
    assert answer.startswith(
        "The store holds no 10-Q of Microsoft for Q2 FY2024; this answer reads the nearest it holds: its "
        "10-Q for Q1 FY2024 [10Q1] and its 10-Q for Q3 FY2024 [10Q2].\n\nOf changes to Microsoft's risk "
        "factors, its 10-Q for Q3 FY2024 says: "
        "\u201cThere have been no material changes to the Company's risk factors since the 2024 Form "
        "10-K.\u201d"
    ), answer
    assert "only one" not in answer
    assert computed.absent == ["Q2 FY2024"]


def test_an_asked_kind_the_store_lacks_is_said_with_what_it_holds() -> None:
    plan = Question(
        tickers=("HD",),
        names={"HD": ["HD", "Home Depot"]},
        filing_changes=("risk factors",),
        named_kinds=("10-Q",),
    )
    computed = changes_answer(plan, _rows(ITEM_1A_2024, 2024, 2, ticker="HD"), [])
    assert computed is not None
    assert computed.text == (
        "The store holds no 10-Q of Home Depot with its risk factors; it holds its 10-K for FY2024."
    )


UPDATED_10Q = """Item 1A. Risk Factors

Except as set forth below, there have been no material changes to the Company's risk factors since the \
2023 Form 10-K.

The Company's operations depend significantly on global economic conditions and adverse conditions can \
materially affect its results.

Adverse macroeconomic conditions, including inflation and higher interest rates, can adversely impact \
consumer spending. In February 2024, new tariffs of 25% on imports from Mexico and Canada were announced, \
raising the cost of the Company's components. Uncertainty about economic conditions can also affect suppliers.

The Company's dealers could fail to meet their financing obligations, harming its results.

Dealers finance their inventories through the Company's credit arm. A downturn in farm income could leave \
them unable to pay."""
DEERE = Question(
    tickers=("DE",),
    names={"DE": ["DE", "Deere & Company", "Deere"]},
    filing_changes=("risk factors",),
    named_kinds=("10-Q", "10-K"),
)


def test_a_10q_asked_against_the_10k_sets_out_its_own_changes_and_what_is_new_in_them() -> None:
    """One quarter asked (with the annual report it is measured against): the 10-Q's own risk
    factors are what changed, each new or updated from the 10-K's, with the sentences its discussion
    adds; not a comparison of two 10-Ks."""
    rows = _rows(ITEM_1A_2023, 2023, 1, ticker="DE") + _rows(ITEM_1A_2024, 2024, 3, ticker="DE")
    rows += _rows(UPDATED_10Q, 2024, 2, quarter=1, ticker="DE")
    computed = changes_answer(DEERE, rows, [(2024, 1), (2023, None)])
    assert computed is not None
    answer = computed.text
    assert answer.startswith(
        "Deere's 10-Q for Q1 FY2024 says: \u201cExcept as set forth below, there have been no material "
        "changes to the Company's risk factors since the 2023 Form 10-K.\u201d [10Q1]\n\nIt sets out two "
        "risk factors against its 10-K for FY2023:\n- \u201cThe Company's operations depend significantly"
    ), answer
    assert "New in its discussion: \u201cIn February 2024, new tariffs of 25% on imports" in answer
    assert "Uncertainty about economic conditions can also affect suppliers" not in answer  # in the 10-K
    dealers = (
        "\u201cThe Company's dealers could fail to meet their financing obligations, harming its results."
    )
    assert dealers in answer
    assert "results.\u201d [10Q1] (new)" in answer
    assert "Between" not in answer and "FY2024 and its" not in answer
