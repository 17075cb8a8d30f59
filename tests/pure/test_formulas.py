"""Computed metrics: cue → formula → line items read from real statement pages → calculator."""

from __future__ import annotations

from typing import Any

import pytest

from finagent.agent.schemas import facts_schema
from finagent.finance.compute.formula_values import (
    compute_formulas,
    formula_changes,
    read_line_items,
    with_prior_years,
)
from finagent.finance.compute.formulas import FORMULAS, base_name, formulas_for, input_items, needs_prior
from finagent.finance.figure_records import describe_calculation
from finagent.finance.lines import INPUTS
from finagent.finance.read.statement_titles import classify_statement
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
        (
            "How good was Visa's free cash flow conversion in fiscal 2024?",
            ["free cash flow conversion", "free cash flow"],
        ),
        ("Did Costco's FCF conversion weaken in 2023?", ["free cash flow conversion", "free cash flow"]),
        ("What was the fixed asset turnover ratio for Best Buy?", ["fixed asset turnover"]),
        ("What was Apple's total revenue in Q2?", []),
        ("What is the FY2022 unadjusted EBITDA % margin for PepsiCo?", ["EBITDA margin"]),
        # an adjusted (non-GAAP) EBITDA is the company's reported measure: read, never computed
        ("What Was AMCOR's Adjusted Non GAAP EBITDA for FY 2023", []),
        ("What was Adj. EBITDA in FY2022?", []),
        # debt as a whole is its current and long-term parts; one kind of debt, or a ratio, is not
        (
            "Has Microsoft increased its debt on balance sheet between FY2023 and the FY2022 period?",
            ["total debt"],
        ),
        ("What was Apple's total debt at the end of FY2023?", ["total debt"]),
        ("What was Microsoft's long-term debt in FY2023?", []),
        ("What changes to its debt structure did Intel disclose?", []),
        ("What is 3M's total debt-to-equity ratio?", []),
    ],
)
def test_formulas_for_question(question: str, metrics: list[str]) -> None:
    assert list(dict.fromkeys(f.metric for f in formulas_for(question))) == metrics


def test_every_formula_input_is_a_known_line_item() -> None:
    for formula in FORMULAS:
        # "<item>_prior" is the same line item at the previous fiscal year (an average's opening balance)
        assert formula.inputs and all(base_name(name) in INPUTS for name in formula.inputs), formula.metric
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


def test_total_debt_and_its_change_from_microsoft_balance_sheets() -> None:
    """ "Has Microsoft increased its debt?": its debt is the current portion plus the long-term debt, and
    an amount's change is stated in dollars too (the long-term part fell 10.7%, the whole 5.1%)."""
    items = [_page_item("MICROSOFT_2022_10K", 58, "FY2022"), _page_item("MICROSOFT_2023_10K", 59, "FY2023")]
    items = [i | {"ticker": "MSFT", "label": f"10K{n}"} for n, i in enumerate(items, 1)]
    formulas = formulas_for("Has Microsoft increased its debt on balance sheet between FY2023 and FY2022?")
    levels = compute_formulas(formulas, read_line_items(items, input_items(formulas)))
    assert [(c["period"], c["expression"], c["result_text"]) for c in levels] == [
        ("FY2022", "2749 + 47032", "$49,781 million"),
        ("FY2023", "5247 + 41990", "$47,237 million"),
    ]
    moved, change = formula_changes(levels)
    assert describe_calculation(moved) == "total debt change FY2022 -> FY2023: -$2,544 million"
    assert describe_calculation(change) == "total debt change FY2022 -> FY2023: -5.1% (-$2,544 million)"
    assert moved["expression"] == "diff(47237.0, 49781.0)" and moved["unit"] == "USD millions"
    from finagent.agent.answer.choose import Read
    from finagent.agent.answer.compute import evidence_opening as _opening
    from finagent.agent.answer.listing import computed_lines as _computed_lines
    from finagent.finance.ask.asks import read_ask

    listed = _computed_lines([*levels, moved, change]).splitlines()
    assert [line.split(" (computed")[0] for line in listed[3:]] == [
        "- MSFT total debt change FY2022 -> FY2023: -5.1% (-$2,544 million)"  # the difference once
    ]

    question = "Has Microsoft increased its debt on balance sheet between FY2023 and the FY2022 period?"
    ask = read_ask(question, ["MSFT"], {}, [])
    analysis = {"question": question, "ask": ask.to_dict(), "names": {"MSFT": ["MSFT", "Microsoft"]}}
    state: Any = {"analysis": analysis, "targets": []}
    assert _opening(state, Read(items, 0, calculations=[*levels, moved, change])) == (
        "No (computed from the figures: Microsoft's total debt declined 5.1% (-$2,544 million) from "
        "$49,781 million in FY2022 to $47,237 million in FY2023 (computed: growth(49781.0, 47237.0)) "
        "[10K1, 10K2])."
    )


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
        # Its ratios read capital expenditure, revenue, net income and assets from their statements.
        (
            "Is 3M a capital-intensive business based on FY2022 data?",
            None,
            ["cash_flow", "income_statement", "balance_sheet"],
        ),
        # Income-statement words add wording but do not route (they fill narrative pages too).
        ("How did Apple's revenue change in Q2?", "total net sales", []),
        ("Using the income statement, what was revenue?", "total net sales", ["income_statement"]),
        ("Is Boeing's business subject to cyclicality?", None, []),
    ],
)
def test_vocabulary_phrases_and_statement_routing(
    question: str, phrase: str | None, statements: list[str]
) -> None:
    from finagent.agent.understand.vocabulary import statement_phrases, statements_for

    if phrase is not None:
        assert statement_phrases(question) == [phrase]
    assert statements_for(question) == statements


