"""Item routing: a question about a report topic searches the Items that discuss it."""

from __future__ import annotations

from typing import Any

import pytest

from finagent.db.filters import SearchFilters
from finagent.finance.periods import parse_time_phrases
from finagent.finance.read.filing_sections import COVER, FINANCIAL_TOPICS, SECTION_TOPICS, sections_for


@pytest.mark.parametrize(
    ("question", "sections"),
    [
        # the business, then the notes that name a major customer's share of sales
        ("What does Verizon sell, and who are its main customers?", ["item_1", "item_8", "part1_item_1"]),
        ("Describe the business model of Amcor.", ["item_1"]),
        ("How many employees did 3M have at the end of FY2022?", ["item_1"]),
        ("Who are Netflix's main competitors?", ["item_1"]),
        ("What are the key risk factors for Pfizer in 2023?", ["item_1a", "part2_item_1a"]),
        ("What legal proceedings is Boeing involved in?", ["item_3", "part2_item_1"]),
        ("Is 3M facing any lawsuits related to earplugs?", ["item_3", "part2_item_1"]),
        ("How large are Best Buy's facilities in square feet?", ["item_2"]),
        ("How exposed is Nike to foreign currency risk?", ["item_7a", "part1_item_3"]),
        ("Did the auditor report a material weakness in internal control?", ["item_9a", "part1_item_4"]),
        ("On which exchanges is 3M's stock listed?", [COVER]),
        ("What debt securities are registered under Section 12(b) with trading symbols?", [COVER]),
    ],
)
def test_a_topic_routes_to_its_items(question: str, sections: list[str]) -> None:
    assert sections_for(question) == sections


@pytest.mark.parametrize(
    "question",
    [
        "What was Apple's revenue in FY2023?",
        "Is 3M a capital-intensive business based on FY2022 data?",
        "What is the FY2019 quick ratio for Amcor?",
        "What drove the change in operating margin?",
    ],
)
def test_figure_and_driver_questions_are_not_routed(question: str) -> None:
    assert sections_for(question) == []


def test_every_topic_names_sections_and_heading_words() -> None:
    topics = (*SECTION_TOPICS, *FINANCIAL_TOPICS)
    assert all(topic.sections and topic.words for topic in topics)
    assert len({topic.name for topic in topics}) == len(topics)


def test_the_cover_page_filter_is_the_unsectioned_first_page_of_a_report() -> None:
    predicate, params = SearchFilters(sections=[COVER, "item_3"]).predicates()
    text = predicate.as_string(None)
    assert "c.section IS NULL AND coalesce(c.page, 0) = 0" in text
    assert params["f_sections"] == [COVER, "item_3"]
    plain, _ = SearchFilters(sections=["item_3"]).predicates()
    assert "c.section IS NULL" not in plain.as_string(None)


def _plan(question: str, targets: list[dict[str, Any]], **levers: bool) -> list[dict[str, Any]]:
    from finagent.agent.context import Ablations, Context
    from finagent.agent.nodes.fan_out import plan_searches
    from finagent.agent.understand.plan import question_traits
    from finagent.agent.understand.question_words import read_wording

    tickers = sorted({t["ticker"] for t in targets if t.get("ticker")})
    specs = parse_time_phrases(question)
    analysis: dict[str, Any] = {
        "question": question,
        "tickers": tickers,
        "keywords": {},
        "sources": ["10-K", "10-Q"],
        "time_specs": [s.to_dict() for s in specs],
        **question_traits(read_wording(question), specs, tickers, {}, [], []),
    }
    runtime: Any = type("Runtime", (), {"context": Context(ablations=Ablations(**levers))})()
    state: Any = {"question": question, "analysis": analysis, "targets": targets}
    return [dict(s.arg) for s in plan_searches(state, runtime) if s.node == "search"]


FY2022: dict[str, Any] = {"ticker": "MMM", "fiscal_year": 2022, "fiscal_quarter": None, "label": "FY2022"}


