"""Figure questions through the graph (scripted model, real store): facts answer, comparisons are
computed, the model only writes prose and its figures are checked for value *and* period."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import psycopg
import pytest
from langchain_core.messages import BaseMessage

from finagent.agent.context import Context
from finagent.agent.graph import build_graph
from finagent.agent.resources import close_resources, configure_resources
from finagent.db import Database
from finagent.db.companies import ListedCompany, load_listed_companies
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block
from finagent.ingest.pipeline import IngestPipeline
from finagent.settings import Settings
from tests.fakes import ScriptedModels
from tests.helpers import item
from tests.store.test_facts_store import annual, filing, quarterly

EPS = "us-gaap:EarningsPerShareDiluted"


def eps_annual() -> Any:
    from decimal import Decimal

    from finagent.finance.fact_records import Fact, FiscalCalendar

    doc = annual()
    eps = Fact(EPS, Decimal("6.08"), "USD/shares", 2, date(2023, 10, 1), date(2024, 9, 28), display="6.08")
    doc.facts.append(eps.in_calendar(FiscalCalendar(9)))
    return doc


def microsoft_quarters() -> list[Any]:
    """Microsoft's Q3 FY2024 10-Q: the quarter and the same quarter a year earlier."""
    from decimal import Decimal

    from finagent.finance.fact_records import Fact, FiscalCalendar

    msft = FiscalCalendar(6)
    rev = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    block = Block(
        "INCOME STATEMENTS (In millions)\nThree Months Ended March 31, | 2024 | 2023\n"
        "Total revenue | 61,858 | 52,857",
        section="part1_item_1",
        is_table=True,
    )
    facts = [
        Fact(
            rev,
            Decimal("61858000000"),
            "USD",
            -6,
            date(2024, 1, 1),
            date(2024, 3, 31),
            display="61,858",
            block_index=0,
        ),
        Fact(
            rev,
            Decimal("52857000000"),
            "USD",
            -6,
            date(2023, 1, 1),
            date(2023, 3, 31),
            display="52,857",
            block_index=0,
        ),
    ]
    doc = filing(
        "10-Q",
        date(2024, 3, 31),
        [block],
        [f.in_calendar(msft) for f in facts],
        uri="test://msft-q3",
        sha="msft-q3",
        fiscal_quarter=3,
    )
    doc.ticker, doc.company_name, doc.fiscal_year, doc.fiscal_year_end_month = (
        "MSFT",
        "Microsoft Corporation",
        2024,
        6,
    )
    doc.title = "Microsoft Corporation 10-Q"
    return [doc]


@pytest.fixture()
def store(db: Database, settings: Settings) -> Iterator[Database]:
    IngestPipeline(db, get_embedder(settings), settings).run(
        [item(d) for d in [eps_annual(), quarterly(), *microsoft_quarters()]]
    )
    with db.connection() as conn:
        load_listed_companies(conn, [ListedCompany("TSLA", "1318605", "Tesla, Inc.")])
    yield db
    close_resources()


UPDATES: dict[str, list[dict[str, Any]]] = {}


def run(settings: Settings, models: ScriptedModels, question: str) -> dict[str, Any]:
    """The final output; each node's state updates are kept in UPDATES for the test to inspect."""
    configure_resources(settings, chat_model_factory=models)
    graph = build_graph()
    context = Context(today="2025-11-01", record_runs=False)
    UPDATES.clear()

    async def go() -> dict[str, Any]:
        async for mode, chunk in graph.astream(
            {"question": question}, context=context, stream_mode=["updates", "values"]
        ):
            if mode == "updates":
                for node, update in chunk.items():
                    UPDATES.setdefault(node, []).append(update or {})
            else:
                final = chunk
        return final

    return asyncio.run(go())


def parts(answer: str) -> tuple[str, str, str]:
    """(computed opening, table, the model's prose) of a figures answer."""
    blocks = answer.split("\n\n")
    table = next((b for b in blocks if b.startswith("| Company |")), "")
    if not table:
        return answer, "", ""
    at = blocks.index(table)
    return "\n\n".join(blocks[:at]), table, "\n\n".join(blocks[at + 1 :])


WHY = " and what drove them?"


