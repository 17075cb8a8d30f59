"""A sign question's yes/no comes from the computed figures, not the model's first word."""

from __future__ import annotations

from typing import Any

import pytest

from finagent.finance.ask.asks import Ask, read_ask
from finagent.finance.check.verdict import Verdict, with_verdict
from finagent.finance.check.verdict import sign_verdict as decide


def sign_verdict(question: str, calculations: list[dict[str, Any]]) -> Verdict | None:
    """The verdict of a question as analyze types it (its ask), over its calculations."""
    ask: Ask = read_ask(question, [], {}, [])
    return decide(ask, calculations)


WORKING_CAPITAL: dict[str, Any] = {
    "kind": "formula",
    "ticker": "AWK",
    "metric": "working capital",
    "period": "FY2022",
    "expression": "1250 - 2811",
    "formula": "current_assets - current_liabilities",
    "result": -1561.0,
    "result_text": "$-1,561 million",
}
DEBT_CHANGE: dict[str, Any] = {
    "ticker": "MSFT",
    "metric": "Long-term debt",
    "from_period": "FY2022",
    "to_period": "FY2023",
    "expression": "growth(47032, 41990)",
    "result": -10.72,
    "result_text": "-10.7%",
}


def test_positive_working_capital_is_decided_by_its_sign() -> None:
    question = "Does American Water Works have positive working capital based on FY2022 data?"
    verdict = sign_verdict(question, [WORKING_CAPITAL])
    assert verdict is not None and verdict.yes is False
    model = "Yes, AWK has positive working capital. It is $1,250 - $2,811 = -$1,561 million [10K1]."
    answer = with_verdict(model, verdict)
    assert answer.startswith("No (computed from the figures: working capital FY2022: $-1,561 million")
    assert "Yes," not in answer and answer.endswith("-$1,561 million [10K1].")
    negative = sign_verdict("Is AWK's working capital negative in FY2022?", [WORKING_CAPITAL])
    assert negative is not None and negative.yes is True


def test_an_increase_is_decided_by_the_computed_change() -> None:
    verdict = sign_verdict("Has Microsoft increased its debt between FY2023 and FY2022?", [DEBT_CHANGE])
    assert verdict is not None and verdict.yes is False
    answer = with_verdict("Yes, Microsoft increased its debt [10K1].", verdict)
    assert answer == "No (computed from the figures: Long-term debt change FY2022 -> FY2023: -10.7%)."
    with_figures = with_verdict("Yes, it rose [10K1].\n\nFigures:\n- MSFT ...", verdict)
    assert with_figures.endswith("-10.7%).\n\nFigures:\n- MSFT ...")
    drop = sign_verdict("Was there a drop in Microsoft's debt from FY2022 to FY2023?", [DEBT_CHANGE])
    assert drop is not None and drop.yes is True
    agreeing = "Yes. Debt fell 10.7% [10K1]."
    assert with_verdict(agreeing, drop) == agreeing  # a leading yes that agrees stays as written
    assert with_verdict("Debt fell [10K1].", drop).startswith("Yes (computed from the figures:")


def test_a_computed_whole_decides_over_its_parts_changes() -> None:
    """Microsoft's current debt rose 90.9% while its long-term debt fell: asked about its debt, the
    computed total debt's change decides, not the disagreeing changes of its lines."""
    level = {"kind": "formula", "ticker": "MSFT", "metric": "total debt", "result": 47237.0}
    total = DEBT_CHANGE | {"metric": "total debt", "result": -5.11, "result_text": "-5.1% (-$2,544 million)"}
    current = DEBT_CHANGE | {"metric": "Current portion of long-term debt", "result": 90.87}
    question = "Has Microsoft increased its debt on balance sheet between FY2023 and the FY2022 period?"
    assert sign_verdict(question, [DEBT_CHANGE, current]) is None  # its lines disagree
    verdict = sign_verdict(question, [level, DEBT_CHANGE, current, total])
    assert verdict is not None and verdict.yes is False and verdict.grounds == (total,)


