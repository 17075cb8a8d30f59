"""The figures benchmark: its scorer on hand-written answers, and its question set's gold.

The scorer decides whether an answer "has every figure exact", so it is tested on the forms analysts
write and on the near misses that must not count (another period's number, the wrong scale, a
substring, too few digits). The gold is checked against itself (derived figures recompute from their
inputs) and, with ../shared present, against the filings' own text (read with lxml / pymupdf, never
with finagent's readers, which are what the benchmark measures).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from benchmarks.figures_score import UNITS, figure_found, numbers_in, score_answer

from tests.conftest import SHARED_DATA, require_shared

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "figures" / "questions.jsonl"
CATEGORIES = {
    "single_annual",
    "single_quarterly",
    "multi_annual",
    "multi_quarterly",
    "yoy",
    "derived_q4",
    "ranking",
    "margin",
    "growth",
}
VERBATIM = [
    "What were Amazon's total net sales in fiscal year 2024?",
    "What was Amazon's revenue for the quarter ended September 30, 2023?",
    "What was Apple's revenue in the fourth quarter of fiscal 2024?",
    "Compare Apple's and Microsoft's total revenue for the quarters ended around December 2022 and "
    "March/April 2023. Which company grew year over year in each quarter?",
    "What was NVIDIA's revenue in each of the first three fiscal quarters reported in 2023?",
]


def amount(value: float, unit: str = "USD millions") -> dict[str, Any]:
    return {"ticker": "X", "period": "FY", "metric": "m", "value": value, "unit": unit}


AMZN_SALES = amount(637959)


@pytest.mark.parametrize(
    "text",
    [
        "Amazon's total net sales were 637,959 in 2024.",
        "Total net sales: $637,959 million [1].",
        "$637.96 billion",
        "about $638.0 billion",
        "roughly $638 billion",
        "637959",
        "US$638bn",
        "$638B",
        "**$637.96B**",
        "$637,959,000,000",
        "637,959.",
    ],
)
def test_amount_in_any_usual_form_is_found(text: str) -> None:
    assert figure_found(text, AMZN_SALES)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("$574,785 million", "the 2023 column, not 2024"),
        ("$513,983 million", "the 2022 column"),
        ("$0.6 trillion", "too coarse: fewer than 3 significant digits"),
        ("$637 billion", "truncated, not rounded"),
        ("$637,959 thousand", "wrong scale word"),
        ("$637.96 million", "wrong scale word"),
        ("$63.8 billion", "off by ten"),
        ("637.959%", "a percentage is not an amount"),
        ("FY2024 637", "a different number"),
        ("", "empty answer"),
    ],
)
def test_amount_near_misses_are_not_found(text: str, why: str) -> None:
    assert not figure_found(text, AMZN_SALES), why


def test_substring_of_a_longer_number_is_not_found() -> None:
    gold = amount(1797)
    assert not figure_found("Apple's net sales were $81,797 million.", gold)
    assert not figure_found("81797", gold)
    assert not figure_found("$11,797.5 million", gold)
    assert figure_found("R&D rose to $1,797 million.", gold)


def test_thousands_unit_matches_every_scale() -> None:
    gold = amount(9824703, "USD thousands")
    for text in ("$9,824,703 thousand", "9,824,703", "$9.82 billion", "$9,825 million", "$9,824.7 million"):
        assert figure_found(text, gold), text
    for text in ("$9.8 billion", "$9,824,703 million", "$98.2 billion"):
        assert not figure_found(text, gold), text


def test_a_loss_matches_by_magnitude_in_any_notation() -> None:
    gold = amount(-10707)
    for text in ("$(10,707) million", "an operating loss of $10.7 billion", "-$10.71 billion", "−10,707"):
        assert figure_found(text, gold), text
    assert not figure_found("a loss of $10.4 billion", gold)


@pytest.mark.parametrize(
    "text", ["−1.4%", "(1.4)%", "a 1.4% decline", "revenue fell 1.4%", "-1.4 percent", "down 1.40%", "−1.43%"]
)
def test_negative_percentage_forms_are_found(text: str) -> None:
    assert figure_found(text, amount(-1.4, "percent"))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("revenue grew 1.4%", "wrong direction"),
        ("1.4%", "no sign or decline word"),
        ("−1.5%", "outside ±0.05"),
        ("-1%", "outside ±0.05"),
        ("−1.4 billion", "not a percentage"),
        ("Apple fell 5.5% while Microsoft grew 1.4%", "the decline word belongs to another clause"),
    ],
)
def test_negative_percentage_near_misses(text: str, why: str) -> None:
    assert not figure_found(text, amount(-1.4, "percent")), why


def test_positive_percentage_in_a_mixed_sentence() -> None:
    text = "Apple's revenue declined 1.4% while NVIDIA's grew 101.5% year over year."
    assert figure_found(text, amount(101.5, "percent"))
    assert figure_found(text, amount(-1.4, "percent"))
    assert figure_found("up 101.48%", amount(101.5, "percent"))
    assert not figure_found("101%", amount(101.5, "percent"))
    assert not figure_found("revenue declined 10.8%", amount(10.8, "percent"))
    assert figure_found("operating margin of 75%", amount(75.0, "percent"))


def test_per_share_needs_cents_and_no_scale() -> None:
    gold = amount(6.08, "USD per share")
    assert figure_found("diluted EPS of $6.08 per share", gold)
    assert figure_found("6.08", gold)
    for text in ("$6.1", "$6.08 billion", "6.08%", "$16.08", "$6.07"):
        assert not figure_found(text, gold), text


def test_numbers_in_reads_sign_scale_and_precision() -> None:
    first, second, third = numbers_in("(2,722) and $94.93bn and 7.8%")
    assert first.negative and first.value == 2722 and first.scale is None
    assert second.scale == 1e9 and second.decimals == 2 and second.significant == 4
    assert third.percent and not third.negative


def test_score_answer_requires_every_figure() -> None:
    question = {
        "figures": [
            {**amount(7192), "ticker": "NVDA", "period": "Q1 FY2024"},
            {**amount(13507), "ticker": "NVDA", "period": "Q2 FY2024"},
            {**amount(18120), "ticker": "NVDA", "period": "Q3 FY2024"},
        ]
    }
    full = "Revenue was $7,192 million, $13.51 billion and $18.12 billion."
    assert score_answer(full, question) == {"all_exact": True, "found": 3, "total": 3, "missing": []}
    partial = score_answer("Revenue was $7,192 million and $13.6 billion.", question)
    assert partial["all_exact"] is False and partial["found"] == 1 and len(partial["missing"]) == 2
    assert "NVDA Q3 FY2024" in partial["missing"][-1]
    for empty in ("", None, "   "):
        result = score_answer(empty, question)
        assert result["all_exact"] is False and result["found"] == 0 and result["total"] == 3
        assert len(result["missing"]) == 3


def test_unknown_unit_is_an_error() -> None:
    with pytest.raises(ValueError):
        figure_found("5", amount(5, "EUR"))


# -- the question set -----------------------------------------------------------------------------


def load_questions() -> list[dict[str, Any]]:
    return [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]


def round1(value: float) -> float:
    return float(Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def recompute(figure: dict[str, Any]) -> float:
    a, b = (float(i["value"]) for i in figure["inputs"])
    if figure["formula"] == "difference":
        return a - b
    if figure["formula"] == "ratio_pct":
        return round1(a / b * 100)
    if figure["formula"] == "growth_pct":
        return round1((a / b - 1) * 100)
    raise AssertionError(f"unknown formula {figure['formula']}")


def test_question_set_is_well_formed() -> None:
    questions = load_questions()
    assert len(questions) >= 30
    assert len({q["id"] for q in questions}) == len(questions)
    texts = {q["question"] for q in questions}
    for verbatim in VERBATIM:
        assert verbatim in texts
    for q in questions:
        assert q["category"] in CATEGORIES, q["id"]
        assert q["figures"] and q["answer_note"], q["id"]
        assert {f["ticker"] for f in q["figures"]} <= set(q["tickers"]), q["id"]
        for f in q["figures"]:
            assert f["unit"] in UNITS, q["id"]
            date.fromisoformat(f["period_end"])
            assert " — " in f["source"], q["id"]
            if f["derived"]:
                assert recompute(f) == f["value"], (q["id"], f["metric"])
                assert all(i["unit"] in UNITS for i in f["inputs"]), q["id"]
    assert {q["category"] for q in questions} == CATEGORIES


def test_gold_answer_notes_score_themselves() -> None:
    """Each figure as the gold writes it is found by the scorer (no unit/format the scorer cannot read)."""
    for q in load_questions():
        for f in q["figures"]:
            value = f["value"]
            if f["unit"] == "percent":
                text = f"{'a decline of ' if value < 0 else ''}{abs(value):.1f}%"
            elif f["unit"] == "USD per share":
                text = f"${value:.2f}"
            else:
                text = f"{abs(value):,.0f}"
            assert figure_found(text, f), (q["id"], text)


# -- the gold against the filings' text (needs ../shared) -----------------------------------------


@cache
def document_text(relative: str) -> str:
    """The file's text as printed: PDF via pymupdf, HTML via lxml, XBRL instances as raw XML."""
    path = SHARED_DATA / relative
    if path.suffix == ".pdf":
        import pymupdf

        with pymupdf.open(path) as doc:
            return "\n".join(page.get_text() for page in doc)
    if path.suffix in {".htm", ".html"}:
        from lxml import etree

        root = etree.parse(str(path), etree.HTMLParser(recover=True, huge_tree=True)).getroot()
        return " ".join(root.itertext())
    return path.read_text()


