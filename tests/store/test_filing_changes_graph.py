"""What changed between a company's filings, through the whole graph: two 10-Ks' risk factors compared
heading by heading and cited, and with one 10-K in the store the answer says so, without a model call
for the answer."""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Any

from finagent.agent.context import Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import Database
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.helpers import item, make_doc

RISKS_2023 = [
    "Item 1A. Risk Factors",
    "The Company's business can be affected by many factors. Past results are no guide to the future.",
    "The Company depends on outsourcing partners located outside the U.S. for manufacturing.",
    "Substantially all manufacturing is performed by partners in Asia. Disruptions there could be costly.",
    "The COVID-19 pandemic has had and could continue to have an adverse impact on the Company's business.",
    "The pandemic disrupted the supply chain and retail stores. Its effects on future results are uncertain.",
    "The price of the Company's stock is subject to volatility.",
    "The stock has experienced substantial volatility. Future price movements could be large.",
]
RISKS_2024 = [
    *RISKS_2023[:4],
    "The Company's use of artificial intelligence could expose it to new regulation and liability.",
    "Laws governing artificial intelligence are changing quickly. Complying with them could be costly.",
    *RISKS_2023[6:],
]


def _ingest(db: Database, settings: Settings, year: int, paragraphs: list[str]) -> None:
    blocks = [
        Block("Apple Inc. Annual report on Form 10-K.", page=0),
        *(Block(text, section="item_1a", page=10) for text in paragraphs),
        Block("Net sales rose on strong demand for iPhone.", section="item_7", page=30),
    ]
    doc = make_doc("AAPL", "10-K", year, None, blocks, period_end=date(year, 9, 28))
    IngestPipeline(db, get_embedder(settings), settings).run([item(doc)])


def _ask(settings: Settings, question: str) -> dict[str, Any]:
    models = ScriptedModels(
        {
            "analyze": [
                {
                    "intent": "what changed in the risk factors",
                    "sources": ["10-K"],
                    "answer_mode": "standard",
                    "keywords": [{"ticker": "AAPL", "phrases": ["risk factors"]}],
                }
            ],
            "evaluate": [{"completeness": 90, "specificity": 90, "accuracy": 90, "clarity": 90}],
        }
    )
    configure_resources(settings, chat_model_factory=models)
    context = Context(today="2025-01-15", use_tools=False, use_facts=False, record_runs=False)
    try:
        return asyncio.run(build_graph().ainvoke({"question": question}, context=context))
    finally:
        close_resources()


def test_the_risk_factors_of_two_10ks_are_compared_and_cited(db: Database, settings: Settings) -> None:
    _ingest(db, settings, 2023, RISKS_2023)
    _ingest(db, settings, 2024, RISKS_2024)
    out = _ask(settings, "How have Apple's risk factors changed over the reporting period?")
    answer = str(out["answer"])
    assert answer.startswith(
        "Between Apple's 10-K for FY2023 and its 10-K for FY2024, Apple added one risk factor: \u201cThe "
        "Company's use of artificial intelligence could expose it to new regulation and liability.\u201d "
        "[10K1]; removed one: \u201cThe COVID-19 pandemic has had and could continue to have an adverse "
        "impact on the Company's business.\u201d [10K2]; reworded none"
    ), answer
    assert "[unverified]" not in answer
    cited = {c["label"]: c["period"] for c in out["citations"]}
    assert cited == {"10K1": "FY2024", "10K2": "FY2023"}
    assert any("no model call" in w for w in out["warnings"]), out["warnings"]
    assert not out.get("llm_calls")  # planned from its words, computed, graded by code


def test_one_10k_in_the_store_is_said(db: Database, settings: Settings) -> None:
    _ingest(db, settings, 2024, RISKS_2024)
    out = _ask(settings, "What new risk factors did Apple add in its 2024 10-K?")
    assert str(out["answer"]).startswith(
        "The store holds only one 10-K of Apple with its risk factors (its 10-K for FY2024), so what "
        "changed between filings cannot be computed: comparing needs an earlier or later 10-K of Apple"
    ), out["answer"]
    assert "market conditions" not in str(out["answer"])


def test_an_asked_10k_the_store_lacks_is_said_and_the_filings_either_side_compared(
    db: Database, settings: Settings
) -> None:
    _ingest(db, settings, 2022, RISKS_2023)
    _ingest(db, settings, 2024, RISKS_2024)
    out = _ask(settings, "Which risk factors did Apple add in its fiscal 2023 10-K?")
    answer = str(out["answer"])
    assert answer.startswith(
        "The store holds no 10-K of Apple for FY2023; this answer reads the nearest it holds: its 10-K for "
        "FY2022 [10K1] and its 10-K for FY2024 [10K2].\n\nBetween Apple's 10-K for FY2022 and its 10-K for "
        "FY2024, Apple added one risk factor: \u201cThe Company's use of artificial intelligence"
    ), answer
    assert "[unverified]" not in answer
    assert out["validation"]["status"] == "verified", out["validation"]
