"""Line items a FinanceBench formula needs, read from real statement pages by period: statements of
flows headed by dates alone, parenthetical row notes, payments in parentheses, balances never read
from a statement of flows, and rows that only look like net income."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from finagent.agent.answer.columns import in_its_column, table_figures
from finagent.finance.ask.asked_metrics import metrics_in
from finagent.finance.compute.formula_values import formula_results
from finagent.finance.compute.formulas import formulas_for
from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.looked_up import Gap
from finagent.finance.periods.period import FiscalPeriod
from finagent.finance.read.statement_titles import classify_statement
from finagent.finance.read.tables import PeriodTarget, cell_for, parse_table, stated_scale
from tests.helpers import financebench_page_chunks

DECEMBER = FiscalCalendar(12)
MAY = FiscalCalendar(5)

KHC_INCOME = ("KRAFTHEINZ_2019_10K", 49)
KHC_BALANCE = ("KRAFTHEINZ_2019_10K", 51)
KHC_CASH_FLOW = ("KRAFTHEINZ_2019_10K", 53)
KHC_CONSOLIDATING_2018 = ("KRAFTHEINZ_2019_10K", 111)
GIS_EARNINGS = ("GENERALMILLS_2022_10K", 44)
GIS_COMPREHENSIVE = ("GENERALMILLS_2022_10K", 45)
GIS_INVESTING = ("GENERALMILLS_2020_10K", 27)


def _items(ticker: str, *pages: tuple[str, int]) -> list[dict[str, Any]]:
    """Evidence items as the search node gives them, one per real page, ranked as listed."""
    chunks = financebench_page_chunks(pages)
    items = []
    for rank, page in enumerate(pages):
        chunk = chunks[page]
        items.append(
            {
                "ticker": ticker,
                "kind": "10-K",
                "text": chunk.text,
                "statement": classify_statement(chunk.text, chunk.metadata.get("caption")),
                "fused_score": 1.0 - rank / 10,
                "label": f"{page[0]}:{page[1]}",
                "period_label": f"FY{page[0].split('_')[1]}",
            }
        )
    return items


def _gap(ticker: str, metric: str, year: int) -> Gap:
    return Gap(ticker=ticker, metric=metric, period=FiscalPeriod.year(year), reason="")


def _read(ticker: str, calendar: FiscalCalendar, items: list[dict[str, Any]], year: int, *metrics: str):
    fye = 5 if calendar is MAY else 12
    cells, remaining = table_figures([_gap(ticker, m, year) for m in metrics], items, {ticker: [fye, 0]})
    return {(c.metric, c.period.label): c for c in cells}, [g.metric for g in remaining]


@pytest.mark.shared
def test_statement_of_income_headed_by_dates_is_read_as_years() -> None:
    """Kraft Heinz heads its statements of income and cash flows by dates alone, as a balance sheet."""
    chunk = financebench_page_chunks([KHC_INCOME])[KHC_INCOME]
    table = parse_table(chunk.text, chunk.metadata.get("caption"), form="10-K")
    assert table is not None and table.flows
    year = PeriodTarget(2019, None, "year")
    sales = cell_for(table, "net sales", year, DECEMBER)
    cost = cell_for(table, "cost of products sold", year, DECEMBER)
    assert sales is not None and sales.value == Decimal("24977")
    assert cost is not None and cost.value == Decimal("16830")
    assert cell_for(table, "net sales", PeriodTarget(2019, None, "instant"), DECEMBER) is None


@pytest.mark.shared
def test_formula_line_items_from_kraft_heinz_statements() -> None:
    items = _items("KHC", KHC_CASH_FLOW, KHC_INCOME, KHC_BALANCE)
    read, missing = _read(
        "KHC",
        DECEMBER,
        items,
        2019,
        "cost_of_revenue",
        "receivables",
        "accounts_payable",
        "depreciation",
        "capex",
        "inventory",
    )
    assert missing == []
    values = {metric: cell.value / 10**6 for (metric, period), cell in read.items() if period == "FY2019"}
    assert values == {
        "cost_of_revenue": 16830,
        # "Trade receivables (net of allowances of $33 at ...)", not the cash flow statement's change
        "receivables": 1973,
        "accounts_payable": 4003,  # "Trade payables"
        "depreciation": 994,
        "capex": 768,  # "(768)" in the cash flow statement: $768 million spent
        "inventory": 2721,
    }
    assert read[("receivables", "FY2019")].sources == ("KRAFTHEINZ_2019_10K:51",)  # the balance sheet


@pytest.mark.shared
def test_inventory_turnover_of_kraft_heinz_with_the_questions_definition() -> None:
    question = (
        "What is Kraft Heinz's FY2019 inventory turnover ratio? Inventory turnover ratio is defined as: "
        "(FY2019 COGS) / (average inventory between FY2018 and FY2019). Round your answer to two "
        "decimal places."
    )
    assert {"inventory", "cost_of_revenue"} <= set(metrics_in(question))
    read, _ = _read(
        "KHC", DECEMBER, _items("KHC", KHC_INCOME, KHC_BALANCE), 2019, "cost_of_revenue", "inventory"
    )
    figures = [("KHC", c.period.label, c.metric, float(c.value), "USD", c.sources[0]) for c in read.values()]
    results = [
        r for r in formula_results(question, formulas_for(question), figures) if r["period"] == "FY2019"
    ]
    assert results and round(results[0]["result"], 2) == 6.25  # FinanceBench's answer


@pytest.mark.shared
def test_net_income_is_not_a_comprehensive_income_line() -> None:
    """ "Net actuarial income (loss)" has the words "net" and "income"; the net earnings row is
    "Net earnings attributable to General Mills"."""
    items = _items("GIS", GIS_COMPREHENSIVE, GIS_EARNINGS)
    read, missing = _read("GIS", MAY, items, 2022, "net_income")
    assert missing == []
    assert read[("net_income", "FY2022")].value == Decimal("2707.3") * 10**6


@pytest.mark.shared
def test_capex_row_named_by_the_company() -> None:
    read, missing = _read("GIS", MAY, _items("GIS", GIS_INVESTING), 2020, "capex")
    assert missing == [] and read[("capex", "FY2020")].value == Decimal("460.8") * 10**6


@pytest.mark.shared
def test_a_copied_value_from_a_table_of_another_year_is_refused() -> None:
    """A consolidating table "For the Year Ended December 29, 2018" has no period columns: a value
    the model copies from it is not fiscal 2019's."""
    [item] = _items("KHC", KHC_CONSOLIDATING_2018)
    assert stated_scale(item["text"]) == 6
    assert not in_its_column(item, Decimal("26268"), "FY2019", 2019, {"KHC": [12, 0]})
    assert in_its_column(item, Decimal("26268"), "FY2018", 2018, {"KHC": [12, 0]})