def test_average_of_a_computed_metric_over_the_years_asked() -> None:
    from finagent.finance.compute.formula_values import average_over_periods

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


# The definitions FinanceBench questions spell out, and the formula each one selects.
DEFINITIONS = [
    (
        "what is FY2020 days payable outstanding (DPO) for Corning? DPO is defined as: 365 * (average "
        "accounts payable between FY2019 and FY2020) / (FY2020 COGS + change in inventory between FY2019 "
        "and FY2020).",
        "days payable outstanding",
        "365 * ({accounts_payable} + {accounts_payable_prior}) / 2 / ({cost_of_revenue} + {inventories}"
        " - {inventories_prior})",
    ),
    (
        "What is Kraft Heinz's FY2019 inventory turnover ratio? Inventory turnover ratio is defined as: "
        "(FY2019 COGS) / (average inventory between FY2018 and FY2019).",
        "inventory turnover",
        "{cost_of_revenue} / (({inventories} + {inventories_prior}) / 2)",
    ),
    (
        "what is Lockheed Martin's FY2020 asset turnover ratio? Asset turnover ratio is defined as: FY2020 "
        "revenue / (average total assets between FY2019 and FY2020).",
        "asset turnover",
        "{revenue} / (({total_assets} + {total_assets_prior}) / 2)",
    ),
    (
        "what is General Mills's FY2020 working capital ratio? Define working capital ratio as total "
        "current assets divided by total current liabilities.",
        "current ratio",
        "{current_assets} / {current_liabilities}",
    ),
    (
        "what is the FY2022 retention ratio (using total cash dividends paid and net income attributable "
        "to shareholders) for General Mills?",
        "retention ratio",
        "({net_income} - abs({dividends})) / {net_income}",
    ),
    (
        "what is Nike's three year average of cost of goods sold as a % of revenue from FY2016 to FY2018?",
        "cost of goods sold % of revenue",
        "{cost_of_revenue} / {revenue} * 100",
    ),
]


@pytest.mark.parametrize(("question", "metric", "expression"), DEFINITIONS)
def test_a_question_that_defines_its_metric_is_computed_by_that_definition(
    question: str, metric: str, expression: str
) -> None:
    (formula,) = [f for f in formulas_for(question) if f.metric == metric][:1]
    assert formula.expression == expression
    assert {f.metric for f in formulas_for(question)} == {metric}  # no textbook formula beside it


def test_the_cash_conversion_cycle_as_defined_uses_averages_and_the_inventory_change() -> None:
    question = (
        "What is the FY2019 cash conversion cycle (CCC) for General Mills? CCC is defined as: DIO + DSO - "
        "DPO. DIO is defined as: 365 * (average inventory between FY2018 and FY2019) / (FY2019 COGS). DSO "
        "is defined as: 365 * (average accounts receivable between FY2018 and FY2019) / (FY2019 Revenue). "
        "DPO is defined as: 365 * (average accounts payable between FY2018 and FY2019) / (FY2019 COGS + "
        "change in inventory between FY2018 and FY2019)."
    )
    (formula,) = formulas_for(question)
    assert formula.metric == "cash conversion cycle" and formula.defined
    assert needs_prior([formula]) == {"inventories", "receivables", "accounts_payable"}


