"""A question's topic chooses the parts searched first, through the graph (scripted model, real store).

The store holds what a user's store would: Apple's 8-Ks (a vote's results under Item 5.07, a new
officer under Item 5.02), its earnings release and its 10-K of the same periods, whose words overlap
the question's. The scripted writer cites the first passage it is given, as a small model leans on
it; the answer's first source is what the search ranked first.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver

from finagent.agent.context import Ablations, Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import Database
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block, ParsedDocument, sha256_bytes
from finagent.finance.read.filing_parts import part_name
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.helpers import item


def _doc(kind: str, year: int, quarter: int | None, day: date, blocks: list[Block]) -> ParsedDocument:
    body = "\n".join(b.text for b in blocks)
    return ParsedDocument(
        kind=kind,
        title=f"Apple Inc. {kind} {day}",
        source_uri=f"test://AAPL/{kind}/{day}",
        content_sha256=sha256_bytes(f"{kind}{day}{body}".encode()),
        blocks=blocks,
        ticker="AAPL",
        company_name="Apple Inc.",
        fiscal_year=year,
        fiscal_quarter=quarter,
        period_end=day,
        fiscal_year_end_month=9,
        metadata={"form": kind, "fiscal_year_offset": 0},
    )


VOTE_8K = _doc(
    "8-K",
    2024,
    2,
    date(2024, 3, 1),  # filed two business days after the meeting
    [
        Block("FORM 8-K. CURRENT REPORT. Apple Inc. Common Stock AAPL The Nasdaq Stock Market LLC.", page=0),
        Block(
            "Item 5.07 Submission of Matters to a Vote of Security Holders. At the annual meeting of "
            "shareholders held on February 28, 2024, shareholders elected all eight director nominees, "
            "ratified the appointment of Ernst & Young LLP and approved the compensation of the named "
            "executive officers on an advisory basis; two shareholder proposals were not approved.",
            section="item_5_07",
            page=1,
        ),
    ],
)
OFFICER_8K = _doc(
    "8-K",
    2024,
    4,
    date(2024, 8, 26),
    [
        Block("FORM 8-K. CURRENT REPORT. Apple Inc. Common Stock AAPL The Nasdaq Stock Market LLC.", page=0),
        Block(
            "Item 5.02 Departure of Directors or Certain Officers; Election of Directors; Appointment of "
            "Certain Officers. On August 26, 2024, Apple Inc. announced that Kevan Parekh will succeed Luca "
            "Maestri as Senior Vice President and Chief Financial Officer, effective January 1, 2025.",
            section="item_5_02",
            page=1,
        ),
    ],
)
RELEASE_Q2 = _doc(
    "earnings_release",
    2024,
    2,
    date(2024, 3, 30),
    [
        Block(
            "Apple reports second quarter results. Revenue of $90.8 billion. Results for the quarter "
            "reflect an all-time record in Services. Following the annual meeting of shareholders, the "
            "board authorized an additional $110 billion for share repurchases and raised the dividend; "
            "Chief Financial Officer Luca Maestri said shareholders received over $27 billion.",
            page=0,
        )
    ],
)
RELEASE_Q4_2024 = _doc(
    "earnings_release",
    2024,
    4,
    date(2024, 9, 28),
    [
        Block(
            "Apple reports fourth quarter results. Chief Financial Officer Luca Maestri said the Company's "
            "officers and board returned over $29 billion to shareholders, and the Company appointed a new "
            "leader for its Services business.",
            page=0,
        )
    ],
)
TEN_K_MARGIN = _doc(
    "10-K",
    2024,
    None,
    date(2024, 9, 28),
    [
        Block(
            "Item 7. Products and Services Gross Margin. Products gross margin percentage decreased during "
            "2024 compared to 2023 due to a weaker foreign currency. Future gross margins can be impacted by "
            "a variety of factors, and the Company believes they will remain subject to volatility.",
            section="item_7",
            page=22,
        ),
    ],
)
TEN_K_OFFICERS = _doc(
    "10-K",
    2024,
    None,
    date(2024, 9, 28),
    [
        Block(
            "Item 10. Directors, Executive Officers and Corporate Governance. The information required by "
            "this Item will be included in the Company's Proxy Statement for its 2025 annual meeting of "
            "shareholders. Information about the Executive Officers: Luca Maestri, Senior Vice President "
            "and Chief Financial Officer; shareholders may vote by proxy.",
            section="item_10",
            page=60,
        ),
    ],
)
RELEASE_Q4 = _doc(
    "earnings_release",
    2023,
    4,
    date(2023, 9, 30),
    [
        Block(
            "Apple reports fourth quarter results. Gross margin outlook: for the December quarter Apple "
            "expects gross margin between 45 and 46 percent, CFO Luca Maestri said on the outlook.",
            page=0,
        )
    ],
)


@pytest.fixture()
def holding(db: Database, settings: Settings) -> Iterator[Callable[..., None]]:
    """Ingests the test's documents into the store."""

    def ingest(*documents: ParsedDocument) -> None:
        IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in documents])

    yield ingest
    close_resources()


