"""The research graph with a scripted chat model over a real embedded store (synthetic filings)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver

from finagent.agent.context import Ablations, Context
from finagent.agent.graph import build_graph
from finagent.agent.progress import describe_update
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import Database
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block, ParsedDocument
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.conftest import make_settings
from tests.fakes import ScriptedModels
from tests.helpers import item, make_doc

# (ticker, fiscal year, quarter, period end, revenue label, revenue in millions)
QUARTERS = [
    ("AAPL", 2023, 1, date(2022, 12, 31), "Total net sales", "117,154"),
    ("AAPL", 2023, 2, date(2023, 4, 1), "Total net sales", "94,836"),
    ("AAPL", 2023, 3, date(2023, 7, 1), "Total net sales", "81,797"),
    ("MSFT", 2023, 1, date(2022, 9, 30), "Total revenue", "50,122"),
    ("MSFT", 2023, 2, date(2022, 12, 31), "Total revenue", "52,747"),
    ("MSFT", 2023, 3, date(2023, 3, 31), "Total revenue", "52,857"),
]


def statement_of_operations(label: str, value: str, period_end: date) -> str:
    return (
        "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (In millions)\n"
        f"| | Three Months Ended {period_end:%B %d, %Y} | Prior year |\n"
        f"| {label} | {value} | 1,000 |\n"
        "| Cost of sales | 40,000 | 900 |\n"
        "| Operating income | 20,000 | 100 |"
    )


def quarter_documents(*, mdna: bool = True, file_names: bool = False, notes: int = 0) -> list[ParsedDocument]:
    """The synthetic 10-Qs of QUARTERS: a statement of operations (+ an MD&A paragraph, + ``notes``
    further paragraphs that only searches for their own words find).

    ``file_names`` gives them file-like sources ("/filings/aapl-2023-q3.htm") instead of test:// URIs.
    """
    docs = []
    for ticker, year, quarter, end, label, value in QUARTERS:
        blocks = [
            Block(
                statement_of_operations(label, value, end),
                section="part1_item1",
                section_title="Financial Statements",
                page=3,
                is_table=True,
            )
        ]
        if mdna:
            blocks.append(
                Block(
                    f"{ticker} management discussion: revenue and operating results for the quarter "
                    f"ended {end:%B %d, %Y} reflected demand across products and services.",
                    section="part1_item2",
                    section_title="Management's Discussion and Analysis",
                    page=20,
                )
            )
        blocks += [
            Block(
                f"Segment detail {n}: {NOTE_TOPICS[n % len(NOTE_TOPICS)]} of {ticker} in the quarter "
                f"ended {end:%B %d, %Y}.",
                section="part1_item1",
                section_title="Notes to Financial Statements",
                page=10 + n,
            )
            for n in range(notes)
        ]
        source = f"/filings/{ticker.lower()}-{year}-q{quarter}.htm" if file_names else None
        docs.append(make_doc(ticker, "10-Q", year, quarter, blocks, source_uri=source, period_end=end))
    return docs


NOTE_TOPICS = [
    "operating income rose as the cost of warehouse leases fell",
    "goodwill impairment testing found no impairment in the reporting units",
    "deferred revenue from extended warranties and support contracts",
    "inventory reserves for obsolete components were released",
]


@pytest.fixture()
def store(db: Database, settings: Settings) -> Iterator[Database]:
    IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in quarter_documents()])
    yield db
    close_resources()


@pytest.fixture()
def noted_store(db: Database, settings: Settings) -> Iterator[Database]:
    """The 10-Qs with notes beyond what the first round's searches (one hit each) find."""
    documents = quarter_documents(notes=len(NOTE_TOPICS))
    IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in documents])
    yield db
    close_resources()


EVIDENCE = re.compile(r'<evidence id="([^"]+)" from="(\S+) 10-Q (Q\d FY\d{4})[^"]*">\n(.*?)</evidence>', re.S)


