"""Figure questions over companies built here, answered by code without a model call: a company is
found by its name as people write it (possessives, legal suffixes, "&" or "and", apostrophes of its
own), a difference between two companies states both figures and the difference, and a change asked
of one of several metrics is that metric's change."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal

import pytest

from finagent.agent.api import ask
from finagent.agent.context import Context
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import Database
from finagent.db.companies import ListedCompany, load_listed_companies
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block, ParsedDocument
from finagent.finance.fact_records import Fact, FiscalCalendar
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.helpers import item

REVENUE = "us-gaap:Revenues"
OPERATING_INCOME = "us-gaap:OperatingIncomeLoss"
R_AND_D = "us-gaap:ResearchAndDevelopmentExpense"
DECEMBER = FiscalCalendar(12)

# ticker, registrant name, SEC list title, {concept: (FY2024, FY2023) in millions}
LOW_LINES = {REVENUE: (83_674, 86_377), OPERATING_INCOME: (10_466, 11_557)}
MCD_LINES = {REVENUE: (25_920, 25_494), OPERATING_INCOME: (11_712, 11_647)}
T_LINES = {REVENUE: (122_336, 122_428), OPERATING_INCOME: (19_049, 23_461)}
DKS_LINES = {REVENUE: (13_443, 12_984), R_AND_D: (300, 250)}
JNJ_LINES = {REVENUE: (88_821, 85_159), R_AND_D: (17_232, 15_085)}
COMPANIES = [
    ("LOW", "LOWE’S COMPANIES, INC.", "LOWES COMPANIES INC", LOW_LINES),
    ("MCD", "MCDONALDS CORP", "MCDONALDS CORP", MCD_LINES),
    ("T", "AT&T Inc.", "AT&T INC.", T_LINES),
    ("DKS", "DICK'S SPORTING GOODS, INC.", "DICK'S SPORTING GOODS, INC.", DKS_LINES),
    ("JNJ", "JOHNSON & JOHNSON", "JOHNSON & JOHNSON", JNJ_LINES),
]


def million(concept: str, value: int, year: int) -> Fact:
    """A calendar year's fact in millions, printed in the statement's first block."""
    end = date(year, 12, 31)
    fact = Fact(
        concept, Decimal(value) * 10**6, "USD", -6, date(year, 1, 1), end, display=f"{value:,}", block_index=0
    )
    return fact.in_calendar(DECEMBER)


def annual_report(ticker: str, name: str, values: dict[str, tuple[int, int]]) -> ParsedDocument:
    """A 10-K for fiscal 2024 (December year end) with each line for 2024 and 2023."""
    rows = "\n".join(f"{c.split(':')[1]} | {now:,} | {before:,}" for c, (now, before) in values.items())
    block = Block(
        f"CONSOLIDATED STATEMENTS OF EARNINGS (In millions)\nYear | 2024 | 2023\n{rows}",
        section="item_8",
        is_table=True,
    )
    facts = [
        million(concept, value, year)
        for concept, pair in values.items()
        for value, year in zip(pair, (2024, 2023), strict=True)
    ]
    return ParsedDocument(
        kind="10-K",
        title=f"{name} 10-K",
        source_uri=f"test://{ticker.lower()}-10k-2024",
        content_sha256=f"{ticker}-10k-2024",
        blocks=[block],
        ticker=ticker,
        company_name=name,
        fiscal_year=2024,
        fiscal_quarter=None,
        period_end=date(2024, 12, 31),
        fiscal_year_end_month=12,
        metadata={"form": "10-K", "fiscal_year_offset": 0},
        facts=facts,
    )


@pytest.fixture(scope="module")
def named_store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    from tests.conftest import create_database, make_settings

    settings = make_settings(create_database(pg_server_url), tmp_path_factory.mktemp("names"))
    db = Database(settings.database_url or "", settings).open()
    docs = [annual_report(ticker, name, values) for ticker, name, _, values in COMPANIES]
    IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in docs])
    with db.connection() as conn:
        load_listed_companies(
            conn, [ListedCompany(t, str(100 + i), title) for i, (t, _, title, _) in enumerate(COMPANIES)]
        )
    no_model = RuntimeError("a figure question needs no model call")
    roles = ("analyze", "generate", "prose", "evaluate", "extract")
    configure_resources(settings, chat_model_factory=ScriptedModels({role: [no_model] for role in roles}))
    yield settings
    close_resources()
    db.close()


def opening(question: str) -> str:
    answer = ask(question, context=Context(today="2025-06-01", use_tools=False, record_runs=False)).answer
    return " ".join(answer.split("\n\n")[0].split())


@pytest.mark.parametrize(
    ("question", "figure"),
    [
        ("What was Lowe's revenue in fiscal 2024?", "$83,674 million"),
        ("What was Lowe’s Companies, Inc. operating income in fiscal 2024?", "$10,466 million"),
        ("What was LOW's revenue in fiscal 2024?", "$83,674 million"),
        ("What was McDonald's revenue in fiscal 2024?", "$25,920 million"),
        ("What was AT&T's operating income in fiscal 2024?", "$19,049 million"),
        ("What was Dick's Sporting Goods' revenue in fiscal 2024?", "$13,443 million"),
        ("What was Johnson and Johnson's revenue in fiscal 2024?", "$88,821 million"),
    ],
)
def test_a_company_in_the_store_is_found_by_its_name(
    named_store: Settings, question: str, figure: str
) -> None:
    text = opening(question)
    assert "No company named" not in text and "not in the store" not in text, text
    assert figure in text, text


def first_sentence(question: str) -> str:
    return opening(question).split("]. ")[0]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "How much larger was Lowe's revenue than McDonald's in fiscal 2024?",
            "Lowe’s revenue was higher than McDonald's by $57,754 million: $83,674 million in FY2024 [10K1] "
            "against $25,920 million in FY2024 [10K2",
        ),
        (
            "How much more did Johnson & Johnson spend on R&D than Dick's Sporting Goods in 2024?",
            "Johnson & Johnson's research and development was higher than Dick's Sporting Goods' by "
            "$16,932 million: $17,232 million in FY2024 [10K1] against $300 million in FY2024 [10K2",
        ),
        (
            "AT&T's revenue exceeded Lowe's by how much in fiscal 2024?",
            "AT&T's revenue was higher than Lowe’s by $38,662 million: $122,336 million",
        ),
    ],
)
def test_a_difference_between_two_companies_states_both_figures_and_the_difference(
    named_store: Settings, question: str, expected: str
) -> None:
    sentence = first_sentence(question)
    assert sentence.startswith(expected), sentence


@pytest.mark.parametrize(
    ("question", "values", "change"),
    [
        (
            "What were Lowe's revenue and operating income for fiscal 2024, and how did operating income "
            "change from fiscal 2023?",
            "Lowe’s revenue was $86,377 million in FY2023 [10K1] and $83,674 million in FY2024",
            "Lowe’s operating income went from $11,557 million in FY2023 to $10,466 million in FY2024, "
            "declined 9.4%",
        ),
        (
            "Give McDonald's operating income and revenue for fiscal 2024 and the change in revenue from "
            "fiscal 2023.",
            "McDonald's operating income was $11,647 million in FY2023 [10K1] and $11,712 million in FY2024",
            "McDonald's revenue went from $25,494 million in FY2023 to $25,920 million in FY2024, grew 1.7%",
        ),
        (
            "What were DKS's revenue and research and development costs in 2024, and how did revenue "
            "change from 2023?",
            "Dick's Sporting Goods' research and development was $250 million",
            "Dick's Sporting Goods' revenue went from $12,984 million in FY2023 to $13,443 million",
        ),
    ],
)
def test_a_change_asked_of_one_of_several_metrics_is_that_metrics_change(
    named_store: Settings, question: str, values: str, change: str
) -> None:
    text = opening(question)
    assert text.startswith(values), text
    assert change in text, text
    assert text.count("went from") == 1, text  # no change of the metric asked only as a value


def test_a_change_of_metrics_listed_together_is_each_ones(named_store: Settings) -> None:
    text = opening("How did AT&T's revenue and operating income change from 2023 to 2024?")
    assert "AT&T's revenue went from $122,428 million in FY2023 to $122,336 million" in text, text
    assert "AT&T's operating income went from $23,461 million in FY2023 to $19,049 million" in text, text
