"""Answer grading: numeric tolerance with units, failure to answer, the LLM judge and flagged items."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from finagent.evaluation.answers import failed_to_answer, grade, load_flagged, numeric_match, quantities
from tests.fakes import ScriptedChatModel


@pytest.mark.parametrize(
    ("answer", "reference", "expected"),
    [
        ("Capital expenditure was $1,577 million [10K1].", "$1577.00", True),
        ("It was $1.577 billion.", "$1577.00 million", True),
        ("The effective tax rate was 0.62%.", "0.62%", True),
        ("The effective tax rate was 0.7%.", "0.62%", False),
        ("Net income was $2,000 million.", "$1577", False),
        ("Working capital was negative: (1,561) million.", "-$1561M", True),
        ("Yes, it is.", "Yes. Corning had positive working capital.", None),
        ("Revenue grew in 2023.", "In FY2023 revenue rose", None),  # years are not figures
    ],
)
def test_numeric_match(answer: str, reference: str, expected: bool | None) -> None:
    assert numeric_match(answer, reference) is expected


def test_quantities_read_scale_and_sign() -> None:
    values = [(q.value, q.percent) for q in quantities("$94.9 billion, 44.5%, (1,234) and 3 thousand")]
    assert values == [(94.9e9, False), (44.5, True), (-1234.0, False), (3000.0, False)]


def test_failed_to_answer() -> None:
    assert failed_to_answer("")
    assert failed_to_answer("The filing does not contain the capital expenditure figure.")
    assert not failed_to_answer("Capital expenditure was $1,577 million.")


def test_grade_uses_numbers_then_the_judge_and_keeps_its_verdict() -> None:
    numeric = asyncio.run(grade("capex?", "It was $1,577 million.", ["$1577.00"], None, numeric=True))
    assert numeric["verdict"] == "correct" and numeric["method"] == "numeric"
    judge = ScriptedChatModel(
        replies=[{"verdict": "incorrect", "reason": "says no, reference says yes"}], calls=[]
    )
    # The answer does not open with yes/no, so the judge decides (an opposite yes/no never reaches it).
    answer = "Working capital was negative at year end."
    verdict = asyncio.run(
        grade("positive WC?", answer, ["Yes, positive.", "Yes (alt)"], judge, numeric=False)
    )
    assert verdict["verdict"] == "incorrect" and verdict["method"] == "judge" and verdict["judge_calls"]
    prompt = str(judge.calls[0]["messages"][-1].content)
    assert "Also accepted: Yes (alt)" in prompt  # flagged alternatives reach the judge
    broken = ScriptedChatModel(replies=["not json"], calls=[])
    # A judge that gives no valid verdict grades nothing: that is not the answer failing.
    unjudged = asyncio.run(grade("q", "An answer.", ["ref"], broken, numeric=False))
    assert unjudged["verdict"] == "ungraded" and "no valid verdict" in unjudged["reason"]


def test_load_flagged_alternatives(tmp_path: Path) -> None:
    path = tmp_path / "flagged.jsonl"
    path.write_text(json.dumps({"financebench_id": "fb_1", "mafin_answer_gpt4o": "alt"}) + "\n")
    assert load_flagged(path) == {"fb_1": ["alt"]} and load_flagged(tmp_path / "none.jsonl") == {}


def test_answers_table_by_question_type() -> None:
    from finagent.evaluation.answers import answers_table

    row = {"llm_calls": 3, "tokens": 900, "seconds": 40.0}
    rows = [
        row | {"question_type": "metrics-generated", "verdict": "correct"},
        row | {"question_type": "metrics-generated", "verdict": "failed"},
        row | {"question_type": "novel-generated", "verdict": "incorrect"},
    ]
    table = answers_table(rows).splitlines()
    assert table[2].startswith("| all | 3 | 0.3333 | 0.3333 | 0 | 3 | 900 | 40 |")
    assert table[3].startswith("| metrics-generated | 2 | 0.5 | 0.5 |")
    assert table[4].startswith("| novel-generated | 1 | 0 | 0 |")


@pytest.mark.parametrize(
    ("answer", "references", "expected"),
    [
        ("No, the quick ratio was 0.54.", ["No. The quick ratio was approximately 0.54."], True),
        (
            "Yes, Verizon has a healthy quick ratio of 0.54.",
            ["No. The quick ratio was approximately 0.54."],
            False,
        ),
        ("Yes.", ["No, it declined.", "Yes, per the review."], True),  # a flagged item's alternative
        ("Verizon's quick ratio was 0.54.", ["No. The quick ratio was 0.54."], None),
        ("No.", ["65.4%"], None),
    ],
)
def test_yes_no_agreement(answer: str, references: list[str], expected: bool | None) -> None:
    from finagent.evaluation.answers import yes_no_agree

    assert yes_no_agree(answer, references) is expected


def test_opposite_yes_no_is_incorrect_before_numbers_or_judge() -> None:
    verdict = asyncio.run(
        grade(
            "Healthy quick ratio?", "Yes, it was 0.54.", ["No. The quick ratio was 0.54."], None, numeric=True
        )
    )
    assert verdict["verdict"] == "incorrect" and verdict["method"] == "yes/no"


def test_figure_references_are_graded_by_the_figure_even_with_a_judge() -> None:
    lenient = ScriptedChatModel(replies=[{"verdict": "correct", "reason": "close enough"}], calls=[])
    wrong = asyncio.run(grade("Ratio?", "The ratio is 5.9.", ["0.68"], lenient, numeric=True))
    assert wrong["verdict"] == "incorrect" and wrong["method"] == "numeric" and not lenient.calls
    right = asyncio.run(grade("Margin?", "It was 6.2% on average.", ["6.2%"], lenient, numeric=True))
    assert right["verdict"] == "correct" and right["method"] == "numeric"
    # A sentence with figures still goes to the judge when no figure matches.
    asyncio.run(
        grade("Healthy?", "Liquidity is fine.", ["Adequate, quick ratio 0.54."], lenient, numeric=True)
    )
    assert len(lenient.calls) == 1
