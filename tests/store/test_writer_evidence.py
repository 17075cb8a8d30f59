"""The writer reads the passages, shared out per company and period: nothing is cut silently, a
narrative claim cites its passage, and the figures check is strict on numbers only."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver

from finagent.agent.answer.writing import cite_passages
from finagent.agent.context import Context
from finagent.agent.evidence import share_evidence
from finagent.agent.graph import build_graph
from finagent.agent.resources import close_resources, configure_resources
from finagent.agent.understand.entities import company_like_mentions
from finagent.agent.understand.vocabulary import is_narrative
from finagent.db import Database
from finagent.embeddings import get_embedder
from finagent.finance.check.verify import check_prose, without_sentences_stating
from finagent.finance.document_records import Block
from finagent.finance.periods import period_problem
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.helpers import item, make_doc
from tests.store.test_graph import statement_of_operations

COMPANIES = {"AAPL": "Apple", "MSFT": "Microsoft", "NVDA": "NVIDIA"}


def _evidence(ticker: str, quarter: int, rank: int) -> dict[str, Any]:
    return {
        "chunk_id": hash((ticker, quarter, rank)) % 10**6,
        "fused_score": 1.0 - rank / 10,
        "ticker": ticker,
        "kind": "10-Q",
        "fiscal_year": 2023,
        "fiscal_quarter": quarter,
        "period_label": f"Q{quarter} FY2023",
        "text": f"{ticker} passage {rank}",
    }


def test_three_companies_by_four_quarters_share_a_small_budget_and_the_cut_is_named() -> None:
    evidence = [_evidence(t, q, r) for t in COMPANIES for q in (1, 2, 3, 4) for r in range(3)]
    # 36 candidates, room for 8: the old cut (sorted by ticker, first 8) kept only AAPL and MSFT.
    chosen, left_out = share_evidence(evidence, per_period=3, max_items=8)
    assert len(chosen) == 8
    assert {c["ticker"] for c in chosen} == set(COMPANIES)
    assert {(c["ticker"], c["period_label"]) for c in chosen} >= {(t, "Q4 FY2023") for t in COMPANIES}
    assert left_out and "no room for evidence of" in left_out[0]
    dropped = left_out[0]
    assert all(f"{t} Q1 FY2023" in dropped for t in COMPANIES), dropped  # the oldest periods went first
    assert "lower-ranked passage(s) were left out" in left_out[-1]
    # Room for one per company-period: every group gets its best chunk, the rest is counted.
    chosen, left_out = share_evidence(evidence, per_period=3, max_items=12)
    assert {(c["ticker"], c["period_label"]) for c in chosen} == {
        (t, f"Q{q} FY2023") for t in COMPANIES for q in (1, 2, 3, 4)
    }
    assert all(c["text"].endswith("passage 0") for c in chosen)
    assert left_out == ["24 lower-ranked passage(s) were left out to fit 12 passages per answer"]
    # Within the budget nothing is cut and nothing is said.
    assert share_evidence(evidence, per_period=3, max_items=36)[1] == []


def test_a_narrative_claim_cites_the_passage_that_carries_it() -> None:
    passages = [
        {"label": "10Q1", "text": "| Total net sales | 81,797 | 82,959 |"},
        {
            "label": "10Q2",
            "text": "Services net sales increased during the third quarter of 2023 due primarily to higher "
            "net sales from advertising, cloud services and the App Store.",
        },
    ]
    text = (
        "Services grew on advertising, cloud services and the App Store. "
        "The weather on the moon was pleasant for everyone involved there. Sales were $81,797 million [10Q1]."
    )
    cited = cite_passages(text, passages)
    assert "App Store [10Q2]." in cited
    assert "involved there." in cited and "there [" not in cited  # no passage carries it: no citation
    assert cited.endswith("[10Q1].")  # an existing citation is left alone


def test_the_figures_check_keeps_narrative_and_drops_only_unsupported_numbers() -> None:
    facts = [
        {
            "ticker": "AAPL",
            "period": "Q3 FY2023",
            "metric": "revenue",
            "value": 81797.0,
            "unit": "USD millions",
            "source": "10Q1",
        }
    ]
    names = {"AAPL": ["AAPL", "Apple"]}
    passages = [
        {
            "label": "10Q2",
            "ticker": "AAPL",
            "period_label": "Q3 FY2023",
            "text": "Services net sales were $21,213 million, up 8% on advertising and the App Store.",
        }
    ]
    draft = (
        "Apple's net sales were $81,797 million. Apple's Services net sales were $21,213 million [10Q2]. "
        "Apple's Services rose on advertising and the App Store. Apple's margin was 99.9%."
    )
    _, bad = check_prose(draft, facts, [], [], names, passages)
    assert bad == ["99.9%"]  # a passage's number is supported; an invented one is not
    kept = without_sentences_stating(draft, bad)
    assert "advertising and the App Store." in kept and "99.9%" not in kept
    assert without_sentences_stating("Margin was 99.9%.", ["99.9%"]) == ""


def test_what_counts_as_a_why_question() -> None:
    assert is_narrative("What drove the change in Apple's net sales?")
    assert is_narrative("Which risks did Microsoft highlight across these quarters?")
    assert is_narrative("Why did NVIDIA's gross margin fall?")
    assert is_narrative("Were there any one-time events that raised Pfizer's net income in 2019?")
    assert is_narrative("Did non-recurring items lift Apple's operating income in fiscal 2024?")
    assert not is_narrative("What was Apple's revenue in Q3 FY2023?")


def test_company_like_mentions_and_period_problems() -> None:
    assert company_like_mentions("What was Teslaa's revenue in 2023?") == ["Teslaa"]
    assert company_like_mentions("What did Foobar Corp report?") == ["Foobar"]
    assert company_like_mentions("What was the Company's revenue? What's new in March's report?") == []
    assert period_problem("Q9 FY2023") == "'Q9' is not a fiscal quarter (Q1-Q4)"
    assert period_problem("9M 2023") == "'9M' is not a period"
    for fine in ("FY2023", "Q2 FY2024", "H1 2024", "last 3 quarters", "FY2022 and FY2023", "March 2023"):
        assert period_problem(fine) is None, fine


# ------------------------------------------------------------------ the graph, scripted model


ENDS = {1: date(2022, 12, 31), 2: date(2023, 3, 31), 3: date(2023, 6, 30), 4: date(2023, 9, 30)}


@pytest.fixture()
def store(db: Database, settings: Settings) -> Iterator[Database]:
    docs = []
    for n, ticker in enumerate(COMPANIES):
        for quarter, end in ENDS.items():
            blocks = [
                Block(
                    statement_of_operations("Total revenue", f"{40_000 + 1000 * n + quarter:,}", end),
                    page=3,
                    is_table=True,
                ),
                Block(
                    f"{ticker} management discussion: revenue rose on data center demand in the quarter "
                    f"ended {end:%B %d, %Y}; supply constraints eased.",
                    section="part1_item2",
                    section_title="Management's Discussion and Analysis",
                    page=20,
                ),
            ]
            docs.append(make_doc(ticker, "10-Q", 2023, quarter, blocks, period_end=end))
    IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in docs])
    yield db
    close_resources()


def _writer(messages: list[BaseMessage]) -> str:
    labels = re.findall(r'<evidence id="([^"]+)"', str(messages[-1].content))
    return "Revenue rose on data center demand as supply constraints eased " + "".join(
        f"[{label}]" for label in labels[:2]
    )


def test_three_companies_by_four_quarters_keep_every_company(store: Database, settings: Settings) -> None:
    """A small evidence budget is shared out: every company reaches the writer, the cut is a warning."""
    models = ScriptedModels(
        {
            "analyze": [
                {
                    "intent": "why revenue changed",
                    "sources": ["10-Q"],
                    "answer_mode": "standard",
                    "keywords": [{"ticker": t, "phrases": ["revenue demand"]} for t in COMPANIES],
                }
            ],
            "extract": [{"facts": []}],
            "generate": [_writer],
            "evaluate": [
                {
                    "completeness": 95,
                    "specificity": 95,
                    "accuracy": 95,
                    "clarity": 95,
                    "follow_up_keywords": [],
                    "satisfied": True,
                }
            ],
        }
    )
    configure_resources(settings, chat_model_factory=models)
    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    question = "What drove revenue at Apple, Microsoft and NVIDIA in each quarter of FY2023?"
    context = Context(today="2023-11-21", use_tools=False, use_facts=False, max_evidence_items=8)
    asyncio.run(graph.ainvoke({"question": question}, config, context=context))
    state = dict(graph.get_state(config).values)

    assert set(state["analysis"]["tickers"]) == set(COMPANIES)
    (prompt, *_) = models.prompts("generate")
    shown = set(re.findall(r'<evidence id="[^"]+" from="(\w+) 10-Q', prompt))
    assert shown == set(COMPANIES), prompt  # NVDA, last in ticker order, is there too
    assert "management discussion" in prompt  # the passages reach the writer, not only figures
    assert any("no room for evidence of" in w for w in state["warnings"]), state["warnings"]
    assert re.search(r"supply constraints eased \[10Q\d+\]", state["answer"]), state["answer"]


def test_a_shortened_stored_name_is_never_refused() -> None:
    from finagent.agent.understand.refusals import part_of_stored_name
    from finagent.db.companies import StoredCompany

    stored = [StoredCompany("MGM", "MGM Resorts International", (), 12, 1)]
    assert part_of_stored_name("MGM Resorts", stored)
    assert not part_of_stored_name("Teslaa", stored)


@pytest.mark.parametrize(
    ("question", "breakdown"),
    [
        ("Which of JPM's business segments had the highest net income in 2022 Q2?", True),
        ("Which region had the worst topline performance for MGM during FY2022?", True),
        ("Which Best Buy product category performed the best by revenue in Q2 FY2024?", True),
        ("What was the revenue of Apple's Services segment in Q3 FY2023?", True),
        ("What was JPM's net income in 2022 Q2?", False),
        ("Compare Apple and Microsoft revenue over the last 3 quarters", False),
    ],
)
def test_a_question_about_a_part_of_the_company_is_not_answered_with_its_totals(
    question: str, breakdown: bool
) -> None:
    from finagent.agent.understand.vocabulary import is_breakdown

    assert is_breakdown(question) is breakdown


def test_a_sign_question_is_answered_by_the_computed_change(store: Database, settings: Settings) -> None:
    """The model's "Yes" above a computation that says no gives way to the computed answer."""
    models = ScriptedModels(
        {
            "analyze": [
                {
                    "intent": "revenue direction",
                    "sources": ["10-Q"],
                    "answer_mode": "standard",
                    "keywords": [{"ticker": "AAPL", "phrases": ["total revenue"]}],
                }
            ],
            "extract": [{"facts": []}],
            "generate": [lambda messages: "Yes, Apple's revenue decreased over those quarters."],
            "evaluate": [{"completeness": 95, "specificity": 95, "accuracy": 95, "clarity": 95}],
        }
    )
    configure_resources(settings, chat_model_factory=models)
    graph = build_graph()
    question = "Did Apple's revenue decrease between Q1 FY2023 and Q2 FY2023?"
    context = Context(today="2023-11-21", use_tools=False, use_facts=False, record_runs=False)
    out = asyncio.run(graph.ainvoke({"question": question}, context=context))
    answer = out["answer"]
    assert "Total revenue change Q1 FY2023 -> Q2 FY2023: +" in answer, answer  # revenue rose
    assert answer.startswith("No (computed from the figures: Total revenue change Q1 FY2023"), answer
    assert "Yes, Apple's revenue decreased" not in answer and "%).\n\nFigures:" in answer


def test_the_statements_a_formula_reads_keep_their_places_in_the_period() -> None:
    """A capital-intensity judgement reads the cash flow, income statement and balance sheet: follow-up
    passages that outrank them never push one of the three out of the period's places."""
    evidence = [_evidence("VZ", 4, rank) for rank in range(5)]  # narrative pages, best first
    for rank, kind in ((6, "balance_sheet"), (7, "income_statement"), (8, "cash_flow")):
        evidence.append(_evidence("VZ", 4, rank) | {"statement": kind, "chunk_id": 100 + rank})
    one, _ = share_evidence(evidence, per_period=3, max_items=24)
    assert [c.get("statement") for c in one] == [None, None, "balance_sheet"]  # the best statement only
    needed = ["cash_flow", "income_statement", "balance_sheet"]
    three, _ = share_evidence(evidence, per_period=3, max_items=24, statements=needed)
    assert sorted(str(c.get("statement")) for c in three) == sorted(needed)
