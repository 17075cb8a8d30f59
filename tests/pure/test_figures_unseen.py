"""The figures benchmark's questions over filings outside ../shared (``unseen.jsonl``) and the runner's
``--extra-data`` handling: without the folder those questions are reported "not run: data absent",
never asked and never counted as failed; an ingest marker remembers each folder, so adding one folder
ingests only that one."""

from __future__ import annotations

import importlib
import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from benchmarks.figures_score import UNITS

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "figures" / "unseen.jsonl"


def runner() -> Any:
    # benchmarks/figures.py sits beside the benchmarks/figures/ folder: loaded at run time (see
    # test_figures_benchmark.py)
    return importlib.import_module("benchmarks.figures")


def load() -> list[dict[str, Any]]:
    return [json.loads(line) for line in UNSEEN.read_text().splitlines() if line.strip()]


def test_unseen_set_is_well_formed_and_split_by_kind() -> None:
    questions = load()
    assert len(questions) >= 20 and len({q["id"] for q in questions}) == len(questions)
    kinds: dict[str, set[str]] = {}
    for q in questions:
        assert q["half"] in {"tune", "held"}, q["id"]
        kinds.setdefault(q["category"], set()).add(q["half"])
        assert q["extra_data"], q["id"]  # every question needs at least one filing outside ../shared
        for figure in q["figures"]:
            assert figure["unit"] in UNITS and figure["source"], q["id"]
            if figure["derived"]:
                a, b = (Decimal(str(i["value"])) for i in figure["inputs"])
                expected = (a / b * 100 - 100).quantize(Decimal("0.1"), ROUND_HALF_UP)
                assert Decimal(str(figure["value"])) == expected, q["id"]
    assert all(halves == {"tune", "held"} for halves in kinds.values()), kinds


def test_absent_extra_data_skips_the_questions_instead_of_failing_them(tmp_path: Path) -> None:
    figures = runner()
    questions = load()
    shared_only = {"id": "fig-x", "category": "single_annual", "question": "?", "figures": []}

    asked, not_run = figures.split_by_data([shared_only, *questions], [])
    assert [q["id"] for q in asked] == ["fig-x"]
    assert len(not_run) == len(questions)
    assert all(s["reason"].startswith("data absent: ") for s in not_run)

    folder = tmp_path / "unseen"
    first = questions[0]
    for relative in first["extra_data"]:
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text("<html/>")
    asked, not_run = figures.split_by_data([first, questions[-1]], [tmp_path / "empty", folder])
    assert [q["id"] for q in asked] == [first["id"]] and [s["id"] for s in not_run] == [questions[-1]["id"]]

    report = {
        "machine": {"date": "-", "cpus": 2},
        "provider": "local",
        "questions": 0,
        "systems": [{"name": "new", "summary": figures.summarize([])}],
        "rows": [],
        "not_run": not_run,
    }
    markdown = figures.render_markdown(report)
    assert "| not run: data absent | 1 |" in markdown
    assert f"| {questions[-1]['id']} | {questions[-1]['category']} | not run: data absent" in markdown
    assert figures.summarize([])["failed"] == 0


def test_extra_data_option_refuses_a_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    figures = runner()
    if not (figures.SHARED_DATA / "filings").is_dir():
        pytest.skip("the runner checks ../shared before its options")
    with pytest.raises(SystemExit):
        figures.main(["--extra-data", str(tmp_path / "nowhere"), "--results-dir", str(tmp_path)])
    assert "not a folder" in capsys.readouterr().err


def test_ingest_marker_adds_only_the_new_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figures = runner()
    calls: list[str] = []

    def fake_cli(args: list[str], env: dict[str, str], cwd: Path, timeout: float | None) -> Any:
        calls.append(args[-1])
        return figures.CliResult(0, "", "", 0.1)

    monkeypatch.setattr(figures, "run_cli", fake_cli)
    system = figures.System("new", figures.REPO)
    extra = tmp_path / "extra"
    extra.mkdir()
    first = figures.ingest(system, {}, tmp_path, force=False)
    assert not first["skipped"] and len(calls) == len(figures.SOURCES)
    again = figures.ingest(system, {}, tmp_path, force=False)
    assert again["skipped"] and len(calls) == len(figures.SOURCES)
    more = figures.ingest(system, {}, tmp_path, force=False, extra=[extra])
    assert calls[-1] == str(extra.resolve()) and len(calls) == len(figures.SOURCES) + 1
    assert str(extra.resolve()) in more["sources"] and len(more["runs"]) == len(figures.SOURCES) + 1