def extract_from_prompt(messages: list[BaseMessage]) -> dict[str, Any]:
    """What a good extractor does: copy each evidence item's revenue row."""
    facts = []
    for label, ticker, period, body in EVIDENCE.findall(str(messages[-1].content)):
        row = re.search(r"\| (Total net sales|Total revenue) \| ([\d,]+) \|", body)
        if row:
            facts.append(
                {
                    "ticker": ticker,
                    "period": period,
                    "metric": "revenue",
                    "value": float(row.group(2).replace(",", "")),
                    "unit": "USD millions",
                    "source": label,
                }
            )
    return {"facts": facts}


def answer_from_prompt(messages: list[BaseMessage]) -> str:
    prompt = str(messages[-1].content)  # the figures listed, else the evidence blocks, name their ids
    labels = list(dict.fromkeys(re.findall(r"\[(10Q\d+)\]", prompt) or re.findall(r'id="(10Q\d+)"', prompt)))
    return "Revenue by quarter is listed below " + " ".join(f"[{label}]" for label in labels) + " [10Q99]."


ANALYSIS = {
    "intent": "compare revenue",
    "sources": ["10-Q"],
    "answer_mode": "standard",
    "keywords": [
        {"ticker": "AAPL", "phrases": ["total net sales"]},
        {"ticker": "MSFT", "phrases": ["total revenue"]},
    ],
}
GOOD = {
    "completeness": 95,
    "specificity": 95,
    "accuracy": 95,
    "clarity": 95,
    "follow_up_keywords": [],
    "satisfied": True,
}
LOW = {
    "completeness": 20,
    "specificity": 20,
    "accuracy": 20,
    "clarity": 20,
    "follow_up_keywords": ["operating income"],
    "satisfied": False,
}


def script(
    evaluations: list[Any], analyze: list[Any] | None = None, extract: list[Any] | None = None
) -> ScriptedModels:
    return ScriptedModels(
        {
            "analyze": analyze or [ANALYSIS],
            "extract": extract or [extract_from_prompt],
            "generate": [answer_from_prompt],
            "evaluate": evaluations,
        }
    )


def run(settings: Settings, models: ScriptedModels, question: str, **context: Any) -> dict[str, Any]:
    configure_resources(settings, chat_model_factory=models)
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    # These tests exercise the text path's research loop (analysis, extraction, grading, follow-ups);
    # figure questions take the facts path by default (tests/store/test_figures_graph.py).
    ctx = Context(today="2023-11-21", use_tools=False, **{"use_facts": False, **context})
    asyncio.run(graph.ainvoke({"question": question}, config, context=ctx))
    return dict(graph.get_state(config).values)


def run_with_progress(
    settings: Settings, models: ScriptedModels, question: str, **context: Any
) -> tuple[dict[str, Any], str]:
    """``run``, with the progress lines a CLI user reads."""
    configure_resources(settings, chat_model_factory=models)
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    ctx = Context(today="2023-11-21", use_tools=False, **{"use_facts": False, **context})
    lines: list[str] = []

    async def stream() -> None:
        async for chunk in graph.astream({"question": question}, config, context=ctx, stream_mode="updates"):
            for node, update in chunk.items():
                lines.extend(describe_update(node, update or {}))

    asyncio.run(stream())
    return dict(graph.get_state(config).values), "\n".join(lines)


QUESTION = "Compare Apple and Microsoft revenue over the last 3 quarters"


def test_fan_out_one_search_per_ticker_period_phrase(store: Database, settings: Settings) -> None:
    models = script([GOOD])
    state = run(settings, models, QUESTION)
    targets = state["targets"]
    assert [t["label"] for t in targets if t["ticker"] == "AAPL"] == ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]
    assert [t["label"] for t in targets if t["ticker"] == "MSFT"] == ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"]
    first_round = [s for s in state["searches"] if s["round"] == 0]
    expected = sum(len(state["analysis"]["keywords"][t["ticker"]]) for t in targets)
    assert len(first_round) == expected >= 2 * 3
    assert {(s["ticker"], s["period_label"]) for s in first_round} == {
        (t["ticker"], t["label"]) for t in targets
    }
    # every phrase ran against every period; results merged and deduplicated by chunk id
    ids = [e["chunk_id"] for e in state["evidence"]]
    assert len(ids) == len(set(ids))
    assert sum(s["hits"] for s in first_round) > len(ids)