def test_average_balances_come_from_the_previous_year_column_and_stay_period_true() -> None:
    balance = _item(
        "Consolidated Balance Sheets (in millions)\n"
        "Item | 2020 | 2019\n"
        "Inventories | 2,438 | 2,320\n"
        "Accounts payable | 1,174 | 1,456\n"
        "Total assets | 30,775 | 29,533",
        label="10K1",
        period="FY2020",
    )
    income = _item(
        "Consolidated Statements of Income (in millions)\nItem | 2020 | 2019\nCost of sales | 7,772 | 7,468",
        label="10K2",
        period="FY2020",
    )
    question = DEFINITIONS[0][0]
    formulas = formulas_for(question)
    inputs = with_prior_years(
        read_line_items([balance, income], input_items(formulas), sorted(needs_prior(formulas)))
    )
    values = inputs[("MMM", "FY2020")]
    assert values["accounts_payable_prior"]["value"] == 1456 and values["accounts_payable"]["value"] == 1174
    assert values["inventories_prior"]["period"] == "FY2019"  # read by its own column's period
    (dpo,) = compute_formulas(formulas, inputs)
    expected = 365 * ((1174 + 1456) / 2) / (7772 + 2438 - 2320)
    assert dpo["result"] == pytest.approx(expected) and dpo["result_text"] == f"{expected:.1f} days"


def test_the_previous_years_own_report_is_preferred_and_is_not_itself_answered() -> None:
    def value(amount: float, unit: str = "USD millions") -> dict[str, Any]:
        return {"value": amount, "unit": unit, "source": "10K1"}

    formulas = formulas_for(DEFINITIONS[2][0])  # asset turnover on average total assets
    inputs = {
        ("LMT", "FY2020"): {
            "revenue": value(65398),
            "total_assets": value(50710),
            "total_assets_prior": value(1),
        },
        ("LMT", "FY2019"): {"revenue": value(59812), "total_assets": value(47528)},
    }
    (turnover,) = compute_formulas(formulas, with_prior_years(inputs))  # FY2019 is only an opening balance
    assert turnover["period"] == "FY2020"
    assert turnover["result"] == pytest.approx(65398 / ((50710 + 47528) / 2))


def test_inputs_in_different_scales_are_converted_before_they_are_combined() -> None:
    inputs = {
        ("GIS", "FY2020"): {
            "current_assets": {"value": 7_806_000, "unit": "USD thousands", "source": "10K1"},
            "current_liabilities": {"value": 11.5, "unit": "USD billions", "source": "10K2"},
        }
    }
    (ratio,) = compute_formulas(formulas_for("working capital ratio"), inputs)
    assert ratio["result"] == pytest.approx(7_806_000e3 / 11.5e9)


def test_the_figures_answer_computes_the_questions_own_metric_from_its_period_true_figures() -> None:
    """The figures path reads each year's line items by period; the formula and the multi-year mean
    are the calculator's (General Mills' "working capital ratio", Nike's "COGS as a % of revenue")."""
    from finagent.finance.compute.formula_values import formula_results
    from finagent.finance.compute.formulas import metrics_for_formulas
    from finagent.finance.lines import REPORTED

    question = "What is General Mills's FY2020 working capital ratio? Define working capital ratio as ..."
    assert metrics_for_formulas(formulas_for(question), list(REPORTED)) == [
        "current_assets",
        "current_liabilities",
    ]
    rows = [
        ("GIS", "FY2020", "current_assets", 5121.3, "USD millions", "10K1"),
        ("GIS", "FY2020", "current_liabilities", 7491.5, "USD millions", "10K1"),
    ]
    (ratio,) = formula_results(question, formulas_for(question), rows)
    assert ratio["metric"] == "current ratio" and ratio["result_text"] == "0.68"

    question = (
        "what is Nike's three year average of cost of goods sold as a % of revenue from FY2016 to FY2018?"
    )
    rows = [
        ("NKE", f"FY{year}", metric, value, "USD millions", "10K5")
        for year, cogs, revenue in ((2016, 17405, 32376), (2017, 19038, 34350), (2018, 20441, 36397))
        for metric, value in (("cost_of_revenue", cogs), ("revenue", revenue))
    ]
    results = {r["metric"]: r for r in formula_results(question, formulas_for(question), rows)}
    mean = results["average cost of goods sold % of revenue"]
    assert mean["period"] == "FY2016-FY2018" and mean["result_text"] == "55.1%"


