"""A question ranking one company's parts (its liabilities, its regions) is answered by code from the
statement table, through the whole graph, without a model call for the answer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

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

BALANCE_SHEET = """CONSOLIDATED BALANCE SHEETS
(In millions) | September 30, 2023 | September 24, 2022
LIABILITIES AND SHAREHOLDERS' EQUITY:
Accounts payable | $62,611 | $64,115
Other current liabilities | 58,829 | 60,845
Deferred revenue | 8,061 | 7,912
Commercial paper | 5,985 | 9,982
Term debt | 104,590 | 109,707
Other non-current liabilities | 50,361 | 49,142
Total liabilities | 290,437 | 301,703
"""

REGIONS = """Net sales by reportable segment (In millions)
Years ended | September 30, 2023 | September 24, 2022
Americas | $162,560 | $169,658
Europe | 94,294 | 95,118
Greater China | 72,559 | 74,200
Japan | 24,257 | 25,977
Rest of Asia Pacific | 29,615 | 29,375
Total net sales | $383,285 | $394,328
"""


@pytest.fixture()
def store(db: Database, settings: Settings) -> Iterator[Database]:
    blocks = [
        Block(BALANCE_SHEET, page=40, is_table=True),
        Block(
            "The Company's reportable segments are geographic: the Americas, Europe, Greater China, "
            "Japan and Rest of Asia Pacific.",
            page=50,
        ),
        Block(REGIONS, page=51, is_table=True),
    ]
    doc = make_doc("AAPL", "10-K", 2023, None, blocks, period_end=date(2023, 9, 30))
    IngestPipeline(db, get_embedder(settings), settings).run([item(doc)])
    yield db
    close_resources()


def _ask(settings: Settings, question: str, phrases: list[str]) -> tuple[dict[str, Any], ScriptedModels]:
    models = ScriptedModels(
        {
            "analyze": [
                {
                    "intent": "rank the parts",
                    "sources": ["10-K"],
                    "answer_mode": "standard",
                    "keywords": [{"ticker": "AAPL", "phrases": phrases}],
                }
            ],
            "evaluate": [{"completeness": 95, "specificity": 95, "accuracy": 95, "clarity": 95}],
        }
    )
    configure_resources(settings, chat_model_factory=models)
    context = Context(today="2024-01-15", use_tools=False, use_facts=False, record_runs=False)
    out = asyncio.run(build_graph().ainvoke({"question": question}, context=context))
    return out, models


def test_the_largest_liability_is_named_by_code(store: Database, settings: Settings) -> None:
    out, _ = _ask(settings, "What was Apple's largest liability at the end of fiscal 2023?", ["liabilities"])
    answer = str(out["answer"])
    assert answer.startswith(
        "Term debt was the largest of Apple's liabilities at FY2023 end: $104,590 million of liabilities of "
        "$290,437 million [10K"
    ), answer
    assert "Accounts payable $62,611 million" in answer
    assert "[unverified]" not in answer
    # ranked by code: no writer is scripted, so a model call for the answer would fail the graph
    assert any("no model call" in w for w in out["warnings"]), out["warnings"]


def test_the_region_that_fell_most_is_computed(store: Database, settings: Settings) -> None:
    out, _ = _ask(
        settings,
        "Which of Apple's geographic regions had the biggest decline in net sales in fiscal 2023?",
        ["net sales by reportable segment"],
    )
    answer = str(out["answer"])
    assert answer.startswith(
        "Japan had the largest decline in Apple's net sales in FY2023: $24,257 million, against $25,977 "
        "million in FY2022, -6.6% (computed) [10K"
    ), answer
    assert "Rest of Asia Pacific +0.8%" in answer
    assert "[unverified]" not in answer