def test_the_planner_adds_one_item_search_per_period_with_its_lever() -> None:
    question = "What legal proceedings was 3M involved in during FY2022?"
    routed = [t for t in _plan(question, [FY2022]) if t.get("sections")]
    assert len(routed) == 1
    # the legal Items, then the notes they often send the reader to ("See Note 16")
    assert routed[0]["sections"] == ["item_3", "part2_item_1", "item_8", "part1_item_1"]
    assert routed[0]["fiscal_year"] == 2022 and set(routed[0]["kinds"]) <= {"10-K", "annual_report", "10-Q"}
    assert "legal proceedings" in routed[0]["query"]
    assert not [t for t in _plan(question, [FY2022], route_sections=False) if t.get("sections")]
    assert not [t for t in _plan("What was 3M's revenue in FY2022?", [FY2022]) if t.get("sections")]


def test_item_and_cover_searches_on_a_real_store(db: Any, settings: Any) -> None:
    from finagent.embeddings import get_embedder
    from finagent.finance.document_records import Block
    from finagent.ingest.pipeline import IngestPipeline
    from finagent.retrieval import hybrid_search
    from tests.helpers import item, make_doc

    blocks = [
        Block(
            "3M COMPANY. Common Stock, Par Value $.01 Per Share. Trading symbol MMM. New York Stock "
            "Exchange.",
            page=0,
        ),
        Block(
            "Item 3. Legal Proceedings. See Note 16 for the Combat Arms earplug litigation.",
            section="item_3",
            page=12,
        ),
        Block("Net sales rose on strong demand. Litigation costs were higher.", section="item_7", page=30),
    ]
    embedder = get_embedder(settings)
    IngestPipeline(db, embedder, settings).run([item(make_doc("MMM", "10-K", 2022, None, blocks))])

    def pages(query: str, sections: list[str]) -> list[int | None]:
        with db.connection() as conn:
            hits = hybrid_search(
                conn, query, embedder.encode_query(query), filters=SearchFilters(sections=sections)
            )
        return [h.page for h in hits]

    assert pages("on which exchange is the stock listed", [COVER]) == [0]
    assert pages("litigation", ["item_3", "part2_item_1"]) == [12]


def test_a_search_narrowed_to_a_part_as_the_form_names_it(
    db: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`finagent search … --part 3` finds the Item 3 passage only, cited as "Item 3"; a 10-Q's
    "Part II Item 1A" is its own part."""
    import json

    from typer.testing import CliRunner

    from finagent.cli.main import app
    from finagent.embeddings import get_embedder
    from finagent.finance.document_records import Block
    from finagent.ingest.pipeline import IngestPipeline
    from finagent.settings import get_settings
    from tests.conftest import MODEL_CACHE
    from tests.helpers import item, make_doc

    annual = [
        Block("Item 3. Legal Proceedings. The earplug litigation is pending.", section="item_3", page=12),
        Block("Net sales rose. Litigation costs were higher.", section="item_7", page=30),
    ]
    quarter = [Block("Item 1A. Risk Factors. Litigation risk rose.", section="part2_item_1a", page=40)]
    IngestPipeline(db, get_embedder(settings), settings).run(
        [item(make_doc("MMM", "10-K", 2022, None, annual)), item(make_doc("MMM", "10-Q", 2023, 1, quarter))]
    )
    monkeypatch.setenv("FINAGENT_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("FINAGENT_HOME", str(settings.home))
    monkeypatch.setenv("FINAGENT_CACHE_DIR", str(MODEL_CACHE))
    get_settings.cache_clear()
    try:
        runner = CliRunner()

        def found(*part: str) -> list[str]:
            args = ["search", "litigation", "--json", *(a for p in part for a in ("--part", p))]
            result = runner.invoke(app, args)
            assert result.exit_code == 0, result.output
            return [hit["citation"] for hit in json.loads(result.output)]

        assert found("3") == ["MMM 10-K FY2022, Item 3, p.13"]
        assert found("Part II Item 1A") == ["MMM 10-Q Q1 FY2023, Part II, Item 1A, p.41"]
        assert sorted(found("1A", "Item 7")) == [
            "MMM 10-K FY2022, Item 7, p.31",
            "MMM 10-Q Q1 FY2023, Part II, Item 1A, p.41",
        ]
        bad = runner.invoke(app, ["search", "litigation", "--part", "risks"])
        assert bad.exit_code != 0 and "unknown part 'risks'" in str(bad.output) + str(bad.exception)
    finally:
        get_settings.cache_clear()