def test_fusion_weights_from_the_environment_reach_the_graphs_searches(
    store: Database, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FINAGENT_VECTOR_WEIGHT", "0.25")
    monkeypatch.setenv("FINAGENT_KEYWORD_WEIGHT", "0.75")
    state = run(make_settings(db_url, tmp_path), script([GOOD]), QUESTION)
    assert state["searches"]
    assert {(s["vector_weight"], s["keyword_weight"]) for s in state["searches"]} == {(0.25, 0.75)}
    # a run's own context still wins over the environment
    state = run(make_settings(db_url, tmp_path), script([GOOD]), QUESTION, vector_weight=0.9)
    assert {(s["vector_weight"], s["keyword_weight"]) for s in state["searches"]} == {(0.9, 0.75)}


def test_answer_cites_right_ticker_and_period_and_stops_at_threshold(
    store: Database, settings: Settings
) -> None:
    models = script([GOOD])
    state = run(settings, models, QUESTION)
    assert state["iterations"] == 1 and len(models.models["evaluate"].calls) == 1
    assert state["confidence"] >= 0.8
    facts = {(f["ticker"], f["period"]): f["value"] for f in state["facts"]}
    assert facts[("AAPL", "Q3 FY2023")] == 81797 and facts[("MSFT", "Q1 FY2023")] == 50122
    assert len(facts) == 6
    # the growth figures come from the calculator, not the model
    aapl = next(
        c
        for c in state["calculations"]
        if c["ticker"] == "AAPL" and c["to_period"] == "Q3 FY2023" and c["from_period"] == "Q2 FY2023"
    )
    assert aapl["result"] == pytest.approx((81797 - 94836) / 94836 * 100)
    # [10Q99] matched no evidence: removed, with a warning
    assert "10Q99" not in state["answer"] and any("10Q99" in w for w in state["warnings"])
    with store.connection() as conn:
        for citation in state["citations"]:
            row = conn.execute(
                "SELECT ticker, fiscal_year, fiscal_quarter FROM chunks WHERE id = %s",
                (citation["chunk_id"],),
            ).fetchone()
            assert row is not None
            assert citation["ticker"] == row[0] and citation["period"] == f"Q{row[2]} FY{row[1]}"
    assert {c["ticker"] for c in state["citations"]} == {"AAPL", "MSFT"}


def test_low_confidence_searches_follow_ups_for_all_periods(
    noted_store: Database, settings: Settings
) -> None:
    models = script([LOW | {"follow_up_keywords": ["goodwill impairment"]}, GOOD])
    state = run(settings, models, QUESTION, hits_per_search=1, evidence_chars=300)
    assert state["iterations"] == 2 and len(models.models["generate"].calls) == 2
    follow = [s for s in state["searches"] if s["query"] == "goodwill impairment"]
    assert {(s["ticker"], s["period_label"]) for s in follow} == {
        (t["ticker"], t["label"]) for t in state["targets"]
    }


def _always_low(topics: Iterator[str]) -> Any:
    def grade(_: list[BaseMessage]) -> str:
        import json

        return json.dumps(LOW | {"follow_up_keywords": [next(topics)]})

    return grade


def test_never_exceeds_the_mode_iteration_limit(noted_store: Database, settings: Settings) -> None:
    models = script([_always_low(iter(NOTE_TOPICS))])
    state = run(settings, models, QUESTION, answer_mode="direct", hits_per_search=1, evidence_chars=300)
    assert state["iterations"] == 2  # direct: at most 2
    models = script([_always_low(iter(NOTE_TOPICS))])
    state = run(
        settings,
        models,
        QUESTION,
        answer_mode="deep",
        max_iterations={"deep": 3},
        hits_per_search=1,
        evidence_chars=300,
    )
    assert state["iterations"] == 3


def test_follow_ups_that_find_nothing_new_end_the_loop(store: Database, settings: Settings) -> None:
    """Every passage of the asked periods is already in the answer's evidence: writing again from the
    same passages would be a re-roll of the model, so the first answer stands after one grading."""
    models = script([LOW])
    state, progress = run_with_progress(settings, models, QUESTION)
    assert state["iterations"] == 1 and state["stood"]
    assert "found nothing the answer was not written from: it stands" in progress
    assert len(models.models["generate"].calls) == 1 and len(models.models["evaluate"].calls) == 1
    assert any(s["query"] == "operating income" for s in state["searches"])  # the follow-ups did run
    assert "Revenue by quarter" in state["answer"]


def test_stops_without_follow_up_keywords(store: Database, settings: Settings) -> None:
    models = script([LOW | {"follow_up_keywords": []}])
    state = run(settings, models, QUESTION)
    assert state["iterations"] == 1


def test_malformed_llm_json_is_repaired_then_defaulted(store: Database, settings: Settings) -> None:
    models = script([GOOD], analyze=["this is not json", "{still not"])
    state = run(settings, models, QUESTION)
    assert state["answer"]  # the run completed
    failed = [c for c in state["llm_calls"] if not c["ok"]]
    assert [c["role"] for c in failed] == ["analyze", "analyze"] and failed[1]["repaired"]
    # default analysis: keywords from the question itself, both companies still searched
    assert {s["ticker"] for s in state["searches"]} == {"AAPL", "MSFT"}
    # revenue rows are read from the statement tables without the model
    assert {f["method"] for f in state["facts"]} == {"table"} and len(state["facts"]) == 6


def test_malformed_extraction_falls_back_to_no_figures(store: Database, settings: Settings) -> None:
    models = script([GOOD], extract=["{'facts': oops", "nope"])
    question = "How much did Apple's management say demand changed across products in Q3 FY2023?"
    state = run(settings, models, question)
    extract = [c for c in state["llm_calls"] if c["role"] == "extract"]
    assert [c["ok"] for c in extract] == [False, False] and extract[1]["repaired"]
    assert state["facts"] == [] and state["answer"]


def test_model_exception_still_gives_an_answer(store: Database, settings: Settings) -> None:
    models = ScriptedModels(
        {
            "analyze": [RuntimeError("provider down")],
            "extract": [RuntimeError("provider down")],
            "generate": [RuntimeError("provider down")],
            "evaluate": [RuntimeError("provider down")],
        }
    )
    state = run(settings, models, "What was Apple's total net sales in Q3 FY2023?")
    # the line the question names is read from the statement by code, so the answer still states it
    assert state["answer"].startswith("Apple's total net sales in Q3 FY2023 was $81,797 million [10Q1].")
    assert any("built from the evidence" in w for w in state["warnings"])
    assert state["confidence"] < 0.8


def test_new_question_in_a_thread_starts_fresh(store: Database, settings: Settings) -> None:
    models = script([GOOD])
    configure_resources(settings, chat_model_factory=models)
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "conversation"}}
    ctx = Context(today="2023-11-21", use_tools=False, use_facts=False)
    asyncio.run(graph.ainvoke({"question": QUESTION}, config, context=ctx))
    first = graph.get_state(config).values
    asyncio.run(graph.ainvoke({"question": "And what about Q1 FY2023 only?"}, config, context=ctx))
    second = graph.get_state(config).values
    assert second["analysis"]["tickers"] == ["AAPL", "MSFT"]  # carried over from the conversation
    assert {t["label"] for t in second["targets"]} == {"Q1 FY2023"}
    assert all(s["period_label"] == "Q1 FY2023" for s in second["searches"])
    # the follow-up names no metric: the previous question's keywords are searched again
    assert "revenue" in {s["query"] for s in second["searches"]}
    assert len(second["history"]) == 2 and len(first["history"]) == 1


