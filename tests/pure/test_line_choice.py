"""Which candidate concept states a line: the statement's row for the line, then a displayed concept,
then one not implausibly small, then the vocabulary's order; per-share figures stated per class."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from finagent.finance.fact_records import StoredFact
from finagent.finance.lines import REPORTED
from finagent.finance.read.line_choice import line_used, preferred_concept, row_key, shown_on_statement
from finagent.finance.read.share_classes import class_name, class_reading, latest_by_class

RD = "us-gaap:ResearchAndDevelopmentExpense"
RD_OWN = "us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"
EPS = "us-gaap:EarningsPerShareDiluted"


def fact(
    id: int,
    concept: str,
    value: str,
    *,
    label: str | None = None,
    statement: str | None = None,
    dims: str = "",
) -> StoredFact:
    return StoredFact(
        id=id,
        ticker="X",
        concept=concept,
        value=Decimal(value),
        unit="USD/shares" if "PerShare" in concept else "USD",
        decimals=-6,
        period_start=date(2024, 1, 1),
        period_end=date(2024, 12, 31),
        duration="year",
        fiscal_year=2024,
        fiscal_quarter=None,
        label=label,
        statement=statement,
        dims_key=dims,
    )


def choose(*facts: StoredFact) -> str:
    rd = REPORTED["rd"]
    return preferred_concept(facts, rd, shown_on_statement(facts, rd))


def test_row_wording_is_compared_loosely() -> None:
    assert row_key("Research & development expenses (1)") == "research and development"
    assert row_key("Acquired in-process research and development") != "research and development"


def test_the_row_worded_as_the_line_wins_over_another_displayed_row() -> None:
    charge = fact(
        1, RD, "527", label="Acquired in-process research and development", statement="income_statement"
    )
    own = fact(2, RD_OWN, "3162", label="Research and development", statement="income_statement")
    assert choose(charge, own) == RD_OWN
    # Without the row (a label of other words), both displayed: the small one is not the line; of
    # close values, the vocabulary's order.
    other = fact(2, RD_OWN, "3162", label="R&D, net", statement="income_statement")
    assert choose(charge, other) == RD_OWN
    close = fact(
        1, RD, "2900", label="Acquired in-process research and development", statement="income_statement"
    )
    assert choose(close, other) == RD


def test_a_concept_only_in_a_note_loses() -> None:
    note = fact(1, RD, "50", label="Research and development", statement=None)
    own = fact(2, RD_OWN, "1600", label="Operating: research", statement="income_statement")
    assert choose(note, own) == RD_OWN


def test_an_implausibly_small_candidate_loses_when_neither_is_displayed() -> None:
    assert choose(fact(1, RD, "20"), fact(2, RD_OWN, "900")) == RD_OWN
    assert choose(fact(1, RD, "800"), fact(2, RD_OWN, "900")) == RD  # close values: the vocabulary's order


def test_the_line_read_is_named_only_when_another_candidate_disagrees() -> None:
    rd = REPORTED["rd"]
    own = fact(2, RD_OWN, "1600", label="Research and development", statement="income_statement")
    shown = shown_on_statement([own], rd)
    said = line_used(RD_OWN, [own, fact(1, RD, "50")], shown, rd.statement)
    assert said == (f'read from the income statement\'s "Research and development" line ({RD_OWN}), not {RD}')
    assert line_used(RD_OWN, [own, fact(1, RD, "1600")], shown, rd.statement) == ""


def test_share_classes() -> None:
    axis = "us-gaap:StatementClassOfStockAxis="
    a = fact(1, EPS, "5.80", dims=axis + "us-gaap:CommonClassAMember")
    b = fact(2, EPS, "5.80", dims=axis + "us-gaap:CommonClassBMember")
    assert class_name("us-gaap:CommonClassBMember") == "Class B"
    assert class_name("abc:CommonStockMember") == "Common Stock"
    assert class_reading(latest_by_class([b, a], False)) == (a, "for Class A and Class B shares alike")
    b2 = fact(2, EPS, "9.63", dims=axis + "us-gaap:CommonClassBMember")
    assert class_reading(latest_by_class([b2, a], False)) == (
        a,
        "for Class A shares (Class B shares report another figure)",
    )
    other_axis = fact(3, EPS, "1", dims="us-gaap:StatementBusinessSegmentsAxis=x:RetailMember")
    assert latest_by_class([other_axis], False) == {}


def _words(question: str, name: str) -> list[str]:
    import re

    return sorted({w[:5] for w in re.findall(r"[a-z]{3,}", f"{question} {name}".lower())})


def test_the_row_the_question_names_decides_between_the_lines_concepts() -> None:
    net = REPORTED["net_income"]
    whole = fact(1, "us-gaap:ProfitLoss", "15242", label="Net earnings", statement="income_statement")
    own = fact(
        2,
        "us-gaap:NetIncomeLoss",
        "14405",
        label="Net earnings attributable to UnitedHealth Group common shareholders",
        statement="income_statement",
    )
    facts = (whole, own)

    def chosen(question: str) -> str:
        shown = shown_on_statement(facts, net, _words(question, "UnitedHealth Group"))
        concept = preferred_concept(facts, net, shown)
        return f"{concept}: {line_used(concept, facts, shown, net.statement)}"

    attributable = chosen(
        "What net earnings attributable to its common shareholders did UnitedHealth report?"
    )
    assert attributable.startswith(
        "us-gaap:NetIncomeLoss: read from the income statement's \"Net earnings "
        'attributable to UnitedHealth Group common shareholders" line'
    )
    # naming no row beyond the line's own words, the line's own row decides, as before
    assert chosen("What was UnitedHealth's net earnings in 2024?").startswith("us-gaap:ProfitLoss")
    assert chosen("What was UnitedHealth's net income in 2024?").startswith("us-gaap:ProfitLoss")
