"""The narrative benchmark's runner, without a store or a model: which sources its store ingests, which
questions a run selects, how one CLI answer becomes a scored row, and how rows add up in the summary
(per half, per kind, seconds, the questions whose verdict differs between systems)."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

# benchmarks/narrative.py and benchmarks/figures.py sit beside their data folders: mypy reads the names
# as the folders, so the modules are loaded at run time.
figures: Any = importlib.import_module("benchmarks.figures")
narrative: Any = importlib.import_module("benchmarks.narrative")

QUESTION = {
    "id": "nar-900",
    "kind": "drivers",
    "half": "tune",
    "expect": "answer",
    "question": "What drove X's revenue?",
    "sources": [{"file": "filings/edgar/X/10-K/x.html"}],
    "must": [["comparable sales"], ["e-commerce", "eCommerce"]],
    "must_not": ["re:\\blikely\\b"],
}


def row(system: str, qid: str, kind: str, half: str, passed: bool, seconds: float, **extra: Any) -> dict:
    base = {"system": system, "id": qid, "kind": kind, "half": half, "passed": passed, "seconds": seconds}
    base |= {"ok": True, "timed_out": False, "model_calls": 3, "missed": [], "forbidden": []}
    base |= {"version": "abcdef0123"}
    return base | {"not_covered_said": None} | extra


ROWS = [
    row("main", "nar-001", "business", "tune", True, 10.0, version="1234567fff"),  # kept by --resume
    row("main", "nar-002", "business", "held", False, 20.0, missed=[["x"]]),
    row("main", "nar-003", "legal", "tune", False, 600.0, ok=False, timed_out=True),
    row("new", "nar-001", "business", "tune", True, 12.0),
    row("new", "nar-002", "business", "held", True, 18.0),
    row("new", "nar-003", "legal", "tune", False, 30.0, forbidden=["re:likely"]),
]


def test_the_store_holds_every_source_folder_the_set_uses() -> None:
    questions = figures.load_questions(narrative.QUESTIONS, None, None)
    assert narrative.store_sources(questions) == [
        "filings",
        "edgar-more",
        "transcripts/bigtech-2022-2024",
        "transcripts/maec-2015-2018",
        "news/AAPL_2023_2024.csv",
    ]
    with pytest.raises(SystemExit, match="no ingest rule"):
        narrative.store_sources([{"id": "x", "sources": [{"file": "market/prices.csv"}]}])


def test_selection_by_half_kind_and_limit() -> None:
    questions = figures.load_questions(narrative.QUESTIONS, None, None)
    assert {q["half"] for q in narrative.select(questions, "held", None, None)} == {"held"}
    assert [len(narrative.select(questions, h, None, None)) for h in ("tune", "held")] == [41, 41]
    news = narrative.select(questions, "both", ["news", "votes"], None)
    assert {q["kind"] for q in news} == {"news", "votes"} and len(news) == 8
    assert len(narrative.select(questions, "both", None, 3)) == 3
    with pytest.raises(SystemExit, match="unknown kinds"):
        narrative.select(questions, "both", ["weather"], None)


def test_a_cli_answer_becomes_a_scored_row() -> None:
    answer = {"answer": "Comparable sales and eCommerce growth.\nMore.", "confidence": 0.8}
    answer["llm_calls"] = [{}, {}]
    printed = figures.CliResult(0, "note\n" + json.dumps(answer), "", 61.26)
    ok = narrative.question_row("new", QUESTION, printed)
    assert ok["passed"] and ok["ok"] and ok["error"] is None
    assert (ok["seconds"], ok["confidence"], ok["model_calls"], ok["kind"]) == (61.3, 0.8, 2, "drivers")
    killed = narrative.question_row("new", QUESTION, figures.CliResult(None, "", "boom", 900.0))
    assert not killed["passed"] and killed["timed_out"] and killed["error"] == "boom"
    assert killed["missed"] == QUESTION["must"] and narrative.verdict_cell(killed) == "✗ timeout"


def test_summary_per_half_and_kind() -> None:
    main = narrative.summarize([r for r in ROWS if r["system"] == "main"])
    assert (main["passed"], main["questions"], main["no_answer"], main["timed_out"]) == (1, 3, 1, 1)
    assert main["by_half"] == {"tune": {"passed": 1, "questions": 2}, "held": {"passed": 0, "questions": 1}}
    assert main["by_kind"]["business"]["held"] == {"passed": 0, "questions": 1}
    assert main["by_kind"]["legal"]["held"] == {"passed": 0, "questions": 0}
    assert main["median_seconds"] == 20.0 and main["median_model_calls"] == 3
    assert narrative.p90([10.0, 20.0, 600.0]) == 484.0
    assert narrative.p90([7.0]) == 7.0 and narrative.p90([]) is None


def test_verdicts_that_differ_and_the_markdown() -> None:
    assert narrative.differing(ROWS, ["main", "new"]) == {"nar-002": {"main": False, "new": True}}
    # a question that one system did not answer is not compared
    assert narrative.differing(ROWS[:3], ["main", "new"]) == {}
    systems = [
        {
            "name": n,
            "version": "abcdef0123",
            "summary": narrative.summarize([r for r in ROWS if r["system"] == n]),
        }
        for n in ("main", "new")
    ]
    report = {"machine": {"date": "2025-01-01", "cpus": 2}, "provider": "local", "questions": 3}
    report |= {"selection": "half both", "store_sources": ["filings"], "systems": systems, "rows": ROWS}
    markdown = narrative.render_markdown(report)
    assert "systems: main (abcdef0; rows from 1234567, abcdef0), new (abcdef0);" in markdown
    assert "| passed | 1/3 | 2/3 |" in markdown
    assert "| passed, held | 0/1 | 1/1 |" in markdown
    assert "| business | 1/1 | 0/1 | 1/1 | 1/1 |" in markdown
    assert "| nar-002 | business | held | ✗ missed 1 | 20 | ✓ | 18 |" in markdown
    assert "| nar-003 | legal | tune | ✗ timeout | 600 | ✗ forbidden 1 | 30 |" in markdown
    assert markdown.rstrip().endswith("Verdict differs between systems: nar-002 (main ✗, new ✓).")
