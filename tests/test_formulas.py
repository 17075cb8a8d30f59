"""Computed metrics: cue → formula → line items read from real statement pages → calculator."""

from __future__ import annotations

from typing import Any

import pytest

from finagent.agent.schemas import facts_schema
from finagent.finance.figures.formulas import (
    FORMULAS,
    LINE_ITEMS,
    compute_formulas,
    formulas_for,
    input_items,
    read_line_items,
)
from finagent.finance.statements import classify_statement
from tests.helpers import financebench_page_chunks


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        ("What is 3M's FY2018 operating margin?", ["operating margin"]),
        ("Has AMCOR's quick ratio improved between FY2022 and FY2023?", ["quick ratio"]),
        ("Does Corning have positive working capital based on FY2022 data?", ["working capital"]),
        ("What is the FY2019 days payable outstanding (DPO) for Costco?", ["days payable outstanding"]),
        ("Gross profit margin of Nike in FY2021?", ["gross margin"]),
        ("What is Adobe's FY2017 free cash flow?", ["free cash flow"]),
        ("What was the fixed asset turnover ratio for Best Buy?", ["fixed asset turnover"]),
        ("What was Apple's total revenue in Q2?", []),
    ],
)
def test_formulas_for_question(question: str, metrics: list[str]) -> None:
    assert list(dict.fromkeys(f.metric for f in formulas_for(question))) == metrics


def test_every_formula_input_is_a_known_line_item() -> None:
    for formula in FORMULAS:
        assert formula.inputs and all(name in LINE_ITEMS for name in formula.inputs), formula.metric
    assert [i.name for i in input_items(formulas_for("gross margin"))] == [
        "gross_profit",
        "revenue",
        "cost_of_revenue",
    ]


def _item(text: str, label: str = "10K1", period: str = "FY2018", **extra: Any) -> dict[str, Any]:
    return {
        "text": text,
        "label": label,
        "period_label": period,
        "ticker": "MMM",
        "kind": "10-K",
        "fused_score": 0.5,
        "statement": classify_statement(text),
        **extra,
    }


def test_formula_from_synthetic_statement_rows() -> None:
    income = _item(
        "Consolidated Statement of Income (in millions)\n"
        "Item | 2018 | 2017\n"
        "Net sales | 32,765 | 31,657\n"
        "Cost of sales | 16,682 | 16,055\n"
        "Operating income | 7,207 | 7,820\n"
        "Net income | 5,363 | 4,869"
    )
    formulas = formulas_for("operating margin and gross margin")
    inputs = read_line_items([income], input_items(formulas))
    assert inputs[("MMM", "FY2018")]["revenue"]["value"] == 32765
    results = {c["metric"]: c for c in compute_formulas(formulas, inputs)}
    assert results["operating margin"]["result_text"] == "22.0%"
    # No "gross profit" row: the second gross-margin formula (revenue - cost of sales) is used.
    assert results["gross margin"]["result_text"] == "49.1%"
    assert results["gross margin"]["expression"] == "(32765 - 16682) / 32765 * 100"
    assert results["gross margin"]["sources"] == ["10K1"]


def test_missing_input_computes_nothing() -> None:
    inputs = read_line_items(
        [_item("Item | 2018\nTotal current assets | 100")], input_items(formulas_for("current ratio"))
    )
    assert compute_formulas(formulas_for("current ratio"), inputs) == []


def test_facts_schema_restricted_to_line_items() -> None:
    schema = facts_schema(["MMM"], ["FY2018"], ["10K1"], limit=4, metrics=["total current assets"])
    ok = {"ticker": "MMM", "period": "FY2018", "metric": "total current assets", "value": 1, "source": "10K1"}
    assert schema.model_validate({"facts": [ok]}).facts
    with pytest.raises(ValueError):
        schema.model_validate({"facts": [ok | {"metric": "revenue"}]})