def test_the_same_question_asked_again_in_a_thread_is_answered_again(
    store: Database, settings: Settings
) -> None:
    """The last turn's answer stands only within its own turn: asked again, the question is written
    and graded again (the passages read are the same ones)."""
    models = script([GOOD])
    configure_resources(settings, chat_model_factory=models)
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "again"}}
    ctx = Context(today="2023-11-21", use_tools=False, use_facts=False)
    for _ in range(2):
        asyncio.run(graph.ainvoke({"question": QUESTION}, config, context=ctx))
    state = graph.get_state(config).values
    assert not state["stood"] and state["iterations"] == 1 and "Revenue by quarter" in state["answer"]
    assert len(models.models["generate"].calls) == 2 and len(models.models["evaluate"].calls) == 2


def test_computed_metric_comes_from_the_calculator(store: Database, settings: Settings) -> None:
    question = "What was Apple's operating margin in Q3 FY2023?"
    analysis = ANALYSIS | {"keywords": [{"ticker": "AAPL", "phrases": ["operating income"]}]}
    state = run(settings, script([GOOD], analyze=[analysis]), question)
    (margin,) = [c for c in state["calculations"] if c.get("kind") == "formula"]
    assert margin["metric"] == "operating margin" and margin["period"] == "Q3 FY2023"
    assert margin["result"] == pytest.approx(20000 / 81797 * 100)
    assert margin["expression"] == "20000 / 81797 * 100"
    assert "operating margin Q3 FY2023: 24.5%" in state["answer"]  # listed under Figures, with its inputs
    assert "Total net sales" in state["answer"] or "total revenue" in state["answer"]
    # The ablation switch: no calculator, no computed metric.
    state = run(
        settings, script([GOOD], analyze=[analysis]), question, ablations=Ablations(use_calculator=False)
    )
    assert not [c for c in state["calculations"] if c.get("kind") == "formula"]