def prose(text: str) -> Any:
    def reply(messages: list[BaseMessage]) -> str:
        return text

    return reply


def test_q4_is_derived_and_the_answer_opens_with_it_computed_then_the_cited_table(
    store: Database, settings: Settings
) -> None:
    models = ScriptedModels(
        {
            "generate": [RuntimeError("a figure answer without narrative needs no model call")],
            "prose": [RuntimeError("a figure answer without narrative needs no model call")],
            "analyze": [RuntimeError("a figure question needs no analysis call")],
            "evaluate": [RuntimeError("a complete, verified figure answer needs no grading call")],
            "extract": [{"facts": []}],
        }
    )
    out = run(settings, models, "What was Apple's revenue in the fourth quarter of fiscal 2024?")
    opening, table, written = parts(out["answer"])
    assert opening.startswith(
        "Apple's revenue in Q4 FY2024 (the quarter ended September 28, 2024) was $94,930 million, derived"
    )
    assert table.startswith("| Company | Period | Revenue |")
    assert (
        "Q4 FY2024, quarter ended 2024-09-28" in table and "$94,930 million" in table and "(derived)" in table
    )
    assert "FY2024, year ended" not in table  # the 10-K searched for Q4 is not itself an asked period
    assert written == ""
    assert out["validation"]["status"] == "verified", out["validation"]
    assert out["confidence"] >= 0.9
    assert not any(m.calls for m in models.models.values())
    # the derivation is a recorded calculation whose inputs are cited where they are printed
    derived = [c for c in out.get("calculations", []) if c.get("kind") == "derived"]
    assert derived == [] or derived[0]["expression"] == "diff(391035, 296105)"


def test_the_right_number_for_the_wrong_period_is_unsupported(store: Database, settings: Settings) -> None:
    models = ScriptedModels(
        {
            "generate": [
                prose(
                    "Apple's net sales in FY2024 were $383,285 million [10K1]. "
                    "Apple's total net sales in fiscal 2024 were $391,035 million [10K1]."
                )
            ],
            "analyze": [{}],
            "evaluate": [{}],
            "extract": [{"facts": []}],
        }
    )
    out = run(settings, models, "What were Apple's total net sales in fiscal 2024" + WHY)
    # the sentence with FY2023's number presented as FY2024 is withheld, and the warning says whose it is
    _, _, written = parts(out["answer"])
    assert "383,285" not in written
    assert "$391,035 million" in written
    withheld = next(w for w in out["warnings"] if w.startswith("withheld 1 sentence"))
    assert "FY2023" in withheld and "not FY2024" in withheld
    assert out["validation"]["status"] == "verified"


def test_year_over_year_uses_the_comparative_column_and_ranks(store: Database, settings: Settings) -> None:
    models = ScriptedModels(
        {
            "generate": [prose("Microsoft grew year over year.")],
            "analyze": [{}],
            "evaluate": [{}],
            "extract": [{"facts": []}],
        }
    )
    out = run(settings, models, "How much did Microsoft's revenue grow year over year in Q3 FY2024?")
    opening, table, _ = parts(out["answer"])
    assert "$61,858 million" in table and "+17.0% vs Q3 FY2023" in table
    assert opening == (
        "Microsoft's revenue grew 17.0% year over year in Q3 FY2024: $61,858 million against $52,857 million "
        "in Q3 FY2023 [10Q1]."
    )


def test_a_quarter_that_cannot_be_derived_says_so(store: Database, settings: Settings) -> None:
    models = ScriptedModels(
        {
            "generate": [prose("Apple does not report diluted EPS for Q4 FY2024 alone.")],
            "analyze": [{}],
            "evaluate": [{}],
            "extract": [{"facts": []}],
        }
    )
    out = run(settings, models, "What was Apple's diluted EPS in Q4 FY2024?")
    _, table, _ = parts(out["answer"])
    assert "not derivable" in table and "per-share values do not subtract" in table
    assert any("not derivable" in w for w in out["warnings"])