def printed(value: float, unit: str, path: str) -> str:
    if path.endswith(".xml"):
        return f">{int(abs(value) * (1000 if unit == 'USD thousands' else 1_000_000))}<"
    if unit == "USD per share":
        return f"{abs(value):.2f}"
    return f"{abs(value):,.0f}"


def source_path(source: str) -> str:
    return source.split(" — ", 1)[0]


@pytest.mark.shared
def test_gold_figures_are_printed_in_their_source_documents() -> None:
    require_shared("filings", "edgar")
    checked = 0
    for q in load_questions():
        for f in q["figures"]:
            for item in f["inputs"] if f["derived"] else [f]:
                path = source_path(item["source"])
                assert (SHARED_DATA / path).is_file(), (q["id"], path)
                needle = printed(item["value"], item["unit"], path)
                text = re.sub(r"\s+", " ", document_text(path))
                assert needle in text, (q["id"], f["metric"], needle, path)
                checked += 1
    assert checked >= 60


# -- the runner's pure parts ----------------------------------------------------------------------
# benchmarks/figures.py sits beside the benchmarks/figures/ data folder: Python imports the module,
# but mypy resolves the name to the folder, so the runner is loaded at run time (and typed as Any).


def runner() -> Any:
    return importlib.import_module("benchmarks.figures")


