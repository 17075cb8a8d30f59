"""Narrative answers are held to their passages: a rumour stays a rumour and news stays news, a reply
that is no answer is asked again and then replaced by the sources' own sentences, and confidence
follows (what the user reads: the answer's prose, its warnings and its confidence)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from finagent.agent.answer.evidence_answer import evidence_answer
from finagent.agent.context import Context
from finagent.agent.evidence import query_terms
from finagent.agent.nodes.evaluate import evaluate
from finagent.agent.resources import close_resources, configure_resources
from finagent.agent.understand.vocabulary import asks_drivers
from finagent.finance.ask.asks import read_ask
from finagent.settings import Settings
from tests.fakes import ScriptedModels

RUMOUR = {
    "chunk_id": 1,
    "document_id": 1,
    "ticker": "AAPL",
    "kind": "news",
    "fiscal_year": None,
    "fiscal_quarter": None,
    "period_label": "undated",
    "published_at": "2024-02-03",
    "title": "Could Apple acquire Peloton in 2024?",
    "text": "Could Apple acquire Peloton in 2024? Some analysts think a deal might make sense, since the "
    "iPhone maker could use the fitness subscriptions to grow its services business.",
    "fused_score": 0.9,
    "queries": ["apple announce"],
}
EIGHT_K = {
    **RUMOUR,
    "chunk_id": 2,
    "document_id": 2,
    "kind": "8-K",
    "fiscal_year": 2025,
    "fiscal_quarter": 1,
    "period_label": "Q1 FY2025",
    "published_at": None,
    "title": "Apple Inc. 8-K 2024-12-02",
    "text": "Item 8.01 Other Events. On December 2, 2024, Apple Inc. announced that its Board of Directors "
    "declared a cash dividend of $0.25 per share of common stock.",
    "fused_score": 0.8,
}


EARLIER_8K = {
    **EIGHT_K,
    "chunk_id": 3,
    "document_id": 3,
    "fiscal_year": 2024,
    "fiscal_quarter": 4,
    "period_label": "Q4 FY2024",
    "title": "Apple Inc. 8-K 2024-08-29",
    "text": "Item 8.01 Other Events. On August 29, 2024, Apple Inc. announced that its Board of Directors "
    "declared a cash dividend of $0.26 per share of common stock.",
}


def _state(question: str, evidence: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "question": question,
        "analysis": {
            "question": question,
            "tickers": ["AAPL"],
            "names": {"AAPL": ["AAPL", "Apple", "Apple Inc."]},
            "keywords": {"AAPL": ["announce"]},
            "answer_mode": "standard",
            "narrative": True,
            "quantities": False,
            "terms": list(
                dict.fromkeys(
                    ["apple", "announce", "acquire", "peloton", "dividend", *query_terms([question])]
                )
            ),
            "ask": {"kind": "narrative", "about": sorted(read_ask(question, [], {}, []).about)},
            "drivers": asks_drivers(question),
        },
        "evidence": evidence,
        "targets": [{"ticker": "AAPL", "label": "Q1 FY2025", "available": True}],
    }


@pytest.fixture
def writer(settings: Settings) -> Iterator[Any]:
    def run(
        replies: list[str],
        evidence: list[dict[str, Any]],
        question: str = "What did Apple announce?",
        **options: Any,
    ) -> tuple[dict[str, Any], ScriptedModels]:
        models = ScriptedModels({"generate": replies, "evaluate": [{"completeness": 95, "accuracy": 95}]})
        configure_resources(settings, chat_model_factory=models)
        state = _state(question, evidence)
        options = {"narrative_answers": "written", **options}  # the model's own answer, and its checks
        context = Context(today="2025-01-10", use_tools=False, record_runs=False, **options)
        out = asyncio.run(evidence_answer(state, context))  # type: ignore[arg-type]
        graded = asyncio.run(evaluate({**state, **out}, _Runtime(context)))  # type: ignore[arg-type, typeddict-item]
        return {**out, **graded}, models

    yield run
    close_resources()


class _Runtime:
    def __init__(self, context: Context) -> None:
        self.context = context


def test_a_rumour_in_the_news_never_becomes_the_companys_announcement(writer: Any) -> None:
    claim = "Apple announced that it will acquire Peloton in 2024 [N1]."
    out, models = writer([claim, claim], [RUMOUR, EIGHT_K])
    answer = out["answer"]
    assert len(models.prompts("generate")) == 2  # told why, rewritten once
    assert "announced that it will acquire Peloton" not in answer
    assert "A news article of 2024-02-03: “Could Apple acquire Peloton in 2024?" in answer, answer
    assert "Figures:" not in answer
    assert any(w.startswith("withheld 1 sentence") and "news article" in w for w in out["warnings"])
    assert out["confidence"] < Context().threshold("standard")


RESULTS_8K = {
    **EIGHT_K,
    "chunk_id": 4,
    "document_id": 4,
    "fiscal_year": 2023,
    "period_label": "Q1 FY2023",
    "title": "AAPL 8-K 2023-02-02",
    "text": "Item 2.02 Results of Operations and Financial Condition. On February 2, 2023, Apple Inc. "
    "(“Apple”) issued a press release regarding Apple’s financial results for its first fiscal quarter "
    "ended December 31, 2022. A copy of Apple’s press release is attached hereto as Exhibit 99.1.",
}


def test_an_uncited_rumour_is_withheld_and_the_filing_quoted_whole(writer: Any) -> None:
    """A short sentence that cites nothing but names a company and a year is a claim like any other (the
    rumour reached the model from a news tool, whose summary no sentence is matched to)."""
    claim = "Apple announced that it would acquire Peloton in 2024."
    question = "What did Apple announce in its 8-K of February 2, 2023?"
    out, models = writer([claim, claim], [RESULTS_8K], question=question)
    answer = out["answer"]
    assert len(models.prompts("generate")) == 2
    assert "Peloton" not in answer, answer
    assert "On February 2, 2023, Apple Inc. (“Apple”) issued a press release regarding Apple’s" in answer
    assert any("cites no passage" in w for w in out["warnings"]), out["warnings"]
    assert out["confidence"] < Context().threshold("standard")


def test_the_companys_own_statement_stands_with_its_citation(writer: Any) -> None:
    said = "On December 2, 2024, Apple declared a cash dividend of $0.25 per share of common stock [8K1]."
    out, models = writer([said], [RUMOUR, EIGHT_K])
    assert said in out["answer"] and len(models.prompts("generate")) == 1
    assert not any(w.startswith("withheld") for w in out["warnings"])


def test_a_yes_that_restates_the_question_stands_on_the_answers_cited_sentence(writer: Any) -> None:
    """A yes or no question's answer opens with its verdict, which cites nothing: it stands on the
    passages its other sentences cite, and falls with them."""
    said = "On December 2, 2024, Apple declared a cash dividend of $0.25 per share of common stock [8K1]."
    question = "Does Apple return money to its shareholders?"
    verdict = "Yes, Apple returns money to its shareholders."
    out, models = writer([f"{verdict} {said}"], [RUMOUR, EIGHT_K], question=question)
    assert out["answer"].startswith(verdict[:-1]) and said in out["answer"], out["answer"]
    assert len(models.prompts("generate")) == 1 and not any(w.startswith("withheld") for w in out["warnings"])

    question = "Did Apple announce that it would acquire Peloton?"
    yes = "Yes, Apple announced that it would acquire Peloton. "
    reported = "A news article of 2024-02-03 asked whether Apple could acquire Peloton in 2024 [N1]."
    out, models = writer([yes + reported, yes + reported], [RUMOUR, EIGHT_K], question=question)
    assert reported in out["answer"] and not out["answer"].startswith("Yes"), out["answer"]
    assert any(w.startswith("withheld 1 sentence") for w in out["warnings"]), out["warnings"]
    assert out["confidence"] < Context().threshold("standard")


def test_a_yes_that_a_computed_change_contradicts_is_withheld(
    settings: Settings,
) -> None:
    """Figures read for two periods make a computed change: the model's "Yes, the dividend rose" (a
    fall, 0.26 to 0.25) is withheld, whatever it cites."""
    question = "Did Apple's dividend per share rise?"
    said = "Apple declared a cash dividend of $0.25 per share of common stock [8K2]."
    facts = [
        {
            "ticker": "AAPL",
            "period": p,
            "metric": "dividend per share",
            "value": v,
            "unit": "per share",
            "source": s,
        }
        for p, v, s in (("Q1 FY2025", 0.25, "8K2"), ("Q4 FY2024", 0.26, "8K1"))
    ]
    models = ScriptedModels(
        {
            "generate": [f"Yes, Apple's dividend per share rose. {said}"],
            "extract": [{"facts": facts}],
            "evaluate": [{"completeness": 95, "accuracy": 95}],
        }
    )
    configure_resources(settings, chat_model_factory=models)
    try:
        state = _state(question, [EIGHT_K, EARLIER_8K])
        state["analysis"] |= {"quantities": True, "terms": ["dividend", "per", "share"]}
        # the writer's answer: its figures copied by the model, the change computed from them
        context = Context(today="2025-01-10", use_tools=False, record_runs=False, narrative_answers="written")
        out = asyncio.run(evidence_answer(state, context))  # type: ignore[arg-type]
    finally:
        close_resources()
    assert "rose" not in out["answer"] and said in out["answer"], out["answer"]
    assert any(
        w.startswith("withheld 1 sentence") and "'rose' does not fit the computed dividend per share" in w
        for w in out["warnings"]
    ), out["warnings"]


def test_a_rise_no_quote_writes_is_withheld_from_the_quoted_answer(writer: Any) -> None:
    """Answered in the 8-Ks' own words, the model's "the dividend rose" stands on no quote (they
    give $0.26, then $0.25): withheld, and the quotes answer."""
    question = "What did Apple's 8-Ks say about its dividend?"
    lead = "Apple's cash dividend per share rose in December 2024 [8K2]."
    out, _ = writer([lead], [EIGHT_K, EARLIER_8K], question=question, narrative_answers="extractive")
    assert "rose" not in out["answer"], out["answer"]
    assert out["answer"].startswith("In the sources' own words:"), out["answer"]
    assert "$0.25 per share" in out["answer"] and "$0.26 per share" in out["answer"]
    assert any("says an amount rose" in w for w in out["warnings"]), out["warnings"]


def test_a_change_called_a_rise_that_is_a_fall_is_withheld_even_uncited(writer: Any) -> None:
    """A short uncited sentence escapes the words check, but not its own two figures."""
    said = "On December 2, 2024, Apple declared a cash dividend of $0.25 per share of common stock [8K1]."
    wrong = "The dividend per share rose from 0.25 to 0.24."
    out, models = writer([f"{said} {wrong}", f"{said} {wrong}"], [RUMOUR, EIGHT_K])
    assert len(models.prompts("generate")) == 2  # told why, rewritten once
    assert said in out["answer"] and "rose from 0.25 to 0.24" not in out["answer"], out["answer"]
    assert any("'rose' does not fit the change from 0.25 to 0.24" in w for w in out["warnings"]), out
    assert out["confidence"] < Context().threshold("standard")


def test_a_reply_of_citations_only_is_asked_again_then_never_returned(writer: Any) -> None:
    broken = "Apple's latest 8-K [8K1] and [N1] [8K1]      [1"
    out, models = writer([broken, broken], [RUMOUR, EIGHT_K])
    answer = out["answer"]
    assert len(models.prompts("generate")) == 2
    assert "[8K1]      [1" not in answer
    assert answer.startswith("In the sources' own words:"), answer
    assert "- Apple Inc.'s 8-K for Q1 FY2025: “On December 2, 2024, Apple Inc. announced" in answer
    assert out["confidence"] <= 0.3


def test_a_reply_that_only_points_elsewhere_is_asked_again_then_the_passage_quoted(writer: Any) -> None:
    """A cited sentence sending the reader to another part of the filing is true and answers nothing."""
    pointer = "The information is incorporated herein by reference to Note 19 of the Notes [8K1]."
    note = {**EIGHT_K, "text": f"{pointer[:-7]}. {EIGHT_K['text']}"}
    out, models = writer([pointer, pointer], [note])
    answer = out["answer"]
    assert len(models.prompts("generate")) == 2
    assert "incorporated" not in answer, answer
    assert answer.startswith("In the sources' own words:"), answer
    assert "“On December 2, 2024, Apple Inc. announced" in answer
    assert out["confidence"] <= 0.3


def test_a_reply_naming_no_cause_does_not_answer_what_drove_it(writer: Any) -> None:
    """Asked what drove Services, a true sentence that Services grew gives way to the passage's own
    cause, quoted (no second model call: a small model seldom finds the cause it missed)."""
    quarter = {
        **EIGHT_K,
        "kind": "10-Q",
        "title": "Apple Inc. 10-Q Q1 FY2025",
        "text": "Total net sales rose 4% in the quarter. Services net sales increased due primarily to "
        "higher net sales from advertising, cloud services and the App Store.",
    }
    bare = "Services net sales increased [10Q1]."
    out, models = writer([bare], [quarter], question="What drove Apple's Services net sales?")
    answer = out["answer"]
    assert len(models.prompts("generate")) == 1
    assert answer.startswith("In the sources' own words:"), answer
    assert "“Services net sales increased due primarily to higher net sales from advertising" in answer
    assert any("it names no cause, and the question asks what drove it" in w for w in out["warnings"])


def test_the_quoted_answer_reads_past_the_passages_the_model_was_given(writer: Any) -> None:
    """The model reads a period's three best passages; quoting costs no model time, so the sentence
    that answers is found in the fifth, cited with a label of its own and checked like the rest."""
    filler = [
        "The Company designs, manufactures and markets smartphones and personal computers.",
        "The Company's fiscal year is the 52- or 53-week period that ends on the last Saturday of September.",
        "Gross margin percentage is calculated as gross margin divided by total net sales.",
        "Operating expenses include research and development and selling costs of each quarter.",
    ]
    answer_text = "The Company plans to gradually increase iPhone production rates in 2025."
    passages = [
        {**EIGHT_K, "chunk_id": 10 + n, "kind": "10-Q", "fused_score": 0.9 - n / 10, "text": text}
        for n, text in enumerate([*filler, answer_text])
    ]
    out, models = writer(["", ""], passages, question="What production rate changes does Apple plan?")
    answer = out["answer"]
    assert answer_text not in models.prompts("generate")[0]  # the model was given three passages
    assert answer.startswith("In the sources' own words:"), answer
    assert f"“{answer_text}” [" in answer, answer
    assert [c["chunk_id"] for c in out["citations"]] == [14]
    assert f"[{out['citations'][0]['label']}]" not in models.prompts("generate")[0]  # a label of its own


def test_no_answer_and_no_passage_scores_zero(writer: Any) -> None:
    out, _ = writer(["", ""], [])
    assert out["answer"] == "finagent found no passage that answers this question: no passage was found."
    assert out["confidence"] == 0.0


SUCCESSION_8K = {
    **EIGHT_K,
    "chunk_id": 5,
    "document_id": 5,
    "section": "item_5_02",
    "title": "Apple Inc. 8-K 2024-08-26",
    "text": "Item 5.02 Departure of Directors or Certain Officers.\n\n(b),(c)\n\nOn August 26, 2024, Apple "
    "Inc. announced that Chief Financial Officer Luca Maestri will transition from his role on January 1, "
    "2025. As part of a planned succession, Kevan Parekh, Apple’s Vice President of Financial Planning "
    "and Analysis, will become Chief Financial Officer.\n\nSIGNATURE\n\nDate: August 26, 2024 By: /s/ "
    "Katherine Adams Katherine Adams Senior Vice President, General Counsel and Chief Financial Officer "
    "Luca Maestri signed.",
}


def test_a_question_in_words_is_answered_by_the_quotes_under_one_short_opening(writer: Any) -> None:
    """Who replaces the CFO: code quotes the 8-K's sentence and the one after it in its paragraph
    (which names the successor but never "CFO"); the model reads only the quotes and writes the
    opening, one call; the signature is never quoted; graded by code, no second call."""
    lead = "Kevan Parekh will become Apple's CFO when Luca Maestri transitions on January 1, 2025 [8K1]."
    question = "Who is replacing Luca Maestri as Apple's CFO, and when?"
    out, models = writer([lead], [SUCCESSION_8K], question=question, narrative_answers="extractive")
    answer = out["answer"]
    assert answer.startswith(
        lead + "\n\nIn the sources' own words:\n- Apple Inc.'s 8-K for Q1 FY2025: “On"
    ), answer
    assert (
        "Kevan Parekh, Apple’s Vice President of Financial Planning and Analysis, will become Chief" in answer
    )
    assert "/s/" not in answer and "Katherine" not in answer
    assert len(models.prompts("generate")) == 1 and "Operating expenses" not in models.prompts("generate")[0]
    assert models.prompts("evaluate") == []
    assert 0.5 < out["confidence"] < 0.95


def test_an_opening_naming_someone_its_quote_does_not_is_withheld_and_the_quotes_answer(writer: Any) -> None:
    """A small model fills the blank with a name read elsewhere: the sentence is withheld, the
    quotes stand alone, and confidence falls below a clean answer's."""
    wrong = "Luca Maestri will be replaced by Tim Cook as Apple's CFO on January 1, 2025 [8K1]."
    question = "Who is replacing Luca Maestri as Apple's CFO, and when?"
    out, models = writer([wrong], [SUCCESSION_8K], question=question, narrative_answers="extractive")
    assert out["answer"].startswith("In the sources' own words:\n- Apple Inc.'s 8-K"), out["answer"]
    assert "Tim Cook" not in out["answer"] and len(models.prompts("generate")) == 1
    assert any("the name Tim is not in the passage it cites" in w for w in out["warnings"]), out["warnings"]
    assert out["confidence"] < 0.7