def test_misconfigured_reranker_is_a_warning_not_a_failure(
    store: Database, settings: Settings, tmp_path: Path
) -> None:
    broken = settings.model_copy(update={"reranker_model_path": tmp_path / "no-such-model"})
    state = run(broken, script([GOOD]), QUESTION)
    assert state["evidence"] and state["answer"]
    assert any("reranker not used" in w and "no-such-model" in w for w in state["warnings"])


def test_a_question_naming_no_company_says_which_company_it_is_about(
    store: Database, settings: Settings
) -> None:
    from finagent.agent.evidence import subject_companies

    analysis = {"intent": "describe", "sources": ["10-Q"], "answer_mode": "standard", "keywords": []}
    models = script([GOOD], analyze=[analysis])
    state = run(settings, models, "What did management discuss about demand across products and services?")
    assert state["analysis"]["tickers"] == []
    best = max(state["evidence"], key=lambda i: i["fused_score"])
    subjects = subject_companies(state["evidence"])
    assert subjects[0] == best["ticker"]
    assert state["answer"].startswith("The question names no company")
    assert f"this answer is about {subjects[0]}" in state["answer"].split("\n")[0]
    # the evidence of the other company, searched across the store, is set aside
    assert {c["ticker"] for c in state["citations"]} == {subjects[0]}, (state["answer"], state["warnings"])
    # the writer was told too, so its prose can name the company
    assert "The question names no company" in models.prompts("generate")[-1]
    # one model call in all: no analysis, extraction or grading by the model
    assert [c["role"] for c in state["llm_calls"]] == ["generate"]
    assert state["confidence"] <= 0.5