def test_formula_questions_name_their_line_items() -> None:
    assert metrics_in("What is the FY2018 amount of accounts payable for MGM Resorts?") == [
        "accounts_payable"
    ]
    assert "depreciation" in metrics_in(
        "Define unadjusted EBITDA as unadjusted operating income + depreciation and amortization"
    )
    assert "receivables" in metrics_in("average accounts receivable between FY2018 and FY2019")


@pytest.mark.shared
def test_the_reports_own_balance_sheet_is_read_before_an_investees_filed_after_its_signatures() -> None:
    """MGM's 10-K for 2018 files CityCenter Holdings' balance sheet as Exhibit 99.3: its accounts
    payable ($25,758 thousand) are CityCenter's, MGM's are $302,578 thousand in Item 8."""
    items = _items("MGM", ("MGMRESORTS_2018_10K", 173), ("MGMRESORTS_2018_10K", 56))
    assert "CITYCENTER" in items[0]["text"] and items[0]["statement"] == items[1]["statement"]
    items[0]["section"], items[1]["section"] = "exhibits", "item_8"  # as the corpus build files them
    cells, missing = _read("MGM", DECEMBER, items, 2018, "accounts_payable")
    assert not missing and cells[("accounts_payable", "FY2018")].value == Decimal("302578000")


def test_a_balance_and_its_comparative_column_are_labelled_alike() -> None:
    """A balance read from a balance sheet and the year-earlier column beside it are both named by
    their fiscal year ("FY2019", as the XBRL facts name a comparative), not "FY2019 end"."""
    item = {
        "ticker": "X",
        "kind": "10-K",
        "label": "10K1",
        "period_label": "FY2020",
        "statement": "balance_sheet",
        "text": "Consolidated Balance Sheets\n(in millions) | December 31, 2020 | December 31, 2019\n"
        "Total current assets | 10,000 | 9,000\nTotal assets | 30,775 | 29,533",
    }
    cells, remaining = table_figures([_gap("X", "total_assets", 2020)], [item], {"X": [12, 0]})
    assert [(c.period.label, c.role, c.value) for c in cells] == [
        ("FY2020", "target", Decimal("30775000000")),
        ("FY2019", "comparative", Decimal("29533000000")),
    ]
    assert remaining == []