def test_quoted_answers_need_no_model_and_quote_whose_words_they_are(writer: Any) -> None:
    out, models = writer([], [RUMOUR, EIGHT_K], narrative_answers="quoted")
    answer = out["answer"]
    assert models.prompts("generate") == []
    assert answer.startswith("In the sources' own words:\n- ")
    # the best quote with what follows it in its paragraph
    rumour = "Could Apple acquire Peloton in 2024? Some analysts think a deal might make sense"
    assert f"- A news article of 2024-02-03: “{rumour}" in answer, answer
    assert {c["label"] for c in out["citations"]} == {"N1", "8K1"}


AGENDA_8K = {
    **EIGHT_K,
    "section": "item_8_01",
    "title": "Apple Inc. 8-K 2024-12-02",
    "text": "Item 8.01 Other Events. On December 2, 2024, Apple Inc. entered into a Second Supplemental "
    "Indenture with the Trustee with respect to its 2016 Indenture, substituting a new issuer of its notes.",
}


def test_what_an_8k_reports_opens_with_its_own_item_and_counts_as_covered(
    writer: Any, settings: Settings
) -> None:
    """ "The key agenda of the 8-K dated December 2, 2024": the filing's own Item opens the answer,
    quoted, whatever the model writes, and the filing named by its day is the period covered."""
    vague = "The filing included several indentures related to the company's debt obligations [8K1]."
    question = "What was the key agenda of Apple's 8-K filing dated 2nd December 2024?"
    models = ScriptedModels({"generate": [vague, vague], "evaluate": [{"completeness": 80, "accuracy": 80}]})
    configure_resources(settings, chat_model_factory=models)
    state = _state(question, [AGENDA_8K])
    state["analysis"] |= {"named_kinds": ["8-K"], "narrative": False}
    state["targets"] = [
        {"ticker": "AAPL", "label": "8-K dated 2024-12-02", "available": True, "document_ids": [2]}
    ]
    context = Context(today="2025-01-10", use_tools=False, record_runs=False)
    out = asyncio.run(evidence_answer(state, context))  # type: ignore[arg-type]
    graded = asyncio.run(evaluate({**state, **out}, _Runtime(context)))  # type: ignore[arg-type, typeddict-item]
    assert out["answer"].startswith(
        "In the sources' own words:\n- Apple Inc.'s 8-K for Q1 FY2025, Item 8.01 Other Events: "
        "“On December 2, 2024, Apple Inc. entered into a Second Supplemental Indenture"
    ), out["answer"]
    assert graded["confidence"] > 0.3, graded  # the named filing was read: not an unanswered question