@pytest.mark.parametrize(
    ("question", "calculations"),
    [
        ("What was Microsoft's debt in FY2023?", [DEBT_CHANGE]),  # not a yes/no question
        ("Is Verizon a capital intensive business?", [DEBT_CHANGE]),  # a judgement, not a sign
        ("Did debt increase or decrease between FY2022 and FY2023?", [DEBT_CHANGE]),  # both directions
        ("Has Microsoft increased its debt?", []),  # nothing computed
        ("Has Microsoft increased its revenue?", [DEBT_CHANGE]),  # a change of something else
        ("Is Microsoft a high growth company by debt?", [DEBT_CHANGE]),  # a judgement, not a direction
        ("Were there events that increased Microsoft's debt in FY2023?", [DEBT_CHANGE]),  # asks for events
        ("Has Microsoft's debt ratio improved or declined since FY2022?", [DEBT_CHANGE]),  # which way
        ("Is Microsoft's debt expected to fall in FY2024?", [DEBT_CHANGE]),  # a forecast
        ("Has debt increased?", [DEBT_CHANGE, {**DEBT_CHANGE, "result": 3.0}]),  # the changes disagree
        ("Has debt increased?", [DEBT_CHANGE, {**DEBT_CHANGE, "ticker": "AAPL"}]),  # two companies
        ("Does AWK have positive working capital?", [{**WORKING_CAPITAL, "result": 0.0}]),  # exactly zero
    ],
)
def test_no_verdict_when_the_figures_do_not_decide(question: str, calculations: list[dict[str, Any]]) -> None:
    assert sign_verdict(question, calculations) is None
    assert with_verdict("Yes, it did.", None) == "Yes, it did."


def test_a_computed_metric_with_no_reported_line_opens_with_its_yes_or_no() -> None:
    """Working capital computed from the balance sheet's lines (no table cell of its own) answers "does
    Corning have positive working capital?" with the computed yes, not the bare figure."""
    from finagent.agent.answer.compute import opening
    from finagent.agent.answer.statements import Facts
    from finagent.finance.compute.compare import Comparisons

    formula = {**WORKING_CAPITAL, "ticker": "GLW", "expression": "7453 - 5175", "result": 2278.0}
    formula |= {"result_text": "$2,278 million", "sources": ["10K1"]}

    def first_sentence(question: str) -> str:
        ask = read_ask(question, ["GLW"], {"GLW": [5]}, [])
        facts = Facts(ask=ask, metric="", cells=[], comparisons=Comparisons(), names={}, formulas=[formula])
        return opening(facts).text

    said = first_sentence("Does Corning have positive working capital based on FY2022 data?")
    assert said.startswith("Yes (computed from the figures: ")
    assert "working capital for FY2022 was $2,278 million (computed: 7453 - 5175) [10K1])." in said
    negative = first_sentence("Is Corning's working capital negative in FY2022?")
    assert negative.startswith("No (computed from the figures: ")
    plain = first_sentence("What was Corning's working capital in FY2022?")
    assert plain.endswith("working capital for FY2022 was $2,278 million (computed: 7453 - 5175) [10K1].")
    assert not plain.startswith(("Yes", "No"))


def _ratio(metric: str, result: float, text: str, period: str = "FY2022") -> dict[str, Any]:
    return {
        "kind": "formula",
        "ticker": "MMM",
        "metric": metric,
        "period": period,
        "expression": "...",
        "formula": "...",
        "result": result,
        "result_text": text,
    }