_FIRST = re.compile(r'<evidence id="([^"]+)" from="[^"]*">\n(.*?)</evidence>', re.S)


def _cite_first(messages: list[BaseMessage]) -> str:
    """What a small model does: say what the first passage says (its longest sentence), citing it."""
    label, body = _FIRST.findall(str(messages[-1].content))[0]
    sentence = max(re.split(r"(?<=\.)\s+", body.strip()), key=len).rstrip(".")
    return f"The filing says: {sentence} [{label}]."


def _ask(settings: Settings, question: str, **levers: bool) -> dict[str, Any]:
    models = ScriptedModels(
        {
            "analyze": [{}],
            "extract": [{"facts": []}],
            "generate": [_cite_first],
            "prose": [_cite_first],
            "evaluate": [{"completeness": 90, "accuracy": 90}],
        }
    )
    configure_resources(settings, chat_model_factory=models)
    context = Context(today="2024-11-01", record_runs=False, use_tools=False, ablations=Ablations(**levers))
    graph = build_graph(checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t"}}
    asyncio.run(graph.ainvoke({"question": question}, config, context=context))
    return dict(graph.get_state(config).values)


def _first_source(out: dict[str, Any]) -> str:
    """The first row of the answer's Sources table: the kind and part of the passage cited first."""
    assert out["citations"], out["answer"]
    first = out["citations"][0]
    return f"{first['kind']} {part_name(first.get('section'))}".strip()


def test_a_vote_at_an_annual_meeting_is_answered_from_the_8ks_item_5_07(
    holding: Callable[..., None], settings: Settings
) -> None:
    """The 8-K filed two days after the meeting, not the quarter's release nor the 10-K's proxy
    paragraph, whether the question dates the meeting or names its year only."""
    holding(VOTE_8K, RELEASE_Q2, TEN_K_OFFICERS)
    for question in (
        "What were the results of the shareholder vote at Apple's annual meeting on February 28, 2024?",
        "How did Apple's shareholders vote at the 2024 annual meeting?",
    ):
        out = _ask(settings, question)
        assert _first_source(out) == "8-K Item 5.07", out["answer"]
        assert "elected all eight director nominees" in out["answer"]


def test_a_new_officer_is_answered_from_the_8ks_item_5_02(
    holding: Callable[..., None], settings: Settings
) -> None:
    """The 8-K's Item 5.02, not the release quoting the CFO nor the 10-K listing the officers."""
    holding(OFFICER_8K, RELEASE_Q4_2024, TEN_K_OFFICERS)
    out = _ask(settings, "Who succeeds Luca Maestri as Apple's chief financial officer?")
    assert _first_source(out) == "8-K Item 5.02", out["answer"]
    assert "Kevan Parekh will succeed Luca Maestri" in out["answer"]


def test_the_kind_the_question_names_is_read_before_a_release(
    holding: Callable[..., None], settings: Settings
) -> None:
    """An outlook is what the release before the year says, but the question names the 10-K: the
    10-K is read first. The release named, the release is."""
    holding(TEN_K_MARGIN, RELEASE_Q4)
    annual = _ask(settings, "What gross margin outlook did Apple give in its 10-K for fiscal 2024?")
    assert _first_source(annual) == "10-K Item 7", annual["answer"]
    assert "Future gross margins can be impacted" in annual["answer"]
    question = "What gross margin outlook did Apple give in its earnings release for Q4 2023?"
    release = _ask(settings, question)
    assert _first_source(release) == "earnings_release", release["answer"]


TEN_K_BUSINESS = _doc(
    "10-K",
    2024,
    None,
    date(2024, 9, 28),
    [
        Block(
            "Item 1. Business\n\nCompany Background\n\nThe Company designs, manufactures and markets "
            "smartphones, personal computers, tablets, wearables and accessories, and sells a variety of "
            "related services. The Company's fiscal year is the 52- or 53-week period that ends on the last "
            "Saturday of September.",
            section="item_1",
            page=1,
        ),
        Block(
            "Markets and Distribution. The Company's customers are primarily in the consumer, small and "
            "mid-sized business, education, enterprise and government markets, and it sells through its "
            "retail and online stores and its direct sales force.",
            section="item_1",
            page=2,
        ),
        Block(
            "Item 7. The Company's industries and markets are highly competitive; net sales in its markets "
            "rose in 2024 compared to 2023 due to higher Services net sales.",
            section="item_7",
            page=22,
        ),
    ],
)


def test_what_a_company_does_is_quoted_from_where_its_business_part_opens(
    holding: Callable[..., None], settings: Settings
) -> None:
    """Item 1 opens with what the company does, in words the question does not use ("which
    industries"): that sentence is quoted first, whatever the other passages share with the
    question; the parts not routed to (the lever off), it is not first."""
    holding(TEN_K_BUSINESS)
    question = "Which industries is Apple Inc. in?"
    out = _ask(settings, question)
    quotes = out["answer"].split("In the sources' own words:\n", 1)[-1]
    assert quotes.startswith("- Apple's 10-K for FY2024: “The Company designs, manufactures and markets"), (
        out["answer"]
    )
    assert "and sells a variety of related services. The Company's fiscal year" in quotes
    unrouted = _ask(settings, question, route_sections=False)
    # unrouted, the sentence may still be among the quotes by its meaning, but never first
    unrouted_quotes = unrouted["answer"].split("In the sources' own words:\n", 1)[-1]
    assert not unrouted_quotes.startswith("- Apple's 10-K for FY2024: “The Company designs, manufactures")


def test_guidance_set_forth_below_is_quoted_from_the_passage_after_the_hit(
    holding: Callable[..., None], settings: Settings
) -> None:
    """A 10-Q says its guidance is "set forth below", goes on with caveats and lists the figures in
    the next passage, a hit ranked below many: that passage is read with the hit announcing it, and the
    figures are quoted with the sentence announcing them, what was passed over marked "…"."""
    notes = [
        Block(
            f"Note {i}. The full year outlook for lease accounting standards adopted had no material impact. "
            * 5,
            section="part1_item_2",
            page=i,
        )
        for i in range(40)
    ]
    caveat = " These forward-looking statements reflect our expectations and are subject to uncertainty."
    lead = Block(
        "Guidance\n\nWe provided guidance on August 1, 2024, in our earnings release as set forth below."
        + caveat * 8
        + "\n\nFourth Quarter Guidance",
        section="part1_item_2",
        page=40,
    )
    figures = Block(
        "• Net sales of between $94.0 billion and $97.5 billion, or growth of 4% to 8%.\n\n"
        "• Operating income of between $26.0 billion and $28.0 billion.",
        section="part1_item_2",
        page=41,
    )
    holding(_doc("10-Q", 2024, 3, date(2024, 6, 29), [*notes, lead, figures]))
    question = "What guidance did Apple give in its Q3 2024 10-Q?"
    out = _ask(settings, question)
    assert (
        "as set forth below. … • Net sales of between $94.0 billion and $97.5 billion, or growth"
        in (out["answer"])
    )
    assert "$94.0 billion" not in _ask(settings, question, read_neighbors=False)["answer"]  # a hit ranked low


def _article(day: date, text: str) -> ParsedDocument:
    doc = replace(
        _doc("news", 2024, 2, day, [Block(text, page=1)]),
        source_uri=f"https://news.test/{day}",
        title=f"Apple headset news {day}",
    )
    return replace(doc, published_at=datetime(day.year, day.month, day.day, 15, tzinfo=UTC))


def test_the_news_asked_of_some_days_is_quoted_from_the_articles_of_those_days_only(
    holding: Callable[..., None], settings: Settings
) -> None:
    """Asked what the news said about a launch in early February 2024: the article of February 2 is
    quoted (the launch and its price); a late-January preview of the same headset, in the same fiscal
    quarter and sharing more of the question's words, is not what was reported then."""
    holding(
        _article(
            date(2024, 1, 29),
            "Apple headset launch preview: analysts expect the headset launch to be a slow start, and the "
            "headset launch in February may not move the stock, analysts said about the launch.",
        ),
        _article(
            date(2024, 2, 2),
            "Apple's Vision headset went on sale in U.S. stores on Friday at a price of $3,499, with long "
            "lines at flagship stores.",
        ),
    )
    out = _ask(settings, "What did the news report about Apple's headset launch in early February 2024?")
    assert "$3,499" in out["answer"], out["answer"]
    assert "slow start" not in out["answer"]