def test_a_figure_list_names_only_figures_its_passage_labels(settings: Settings) -> None:
    """The model copies a figure under the question's own words ("much apple pay royalty" for a
    percentage the 8-K writes about something else): verified, but no figure of the passage, so it
    is not listed; the dividend, labelled as the 8-K labels it, is."""
    question = "How much will Apple pay in royalties?"
    eight_k = {**EIGHT_K, "text": f"{EIGHT_K['text']} The dividend is 4% higher than a year ago."}
    facts = [
        {"ticker": "AAPL", "period": "Q1 FY2025", "metric": m, "value": v, "unit": u, "source": "8K1"}
        for m, v, u in (("cash dividend", 0.25, "per share"), ("much apple pay royalty", 4, "percent"))
    ]
    models = ScriptedModels(
        {
            "generate": ["Apple declared a cash dividend of $0.25 per share [8K1]."],
            "extract": [{"facts": facts}],
            "evaluate": [{"completeness": 95, "accuracy": 95}],
        }
    )
    configure_resources(settings, chat_model_factory=models)
    try:
        state = _state(question, [eight_k])
        state["analysis"] |= {"quantities": True, "terms": ["royalty", "pay"]}
        context = Context(use_tools=False, record_runs=False, narrative_answers="written")  # figures copied
        out = asyncio.run(evidence_answer(state, context))  # type: ignore[arg-type]
    finally:
        close_resources()
    figures = out["answer"].split("Figures:")[-1]
    assert "AAPL Q1 FY2025 cash dividend: $0.25 per share [8K1]" in figures, out["answer"]
    assert "royalty" not in figures, out["answer"]