def test_a_judgements_ratios_are_computed_from_the_statements_rows() -> None:
    """Growth reads the previous year's column of the same statement; capital intensity reads capital
    expenditure against revenue, and the ratios shown beside it, each from its own statement."""
    income = _item(
        "Consolidated Statement of Earnings (in millions)\n"
        "Item | 2022 | 2021\n"
        "Sales to customers | 94,943 | 93,775\n"
        "Net earnings | 17,941 | 20,878",
        period="FY2022",
    )
    (growth,) = compute_formulas(
        formulas := formulas_for("Are JnJ's FY2022 financials that of a high growth company?"),
        read_line_items([income], input_items(formulas), sorted(needs_prior(formulas))),
    )
    assert growth["metric"] == "revenue growth" and growth["result_text"] == "1.2%"
    balance = _item(
        "Balance sheet (in millions)\nItem | 2022 | 2021\nTotal assets | 46,455 | 47,072\n"
        "Property, plant and equipment net | 9,178 | 9,429",
        period="FY2022",
    )
    cash = _item(
        "Cash flows (in millions)\nItem | 2022 | 2021\nPurchases of property, plant and equipment"
        " (PP&E) | (1,749) | (1,603)",
        period="FY2022",
    )
    sales = _item(
        "Statement of income (in millions)\nItem | 2022 | 2021\nNet sales | 34,229 | 35,355\n"
        "Net income | 5,777 | 5,921",
        period="FY2022",
    )
    formulas = formulas_for("Is 3M a capital-intensive business based on FY2022 data?")
    results = {
        c["metric"]: c["result_text"]
        for c in compute_formulas(formulas, read_line_items([balance, cash, sales], input_items(formulas)))
    }
    assert results == {
        "capital expenditure % of revenue": "5.1%",
        "fixed assets % of total assets": "19.8%",
        "total assets to revenue": "1.36",
        "return on assets": "12.4%",
    }


def test_inventory_turnover_uses_the_average_inventory_when_the_opening_balance_is_read() -> None:
    """The textbook turnover is cost of sales over the year's average inventory (J&J FY2022: 31,089 /
    ((12,483 + 10,387) / 2) = 2.72); with no previous-year column, the year-end balance."""
    question = "Roughly how many times has JnJ sold its inventory in FY2022? Calculate inventory turnover."
    formulas = formulas_for(question)
    both = _item(
        "Statement (in millions)\nItem | 2022 | 2021\nCost of products sold | 31,089 | 29,855\n"
        "Inventories | 12,483 | 10,387",
        period="FY2022",
    )
    (turnover,) = compute_formulas(
        formulas, read_line_items([both], input_items(formulas), sorted(needs_prior(formulas)))
    )
    assert turnover["result_text"] == "2.72" and turnover["expression"] == "31089 / ((12483 + 10387) / 2)"
    alone = _item(
        "Statement (in millions)\nItem | 2022\nCost of products sold | 31,089\nInventories | 12,483",
        period="FY2022",
    )
    (year_end,) = compute_formulas(
        formulas, read_line_items([alone], input_items(formulas), sorted(needs_prior(formulas)))
    )
    assert year_end["result_text"] == "2.49"


def test_the_model_is_asked_for_the_lines_of_a_metric_nothing_computes() -> None:
    """Capital intensity's deciding ratio needs capital expenditure: that the ratios shown beside it
    could be computed does not make it any less missing."""
    from finagent.agent.answer.choose import _uncomputed_lines

    formulas = formulas_for("Is 3M a capital-intensive business based on FY2022 data?")
    have: dict[str, Any] = {name: {} for name in ("revenue", "ppe_net", "total_assets", "net_income")}
    assert [line.name for line in _uncomputed_lines(formulas, have)] == ["capex"]
    assert _uncomputed_lines(formulas, have | {"capex": {}}) == []
    margins = formulas_for("gross margin")  # two formulas of one metric: either will do
    assert _uncomputed_lines(margins, {"revenue": {}, "cost_of_revenue": {}}) == []


