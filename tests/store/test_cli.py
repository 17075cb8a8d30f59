"""The `finagent` command as a user runs it: clear messages, exit codes, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import MODEL_CACHE


def finagent(
    args: list[str],
    db_url: str | None,
    home: Path,
    timeout: int = 300,
    settings: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    passed = ("FINAGENT_PG_DATA_DIR", "FINAGENT_EDGAR_USER_NAME", "FINAGENT_EDGAR_USER_EMAIL")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FINAGENT_") or k in passed}
    env |= {"FINAGENT_HOME": str(home), "FINAGENT_CACHE_DIR": str(MODEL_CACHE), "COLUMNS": "200"}
    if db_url:
        env["FINAGENT_DATABASE_URL"] = db_url
    env |= settings or {}
    return subprocess.run(
        [sys.executable, "-m", "finagent.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def assert_clean_failure(result: subprocess.CompletedProcess[str], message: str) -> None:
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "Traceback" not in output, output
    assert message.lower() in output.lower(), output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", ""], "empty"),
        (["search", "   "], "empty"),
        (["search", "x" * 20_000], "limit is 4,000"),
        (["search", "sales", "--quarter", "7"], "quarter 7"),
        (["search", "sales", "--year", "1850"], "1850"),
        (["search", "sales", "--ticker", "'; DROP TABLE chunks; --"], "no documents for"),
        (["search", "sales", "--kind", "'; DROP TABLE chunks; --"], "unknown document kind"),
        (["search", "sales", "--ticker", "ZZZZ"], "no documents for 'ZZZZ'"),
        (["search", "sales", "--from", "yesterday"], "--from must be a date"),
        (["search", "sales", "--part", "risk"], "unknown part 'risk'"),
    ],
)
def test_search_bad_input(db_url: str, tmp_path: Path, args: list[str], message: str) -> None:
    assert_clean_failure(finagent(args, db_url, tmp_path), message)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", ""], "empty"),
        (["ask", "   "], "empty"),
        (["ask", "Apple revenue?", "--mode", "fast"], "unknown mode 'fast'"),
        (["ask", "Apple revenue?", "--provider", "gemini"], "unknown provider 'gemini'"),
        (["ask", "Who is Apple's CFO?", "--narrative", "poem"], "unknown --narrative 'poem'"),
    ],
)
def test_ask_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    assert_clean_failure(finagent(args, None, tmp_path), message)


def test_ingest_bad_files_are_reported_and_store_stays_intact(db_url: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.pdf").write_bytes(b"")
    (bad / "fake.pdf").write_text("this is not a pdf")
    (bad / "random.htm").write_bytes(os.urandom(4096))
    (bad / "latin1.html").write_bytes("<html><body>caf\xe9 na\xefve</body></html>".encode("latin-1"))
    (bad / "empty.html").write_text("")
    result = finagent(["ingest", "path", str(bad)], db_url, tmp_path)
    assert_clean_failure(result, "failed")
    for name in ("empty.pdf", "fake.pdf", "random.htm", "latin1.html", "empty.html"):
        assert name in result.stdout
    status = finagent(["db", "status"], db_url, tmp_path)
    assert status.returncode == 0 and "empty" in status.stdout.lower()


def test_ingest_missing_and_empty_paths(db_url: str, tmp_path: Path) -> None:
    assert_clean_failure(
        finagent(["ingest", "path", str(tmp_path / "nope")], db_url, tmp_path), "no such file"
    )
    empty = tmp_path / "empty_dir"
    empty.mkdir()
    assert_clean_failure(finagent(["ingest", "path", str(empty)], db_url, tmp_path), "no filings")
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\x00\x01\x02")
    assert_clean_failure(finagent(["ingest", "path", str(binary)], db_url, tmp_path), "unsupported file type")


def test_unreachable_database_url(tmp_path: Path) -> None:
    result = finagent(["db", "status"], "postgresql://user:pw@127.0.0.1:1/none?connect_timeout=2", tmp_path)
    assert_clean_failure(result, "cannot connect to the database")
    assert "pw@" not in result.stderr


@pytest.mark.parametrize(
    ("variable", "value", "accepts"),
    [
        ("FINAGENT_VECTOR_WEIGHT", "abc", "valid number"),
        ("FINAGENT_POOL_MAX_SIZE", "-3", "greater than or equal to 1"),
        ("FINAGENT_DATABASE_URL", "not-a-url", "postgresql://"),
        ("FINAGENT_EMBEDDING_BACKEND", "gpu", "'auto', 'onnx' or 'torch'"),
    ],
)
def test_a_bad_setting_is_named_with_its_value_and_what_it_accepts(
    tmp_path: Path, variable: str, value: str, accepts: str
) -> None:
    """Not "internal error ... please report it" with a validation dump: one line, exit 2."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FINAGENT_")}
    env |= {"FINAGENT_HOME": str(tmp_path), "COLUMNS": "400", variable: value}
    for args in (["companies"], ["ask", "What was Apple's revenue in FY2024?"]):
        result = subprocess.run(
            [sys.executable, "-m", "finagent.cli.main", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert result.returncode == 2, result.stdout + result.stderr
        assert "internal error" not in result.stderr and "Traceback" not in result.stderr
        message = " ".join(result.stderr.split())
        assert f"{variable}='{value}' is not valid" in message and accepts in message, message


def test_edgar_without_user_agent_or_network(db_url: str, tmp_path: Path) -> None:
    result = finagent(["ingest", "edgar", "AAPL", "--forms", "10-K", "10-Q"], db_url, tmp_path)
    assert_clean_failure(result, "FINAGENT_EDGAR_USER_NAME")
    # With a user agent but no route to sec.gov (this machine, CI): a clear offline message.
    agent = {"FINAGENT_EDGAR_USER_NAME": "Test User", "FINAGENT_EDGAR_USER_EMAIL": "test@example.com"}
    os.environ.update(agent)
    try:
        offline = finagent(["ingest", "edgar", "AAPL", "MSFT", "--forms", "10-K", "10-Q"], db_url, tmp_path)
    finally:
        for key in agent:
            os.environ.pop(key)
    if offline.returncode == 0:
        pytest.skip("this machine reaches SEC EDGAR; the offline message cannot be checked here")
    assert_clean_failure(offline, "cannot reach SEC EDGAR")


def test_embedded_default_starts_and_is_reused(tmp_path: Path) -> None:
    home = tmp_path / "fa-home"
    env_dir = {"FINAGENT_PG_DATA_DIR": str(tmp_path / "pg")}
    os.environ.update(env_dir)
    try:
        first = finagent(["db", "status"], None, home)
        second = finagent(["db", "status"], None, home)
    finally:
        for key in env_dir:
            os.environ.pop(key)
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    assert (tmp_path / "pg" / "PG_VERSION").exists()
