"""Answer grading: numeric tolerance with units, failure to answer, the LLM judge and flagged items."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from finagent.evaluation.answers import answer_digest, failed_to_answer, grade, load_flagged
from tests.fakes import ScriptedChatModel


def test_failed_to_answer() -> None:
    assert failed_to_answer("")
    assert failed_to_answer("The filing does not contain the capital expenditure figure.")
    assert not failed_to_answer("Capital expenditure was $1,577 million.")


def test_grade_uses_numbers_then_the_judge_and_keeps_its_verdict() -> None:
    numeric = asyncio.run(grade("capex?", "It was $1,577 million.", ["$1577.00"], None))
    assert numeric["verdict"] == "correct" and numeric["method"] == "figures"
    judge = ScriptedChatModel(
        replies=[{"verdict": "incorrect", "reason": "positive for the wrong reasons"}], calls=[]
    )
    answer = "Yes, working capital was positive at year end."
    verdict = asyncio.run(grade("positive WC?", answer, ["Yes, positive.", "Yes (alt)"], judge))
    assert verdict["verdict"] == "incorrect" and verdict["method"] == "judge" and verdict["judge_calls"]
    prompt = str(judge.calls[0]["messages"][-1].content)
    assert "Also accepted: Yes (alt)" in prompt  # flagged alternatives reach the judge
    broken = ScriptedChatModel(replies=["not json"], calls=[])
    # A judge that gives no valid verdict grades nothing: that is not the answer failing.
    unjudged = asyncio.run(grade("q", "An answer.", ["ref"], broken))
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


def test_the_judge_is_never_asked_when_the_figures_or_the_yes_no_fail() -> None:
    lenient = ScriptedChatModel(replies=[{"verdict": "correct", "reason": "close enough"}], calls=[])
    question = "What were the restructuring costs in FY2022?"
    wrong = asyncio.run(
        grade(question, "Restructuring costs were 8,978 million dollars.", ["$411 million"], lenient)
    )
    assert wrong == {
        "verdict": "incorrect",
        "method": "figures",
        "reason": "the answer does not state the reference's $411 million",
    }
    invented = asyncio.run(
        grade("Healthy quick ratio?", "Yes, because liquidity is strong.", ["No. It was 0.54."], lenient)
    )
    assert invented["verdict"] == "incorrect" and invented["method"] == "yes/no"
    ratio = asyncio.run(grade("Ratio?", "The ratio is 5.9.", ["0.68"], lenient))
    assert ratio["verdict"] == "incorrect" and ratio["method"] == "figures"
    assert not lenient.calls
    # A reference's yes or no and all its figures decide it; any other reference goes to the judge,
    # who may still refuse it.
    right = asyncio.run(grade("Healthy?", "No, the quick ratio was 0.54.", ["No. It was 0.54."], lenient))
    assert right["method"] == "yes/no and figures" and not lenient.calls
    judged = asyncio.run(grade("Healthy?", "No, it is weak.", ["No. Liquidity is weak."], lenient))
    assert judged["method"] == "judge" and len(lenient.calls) == 1


def test_a_yes_no_reference_with_figures_is_decided_when_the_answer_states_them_all() -> None:
    """The reference's yes or no and every figure it gives: correct with no judge asked; a yes or no
    reference with no figure still goes to the judge."""
    judge = ScriptedChatModel(replies=[{"verdict": "incorrect", "reason": "no conclusion"}], calls=[])
    reference = "No, the operating margin declined from 36.8% in FY2021 to 34.6% in FY2022."
    answer = (
        "No (computed from the figures: the operating margin fell from FY2021 (36.8%) to FY2022 (34.6%))."
    )
    decided = asyncio.run(grade("Has Adobe's operating margin improved?", answer, [reference], judge))
    assert (decided["verdict"], decided["method"]) == ("correct", "yes/no and figures") and not judge.calls
    judged = asyncio.run(grade("Is CVS capital intensive?", "Yes, it is.", ["Yes, it is."], judge))
    assert (judged["verdict"], judged["method"]) == ("incorrect", "judge") and judge.calls


def test_agreement_with_hand_verdicts_is_printed_per_question_type(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from finagent.cli.main import app

    row = {"question": "q", "reference": "1", "llm_calls": 1, "tokens": 1, "seconds": 1.0}
    rows = [
        row | {"id": "a", "question_type": "novel", "answer": "A", "verdict": "correct"},
        row | {"id": "b", "question_type": "novel", "answer": "B", "verdict": "incorrect"},
        row | {"id": "c", "question_type": "metrics", "answer": "C", "verdict": "correct"},
        row | {"id": "d", "question_type": "metrics", "answer": "D", "verdict": "correct"},
    ]
    rows[0]["recorded_verdict"] = "correct"
    results = tmp_path / "answers.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in rows))
    hand = [
        {"id": "a", "answer_sha": answer_digest("A"), "verdict": "incorrect", "reason": "wrong segment"},
        {"id": "b", "answer_sha": answer_digest("B"), "verdict": "incorrect", "reason": "wrong figure"},
        {"id": "c", "answer_sha": answer_digest("C"), "verdict": "correct", "reason": "65.4% as given"},
        {"id": "d", "answer_sha": answer_digest("another answer"), "verdict": "incorrect", "reason": "rerun"},
    ]
    handcheck = tmp_path / "hand.jsonl"
    handcheck.write_text("".join(json.dumps(h) + "\n" for h in hand))
    result = CliRunner().invoke(app, ["eval", "summary", str(results), "--handcheck", str(handcheck)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # d's answer is not the one read by hand; only a carries a recorded verdict
    assert "| all | 3/4 (0.750) | 2/3 | 1/1 (1.000) | 0/1 | 3 | 1 |" in lines
    assert "| novel | 1/2 (0.500) | 1/2 | 1/1 (1.000) | 0/1 | 2 | 0 |" in lines
    assert "| metrics | 2/2 (1.000) | 1/1 | — | — | 1 | 1 |" in lines
    summary = json.loads((tmp_path / "answers.json").read_text())
    assert summary["handcheck"] == {"checked": 3, "agree": 2, "recorded_checked": 1, "recorded_agree": 0}
    handcheck.write_text('{"id": "a"}\n')
    bad = CliRunner().invoke(app, ["eval", "summary", str(results), "--handcheck", str(handcheck)])
    assert bad.exit_code == 1 and "needs id, answer_sha and verdict" in str(bad.exception)


def test_a_short_name_named_by_the_answers_first_sentence_is_correct_without_the_judge() -> None:
    """The small judge refused "Customer deposits was the largest ..." against "Customer deposits"; a
    short reference that is only a name is decided by whether the opening sentence names it."""
    refusing = ScriptedChatModel(replies=[{"verdict": "incorrect", "reason": "no"}] * 2, calls=[])
    question = "What was the largest liability in American Express's Balance Sheet in 2022?"
    named = "Customer deposits was the largest of American Express's liabilities: $110,239 million [10K1]."
    verdict = asyncio.run(grade(question, named, ["Customer deposits"], refusing))
    assert verdict["verdict"] == "correct" and verdict["method"] == "name" and not refusing.calls
    # named only after the first sentence, or another name: the judge decides
    later = "Long-term debt was the largest liability [10K1]. Customer deposits were second."
    assert asyncio.run(grade(question, later, ["Customer deposits"], refusing))["method"] == "judge"
    wrong = "Pfizer's biggest drop was in the U.S. [10Q1]."
    assert asyncio.run(grade("Which region?", wrong, ["Developed Rest of the World"], refusing))[
        "verdict"
    ] == ("incorrect")


def test_a_name_with_its_figure_is_stated_when_the_answer_opens_with_the_name() -> None:
    """The small judge refused the right segment, first, with its figure; the rule needs no judge, and
    an answer opening with another segment, or missing the figure, stays incorrect."""
    question = "Which of JPM's business segments had the lowest net revenue in 2021 Q1?"
    reference = "Corporate. Its net revenue was -$473 million."
    right = (
        "Corporate had the lowest net revenue of JPMorgan Chase's segments in Q1 FY2021: -$473 million, "
        "of $33,119 million in all [10Q4]. The others: Commercial Banking $2,393 million [10Q4]."
    )
    verdict = asyncio.run(grade(question, right, [reference], None))
    assert (verdict["verdict"], verdict["method"]) == ("correct", "name and figures")
    other = "Commercial Banking had the lowest net revenue: $2,393 million; Corporate -$473 million [10Q4]."
    assert asyncio.run(grade(question, other, [reference], None))["verdict"] == "ungraded"
    no_figure = "Corporate had the lowest net revenue of JPMorgan Chase's segments [10Q4]."
    assert asyncio.run(grade(question, no_figure, [reference], None))["verdict"] == "incorrect"


def _graded(question: str, answer: str, reference: str) -> tuple[str, str]:
    """(verdict, method) with a judge that refuses everything: a rule decided it unless "judge"."""
    refusing = ScriptedChatModel(replies=[{"verdict": "incorrect", "reason": "no"}], calls=[])
    verdict = asyncio.run(grade(question, answer, [reference], refusing))
    return verdict["verdict"], verdict["method"]


def test_a_which_question_is_answered_by_the_name_the_references_sentence_is_about() -> None:
    """The small judge refused MGM China, first, with the reference's 44%, as not saying which region
    did worst. An answer opening with another region, or without the figure, is not decided so."""
    question = "Which region had the worst topline performance for MGM during FY2022?"
    reference = (
        "MGM China experienced the worst topline performance amongst the other regions presented. "
        "Its revenue declined 44% in FY2022 whereas the other regions presented increased their revenues."
    )
    right = (
        "MGM China had the largest decline in MGM Resorts International's reportable segment net revenues "
        "in FY2022: $673,593 thousand, against $1,210,761 thousand in FY2021, -44.4% (computed) [10K2]."
    )
    assert _graded(question, right, reference) == ("correct", "subject")
    other = "Las Vegas Strip Resorts rose 77.3%; MGM China fell 44.4% (computed) [10K2]."
    assert _graded(question, other, reference) == ("incorrect", "judge")
    assert _graded(question, right.replace("-44.4%", "a fall"), reference)[0] == "incorrect"
    # a name alone (no verb after it) is the short-name rule's, not this one's
    answer = "Developed Rest of World fell most [10Q1]."
    assert _graded("Which region?", answer, "Developed Rest of the World")[1] != "subject"


def test_a_direction_with_its_figures_is_stated_when_the_answer_opens_with_that_direction() -> None:
    """The small judge refused "Amcor's quick ratio improved: it rose from 0.67 … to 0.69" as giving
    nothing on the quick ratio. A question asking which way a line moved is decided by the way the
    answer's first sentence says, with the reference's figures; the other way, both ways, or a
    "which region" question still go to the judge."""
    question = "Has AMCOR's quick ratio improved or declined between FY2023 and FY2022?"
    reference = "The quick ratio has slightly improved from 0.67 times to 0.69 times (3.4% jump)"
    right = "Amcor's quick ratio improved in FY2023 [10K1]. It rose from 0.67 to 0.69, +3.4% [10K1]."
    assert _graded(question, right, reference) == ("correct", "direction and figures")
    other_way = "Amcor's quick ratio declined from 0.69 to 0.67, 3.4% [10K1]."
    assert _graded(question, other_way, reference) == ("incorrect", "judge")
    # the reference's "3.4% jump" is a rise (a word of the one direction vocabulary): a "3.4% fall" is
    # refused by the figures gate before any judge
    fell = "Amcor's quick ratio declined from 0.69 to 0.67, a 3.4% fall [10K1]."
    assert _graded(question, fell, reference) == ("incorrect", "figures")
    both = "Amcor's quick ratio improved, though liquidity fell: 0.67 to 0.69, 3.4% [10K1]."
    assert _graded(question, both, reference)[1] == "judge"
    which = "Which region had the biggest drop in revenues?"
    drop = "The U.S. had the biggest drop in revenue: 54% [10Q1]."
    assert _graded(which, drop, "Revenues had the biggest drop in the U.S.: 54%")[1] == "judge"


def test_a_metric_that_does_not_apply_is_stated_when_the_answer_says_so_of_that_metric() -> None:
    """ "Performance is not measured through operating margin": an answer whose first sentence says
    operating margin is not a measure the company reports is correct without the judge; one that
    gives a margin, or says so of another metric, goes to the judge."""
    question = (
        "Does AMEX have an improving operating margin profile as of 2022? "
        "If operating margin is not a useful metric for a company like this, then state that."
    )
    reference = "Performance is not measured through operating margin"
    right = (
        "American Express' statement for FY2022 prints revenue but no operating income line [10K1]: "
        "operating margin is not a measure it reports, and none is computed."
    )
    assert _graded(question, right, reference) == ("correct", "metric not used")
    margin = "American Express' operating margin in FY2022 was 22.3% [10K1]."
    other = "Gross margin is not a measure American Express reports [10K1]."
    for answer in (margin, other):
        assert _graded(question, answer, reference)[1] == "judge"


def test_the_references_figures_in_the_answers_first_sentence_need_no_judge() -> None:
    """The small judge refused "inventory turnover for FY2022 was 2.72" against "JnJ sold its inventory
    2.7 times in FY2022." as giving no turnover. Every reference figure in the first sentence decides
    it; the figure only further down, or another figure first, goes to the judge."""
    question = "Roughly how many times has JnJ sold its inventory in FY2022? Calculate inventory turnover."
    reference = "JnJ sold its inventory 2.7 times in FY2022."
    right = "Johnson & Johnson's inventory turnover for FY2022 was 2.72 (computed: 31089 / 11435) [10K1]."
    assert _graded(question, right, reference) == ("correct", "first-sentence figures")
    later = "Johnson & Johnson's inventories were $12,483 million [10K1]. Its turnover was 2.72 [10K1]."
    assert _graded(question, later, reference)[1] == "judge"