def test_a_guarantor_groups_balance_sheet_is_not_the_companys() -> None:
    """Amcor's 10-K prints a deed of cross guarantee balance sheet (current assets $477 million) beside
    the consolidated one ($5,308 million): ranked first or not, the part is not the company."""
    guarantee = _page_item("AMCOR_2023_10K", 106, "FY2023") | {"fused_score": 0.9}
    consolidated = _page_item("AMCOR_2023_10K", 51, "FY2023") | {"fused_score": 0.4}
    assert guarantee["statement"] == consolidated["statement"] == "balance_sheet"
    formulas = formulas_for("What is AMCOR's working capital in FY2023?")
    inputs = read_line_items([guarantee, consolidated], input_items(formulas))
    assert inputs[("MMM", "FY2023")]["current_assets"]["value"] == 5308
    (capital,) = compute_formulas(formulas, inputs)
    assert capital["result"] == 5308 - 4476
    # its inventories line is the guarantor group's; the company's are its two parts, summed: the
    # quick ratio is the company's alone, never mixed from the two
    quick = formulas_for("Has AMCOR's quick ratio improved between FY2022 and FY2023?")
    lines = read_line_items([guarantee, consolidated], input_items(quick))
    assert lines[("MMM", "FY2023")]["inventories"]["value"] == 992 + 1221
    (ratio,) = compute_formulas(quick, lines)
    assert ratio["expression"] == "(5308 - 2213) / 4476" and ratio["result_text"] == "0.69"


def test_the_table_that_states_a_formulas_lines_ranks_before_one_that_only_looks_like_it() -> None:
    """Verizon's asset-backed debt table is classified a balance sheet too; the quick ratio's lines are
    in the balance sheet proper, which must take the period's place."""
    from finagent.agent.answer.passages import favour_line_items
    from finagent.agent.evidence import share_evidence

    look_alike = _item(
        "Assets and liabilities of asset-backed debt (in millions)\nItem | 2022 | 2021\n"
        "Accounts receivable | 10,104 | 9,300\nLong-term debt | 9,500 | 8,100",
        period="FY2022",
        statement="balance_sheet",
        fused_score=0.9,
        chunk_id=1,
    )
    proper = _item(
        "Consolidated Balance Sheets (in millions)\nItem | 2022 | 2021\n"
        "Total current assets | 37,857 | 36,728\nInventories | 2,388 | 3,055\n"
        "Total current liabilities | 50,171 | 47,160",
        period="FY2022",
        statement="balance_sheet",
        fused_score=0.2,
        chunk_id=2,
    )
    formulas = formulas_for("Does Verizon have a healthy liquidity profile based on its quick ratio?")
    (chosen,), _ = share_evidence(favour_line_items([look_alike, proper], formulas), per_period=1)
    assert chosen["chunk_id"] == 2
    (unlifted,), _ = share_evidence([look_alike, proper], per_period=1)
    assert unlifted["chunk_id"] == 1


def test_a_line_copied_for_a_later_year_than_its_report_is_no_reported_figure() -> None:
    from finagent.finance.check.copied_figures import after_its_report

    report = {"label": "10K1", "period_label": "FY2022"}
    assert after_its_report({"period": "FY2023", "value": 2439}, report)  # AMCOR's inventories, copied
    assert not after_its_report({"period": "FY2022", "value": 2439}, report)
    assert not after_its_report({"period": "FY2021", "value": 2075}, report)  # the comparative column
    assert not after_its_report({"period": "FY2023", "value": 1.4}, {"period_label": "Q1 FY2023"})
    assert not after_its_report({"period": "FY2023", "value": 1}, None)


def test_lines_are_read_from_the_statement_under_its_own_title_before_a_notes_table_of_them() -> None:
    """Verizon's note on asset-backed debt says its table is "included in our consolidated balance
    sheets" and ranks higher; its $13,906 million of receivables are not the company's $24,506."""
    note = _item(
        "The assets and liabilities related to our asset-backed debt arrangements included in our "
        "consolidated balance sheets were as follows: (dollars in millions)\nItem | 2022 | 2021\n"
        "Accounts receivable, net | 13,906 | 10,705\nTotal current assets | 14,000 | 11,000\n"
        "Total current liabilities | 500 | 400",
        period="FY2022",
        fused_score=0.9,
    )
    sheet = _item(
        "Consolidated Balance Sheets Verizon Communications Inc. and Subsidiaries (dollars in millions)\n"
        "At December 31, | 2022 | 2021\nCash and cash equivalents | 2,605 | 2,921\n"
        "Accounts receivable, net | 24,506 | 23,846\nInventories | 2,388 | 3,055\n"
        "Total current assets | 37,857 | 36,728\nTotal current liabilities | 50,171 | 47,160",
        period="FY2022",
        fused_score=0.2,
    )
    assert note["statement"] == sheet["statement"] == "balance_sheet"
    formulas = formulas_for(
        "Does Verizon have a reasonably healthy liquidity profile based on its quick ratio for FY 2022?"
    )
    results = {
        c["metric"]: c["result_text"]
        for c in compute_formulas(formulas, read_line_items([note, sheet], input_items(formulas)))
    }
    assert results == {"quick ratio": "0.71", "cash-and-receivables quick ratio": "0.54"}
    # the stricter ratio is shown only when liquidity is judged
    assert [f.metric for f in formulas_for("What was AMCOR's quick ratio in FY2023?")] == ["quick ratio"]