@pytest.mark.parametrize(
    ("question", "calculations", "yes", "said"),
    [
        (
            "Is 3M a capital-intensive business based on FY2022 data?",
            [
                _ratio("capital expenditure % of revenue", 5.1, "5.1%"),
                _ratio("fixed assets % of total assets", 19.8, "19.8%"),
                _ratio("return on assets", 12.4, "12.4%"),
                _ratio("capital expenditure % of revenue", 11.0, "11.0%", period="FY2020"),  # not the latest
            ],
            False,
            "capital expenditure % of revenue of 5.1% is below the 10% of revenue taken here to mark a "
            "capital-intensive business",
        ),
        (
            "Is Verizon a capital intensive business based on FY 2022 data?",
            [_ratio("capital expenditure % of revenue", 16.9, "16.9%")],
            True,
            "capital expenditure % of revenue of 16.9% is at or above the 10% of revenue",
        ),
        (
            "Does Verizon have a reasonably healthy liquidity profile based on its quick ratio for FY 2022?",
            [_ratio("current ratio", 1.2, "1.20"), _ratio("quick ratio", 0.71, "0.71")],
            False,
            "quick ratio of 0.71 is below 1.0, where the assets counted cover current liabilities",
        ),
        (
            "Would you call JnJ's FY2022 results those of a high-growth company?",  # asked as an opinion
            [_ratio("revenue growth", 1.2, "1.2%")],
            False,
            "revenue growth of 1.2% is below the 10% a year taken here to mark high growth",
        ),
        (
            "Are JnJ's FY2022 financials that of a high growth company?",
            [_ratio("revenue growth", 1.2, "1.2%")],
            False,
            "revenue growth of 1.2% is below the 10% a year taken here to mark high growth",
        ),
    ],
)
def test_a_judgement_is_decided_by_its_ratio_against_a_stated_rule(
    question: str, calculations: list[dict[str, Any]], yes: bool, said: str
) -> None:
    """ "Is 3M capital-intensive?" is no question of sign: the ratio that decides it is held to a rule
    the answer states, and the model's own yes gives way."""
    verdict = sign_verdict(question, calculations)
    assert verdict is not None and verdict.yes is yes
    answer = with_verdict("Yes, the company is investing more in its assets [10K1].", verdict)
    assert answer.startswith("Yes (computed" if yes else "No (computed") and said in answer
    assert "fixed assets % of total assets FY2022: 19.8%" in answer or "3M" not in question


def test_a_judgement_needs_its_deciding_ratio() -> None:
    question = "Is 3M a capital-intensive business based on FY2022 data?"
    assert sign_verdict(question, [_ratio("return on assets", 12.4, "12.4%")]) is None
    assert (
        sign_verdict(
            question,
            [
                _ratio("capital expenditure % of revenue", 5.1, "5.1%"),
                {**_ratio("capital expenditure % of revenue", 5.1, "5.1%"), "ticker": "VZ"},
            ],
        )
        is None
    )


def test_a_liquidity_judgement_shows_the_cash_and_receivables_quick_ratio_beside_its_own() -> None:
    verdict = sign_verdict(
        "Does Verizon have a reasonably healthy liquidity profile based on its quick ratio for FY 2022?",
        [_ratio("quick ratio", 0.71, "0.71"), _ratio("cash-and-receivables quick ratio", 0.54, "0.54")],
    )
    assert verdict is not None and not verdict.yes
    answer = with_verdict("Yes, liquidity is healthy.", verdict)
    assert answer.startswith("No (computed") and "cash-and-receivables quick ratio FY2022: 0.54" in answer
    assert "quick ratio of 0.71 is below 1.0" in answer


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Looking at VaR, the risk JPM faced decreased year on year [10Q1].", "Yes. Looking at VaR"),
        ("Average VaR rose to $52 million from $48 million [10Q1].", "No. Average VaR rose"),
        ("The risk did not decrease [10Q1].", "The risk did not"),  # negated: left as written
        ("VaR is reported in the 10-Q [10Q1]. It decreased.", "VaR is reported"),  # first sentence only
        ("No, it did not decrease [10Q1].", "No, it did not"),  # already answered
    ],
)
def test_a_direction_answer_opens_with_the_yes_or_no_its_first_sentence_states(
    answer: str, expected: str
) -> None:
    from finagent.finance.check.verdict import with_stated_yes_no

    question = (
        "Looking at VaR, did the risk that JPM faced in the second fiscal quarter of 2023 decrease "
        "compared to the same period in the prior year?"
    )
    ask = read_ask(question, ["JPM"], {}, [])
    assert ask.kind == "direction" and ask.up is False
    assert with_stated_yes_no(answer, ask).startswith(expected)
    narrative = read_ask("What drove the decrease in JPM's VaR?", ["JPM"], {}, [])
    assert with_stated_yes_no(answer, narrative) == answer