def _statement(chunk: int, kind: str, text: str) -> dict[str, Any]:
    return {
        "chunk_id": chunk,
        "document_id": 9,
        "ticker": "ACME",
        "kind": "10-K",
        "fiscal_year": 2022,
        "fiscal_quarter": None,
        "period_label": "FY2022",
        "published_at": None,
        "title": "ACME 10-K FY2022",
        "statement": kind,
        "text": text,
        "fused_score": 0.9,
        "queries": ["return on assets"],
    }


def test_an_insane_table_figure_is_withheld_and_its_ratio_not_stated(settings: Settings) -> None:
    """Total assets read as $81 million beside current assets of $1,204 million: the figure is not
    used, the answer says it could not be read, and neither the return on assets the model computed
    from it nor its sentence stating the $81 million reaches the reader."""
    from finagent.finance.compute.formulas import FORMULAS, formulas_for

    question = "What was ACME's return on assets in FY2022?"
    balance = "Consolidated Balance Sheets (in millions)\nItem | 2022 | 2021\n"
    balance += "Total current assets | 1,204 | 1,150\nTotal assets | 81 | 79"
    income = (
        "Consolidated Statements of Income (in millions)\nItem | 2022 | 2021\nNet sales | 2,900 | 2,700\n"
    )
    income += "Net income | 50 | 45"
    evidence = [_statement(11, "balance_sheet", balance), _statement(12, "income_statement", income)]
    claims = (
        "ACME's return on assets was 61.7% in FY2022. Its total assets were $81 million at year end [10K1]. "
    )
    claims += "Its net income was $50 million [10K2]."
    models = ScriptedModels(
        {"generate": [claims], "extract": [{"facts": []}], "evaluate": [{"completeness": 95, "accuracy": 95}]}
    )
    configure_resources(settings, chat_model_factory=models)
    state = {
        "question": question,
        "analysis": {
            "question": question,
            "tickers": ["ACME"],
            "names": {"ACME": ["ACME", "Acme Corp"]},
            "keywords": {"ACME": ["total current assets", "total assets", "net income"]},
            "answer_mode": "standard",
            "quantities": True,
            "terms": ["return", "assets", "acme"],
            "ask": {"kind": "value"},
            "formulas": [FORMULAS.index(f) for f in formulas_for(question)],
            "statements": ["balance_sheet", "income_statement"],
        },
        "evidence": evidence,
        "targets": [{"ticker": "ACME", "label": "FY2022", "available": True}],
    }
    try:
        context = Context(today="2023-03-01", use_tools=False, record_runs=False)
        out = asyncio.run(evidence_answer(state, context))  # type: ignore[arg-type]
    finally:
        close_resources()
    answer = out["answer"]
    assert (
        "could not read Acme Corp's total assets for FY2022 reliably (total assets of $81 million is below "
        in (answer)
    ), answer
    assert "its return on assets is not stated" in answer, answer
    assert "61.7" not in answer and "were $81 million" not in answer, answer
    assert not any(c.get("metric") == "return on assets" for c in out["calculations"]), out["calculations"]
    assert any(w.startswith("figure not used: ACME FY2022 total assets") for w in out["warnings"]), out[
        "warnings"
    ]