def test_the_figures_path_reads_an_averages_opening_balance_from_the_statements_prior_year_column() -> None:
    """J&J's FY2022 figures hold no FY2021 inventory: its turnover is 2.72 over the average inventory
    (the balance sheet's 2021 column), not 2.49 over the year-end one."""
    from finagent.agent.answer.compute import _opening_balances

    sheet = _item(
        "Consolidated Balance Sheets (in millions)\nItem | 2022 | 2021\nInventories | 12,483 | 10,387\n"
        "Total current assets | 55,294 | 60,979",
        period="FY2022",
        chunk_id=7,
    )
    formulas = formulas_for("Calculate JnJ's inventory turnover ratio for FY2022")
    inputs = {
        ("MMM", "FY2022"): {
            "cost_of_revenue": {"value": 31089.0, "unit": "USD millions", "source": "10K1"},
            "inventories": {"value": 12483.0, "unit": "USD millions", "source": "10K1"},
        }
    }
    assert compute_formulas(formulas, inputs)[0]["result_text"] == "2.49"
    _opening_balances(inputs, formulas, [sheet])
    assert compute_formulas(formulas, inputs)[0]["result_text"] == "2.72"


def test_a_line_printed_only_as_its_parts_is_their_sum_labelled_so() -> None:
    """Amcor's balance sheet prints "Inventories, net" as raw materials and finished goods, with no
    total row: its FY2023 quick ratio is 0.69, read from their sum (2,213), not left uncomputed."""
    sheet = _item(
        "Amcor plc and Subsidiaries Consolidated Balance Sheets ($ in millions)\n"
        "As of June 30, | 2023 | 2022\n"
        "Cash and cash equivalents | $689 | $775\nTrade receivables, net | 1,875 | 1,935\nInventories, net\n"
        "Raw materials and supplies | 992 | 1,114\nWork in process and finished goods | 1,221 | 1,325\n"
        "Prepaid expenses and other current assets | 531 | 512\nTotal current assets | 5,308 | 5,853\n"
        "Total current liabilities | 4,476 | 5,103",
        period="FY2023",
    )
    formulas = formulas_for("Has AMCOR's quick ratio improved between FY2022 and FY2023?")
    inputs = read_line_items([sheet], input_items(formulas))
    inventories = inputs[("MMM", "FY2023")]["inventories"]
    assert inventories["value"] == 2213 and inventories["metric"] == "inventories (sum of 2 lines)"
    assert [c["result_text"] for c in compute_formulas(formulas, inputs)] == ["0.69"]