def _page_item(doc: str, page: int, period: str) -> dict[str, Any]:
    chunk = financebench_page_chunks([(doc, page)])[(doc, page)]
    caption = chunk.metadata.get("caption")
    return _item(chunk.text, period=period, statement=classify_statement(chunk.text, caption))


def test_free_cash_flow_from_3m_cash_flow_statement() -> None:
    item = _page_item("3M_2018_10K", 59, "FY2018")
    assert item["statement"] == "cash_flow"
    formulas = formulas_for("free cash flow")
    inputs = read_line_items([item], input_items(formulas))
    assert inputs[("MMM", "FY2018")]["capex"]["value"] == -1577  # (1,577): an outflow
    (fcf,) = compute_formulas(formulas, inputs)
    assert fcf["result"] == pytest.approx(6439 - 1577) and fcf["result_text"] == "$4,862 million"


def test_current_ratio_and_working_capital_from_amcor_balance_sheet() -> None:
    item = _page_item("AMCOR_2023_10K", 51, "FY2023")
    assert item["statement"] == "balance_sheet"
    formulas = formulas_for("current ratio and working capital")
    results = {
        c["metric"]: c for c in compute_formulas(formulas, read_line_items([item], input_items(formulas)))
    }
    assert results["current ratio"]["result_text"] == "1.19"  # 5,308 / 4,476
    assert results["working capital"]["result"] == pytest.approx(5308 - 4476)


@pytest.mark.parametrize(
    ("question", "phrase", "statements"),
    [
        (
            "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the "
            "question by relying on the details shown in the cash flow statement.",
            "purchases of property and equipment",
            ["cash_flow"],
        ),
        (
            "Does Corning have positive working capital based on FY2022 data?",
            "total current assets total current liabilities",
            ["balance_sheet"],
        ),
        (
            "What is FY2018 days payable outstanding (DPO) for Walmart?",
            "accounts payable cost of revenue",
            ["balance_sheet", "income_statement"],
        ),
        ("Is 3M a capital-intensive business based on FY2022 data?", None, ["balance_sheet", "cash_flow"]),
        # Income-statement words add wording but do not route (they fill narrative pages too).
        ("How did Apple's revenue change in Q2?", "total net sales", []),
        ("Using the income statement, what was revenue?", "total net sales", ["income_statement"]),
        ("Is Boeing's business subject to cyclicality?", None, []),
    ],
)
def test_vocabulary_phrases_and_statement_routing(
    question: str, phrase: str | None, statements: list[str]
) -> None:
    from finagent.agent.vocabulary import statement_phrases, statements_for

    if phrase is not None:
        assert statement_phrases(question) == [phrase]
    assert statements_for(question) == statements


def test_average_of_a_computed_metric_over_the_years_asked() -> None:
    from finagent.finance.figures.formulas import average_over_periods

    def statement(year: int, revenue: str, operating: str, depreciation: str) -> dict[str, Any]:
        text = (
            f"Consolidated Statements of Income (in millions)\nItem | {year}\nTotal revenues | {revenue}\n"
            f"Operating income | {operating}\nDepreciation and amortization | {depreciation}"
        )
        return _item(text, label=f"10K{year % 10}", period=f"FY{year}")

    items = [statement(2018, "500,343", "20,437", "10,529"), statement(2020, "523,964", "20,568", "10,987")]
    question = "What is the FY2018 - FY2020 average unadjusted EBITDA % margin for Walmart?"
    formulas = formulas_for(question)
    assert [f.metric for f in formulas] == ["EBITDA margin"]
    margins = compute_formulas(formulas, read_line_items(items, input_items(formulas)))
    (average,) = average_over_periods(question, margins)
    expected = ((20437 + 10529) / 500343 * 100 + (20568 + 10987) / 523964 * 100) / 2
    assert average["result"] == pytest.approx(expected) and average["result_text"] == f"{expected:.1f}%"
    assert average["period"] == "FY2018-FY2020" and average["metric"] == "average EBITDA margin"
    assert average_over_periods("What was the EBITDA margin?", margins) == []
