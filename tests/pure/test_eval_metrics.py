"""Retrieval metrics and question-set loading of the evaluation harness."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from finagent.errors import FinagentError
from finagent.evaluation.datasets import EvalQuestion, filter_questions, halves, load_questions
from finagent.evaluation.metrics import RankedChunk, aggregate, ranked_documents, retrieval_scores
from tests.conftest import SHARED


def test_document_and_page_metrics() -> None:
    chunks = [RankedChunk("B", 3), RankedChunk("A", 1), RankedChunk("A", 7), RankedChunk("C", 0)]
    assert ranked_documents(chunks) == ["B", "A", "C"]
    scores = retrieval_scores(chunks, ["A"], [("A", 7), ("A", 9)])
    assert scores["doc_hit@1"] == 0.0 and scores["doc_hit@5"] == 1.0
    assert scores["page_recall@5"] == 0.5 and scores["page_mrr"] == pytest.approx(1 / 3)
    assert retrieval_scores(chunks, ["B", "C", "D"], [])["doc_recall"] == pytest.approx(2 / 3)
    assert retrieval_scores([], ["A"], [("A", 1)])["page_mrr"] == 0.0
    # Several gold documents (multi-quarter questions): any of them at the top is a hit.
    multi = retrieval_scores(chunks, ["D", "B"], [])
    assert multi["doc_hit@1"] == 1.0 and multi["doc_hit@5"] == 1.0 and multi["doc_recall"] == 0.5
    assert retrieval_scores(chunks, ["D", "E"], [])["doc_hit@5"] == 0.0


def test_aggregate_by_question_type() -> None:
    table = aggregate([("x", {"m": 1.0}), ("y", {"m": 0.0}), ("x", {"m": 0.5})])
    assert table["all"] == {"n": 3.0, "m": 0.5} and table["x"]["m"] == 0.75


def test_load_real_question_sets() -> None:
    path = SHARED / "eval" / "financebench_dev.jsonl"
    if not path.exists():
        pytest.skip("needs ../shared/eval")
    questions = load_questions(path)
    assert len(questions) == 66 and all(q.gold_pages and q.gold_docs for q in questions)
    sec = load_questions(SHARED / "eval" / "sec10q_dev.jsonl")
    assert sec and all(q.gold_docs and not q.gold_pages for q in sec)
    assert len(filter_questions(questions, question_type="metrics-generated", limit=5)) == 5


def test_malformed_question_set_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "q.jsonl"
    bad.write_text('{"id": 1, "question": "x"}\nnot json\n')
    with pytest.raises(FinagentError, match="not a JSON line"):
        load_questions(bad)
    bad.write_text(json.dumps({"id": 1, "question": "x"}) + "\n")
    with pytest.raises(FinagentError, match="malformed"):
        load_questions(bad)
    with pytest.raises(FinagentError, match="not found"):
        load_questions(tmp_path / "missing.jsonl")


def _question(number: int, question_type: str) -> EvalQuestion:
    return EvalQuestion(f"q{number}", "?", "", question_type, ("D",))


def test_halves_deal_every_question_type_evenly_and_always_the_same_way() -> None:
    questions = [_question(n, "x" if n % 3 else "y") for n in range(30)]
    dealt = halves(questions)
    for question_type in ("x", "y"):
        counts = Counter(dealt[q.id] for q in questions if q.question_type == question_type)
        assert abs(counts["A"] - counts["B"]) <= 1
    assert halves(list(reversed(questions))) == dealt
    held_back = filter_questions(questions, half="b")
    assert held_back and all(dealt[q.id] == "B" for q in held_back)
    with pytest.raises(FinagentError, match="unknown half 'C'"):
        filter_questions(questions, half="C")


def test_retrieval_summary_reports_each_half_by_question_type() -> None:
    from finagent.evaluation.retrieval import markdown_table, summarise

    rows = [
        {
            "system": "s",
            "question_type": t,
            "half": h,
            "seconds": 0.1,
            "scores": {"doc_hit@1": v, "page_recall@10": v},
        }
        for t, h, v in (("x", "A", 1.0), ("x", "B", 0.0), ("y", "B", 1.0))
    ]
    summary = summarise(rows, ["s"])
    assert summary["s"]["half B"]["page_recall@10"] == 0.5
    assert summary["s"]["half B / x"]["page_recall@10"] == 0.0 and summary["s"]["half A / x"]["n"] == 1
    assert "| s | half B / y | 1 | 1.000 | 1.000 |" in markdown_table(summary).splitlines()


def test_each_lever_of_the_ablation_table_turns_off_its_own_switch() -> None:
    from dataclasses import asdict

    from finagent.agent.context import Context
    from finagent.evaluation.retrieval import LEVERS, lever_off

    for lever, switch in LEVERS.items():
        switches = asdict(lever_off(Context(), lever).ablations)
        assert [name for name, on in switches.items() if not on] == [switch], lever