def test_a_computed_ratio_changes_in_percent_between_years_and_stands_when_the_prose_does_not() -> None:
    """AMCOR's quick ratio rose from 0.67 to 0.69, "a 3.4% jump": code states it, and when none of the
    model's sentences stands, the computed lines lead the quoted passages instead of vanishing."""
    from finagent.agent.answer.listing import computed_lines as _computed_lines

    def quick(period: str, result: float, text: str) -> dict[str, Any]:
        return {
            "kind": "formula",
            "ticker": "AMCR",
            "metric": "quick ratio",
            "period": period,
            "expression": "...",
            "formula": "(current_assets - inventories) / current_liabilities",
            "result": result,
            "result_text": text,
            "unit": "ratio",
            "sources": ["10K1"],
        }

    margin = quick("FY2023", 21.4, "21.4%") | {"metric": "operating margin", "unit": "percent"}
    years = [quick("FY2023", 0.691465, "0.69"), quick("FY2022", 0.669018, "0.67"), margin]
    (change,) = formula_changes(years)  # a margin moves in points: no percent change of it
    assert (change["from_period"], change["to_period"], change["result_text"]) == (
        "FY2022",
        "FY2023",
        "+3.4%",
    )
    from finagent.agent.answer.choose import Read
    from finagent.agent.answer.compute import ratio_change_opening as _ratio_change_opening

    state: Any = {"analysis": {"comparisons": {"change": True}, "names": {"AMCR": ["AMCR", "Amcor"]}}}
    opening = _ratio_change_opening(state, Read([], 0, calculations=[*years, change]))
    assert opening.startswith(
        "Amcor's quick ratio rose from 0.67 in FY2022 to 0.69 in FY2023, +3.4% (computed: "
    )
    weighed = {"about": ["has", "quick", "ratio", "impro", "decli"]}  # "improved or declined?"
    state["analysis"]["ask"] = weighed
    assert _ratio_change_opening(state, Read([], 0, calculations=[*years, change])).startswith(
        "Amcor's quick ratio improved: it rose from 0.67 in FY2022 to 0.69 in FY2023, +3.4% (computed: "
    )
    worse = [dict(c, metric="debt-to-equity ratio") for c in (*years, change)]
    assert _ratio_change_opening(state, Read([], 0, calculations=worse)).startswith(
        "Amcor's debt-to-equity ratio worsened: it rose from 0.67"
    )
    no_change: Any = {"analysis": {}}  # a question asking no change: no change sentence
    assert _ratio_change_opening(no_change, Read([], 0, calculations=[*years, change])) == ""
    lines = _computed_lines([*years[:2], change]).splitlines()
    assert lines[0] == "Computed from the statements:"
    assert "- AMCR quick ratio change FY2022 -> FY2023: +3.4% (computed: " in lines[-1]
    assert _computed_lines([]) == ""


def test_a_ratio_computed_for_its_year_is_not_taken_for_an_equal_cell_of_another_year() -> None:
    """Verizon's cash-and-receivables quick ratio for FY2022 is 0.54; a FY2021 cell of another table
    also reads 0.54. The computed ratio is the figure of its year, not "the wrong period"."""
    from finagent.agent.answer.check import period_scope
    from finagent.agent.answer.choose import Read
    from finagent.finance.check.verify import verify_answer

    sheet = _item(
        "Consolidated Balance Sheets (dollars in millions)\nAt December 31, | 2022 | 2021\n"
        "Cash and cash equivalents | 2,605 | 2,921\nAccounts receivable, net | 24,506 | 23,846\n"
        "Deferred compensation – employee stock ownership plans (ESOP) | 0.71 | 0.54\n"
        "Total current liabilities | 50,171 | 47,160",
        period="FY2022",
    )
    ratio = {
        "kind": "formula",
        "ticker": "MMM",
        "metric": "cash-and-receivables quick ratio",
        "period": "FY2022",
        "expression": "(2605 + 24506) / 50171",
        "formula": "(cash + receivables) / current_liabilities",
        "result": 27111 / 50171,
        "result_text": "0.54",
        "unit": "ratio",
        "sources": ["10K1"],
    }
    analysis = {"names": {"MMM": ["3M"]}, "calendars": {"MMM": [12, 0]}}
    state: Any = {"analysis": analysis, "targets": [{"ticker": "MMM", "label": "FY2022"}]}
    read = Read([sheet], 0, calculations=[ratio])
    line = "Figures:\n- MMM cash-and-receivables quick ratio FY2022: 0.54 (computed: (2605 + 24506) / 50171)"
    validation = verify_answer(line, [sheet], [ratio], scope=period_scope(state, read))
    assert not validation.unverified, validation.unverified


RECONCILIATION = (
    "Twelve Months Ended June 30, 2022\nTwelve Months Ended June 30, 2023\n($ million)\n"
    "Net income attributable to Amcor | 805 | 1,048\n"
    "Adjusted EBITDA, EBIT, Net income and EPS | 2,117 | 2,018\n"
    "Reconciliation of adjusted growth to comparable constant currency growth\n"
    "% growth - Adjusted EBITDA | (5) | 1\n"
    "Adjusted EBITDA | 2,117 | 2,018\n"
    "Adjusted EBIT | 1,701 | 1,608\n"
)