def test_system_spec_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figures = runner()
    REPO, parse_system, system_env = figures.REPO, figures.parse_system, figures.system_env

    system = parse_system(f"new={REPO}")
    assert system.name == "new" and system.path == REPO
    for bad in ("new", f"={REPO}", f"a b={REPO}", f"x={tmp_path}"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_system(bad)
    monkeypatch.setenv("FINAGENT_DATABASE_URL", "postgresql://elsewhere/db")
    monkeypatch.setenv("PYTHONPATH", "/somewhere")
    env = system_env(system, tmp_path / "homes", tmp_path / "cache")
    assert "FINAGENT_DATABASE_URL" not in env
    assert env["PYTHONPATH"].split(os.pathsep) == [str(REPO / "src"), "/somewhere"]
    assert env["FINAGENT_HOME"] == str(tmp_path / "homes" / "new")
    assert env["FINAGENT_CACHE_DIR"] == str(tmp_path / "cache")


def test_run_cli_turns_a_timeout_into_a_failed_result(tmp_path: Path) -> None:
    run_cli = runner().run_cli

    result = run_cli(
        ["-c", "import time; print('started', flush=True); time.sleep(60)"], dict(os.environ), tmp_path, 2
    )
    assert result.timed_out and result.returncode is None
    assert result.seconds < 30
    quick = run_cli(["-c", 'print(\'{"answer": "ok"}\')'], dict(os.environ), tmp_path, 30)
    assert quick.returncode == 0 and not quick.timed_out


def test_rows_summary_and_markdown() -> None:
    figures = runner()
    CliResult, System, parse_answer, question_row = (
        figures.CliResult,
        figures.System,
        figures.parse_answer,
        figures.question_row,
    )
    render_markdown, summarize = figures.render_markdown, figures.summarize

    question = {
        "id": "fig-01",
        "category": "single_annual",
        "question": "What were Amazon's total net sales in fiscal year 2024?",
        "figures": [{**AMZN_SALES, "ticker": "AMZN", "period": "FY2024"}],
    }
    payload = {
        "answer": "Amazon's total net sales were $637,959 million [1].",
        "citations": [{"label": "[1]"}],
        "warnings": [],
        "validation": {"status": "verified", "numbers_verified": 1, "numbers_total": 1},
        "llm_calls": [{}, {}],
        "tokens": 1234,
        "confidence": 0.9,
    }
    stdout = "some log line\n" + json.dumps(payload, indent=2)
    assert parse_answer(stdout) == payload
    assert parse_answer("no json here") is None
    good = question_row(System("new", Path(".")), question, CliResult(0, stdout, "", 12.34))
    assert good["all_exact"] and good["ok"] and good["citations"] == 1 and good["seconds"] == 12.3
    assert good["validation_status"] == "verified" and good["llm_calls"] == 2
    slow = question_row(System("main", Path(".")), question, CliResult(None, "", "killed", 900.0))
    assert not slow["ok"] and slow["timed_out"] and not slow["all_exact"] and slow["found"] == 0
    main_summary, new_summary = summarize([slow]), summarize([good])
    assert new_summary["share_all_exact"] == 1.0 and main_summary["failed"] == 1
    assert new_summary["by_category"]["single_annual"]["all_exact"] == 1
    markdown = render_markdown(
        {
            "machine": {"date": "2025-01-01", "cpus": 2},
            "provider": "local",
            "questions": 1,
            "systems": [
                {"name": "main", "summary": main_summary},
                {"name": "new", "summary": new_summary},
            ],
            "rows": [slow, good],
        }
    )
    assert "| questions with every figure exact | 0/1 (0%) | 1/1 (100%) |" in markdown
    assert "new / main" in markdown and "fig-01" in markdown and "(timeout)" in markdown