def test_a_question_of_one_word_said_many_times_is_read_once(store: Database, settings: Settings) -> None:
    models = script([GOOD])
    state = run(settings, models, "revenue " * 5000)
    assert state["analysis"]["question"] == "revenue"
    # the statements' own row wording searches beside the question's word
    assert state["analysis"]["keywords"] == {"": ["revenue", "total net sales"]}
    assert any("repeats words" in w for w in state["warnings"])
    assert [c["role"] for c in state["llm_calls"]] == ["generate"]


def test_subject_companies_rank_by_the_best_passage_and_skip_news() -> None:
    from finagent.agent.evidence import also_holding, best_match, subject_companies, subject_note

    items = [
        {"ticker": "MSFT", "kind": "10-Q", "fused_score": 0.4},
        {"ticker": "AAPL", "kind": "10-Q", "fused_score": 0.9},
        {"ticker": "NVDA", "kind": "news", "fused_score": 1.5},
        {"ticker": "AAPL", "kind": "10-K", "fused_score": 0.8},
    ]
    assert subject_companies(items) == ["AAPL", "MSFT"]
    assert subject_companies(items, top=1) == ["AAPL"]
    # a question about Q2 FY2024 and FY2023 is about a company that reported both, though another's
    # passage scores higher
    dated = [
        {
            "ticker": "ULTA",
            "kind": "earnings_release",
            "fused_score": 1.2,
            "fiscal_year": 2024,
            "fiscal_quarter": 2,
        },
        {"ticker": "BBY", "kind": "10-Q", "fused_score": 0.7, "fiscal_year": 2024, "fiscal_quarter": 2},
        {"ticker": "BBY", "kind": "10-K", "fused_score": 0.6, "fiscal_year": 2023, "fiscal_quarter": None},
    ]
    assert subject_companies(dated, top=1) == ["ULTA"]
    assert subject_companies(dated, top=1, periods=[(2023, 4), (2024, 2)]) == ["BBY"]
    # the passages found first may be of its other reports: the periods the store holds for each
    # company decide then
    found_first = [
        {"ticker": "ULTA", "kind": "earnings_release", "fused_score": 1.2, "fiscal_year": 2023},
        {"ticker": "BBY", "kind": "earnings_release", "fused_score": 0.7, "fiscal_year": 2023},
    ]
    asked = [{"fiscal_year": 2023, "fiscal_quarter": 4}, {"fiscal_year": 2024, "fiscal_quarter": 2}]
    assert best_match(found_first, asked) == "ULTA"
    held: dict[str, set[tuple[int, int | None]]] = {"ULTA": {(2023, None)}, "BBY": {(2023, None), (2024, 2)}}
    assert best_match(found_first, asked, held) == "BBY"
    # another company that reported both periods is named beside the one answered for
    both = {**held, "CRM": {(2023, None), (2024, 2)}}
    assert also_holding("BBY", asked, both) == ["CRM"] and also_holding("BBY", [], both) == []
    assert subject_note(["BBY"], ["CRM"]) == (
        "The question names no company; the filings that match it best are BBY's, so this answer is about "
        "BBY. CRM also reported the periods asked: name a company to have it answered for it."
    )
    assert "also reported" not in subject_note(["BBY"], also_holding("BBY", asked, held))
    assert "about AAPL and MSFT" in subject_note(["AAPL", "MSFT"])
    assert "about AAPL, MSFT and NVDA" in subject_note(["AAPL", "MSFT", "NVDA"])


def test_a_question_about_the_reports_covers_each_of_them_and_says_which(
    store: Database, settings: Settings
) -> None:
    """No period named, but the company's reports asked about: every stored 10-Q is searched (not
    only the latest) and the answer lists the reports it read."""
    models = script([GOOD])
    state = run(settings, models, "What does Apple discuss about revenue in its quarterly filings?")
    labels = [t["label"] for t in state["targets"] if t.get("ticker") == "AAPL"]
    assert labels == ["Q1 FY2023", "Q2 FY2023", "Q3 FY2023"], labels
    reports = next(p for p in state["answer"].split("\n\n") if p.startswith("Reports read: "))
    assert all(f"AAPL 10-Q {label}" in reports for label in labels), reports