def test_the_line_a_what_was_question_names_is_read_from_a_year_end_release() -> None:
    """Amcor's fourth-quarter release tables the whole year: "Adjusted non-GAAP EBITDA" is its
    "Adjusted EBITDA" row, in dollars (its thousands separator says it is no percent under a growth
    heading), for FY2023; the question's line is read by code, not by the model."""
    from finagent.finance.ask.asked_lines import asked_line_facts, value_line_words
    from finagent.finance.read.report_tables import deterministic_facts

    release = {
        "ticker": "AMCR",
        "kind": "earnings_release",
        "fiscal_year": 2023,
        "fiscal_quarter": 4,
        "period_label": "Q4 FY2023",
        "period_end": "2023-06-30",
        "label": "ER1",
        "text": RECONCILIATION,
    }
    facts = deterministic_facts([release], ["adjusted non gaap ebitda"])
    assert [(f["period"], f["metric"], f["value"], f["unit"]) for f in facts] == [
        ("FY2023", "Adjusted EBITDA", 2018.0, "USD millions")
    ]
    question = value_line_words("What Was AMCOR's Adjusted Non GAAP EBITDA for FY 2023")
    assert asked_line_facts(question, facts, ["FY2023"]) == facts
    assert asked_line_facts(question, facts, ["FY2022"]) == []  # not the asked period
    why = value_line_words("Why did AMCOR's adjusted EBITDA fall in FY 2023?")
    assert why == [] and asked_line_facts(why, facts, ["FY2023"]) == []  # it asks no value
    ebit = {**facts[0], "metric": "Adjusted EBIT", "value": 1608.0}
    assert asked_line_facts(question, [ebit], ["FY2023"]) == []  # a line the question does not name


def test_the_table_printing_the_asked_line_ranks_first_among_the_passages() -> None:
    """The twelve-month reconciliation holds the asked line in the asked year: it is lifted above the
    three-month table that scored higher, so the budgeted passages the answer reads include it."""
    from finagent.agent.answer.passages import LINE_LIFT, favour_asked_lines
    from finagent.finance.ask.asked_lines import value_line_words

    base = {"ticker": "AMCR", "kind": "earnings_release", "fiscal_year": 2023, "fiscal_quarter": 4}
    base |= {"period_label": "Q4 FY2023", "period_end": "2023-06-30"}
    year = base | {"chunk_id": 2, "fused_score": 0.6, "text": RECONCILIATION}
    quarter = base | {
        "chunk_id": 1,
        "fused_score": 0.9,
        "text": "Three Months Ended June 30, 2023\nSales | 3,000",
    }
    question = value_line_words("What Was AMCOR's Adjusted Non GAAP EBITDA for FY 2023")
    lifted = favour_asked_lines([quarter, year], question, ["adjusted non gaap ebitda"], ["FY2023"])
    assert [e["fused_score"] for e in lifted] == [0.9, 0.6 + LINE_LIFT]
    why = value_line_words("Why did AMCOR's adjusted EBITDA fall in FY 2023?")
    assert favour_asked_lines([quarter, year], why, ["adjusted ebitda"], ["FY2023"]) == [quarter, year]
    other_year = favour_asked_lines([quarter, year], question, ["adjusted non gaap ebitda"], ["FY2022"])
    assert other_year == [quarter, year]


def test_a_line_read_for_its_year_and_as_the_next_years_opening_balance_is_listed_once() -> None:
    from finagent.agent.answer.choose import _merge_facts

    line = {"ticker": "AMCR", "period": "FY2022", "metric": "Total current liabilities", "value": 5103.0}
    line |= {"source": "10K1"}
    opening = {**line, "metric": "total current liabilities"}
    stated = {**line, "metric": "Inventories, net", "value": 2439.0}
    assert _merge_facts([stated], [line, opening]) == [stated, line]


def test_a_line_the_formula_reads_is_listed_in_the_value_it_reads() -> None:
    """One figure, one choice: Amcor's FY2023 inventories are the statement's two lines summed
    ($2,213 million), so a note's "Inventories" row of $60 million is not listed beside them."""
    from finagent.finance.compute.formula_values import without_other_readings

    summed = {"ticker": "AMCR", "period": "FY2023", "metric": "inventories (sum of 2 lines)", "value": 2213.0}
    inputs = {("AMCR", "FY2023"): {"inventories": summed}}
    note = {"ticker": "AMCR", "period": "FY2023", "metric": "Inventories", "value": 60.0, "source": "10K4"}
    other_year = {**note, "period": "FY2022", "value": 2439.0}
    assets = {**note, "metric": "Total current assets", "value": 5308.0}
    assert without_other_readings([note, other_year, assets], inputs) == [other_year, assets]
