"""The load benchmark in quick mode on a small synthetic store: no errors, pool limits hold.

Timings are measured, never asserted; what must hold under concurrency is asserted: every run
answers without a failed model call or search, and the pool never opens more connections than its
maximum (the server's own count agrees).
"""

from __future__ import annotations

import json
from typing import Any

from benchmarks.load import LoadPlan, ask_problems, run_load
from benchmarks.stub_llm import reply_for

from finagent.agent.api import Answer
from finagent.agent.schemas import Evaluation, analysis_schema, facts_schema
from finagent.db import Database
from finagent.llm.structured import response_format_for
from finagent.settings import Settings
from tests.store.test_graph import store  # noqa: F401  (fixture: six synthetic AAPL/MSFT 10-Qs)

POOL_MAX = 4  # below the default 8, so 30 searches queue for connections


def test_quick_load_has_no_errors_and_pool_limits_hold(store: Database, settings: Settings) -> None:  # noqa: F811
    plan = LoadPlan(
        questions=[
            "Compare Apple and Microsoft revenue over the last 3 quarters",
            "What were Apple's total net sales in Q3 2023?",
            "What was Microsoft's operating income in Q2 fiscal 2023?",
        ],
        searches=[("total net sales", ["AAPL"]), ("total revenue", ["MSFT"]), ("operating income", [])],
        asks=4,
        search_count=30,
        search_baseline_repeats=1,
        today="2023-11-21",
        stub_latency_ms=5,
    )
    result = run_load(settings.model_copy(update={"pool_max_size": POOL_MAX}), plan)
    details = json.dumps(
        {k: result[k] for k in ("checks", "asks_concurrent", "searches_concurrent", "stub")}, indent=1
    )[:6000]
    assert result["checks"]["errors"] == 0, details
    assert result["checks"]["pool_limits_held"], details
    waves = [result["asks_concurrent"], result["asks_concurrent_second_wave"]]
    assert [w["runs"] for w in waves] == [4, 4]
    searches = result["searches_concurrent"]
    assert searches["searches"] == 30 and searches["errors"] == 0
    pool = searches["pool"]
    assert pool["requests_num"] == 30 and pool["requests_errors"] == 0  # one connection per search
    assert max(pool["peak_pool_size"], pool["peak_in_use"], pool["peak_server_connections"]) <= POOL_MAX
    # every run reached the stub for analyze, generate and evaluate, and the stub never failed
    asks = 1 + len(plan.questions) + 2 * plan.asks
    stub = result["stub"]
    assert stub["errors"] == 0
    assert all(stub["by_role"].get(role, 0) >= asks for role in ("analyze", "generate", "evaluate"))
    assert set(result["memory"]) >= {"before", "after_asks", "after_searches", "after_second_asks"}


def _request(schema: Any, prompt: str, system: str = "") -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": "stub",
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
    }
    if schema is not None:
        body["response_format"] = response_format_for(schema)
    return body


EVIDENCE = (
    '<evidence id="10Q1" from="AAPL 10-Q Q3 FY2023, Financial Statements, p.4">\n'
    "| | Three Months Ended |\n| Total net sales | 81,797 | 82,959 |\n</evidence>\n"
    '<evidence id="10Q2" from="MSFT 10-Q Q3 FY2023, Financial Statements, p.4">\n'
    "| Total revenue | 52,857 | 49,360 |\n</evidence>"
)


def test_stub_replies_match_the_agent_schemas() -> None:
    """Each role's reply validates against the schema the agent binds (enums included)."""
    analyze = analysis_schema(["AAPL", "MSFT"])
    role, text = reply_for(
        _request(analyze, "Question: Compare AAPL and MSFT revenue\nCompanies: AAPL, MSFT")
    )
    reply = analyze.model_validate_json(text)
    assert role == "analyze" and {k.ticker for k in reply.keywords} == {"AAPL", "MSFT"}

    facts = facts_schema(["AAPL", "MSFT"], ["Q3 FY2023"], ["10Q1", "10Q2"], limit=4)
    role, text = reply_for(_request(facts, f"Question: revenue\n\n{EVIDENCE}"))
    values = {(f.ticker, f.source, f.value) for f in facts.model_validate_json(text).facts}
    assert role == "extract" and values == {("AAPL", "10Q1", 81797.0), ("MSFT", "10Q2", 52857.0)}

    role, text = reply_for(_request(Evaluation, "Question: x"))
    assert role == "evaluate" and Evaluation.model_validate_json(text).satisfied

    role, text = reply_for(_request(None, f"Question: x\n{EVIDENCE}", "You are a careful financial analyst."))
    assert role == "generate" and "[10Q1]" in text


def test_ask_problems_flags_failed_calls_and_searches() -> None:
    answer = Answer(
        question="q",
        answer="Revenue was $1 million [10Q1].",
        citations=[],
        confidence=0.9,
        iterations=1,
        periods_covered=[],
        warnings=["search 'revenue' for AAPL Q3 FY2023 failed: no database connection became free"],
        llm_calls=[{"role": "generate", "ok": False, "error": "APIConnectionError"}],
    )
    problems = ask_problems(answer)
    assert len(problems) == 2 and "failed" in problems[0] and problems[1].startswith("warning: search")
