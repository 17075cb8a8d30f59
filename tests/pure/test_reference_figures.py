"""The grading gate: an answer must state the reference's figures and its yes or no."""

from __future__ import annotations

import pytest

from finagent.finance.check.reference import gate, gate_any, leading_yes_no, missing_figures


@pytest.mark.parametrize(
    "answer",
    [
        "Restructuring costs were $411 million.",
        "Restructuring costs were 411,000,000 dollars.",
        "Restructuring costs were $0.411 billion.",
        "Restructuring costs (in millions): 411.",
        "Restructuring costs were $413 million.",  # within 1% of 411
    ],
)
def test_a_figure_matches_at_any_scale_within_one_percent(answer: str) -> None:
    assert gate(answer, "Restructuring costs were $411 million.").passed


@pytest.mark.parametrize(
    "answer",
    [
        "Restructuring costs were 8,978 million dollars.",
        "Restructuring costs were $416 million.",  # 1.2% off
        "Restructuring costs were 4.11%.",  # a percent is no amount
    ],
)
def test_another_figure_is_refused(answer: str) -> None:
    verdict = gate(answer, "$411 million")
    assert not verdict.passed and verdict.check == "figures"
    assert verdict.reason == "the answer does not state the reference's $411 million"


@pytest.mark.parametrize(
    ("answer", "reference", "expected"),
    [
        ("The margin was 65.4%.", "65.4%", True),
        ("The margin was 0.654.", "65.4%", True),  # the same share written as a ratio
        ("The margin was 66.2%.", "65.4%", False),  # 1.2% off
        ("Gross margin fell 1.1 percentage points.", "a minor decline of 1.1% in gross margins", True),
        ("Cash from operations was $1,842 million.", "the most cash flow ($1.8 bn)", True),  # its rounding
        ("Cash from operations was $1,900 million.", "the most cash flow ($1.8 bn)", False),
        ("Capital expenditure was $1,577 million [10K1].", "$1577.00", True),  # metric in millions
        ("The dividend was $10 per share.", "$0.01 per share", False),  # never scaled below a unit shown
    ],
)
def test_percentages_ratios_and_rounding(answer: str, reference: str, expected: bool) -> None:
    assert gate(answer, reference).passed is expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Working capital was $(1,561) million.", True),
        ("Working capital was -$1,561 million.", True),
        ("Working capital showed a deficit of $1,561 million.", True),
        ("Working capital was $1,561 million.", True),  # no sign written: the judge reads the rest
        ("Working capital increased by $1,561 million.", False),  # the sign contradicts
    ],
)
def test_negative_figures(answer: str, expected: bool) -> None:
    assert gate(answer, "Negative working capital of -$1561M in FY 2022.").passed is expected


def test_loss_and_decline_words_make_a_reference_negative() -> None:
    assert not gate("Operating income rose 3.7%.", "an operating loss of 3.7%").passed
    assert gate("Operating income fell 3.7%.", "an operating loss of 3.7%").passed
    assert not gate("Revenue grew 44% in FY2022.", "Its revenue declined 44% in FY2022.").passed


def test_every_reference_figure_is_required_but_not_dates_numbering_or_the_questions_own() -> None:
    reference = "The quick ratio improved from 0.67 times to 0.69 times in FY 2023 (3.4% up)."
    missing = missing_figures("The quick ratio rose from 0.67 to 0.69.", reference)
    assert [f.text for f in missing] == ["3.4%"]
    assert not missing_figures("It rose from 0.67 to 0.69, up 3.4%.", reference)
    listed = "Yes: (1) pricing litigation; (2) PBM litigation, over the 12 months ended January 28, 2023."
    assert not missing_figures("Yes, several lawsuits.", listed)
    question = "Does any category exceed 20% of revenue?"
    missing = missing_figures("Yes, airplanes.", "Yes, more than 20%: airplanes 39%.", question)
    assert [f.text for f in missing] == ["39%"]


@pytest.mark.parametrize(
    ("answer", "reference", "passed", "reason"),
    [
        ("Yes, the quick ratio was 0.54.", "No. The quick ratio was 0.54.", False, "answer says yes"),
        ("The quick ratio was 0.54.", "No. The quick ratio was 0.54.", False, "opens with neither"),
        ("No, the quick ratio was 0.54.", "No. The quick ratio was 0.54.", True, ""),
        ("No, the quick ratio was 1.2.", "No. The quick ratio was 0.54.", False, "reference's 0.54"),
        ("| a | b |\n|---|---|\n\nNo, it fell to 0.54.", "No. It was 0.54.", True, ""),  # a table first
    ],
)
def test_a_yes_no_reference_needs_the_same_leading_yes_no_and_its_figures(
    answer: str, reference: str, passed: bool, reason: str
) -> None:
    verdict = gate(answer, reference)
    assert verdict.passed is passed and reason in verdict.reason


def test_an_accepted_alternative_passes_and_the_reference_gives_the_reason() -> None:
    assert gate_any("Yes.", ["No, it declined.", "Yes, per the review."]).passed
    refused = gate_any("Maybe.", ["No, it declined.", "Yes."])
    assert refused.reason == "the reference answers no; the answer opens with neither"
    assert leading_yes_no("  Yes, it did.") == "yes" and leading_yes_no("Yesterday") is None


def test_the_note_naming_the_company_of_a_question_naming_none_is_not_the_answers_opening() -> None:
    answer = (
        "The question names no company; the filings that match it best are BBY's, so this answer is about "
        "BBY.\n\nYes (computed from the figures: Cash and cash equivalents change Q4 FY2023 -> Q2 FY2024: "
        "-41.7%)."
    )
    assert leading_yes_no(answer) == "yes"
    assert gate(answer, "Yes, there was a decline of ~42% between FY2023 and Q2 of FY 2024.").passed
    assert not gate(answer, "No, it rose.").passed


def test_a_difference_the_reference_works_out_from_figures_the_answer_states_counts_as_stated() -> None:
    reference = "No, the operating margin declined from 36.8% in FY 2021 to 34.6% in FY2022. A drop by 2.2%."
    answer = (
        "No (computed from the figures: the operating margin fell by 2.1 percentage points from FY2021 "
        "(36.8%) to FY2022 (34.6%))."
    )
    assert missing_figures(answer, reference) == []
    # the difference alone is not enough: the figures it is worked out from must be stated
    assert [f.text.strip() for f in missing_figures("No, it fell by 2.1 points to 34.6%.", reference)] == [
        "36.8%",
        "2.2%",
    ]
    # nor is a figure that is no difference of the reference's own
    other = missing_figures(answer, "No, it declined from 36.8% to 34.6%, a drop of 3.2%.")
    assert [f.text.strip() for f in other] == ["3.2%"]


def test_the_unit_a_ratio_is_read_per_is_no_figure_to_state() -> None:
    reference = (
        "Yes. Its capital intensity ratio was approximately 2.774729: it took approximately $2.77 of "
        "assets to generate $1 of revenue."
    )
    assert gate("Yes: total assets to revenue was 2.77.", reference).passed
    assert not gate("Yes: total assets to revenue was 2.5.", reference).passed
    assert [f.text for f in missing_figures("Revenue was $2 billion.", "Revenue was $1 billion.")] == [
        "$1 billion"
    ]