def test_a_figure_question_naming_no_company_is_read_for_the_best_match(
    store: Database, settings: Settings
) -> None:
    """ "Last quarter" names no company: the first searches across the store choose the company, and
    its figure is then read by code for that company's own latest quarter, with no model call."""
    models = ScriptedModels(
        {
            role: [RuntimeError("a figure read for the chosen company needs no model call")]
            for role in ("generate", "prose", "analyze", "evaluate", "extract")
        }
    )
    out = run(settings, models, "What was the total revenue last quarter?")
    note, opening = out["answer"].split("\n\n")[:2]
    subject = out["analysis"]["tickers"]
    assert subject in (["AAPL"], ["MSFT"]), subject
    assert note == (
        f"The question names no company; the filings that match it best are {subject[0]}'s, "
        f"so this answer is about {subject[0]}."
    )
    if subject == ["MSFT"]:
        assert opening.startswith("Microsoft's revenue in Q3 FY2024 (the quarter ended March 31, 2024) was")
        assert "$61,858 million" in opening
    else:
        assert opening.startswith("Apple's revenue in Q") and "quarter ended" in opening
    assert not any(m.calls for m in models.models.values())
    assert out["confidence"] <= 0.5  # about the best match, not a company the question named
    assert "choose_subject" in UPDATES


def test_a_company_not_in_the_store_is_answered_at_once(store: Database, settings: Settings) -> None:
    models = ScriptedModels(
        {
            role: [RuntimeError("no model call for a refusal")]
            for role in ("generate", "analyze", "evaluate", "extract")
        }
    )
    out = run(settings, models, "What was Tesla's revenue in 2023?")
    assert "TSLA (Tesla, Inc.) is not in the store" in out["answer"]
    assert "finagent ingest edgar TSLA" in out["answer"]
    assert "AAPL" in out["answer"] and "MSFT" in out["answer"]  # what the store does hold
    assert all(not m.calls for m in models.models.values())
    assert "search" not in UPDATES and "resolve_periods" not in UPDATES


def test_tools_run_only_when_the_question_asks_for_prices_or_news(
    store: Database, settings: Settings
) -> None:
    analysis = {
        "intent": "risks",
        "sources": ["10-K", "market_data", "news"],
        "answer_mode": "direct",
        "keywords": [],
    }
    models = ScriptedModels(
        {
            "analyze": [analysis],
            "generate": [prose("Apple discussed risks [10K1].")],
            "evaluate": [
                {"completeness": 90, "specificity": 90, "accuracy": 90, "clarity": 90, "satisfied": True}
            ],
            "extract": [{"facts": []}],
        }
    )
    run(settings, models, "What risks did Apple describe in its annual report?")
    analysis = UPDATES["analyze"][-1]["analysis"]
    assert "market_data" not in analysis["sources"] and "news" not in analysis["sources"]
    assert not any(u.get("tool_results") for u in UPDATES.get("tools", []))
    # a question about the stock does call the market tool
    run(settings, models, "How is Apple's stock trading and what risks did it describe?")
    assert "market_data" in UPDATES["analyze"][-1]["analysis"]["sources"]
    assert any(r["tool"] == "market_quote" for u in UPDATES["tools"] for r in u.get("tool_results") or [])


def test_filings_list_the_company_list_loaded(store: Database, settings: Settings) -> None:
    with psycopg.connect(settings.database_url or "") as conn:
        assert conn.execute("SELECT name FROM listed_companies WHERE ticker = 'TSLA'").fetchone() == (
            "Tesla, Inc.",
        )


def test_a_failing_model_still_answers_with_the_cited_table(store: Database, settings: Settings) -> None:
    roles = ("generate", "prose", "analyze", "evaluate", "extract")
    models = ScriptedModels({role: [RuntimeError("provider down")] for role in roles})
    # a figure question needs no model: the computed answer stands on its own
    out = run(settings, models, "What were Apple's total net sales in fiscal 2024?")
    opening, table, _ = parts(out["answer"])
    assert opening == (
        "Apple's revenue in FY2024 (the year ended September 28, 2024) was $391,035 million [10K1]."
    )
    assert table.startswith("| Company | Period | Revenue |") and "$391,035 million [10K1]" in table
    assert out["confidence"] >= 0.9 and not out["llm_calls"]
    # a why question needs the model's words: without them the figures stand, but not confidently
    out = run(settings, models, "What were Apple's total net sales in fiscal 2024" + WHY)
    opening, table, written = parts(out["answer"])
    assert "$391,035 million [10K1]" in opening and "$391,035 million [10K1]" in table and written == ""
    assert any("the model returned no explanation" in w for w in out["warnings"])
    assert [c["ok"] for c in out["llm_calls"] if c["role"] == "generate"] == [False]
    assert out["confidence"] < 0.8  # a table without the model's answer is not a confident answer


