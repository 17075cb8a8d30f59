"""A question about something no stored passage of its company mentions: the store cannot answer it,
so the answer says so, names what was searched and shows the closest passage as context only, with
no model writing or grading it; a name the passages do mention is answered as usual."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

from finagent.agent.context import Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import Database
from finagent.db.chunks import unmentioned_names
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.helpers import item, make_doc

CALL = [
    "Tim Cook -- Chief Executive Officer: Good afternoon. Services set an all-time revenue record this "
    "quarter.",
    "Our installed base of active devices reached a new high, and Mac grew on strong demand for notebooks.",
    "Operator: Our next question comes from an analyst asking about gross margin and the Wearables category.",
]


def _ingest(db: Database, settings: Settings) -> None:
    blocks = [Block(text, page=1) for text in CALL]
    doc = make_doc("AAPL", "transcript", 2023, 3, blocks, period_end=date(2023, 7, 1))
    IngestPipeline(db, get_embedder(settings), settings).run([item(doc)])


def _ask(
    settings: Settings, question: str, models: ScriptedModels, today: str = "2024-03-15"
) -> dict[str, Any]:
    configure_resources(settings, chat_model_factory=models)
    context = Context(today=today, use_tools=False, use_facts=False, record_runs=False)
    try:
        return asyncio.run(build_graph().ainvoke({"question": question}, context=context))
    finally:
        close_resources()


def _models() -> ScriptedModels:
    analysis = {
        "intent": "what management said on the call",
        "sources": ["transcript"],
        "answer_mode": "standard",
        "keywords": [{"ticker": "AAPL", "phrases": ["management remarks"]}],
    }
    unexpected = RuntimeError("no model call expected")
    return ScriptedModels({"analyze": [analysis], "generate": [unexpected], "evaluate": [unexpected]})


def test_the_names_no_passage_mentions_are_found_by_keyword(db: Database, settings: Settings) -> None:
    _ingest(db, settings)
    with db.connection() as conn:
        found = unmentioned_names(conn, ["AAPL"], ["Orchard", "Wearables", "Macs", "The", "Pippin"])
        in_10ks = unmentioned_names(conn, ["AAPL"], ["Orchard", "Wearables"], ["10-K"])
    assert found == ["Orchard", "Pippin"]  # stemmed ("Macs" is "Mac"); a stop word is never reported
    assert in_10ks == ["Orchard", "Wearables"]  # the call mentions Wearables; no 10-K does


def test_a_subject_no_passage_mentions_is_said_with_the_closest_passage_as_context(
    db: Database, settings: Settings
) -> None:
    _ingest(db, settings)
    models = _models()
    out = _ask(
        settings, "What did Apple management say about Orchard Pay on its latest earnings call?", models
    )
    answer = str(out["answer"])
    assert answer.startswith(
        "No transcript of Apple in the store mentions “Orchard” and “Pay”; finagent searched "
    ), answer
    assert "The closest passage found, as context only, not an answer:" in answer
    assert models.prompts("generate") == [] and models.prompts("evaluate") == []
    assert out["confidence"] == 0.0


def test_a_subject_the_passages_mention_is_not_said_to_be_missing(db: Database, settings: Settings) -> None:
    _ingest(db, settings)
    models = _models()
    models.models["generate"].replies = ["Apple said Services set an all-time revenue record [T1]."]
    models.models["evaluate"].replies = [
        {"completeness": 90, "specificity": 90, "accuracy": 90, "clarity": 90}
    ]
    out = _ask(settings, "What did Apple management say about Services on its latest earnings call?", models)
    assert "mentions" not in str(out["answer"]), out["answer"]
    assert str(out["answer"]).startswith("Apple said Services set an all-time revenue record"), out["answer"]
    assert len(models.prompts("generate")) == 1  # written by the model from the passages, as usual


NEWS = "Apple shares rose after the company said its wearables business would keep growing in 2024."


def _ingest_news(db: Database, settings: Settings, day: datetime) -> None:
    doc = replace(
        make_doc(
            "AAPL",
            "news",
            2024,
            2,
            [Block(f"{day:%B %d}: {NEWS}", page=1)],
            source_uri=f"https://news.test/{day:%F}",
        ),
        published_at=day,
        title="Apple shares rise on wearables outlook",
    )
    IngestPipeline(db, get_embedder(settings), settings).run([item(doc)])


def test_news_asked_of_a_month_the_store_holds_none_of_is_said_before_what_else_answers(
    db: Database, settings: Settings
) -> None:
    _ingest(db, settings)
    _ingest_news(db, settings, datetime(2024, 1, 5, tzinfo=UTC))
    _ingest_news(db, settings, datetime(2024, 2, 20, tzinfo=UTC))
    models = _models()
    models.models["generate"].replies = ["Apple said Services set an all-time revenue record [T1]."]
    models.models["evaluate"].replies = [
        {"completeness": 60, "specificity": 60, "accuracy": 60, "clarity": 60}
    ]
    out = _ask(settings, "What did the news report about Apple's wearables in December 2023?", models)
    answer = str(out["answer"])
    assert answer.startswith(
        "The store holds no news article on Apple from December 2023 (its stored news runs from January 5, "
        "2024 to February 20, 2024).\n\n"
    ), answer
    out = _ask(settings, "What did the news report about Apple's wearables in January 2024?", _models())
    assert "holds no news" not in str(out["answer"])


def test_a_named_10q_of_a_quarter_the_store_lacks_is_said_before_what_else_answers(
    db: Database, settings: Settings
) -> None:
    blocks = [Block("Item 1A. Risk Factors", section="part2_item_1a", page=30)]
    blocks += [
        Block("Tariffs on imports from China could increase the Company's costs.", section="part2_item_1a")
    ]
    docs = [make_doc("AAPL", "10-Q", 2025, 2, blocks, period_end=date(2025, 3, 29))]
    docs += [make_doc("AAPL", "10-Q", 2024, 3, blocks[:1], period_end=date(2024, 6, 29))]
    IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in docs])
    models = _models()
    models.models["generate"].replies = ["Apple said tariffs could increase its costs [10Q1]."]
    models.models["evaluate"].replies = [
        {"completeness": 60, "specificity": 60, "accuracy": 60, "clarity": 60}
    ]
    question = "What did Apple say about tariffs in its 10-Q for the quarter ended December 28, 2024?"
    answer = str(_ask(settings, question, models, today="2025-06-01")["answer"])
    assert answer.startswith("The store holds no 10-Q of Apple for Q1 FY2025.\n\n"), answer


def test_a_call_named_by_a_month_the_store_holds_none_of_is_said_with_the_calls_it_holds(
    db: Database, settings: Settings
) -> None:
    blocks = [Block(text, page=1) for text in CALL]
    call = make_doc("AAPL", "transcript", 2023, 3, blocks, period_end=date(2023, 7, 1))
    call = replace(call, published_at=datetime(2023, 8, 3, tzinfo=UTC))
    IngestPipeline(db, get_embedder(settings), settings).run([item(call)])
    models = _models()
    models.models["generate"].replies = ["Apple said Services set an all-time revenue record [1]."]
    models.models["evaluate"].replies = [
        {"completeness": 60, "specificity": 60, "accuracy": 60, "clarity": 60}
    ]
    question = "What did Apple say about Services on its November 2023 earnings call?"
    answer = str(_ask(settings, question, models, today="2024-03-15")["answer"])
    assert answer.startswith(
        "The store holds no earnings-call transcript of Apple from November 2023 (its stored calls run from "
        "August 3, 2023 to August 3, 2023).\n\n"
    ), answer
    assert "for Q1 FY2024" not in answer  # a call is named by its month, not by the fiscal quarter around it


def test_a_call_named_by_its_day_that_the_store_holds_is_read_with_no_note(
    db: Database, settings: Settings
) -> None:
    """ "Its August 3, 2023 call" is the call of that day (not the month before a period's first day),
    and what the company announced on it asks the call, not the news."""
    blocks = [Block(text, page=1) for text in CALL]
    call = make_doc("AAPL", "transcript", 2023, 3, blocks, period_end=date(2023, 7, 1))
    call = replace(call, published_at=datetime(2023, 8, 3, 21, tzinfo=UTC))
    IngestPipeline(db, get_embedder(settings), settings).run([item(call)])
    models = _models()
    models.models["generate"].replies = ["Apple said Services set an all-time revenue record [1]."]
    question = "What did Apple announce about Services on its August 3, 2023 call?"
    answer = str(_ask(settings, question, models, today="2024-03-15")["answer"])
    assert "The store holds no" not in answer, answer
    assert "Services" in answer
