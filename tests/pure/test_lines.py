"""The line registry: every path that names, looks up or computes a line reads the one definition."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.agent.understand.vocabulary import STATEMENT_TERMS, statements_for
from finagent.finance.ask.asked_metrics import computed_in, metrics_in
from finagent.finance.compute.formulas import FORMULAS, base_name, formulas_for, line_of_metric
from finagent.finance.computed import COMPUTED
from finagent.finance.line_item import CASH_FLOW
from finagent.finance.lines import INPUTS, LINES, REPORTED, input_of, line
from finagent.finance.read.lookup import PeriodWanted, select
from finagent.finance.words import rise_is_better
from tests.pure.test_finance_figures import stored


def test_every_name_resolves_to_one_line() -> None:
    names = [item.name for item in LINES]
    inputs = [item.input for item in LINES if item.input]
    assert len(set(names)) == len(names) and len(set(inputs)) == len(inputs)
    for name in REPORTED:
        assert line(name) is REPORTED[name]
    for name, item in INPUTS.items():
        assert line(name) is item
        # a formula's name for a line is no other line's name
        assert name not in names or line(name).name == name


def test_the_formula_names_of_reported_metrics() -> None:
    assert [input_of(n) for n in ("inventory", "equity", "dividends_paid")] == [
        "inventories",
        "total_equity",
        "dividends",
    ]
    assert input_of("eps_diluted") is None and input_of("no_such_line") is None
    assert line_of_metric("inventories") == "inventories"  # a formula's own name is its line too


def test_every_formula_reads_registry_lines() -> None:
    for formula in FORMULAS:
        assert formula.inputs, formula.metric
        for name in formula.inputs:
            assert base_name(name) in INPUTS, (formula.metric, name)
            assert INPUTS[base_name(name)].input_rows, name  # a formula reads it from statement rows


def test_computed_metrics_read_reported_lines() -> None:
    for computed in COMPUTED.values():
        assert all(name in REPORTED for name in computed.inputs), computed.name
        assert all(INPUTS[name] is REPORTED[name] for name in computed.inputs), computed.name


def test_margins_are_defined_once() -> None:
    """The formula path's margins and free cash flow are the computed definitions, none besides."""
    for computed in COMPUTED.values():
        formulas = [f for f in FORMULAS if f.metric == computed.formula]
        assert [f.expression for f in formulas] == list(computed.expressions)
        assert all(f.cue.pattern == computed.cue and f.unit == computed.unit for f in formulas)
    margins = {f.metric for f in FORMULAS if f.metric.endswith(" margin") and f.metric != "EBITDA margin"}
    assert margins == {c.formula for c in COMPUTED.values() if c.helper == "margin"}


def test_profit_margin_is_a_net_margin_on_the_reported_path_only() -> None:
    """A known difference of the two paths, kept as it was: the formula path's cue needs "net"."""
    question = "What was Nike's profit margin in FY2023?"
    assert computed_in(question) == ["net_margin"]
    assert "net margin" not in {f.metric for f in formulas_for(question)}
    assert {f.metric for f in formulas_for("Nike's net profit margin")} == {"net margin"}


def test_concepts_are_qualified_by_their_taxonomy() -> None:
    for item in LINES:
        assert all(c.startswith("us-gaap:") for c in (*item.concepts, *item.parts)), item.name
        assert all(c.startswith("ifrs-full:") for c in item.ifrs_concepts), item.name
        assert set(item.parts) <= set(item.concepts), item.name
    for name in (
        "revenue",
        "net_income",
        "gross_profit",
        "operating_income",
        "total_assets",
        "equity",
        "cash",
    ):
        assert REPORTED[name].ifrs_concepts, name


@pytest.mark.parametrize("name", sorted(REPORTED))
def test_the_lookup_reads_the_registry_concepts(name: str) -> None:
    """A fact tagged with the line's first concept is the line's figure; another concept is not."""
    item = REPORTED[name]
    period = (None, date(2023, 9, 30)) if item.instant else (date(2022, 10, 1), date(2023, 9, 30))
    unit = {"money": "USD", "per_share": "USD/shares", "shares": "shares"}[item.unit]
    kept = stored(1, "5", *period, concept=item.concepts[0], unit=unit, statement=item.statement)
    other = stored(2, "7", *period, concept="us-gaap:SomethingElse", unit=unit, statement=item.statement)
    chosen = select([other, kept], item, PeriodWanted(2023))
    assert chosen is not None and chosen.fact.id == 1
    assert select([other], item, PeriodWanted(2023)) is None


def test_higher_is_better_agrees_with_the_direction_words() -> None:
    """The registry's direction of each line is the one a change sentence reads from its name."""
    for item in LINES:
        assert item.higher_is_better == rise_is_better(item.name), item.name


def test_search_terms_route_lines_to_their_statements() -> None:
    by_phrase = {phrase: statement for _, phrase, statement in STATEMENT_TERMS}
    assert by_phrase["purchases of property and equipment"] == REPORTED["capex"].statement == CASH_FLOW
    assert by_phrase["inventories"] == REPORTED["inventory"].statement
    assert statements_for("What was Apple's capex in FY2023?") == [CASH_FLOW]


def test_a_question_names_registry_lines() -> None:
    assert metrics_in("gross margin and inventories of Costco") == ["gross_profit", "revenue", "inventory"]


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        ("How much premium revenue did the insurer book in 2024?", ["premiums"]),
        ("What were Travelers' net premiums earned in 2023?", ["premiums"]),
        ("What were the company's premiums and total revenue in 2024?", ["premiums", "revenue"]),
        ("Did the brand's premium pricing lift revenue in 2024?", ["revenue"]),
    ],
)
def test_an_insurers_premiums_are_a_line_of_their_own(question: str, metrics: list[str]) -> None:
    assert metrics_in(question) == metrics
    assert "us-gaap:PremiumsEarnedNet" in REPORTED["premiums"].read_concepts