def test_figures_answer_is_audited_with_its_prompt(store: Database, settings: Settings) -> None:
    import asyncio

    from finagent.agent import api

    models = ScriptedModels(
        {
            "generate": [prose("Apple's total net sales in FY2024 were $391,035 million [10K1].")],
            "analyze": [{}],
            "evaluate": [{}],
            "extract": [{"facts": []}],
        }
    )
    configure_resources(settings, chat_model_factory=models)
    question = "What were Apple's total net sales in fiscal 2024" + WHY
    answer = asyncio.run(api.aask(question, context=Context(today="2025-11-01")))
    assert answer.run_id and answer.validation and answer.validation["status"] == "verified"
    with psycopg.connect(settings.database_url or "") as conn:
        (template, prompt, reply) = conn.execute(
            "SELECT template, prompt, reply FROM run_llm_calls WHERE run_id = %s", (answer.run_id,)
        ).fetchone() or (None, None, None)
        facts = conn.execute("SELECT facts FROM runs WHERE id = %s", (answer.run_id,)).fetchone()
    assert template == "figures_why" and "$391,035 million [10K1]" in (prompt or "")
    assert "391,035" in (reply or "")
    assert facts is not None and any(f["period"] == "FY2024" and f["method"] == "xbrl" for f in facts[0])


def test_withholding_drops_whole_sentences_and_keeps_decimals_intact() -> None:
    from finagent.agent.answer.prose import rank_claim_error, withhold

    prose = (
        "Apple grew year over year in Q1 FY2023 by -5.5%, while Microsoft grew by +2.0%. "
        "Microsoft's revenue rose 7.1% in Q3 FY2023."
    )
    bad = {prose.index("-5.5%"): "-5.5% is a decline, described as growth"}
    kept, reasons = withhold(prose, 0, bad, [], {})
    assert kept == "Microsoft's revenue rose 7.1% in Q3 FY2023." and len(reasons) == 1
    assert "described as growth" in reasons[0]
    ranks = [{"metric": "net_income", "order": ["GOOGL", "META", "AMZN"], "periods": {}, "values": {}}]
    names = {"GOOGL": ["Alphabet"], "META": ["Meta"], "AMZN": ["Amazon"]}
    assert rank_claim_error("Alphabet had the highest net income.", ranks, names) is None
    assert rank_claim_error("Meta had the second highest net income.", ranks, names) is None
    assert "not the lowest" in (rank_claim_error("Meta had the lowest net income.", ranks, names) or "")
    assert rank_claim_error("Amazon had the lowest net income.", ranks, names) is None


def test_prose_that_cannot_stand_at_all_is_rewritten_once(store: Database, settings: Settings) -> None:
    models = ScriptedModels(
        {
            "generate": [
                prose("Apple's net sales in FY2024 were $383,285 million."),
                prose("Apple's total net sales in fiscal 2024 were $391,035 million [10K1]."),
            ],
            "analyze": [{}],
            "evaluate": [{}],
            "extract": [{"facts": []}],
        }
    )
    out = run(settings, models, "What were Apple's total net sales in fiscal 2024" + WHY)
    feedback = models.prompts("generate")[1]
    assert "not used because they misstate the figures" in feedback and "FY2023" in feedback
    assert parts(out["answer"])[2] == "Apple's total net sales in fiscal 2024 were $391,035 million [10K1]."
    assert any("rewritten once" in w for w in out["warnings"])
    assert out["validation"]["status"] == "verified"


