"""`finagent doctor` as a user runs it: one line per part, exit 1 when a part fails, never a traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

import psycopg

from tests.store.test_cli import finagent


def lines_of(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """check name -> its line, as printed."""
    found = {}
    for line in result.stdout.splitlines():
        for name in ("database", "embeddings", "chat model", "versions", "shared data"):
            if line[5:].startswith(name):
                found[name] = line
    return found


def assert_one_clear_failure(result: subprocess.CompletedProcess[str], check: str, message: str) -> None:
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output, output
    lines = lines_of(result)
    assert lines[check].startswith("fail "), output
    assert message in lines[check], output
    assert [name for name, line in lines.items() if line.startswith("fail ")] == [check], output


def test_doctor_passes_on_a_working_store(db_url: str, tmp_path: Path) -> None:
    finagent(["companies"], db_url, tmp_path)  # any command that opens the store migrates it
    result = finagent(["doctor", "--no-chat"], db_url, tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    lines = lines_of(result)
    assert lines["database"].startswith("ok ") and "migrations applied, 0 documents" in lines["database"]
    assert (
        lines["embeddings"].startswith("ok ") and "384-d vectors, as the store holds" in lines["embeddings"]
    )
    assert lines["chat model"].startswith("info ")
    assert lines["versions"].startswith(("ok ", "warn ")), output  # an install from ranges may differ


def test_doctor_names_an_unreachable_database(tmp_path: Path) -> None:
    result = finagent(["doctor", "--no-chat"], "postgresql://finagent:secret@127.0.0.1:1/nowhere", tmp_path)
    assert_one_clear_failure(result, "database", "cannot reach the database (postgresql://finagent:***@")
    assert "secret" not in result.stdout + result.stderr


def test_doctor_names_a_store_of_another_embedding_size(db_url: str, tmp_path: Path) -> None:
    """A store built with a 768-d model: the 384-d model's vectors cannot be searched in it."""
    finagent(["companies"], db_url, tmp_path)
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("DROP INDEX IF EXISTS chunks_embedding_hnsw, chunks_filter_idx")
        conn.execute("ALTER TABLE chunks ALTER COLUMN embedding TYPE halfvec(768)")
    result = finagent(["doctor", "--no-chat"], db_url, tmp_path)
    assert_one_clear_failure(result, "embeddings", "gives 384-d vectors but the store holds 768-d ones")


def test_doctor_json(db_url: str, tmp_path: Path) -> None:
    import json

    result = finagent(["doctor", "--no-chat", "--json"], db_url, tmp_path)
    checks = json.loads(result.stdout)
    assert [check["name"] for check in checks] == [
        "database",
        "embeddings",
        "chat model",
        "versions",
        "shared data",
    ]
    assert {check["status"] for check in checks} <= {"ok", "warn", "info"}