def test_an_opening_that_copies_a_quote_is_left_out_for_the_quote_itself(writer: Any) -> None:
    copy = (
        "On August 26, 2024, Apple Inc. announced that Chief Financial Officer Luca Maestri will transition "
        "from his role on January 1, 2025 [8K1]."
    )
    question = "Who is replacing Luca Maestri as Apple's CFO, and when?"
    out, _ = writer([copy], [SUCCESSION_8K], question=question, narrative_answers="extractive")
    assert out["answer"].startswith("In the sources' own words:\n- Apple Inc.'s 8-K"), out["answer"]
    assert out["answer"].count("Luca Maestri will transition") == 1


def test_the_opening_over_an_8k_reads_its_items_first_sentence_whole(writer: Any, settings: Settings) -> None:
    """The model writing the opening reads the 8-K Item's first sentence whole (an answer shows a
    long one cut at a clause), so the last note of five issued that day can be named."""
    notes = ", ".join(
        f"$1,000,000,000 aggregate principal amount of its 4.{n}00% Notes due 20{n}0 (the “20{n}0 Notes”)"
        for n in range(2, 7)
    )
    long_item = {**AGENDA_8K, "text": f"Item 8.01 Other Events. On May 10, 2023, Apple Inc. issued {notes}."}
    question = "What did Apple report in its Form 8-K dated May 10, 2023?"
    lead = "On May 10, 2023, Apple issued Notes due 2060 among others [8K1]."
    models = ScriptedModels({"generate": [lead]})
    configure_resources(settings, chat_model_factory=models)
    try:
        state = _state(question, [long_item])
        state["analysis"] |= {"named_kinds": ["8-K"], "narrative": False}
        out = asyncio.run(evidence_answer(state, Context(use_tools=False, record_runs=False)))  # type: ignore[arg-type]
    finally:
        close_resources()
    assert "4.600% Notes due 2060" in models.prompts("generate")[0]
    assert out["answer"].startswith(lead), (out["answer"], out["warnings"])