def test_a_driver_the_passage_does_not_give_is_withheld_and_costs_confidence(
    store: Database, settings: Settings
) -> None:
    invented = prose(
        "Apple's total net sales in fiscal 2024 were driven by increased research and development "
        "expenses and higher selling, general and administrative expenses [10K1]."
    )
    models = ScriptedModels(
        {
            "generate": [invented, invented],
            "analyze": [{}],
            "evaluate": [{"completeness": 95, "specificity": 95, "accuracy": 95, "clarity": 95}],
            "extract": [{"facts": []}],
        }
    )
    out = run(settings, models, "What were Apple's total net sales in fiscal 2024" + WHY)
    assert "driven by increased research" not in out["answer"]
    assert "$391,035 million" in parts(out["answer"])[1]  # the computed table stands
    assert any(w.startswith("withheld 1 sentence") for w in out["warnings"]), out["warnings"]
    assert out["confidence"] < Context().threshold("standard")


def test_two_companies_compared_state_their_difference_verified(store: Database, settings: Settings) -> None:
    models = ScriptedModels(
        {"generate": [prose("")], "analyze": [{}], "evaluate": [{}], "extract": [{"facts": []}]}
    )
    out = run(settings, models, "Which had more revenue in Q3 FY2024, Apple or Microsoft?")
    opening, _table, _ = parts(out["answer"])
    assert opening.startswith(
        "Apple's revenue was higher than Microsoft's by $23,919 million: $85,777 million"
    ), opening
    assert "[unverified]" not in out["answer"]
    same = run(
        settings,
        models,
        "Was Microsoft's revenue in Q3 FY2024 higher than in the same quarter a year earlier?",
    )
    assert same["answer"].startswith(
        "Yes (computed from the figures: Microsoft's revenue grew 17.0% from Q3 FY2023 ($52,857 million) to "
        "Q3 FY2024 ($61,858 million) [10Q1])."
    ), same["answer"]


DISCUSSION = (
    "Revenue increased $9.0 billion or 17% driven by growth in Intelligent Cloud and Productivity and "
    "Business Processes. Microsoft Cloud revenue increased 23% driven by Azure and other cloud services."
)


def _with_discussion(db: Database, settings: Settings, discussion: str) -> Iterator[Database]:
    """The store holding Microsoft's Q3 FY2024 10-Q with ``discussion`` in its MD&A."""
    doc = microsoft_quarters()[0]
    doc.blocks.append(Block(discussion, section="part1_item_2"))
    IngestPipeline(db, get_embedder(settings), settings).run([item(doc)])
    yield db
    close_resources()


@pytest.fixture()
def discussed(db: Database, settings: Settings) -> Iterator[Database]:
    """Microsoft's Q3 FY2024 10-Q with its discussion of revenue beside the statement."""
    yield from _with_discussion(db, settings, DISCUSSION)


def test_what_a_company_says_about_a_figure_is_quoted_beside_it(
    discussed: Database, settings: Settings
) -> None:
    """Asking what Microsoft says about its revenue asks the filing's words: the computed figure, then
    its own sentences on it, quoted and cited, with no model writing them."""
    written = "Microsoft's revenue rose on strong demand [10Q1]."
    grade = {"completeness": 90, "accuracy": 90}
    models = ScriptedModels({"analyze": [{}], "generate": [written], "prose": [written], "evaluate": [grade]})
    out = run(
        settings, models, "What does Microsoft say about its revenue in the quarter ended March 31, 2024?"
    )
    answer = out["answer"]
    assert "$61,858 million" in answer
    assert "In the sources' own words:" in answer, answer
    assert "“Revenue increased $9.0 billion or 17% driven by growth in Intelligent Cloud" in answer, answer
    assert models.prompts("generate") == [] and models.prompts("prose") == []
    assert "[unverified]" not in answer


MIXED_DISCUSSION = (
    "Revenue increased $9.0 billion or 17% driven by growth in Intelligent Cloud. "
    "Operating expenses increased $1.1 billion or 10%. "
    "The increase was primarily driven by investments in cloud engineering."
)


@pytest.fixture()
def mixed(db: Database, settings: Settings) -> Iterator[Database]:
    """Microsoft's Q3 FY2024 10-Q whose discussion explains revenue, then operating expenses."""
    yield from _with_discussion(db, settings, MIXED_DISCUSSION)


