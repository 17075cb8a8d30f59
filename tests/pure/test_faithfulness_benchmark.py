"""The narrative-faithfulness benchmark reads an answer's written sentences, not code's."""

from __future__ import annotations

import importlib
from typing import Any


def faithfulness() -> Any:
    """benchmarks/faithfulness.py sits beside its data folder: mypy reads the name as the folder, so
    the module is loaded at run time."""
    return importlib.import_module("benchmarks.faithfulness")


def test_the_written_sentences_are_read_not_tables_figure_lists_or_computed_openings() -> None:
    answer = (
        "No (computed from the figures: Adobe's operating margin fell by 2.1 percentage points from FY2021 "
        "(36.8%) to FY2022 (34.6%) [10K1]).\n\n| Company | Period |\n|---|---|\n| Adobe | FY2022 |\n\n"
        "Operating expenses rose because of higher headcount [10K2]. Revenue grew.\n\n"
        "Figures:\n- ADBE FY2022 revenue: $17,606 million [10K1]"
    )
    assert faithfulness().prose_sentences(answer) == [
        "Operating expenses rose because of higher headcount [10K2].",
        "Revenue grew.",
    ]


def test_code_computed_ratios_and_rankings_are_not_read_as_written_sentences() -> None:
    answer = (
        "Amcor's quick ratio rose from 0.67 in FY2022 to 0.69 in FY2023, +3.4% (computed: growth(0.67, "
        "0.69)) [10K1]. MGM China had the largest decline in MGM's revenues in FY2022: $673,593 thousand, "
        "-44.4% (computed) [10K2].\n\nComputed from the statements:\n- Walmart's EBITDA margin for FY2020: "
        "6.1% (= 31555 / 519926 * 100) [10K4]\n\nRevenue grew because of higher prices [10K2]."
    )
    assert faithfulness().prose_sentences(answer) == ["Revenue grew because of higher prices [10K2]."]


def test_a_sentence_is_held_to_the_full_text_of_the_chunk_it_cites() -> None:
    row = {
        "answer": "Operating expenses rose because of higher headcount [10K2]. "
        "Apple bought Peloton outright [10K2].",
        "citations": [{"label": "10K2", "chunk_id": 7, "ticker": "ADBE", "kind": "10-K", "period": "FY2022"}],
    }
    texts = {7: "Operating expenses increased due to higher headcount and marketing."}
    graded = faithfulness().grade(row, texts)
    assert graded["sentences"] == 2
    assert [u["sentence"] for u in graded["unsupported"]] == ["Apple bought Peloton outright [10K2]."]


def test_quoted_lines_are_whole_code_notes_are_skipped_and_a_yes_stands_on_its_grounds() -> None:
    answer = (
        "Yes, Adobe's operating expenses rose in FY2022. Operating expenses rose because of higher "
        "headcount [10K2]. Adobe's diluted EPS for Q1 FY2023 is not available: no reported figure in the "
        "store.\n\nIn the sources' own words:\n- Adobe's 10-K for FY2022: “Operating expenses increased due "
        "to higher headcount. Marketing grew.” [10K2]"
    )
    sentences = faithfulness().prose_sentences(answer)
    assert sentences[-1].startswith("- Adobe's 10-K") and sentences[-1].endswith("[10K2]")
    assert not any("not available" in s for s in sentences)
    row = {
        "answer": answer,
        "citations": [
            {
                "label": "10K2",
                "chunk_id": 7,
                "ticker": "ADBE",
                "kind": "10-K",
                "period": "FY2022",
                "title": "Adobe 10-K",
            }
        ],
    }
    texts = {7: "Operating expenses increased due to higher headcount and marketing. Marketing grew."}
    graded = faithfulness().grade(row, texts, "Did Adobe's operating expenses rise in FY2022?")
    assert graded["sentences"] == 3 and graded["unsupported"] == []
    alone = faithfulness().grade({**row, "answer": "Yes, Adobe's operating expenses rose in FY2022."}, texts)
    assert [u["why"] for u in alone["unsupported"]] == [
        "it gives a yes or no that no cited sentence of the answer supports"
    ]


def test_an_answer_made_without_a_model_call_has_no_written_sentence() -> None:
    """Code's own sentences (a CAGR, a free cash flow "computed as", a margin the statement has no line
    for) are held to the figures check; only what a model wrote is held to passage words."""
    row = {
        "answer": "Lockheed Martin's revenue grew at a compound annual rate of 0.4% from FY2020 to FY2022 "
        "($65,398 million to $65,984 million) [10K5].",
        "citations": [{"label": "10K5", "chunk_id": 7, "ticker": "LMT", "kind": "10-K", "period": "FY2022"}],
    }
    texts = {7: "Net sales | 65,984 | 67,044 | 65,398"}
    assert faithfulness().grade({**row, "llm_calls": 0}, texts)["sentences"] == 0
    assert faithfulness().grade({**row, "llm_calls": []}, texts)["sentences"] == 0
    written = faithfulness().grade({**row, "llm_calls": [{"role": "generate"}]}, texts)
    assert written["sentences"] == 1 and len(written["unsupported"]) == 1
    note = (
        "American Express' statement for FY2022 prints revenue but no operating income line [10K1]: "
        "operating margin is not a measure it reports, and none is computed."
    )
    assert faithfulness().prose_sentences(note + " Revenue grew [10K1].") == ["Revenue grew [10K1]."]