def test_a_forecast_of_a_year_an_earlier_report_schedules_reads_that_years_row(
    db: Database, settings: Settings
) -> None:
    """ "As of FY2021 ... in 2024": the FY2021 10-K's schedule is read by its 2024 row; no 10-K of
    FY2024 is looked for (nor its absence warned of)."""
    from tests.pure.test_schedules import BENEFITS

    leases = "Lease payments are due as follows:\n(dollars in millions) | 2022 | 90 | 2023 | 80 | 2024 | 70"
    blocks = [
        Block(text, section="item_8", section_title="Notes", page=page, is_table=True)
        for text, page in ((BENEFITS, 93), (leases, 94))
    ]
    doc = make_doc("VZ", "10-K", 2021, None, blocks, period_end=date(2021, 12, 31))
    IngestPipeline(db, get_embedder(settings), settings).run([item(doc)])
    models = script([GOOD], extract=[{"facts": []}])
    state = run(settings, models, "As of FY 2021, how much did VZ expect to pay for its retirees in 2024?")
    assert [t["label"] for t in state["targets"]] == ["FY2021"]
    assert not [w for w in state.get("warnings") or [] if "FY2024" in w], state.get("warnings")
    assert state["answer"].startswith(
        "Verizon Communications' 10-K for FY2021 [10K1] gives for 2024, in its table “The benefit "
        "payments to retirees are expected to be paid as follows”: Pension Benefits $1,097 million; "
        "Health Care and Life $862"
    ), state["answer"]
    close_resources()


def test_a_narrative_search_leans_towards_the_sentence_that_would_answer_it(
    noted_store: Database, settings: Settings
) -> None:
    """A question embeds near other questions, a filing's sentences near statements: the analysis's
    answer-shaped sentence moves a near tie of passages towards the one that answers."""
    question = "What did Apple's notes say about its costs in the quarter ended July 1, 2023?"
    analysis = {
        "intent": "costs discussed in the notes",
        "sources": ["10-Q"],
        "answer_mode": "standard",
        "keywords": [{"ticker": "AAPL", "phrases": ["costs in the notes"]}],
        "statement": "Operating income rose because the cost of warehouse leases fell.",
    }

    def first_passage(lean: bool = True) -> tuple[str, str]:
        # the quotes would answer it by code alone: the model's analysis is asked for here
        ablations = Ablations(lean_to_answer=lean, quotes_analysed_by_code=False)
        state = run(
            settings, script([GOOD], analyze=[analysis]), question, hits_per_search=1, ablations=ablations
        )
        first = next(s for s in state["searches"] if s["query"] == "costs in the notes")
        text = next(e["text"] for e in state["evidence"] if e["chunk_id"] == first["chunk_ids"][0])
        return text, first.get("leaned_to", "")

    text, leaned_to = first_passage()
    assert "cost of warehouse leases fell" in text and leaned_to == analysis["statement"]
    text, leaned_to = first_passage(lean=False)  # the lever off: the phrase alone
    assert "cost of warehouse leases fell" not in text and "STATEMENTS OF OPERATIONS" in text
    assert not leaned_to


def test_a_question_the_quotes_answer_calls_the_model_once(noted_store: Database, settings: Settings) -> None:
    """What a filing says is planned from the question's own words (no analysis call) and answered in
    the filing's sentences under the one opening the model writes; the lever off, the model's
    analysis comes first."""
    question = "What did Apple's notes say about its costs in the quarter ended July 1, 2023?"
    models = script([GOOD])
    state = run(settings, models, question)
    assert "In the sources' own words:" in state["answer"], state["answer"]
    assert models.prompts("analyze") == [] and len(models.prompts("generate")) == 1
    assert [c["role"] for c in state["llm_calls"]] == ["generate"]  # the opening; nothing else
    models = script([GOOD])
    run(settings, models, question, ablations=Ablations(quotes_analysed_by_code=False))
    assert models.prompts("analyze") != []