def test_what_drove_a_line_quotes_its_own_causes_and_not_the_next_lines_without_a_model(
    mixed: Database, settings: Settings
) -> None:
    """Asked what drove revenue, the answer is the computed figure, then the filing's sentence giving
    revenue's cause; the operating expenses' cause ("The increase was primarily driven by …") that
    follows in the same paragraph is not revenue's, and no model writes anything."""
    grade = {"completeness": 90, "accuracy": 90}
    written = prose("Revenue rose on investments in cloud engineering [10Q1].")
    models = ScriptedModels({"analyze": [{}], "generate": [written], "prose": [written], "evaluate": [grade]})
    question = "What drove Microsoft's revenue in the quarter ended March 31, 2024?"
    answer = run(settings, models, question)["answer"]
    assert "$61,858 million" in answer
    quotes = answer.split("In the sources' own words:\n")[1].splitlines()
    assert len(quotes) == 1 and "“Revenue increased $9.0 billion or 17% driven by growth" in quotes[0], answer
    assert "cloud engineering" not in answer
    assert models.prompts("generate") == [] and models.prompts("prose") == []


def test_a_figure_of_the_whole_company_says_so_when_a_part_is_asked_about(
    discussed: Database, settings: Settings
) -> None:
    """Asked about Microsoft Cloud revenue, the revenue read is the whole company's: the answer says
    so under the figure, and the filing's sentence on Microsoft Cloud is quoted first."""
    grade = {"completeness": 90, "accuracy": 90}
    models = ScriptedModels({"analyze": [{}], "evaluate": [grade]})
    question = (
        "What does Microsoft say about its Microsoft Cloud revenue in the quarter ended March 31, 2024?"
    )
    answer = run(settings, models, question)["answer"]
    assert "$61,858 million" in answer
    assert (
        "That is the whole company's: Microsoft Cloud's own revenue is not among the figures read." in answer
    )
    quotes = answer.split("In the sources' own words:\n")[1].splitlines()
    assert (
        quotes[0].startswith("- Microsoft's 10-Q") and "“Microsoft Cloud revenue increased 23%" in quotes[0]
    )
    plain = run(
        settings,
        ScriptedModels({"analyze": [{}], "evaluate": [grade]}),
        question.replace("its Microsoft Cloud revenue", "its revenue"),
    )["answer"]
    assert "$61,858 million" in plain and "whole company" not in plain


def test_a_yes_or_no_on_a_part_is_not_given_from_the_whole_companys_figure(
    discussed: Database, settings: Settings
) -> None:
    """ "Did Microsoft's cloud revenue increase?": the revenue read is the whole company's, so its rise
    answers nothing about the cloud: no yes or no, and the answer says why."""
    grade = {"completeness": 90, "accuracy": 90}
    question = "Did Microsoft's cloud revenue increase in the quarter ended March 31, 2024?"
    answer = run(settings, ScriptedModels({"analyze": [{}], "evaluate": [grade]}), question)["answer"]
    assert "$61,858 million" in answer
    assert not re.match(r"(Yes|No)\b", answer), answer
    assert (
        "That is the whole company's: cloud's own revenue is not among the figures read, so the "
        "question's yes or no is not given for it." in answer
    ), answer


def test_a_judgement_is_answered_by_its_ratio_and_the_rule_it_is_held_to(
    store: Database, settings: Settings
) -> None:
    """ "Is Apple a high growth company?" is no mood of the model's: the revenue growth read from the
    statement's two columns decides it against a rule the answer states, and the model's yes and its
    reason give way."""
    models = ScriptedModels(
        {
            "generate": [prose("Yes, Apple is a high growth company because it is investing in AI [10K1].")],
            "prose": [prose("Yes, Apple is a high growth company because it is investing in AI [10K1].")],
            "analyze": [{}],
            "evaluate": [{}],
            "extract": [{"facts": []}],
        }
    )
    out = run(settings, models, "Are Apple's FY2024 financials that of a high growth company?")
    first = out["answer"].split("\n\n")[0]
    assert first.startswith("No (computed from the figures: Apple's revenue growth for FY2024 was 2.0%")
    assert "(computed: (391035 - 383285) / 383285 * 100)" in first
    assert first.endswith("revenue growth of 2.0% is below the 10% a year taken here to mark high growth).")
    assert "Yes, Apple is a high growth company" not in out["answer"]
