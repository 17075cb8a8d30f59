"""Answer verification: every figure of an answer is found in its evidence or computed from it."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from finagent.agent.evidence import assign_labels, citation_record
from finagent.finance.check.verify import (
    MARK,
    NEEDS_REVIEW,
    UNSUPPORTED,
    VERIFIED,
    FigureCheck,
    Validation,
    extract_figures,
    feedback_for,
    flag_unsupported,
    verify_answer,
)
from finagent.finance.citations import cited_labels
from finagent.finance.compute.formula_values import compute_formulas
from finagent.finance.compute.formulas import formulas_for
from finagent.finance.compute.period_changes import compute_changes
from finagent.finance.figure_records import describe_calculation, format_facts, sort_facts, summary_lines
from tests.store.test_graph import QUARTERS  # the synthetic quarters the graph tests store


def _statement(label: str, value: str, period_end: date, unit: str = "(In millions)") -> str:
    return (
        f"CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS {unit}\n"
        f"| | Three Months Ended {period_end:%B %d, %Y} | Prior year |\n"
        f"| {label} | {value} | 1,000 |\n"
        "| Cost of sales | 40,000 | 900 |\n"
        "| Operating income | 20,000 | 100 |\n"
        "| Other income (expense), net | (370) | 12 |"
    )


def _item(chunk_id: int, ticker: str, year: int, quarter: int, end: date, text: str) -> dict[str, Any]:
    """An evidence record shaped like evidence.hit_to_evidence (without the label generate assigns)."""
    return {
        "chunk_id": chunk_id,
        "document_id": chunk_id,
        "ticker": ticker,
        "kind": "10-Q",
        "fiscal_year": year,
        "fiscal_quarter": quarter,
        "period_label": f"Q{quarter} FY{year}",
        "period_end": end.isoformat(),
        "section_title": "Financial Statements",
        "page": 2,
        "statement": "income_statement",
        "text": text,
        "fused_score": 1.0,
    }


@pytest.fixture()
def items() -> list[dict[str, Any]]:
    """Labelled as generate labels them: [10Q1]..[10Q3] Apple, [10Q4]..[10Q6] Microsoft."""
    return assign_labels(
        [
            _item(100 + n, t, y, q, end, _statement(label, value, end))
            for n, (t, y, q, end, label, value) in enumerate(QUARTERS)
        ]
    )


def _facts(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    facts = []
    for item, (ticker, _, _, _, label, value) in zip(items, QUARTERS, strict=True):
        facts.append(
            {
                "ticker": ticker,
                "period": item["period_label"],
                "metric": label,
                "value": float(value.replace(",", "")),
                "unit": "USD millions",
                "source": item["label"],
                "method": "table",
            }
        )
    return sort_facts(facts)


def _compose(prose: str, facts: list[dict[str, Any]], calculations: list[dict[str, Any]]) -> str:
    """The answer as generate.finalize_answer writes it: prose, then the Figures list."""
    lines = [format_facts(facts)]
    lines += [
        f"- {c['ticker']} {describe_calculation(c)} (computed: {c['expression']})" for c in calculations
    ]
    return prose + "\n\nFigures:\n" + "\n".join(lines)


def _citations(answer: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_label = {i["label"]: i for i in items}
    return [citation_record(by_label[label]) for label in cited_labels(answer) if label in by_label]


PROSE = (
    "Apple's total net sales fell from $94.8 billion in Q2 FY2023 [10Q2] to $81.8 billion in the "
    "quarter ended July 1, 2023 [10Q3], a 13.7% decrease, while Microsoft's revenue rose 0.2% to "
    "$52,857 million in Q3 FY2023 [10Q6]."
)


def test_generated_answer_is_fully_verified(items: list[dict[str, Any]]) -> None:
    facts = _facts(items)
    calculations = compute_changes(facts)
    answer = _compose(PROSE, facts, calculations)
    validation = verify_answer(answer, items, calculations, _citations(answer, items))
    assert validation.status == VERIFIED
    assert validation.unverified == []
    assert validation.numbers_verified == validation.numbers_total >= 15
    how = {c.text: c.how for c in validation.checks}
    # billions against a table in millions, at the precision shown
    assert how["$94.8 billion"] == "evidence [10Q2]" and how["$81.8 billion"] == "evidence [10Q3]"
    assert how["$81,797 million"] == "evidence [10Q3]"
    # "a 13.7% decrease" is the calculator's growth(94836, 81797) = -13.75
    assert how["13.7%"].startswith("calculation growth(94836")
    assert how["-13.7%"] == how["13.7%"] and how["+0.2%"].startswith("calculation growth(52747")
    assert how["July 1, 2023"] == "evidence [10Q3]"  # the table header and the period end
    kinds = {c.text: c.kind for c in validation.checks}
    assert kinds["Q2 FY2023"] == "date" and kinds["13.7%"] == "percent" and kinds["$94.8 billion"] == "amount"
    assert json.loads(json.dumps(validation.to_dict()))["status"] == VERIFIED


def test_state_evidence_is_labelled_through_the_citations(items: list[dict[str, Any]]) -> None:
    """The state's evidence carries no labels; the citations map chunk ids to them."""
    facts = _facts(items)
    calculations = compute_changes(facts)
    answer = _compose(PROSE, facts, calculations)
    citations = _citations(answer, items)
    unlabelled = [{k: v for k, v in i.items() if k != "label"} for i in items]
    validation = verify_answer(answer, unlabelled, calculations, citations)
    assert validation.status == VERIFIED
    assert {c.how for c in validation.checks if c.text == "$81.8 billion"} == {"evidence [10Q3]"}


def test_invented_figure_is_unsupported_flagged_and_fed_back(items: list[dict[str, Any]]) -> None:
    facts = _facts(items)
    calculations = compute_changes(facts)
    prose = (
        "Apple's net sales were $81.8 billion [10Q3], including $42 million of one-off services "
        "revenue [10Q3]."
    )
    answer = _compose(prose, facts, calculations)
    validation = verify_answer(answer, items, calculations, _citations(answer, items))
    assert validation.status == UNSUPPORTED
    assert [c.text for c in validation.unverified] == ["$42 million"]
    assert validation.unverified[0].how.startswith("not found in cited evidence")
    assert validation.numbers_verified == validation.numbers_total - 1
    flagged = flag_unsupported(answer, validation)
    assert f"$42 million {MARK} of one-off" in flagged
    assert flagged.replace(f" {MARK}", "") == answer  # nothing else changes
    assert flagged.count(MARK) == 1
    feedback = feedback_for(validation)
    assert "$42 million" in feedback and "$81.8 billion" not in feedback
    assert feedback_for(verify_answer("Revenue was $81.8 billion [10Q3].", items, [])) == ""


def test_scale_of_the_table_is_respected() -> None:
    """A table "(In thousands)": 81,797 is $81.8 million, not $81.8 billion."""
    end = date(2023, 7, 1)
    thousands = assign_labels(
        [_item(1, "XYZ", 2023, 3, end, _statement("Total revenue", "81,797", end, "(In thousands)"))]
    )
    check = {
        text: verify_answer(f"Revenue was {text} [10Q1].", thousands, []).status
        for text in ("$81,797 million", "$81.8 billion", "$81.8 million", "$81,797 thousand", "$81,797,000")
    }
    assert check == {
        "$81,797 million": UNSUPPORTED,
        "$81.8 billion": UNSUPPORTED,
        "$81.8 million": VERIFIED,
        "$81,797 thousand": VERIFIED,
        "$81,797,000": VERIFIED,
    }
    # "$ in billions" headers and scale words written in prose evidence
    billions = assign_labels(
        [
            _item(
                2,
                "XYZ",
                2023,
                3,
                end,
                "Revenue ($ in billions)\n| Revenue | 94.9 |\nNet sales of $12.3bn rose.",
            )
        ]
    )
    assert verify_answer("Revenue was $94,900 million [10Q1].", billions, []).status == VERIFIED
    assert verify_answer("Net sales were $12.3 billion [10Q1].", billions, []).status == VERIFIED
    assert verify_answer("Net sales were $12.3 million [10Q1].", billions, []).status == UNSUPPORTED


def test_rounding_to_the_shown_precision(items: list[dict[str, Any]]) -> None:
    def status(text: str) -> str:
        return verify_answer(f"Apple's revenue was {text} [10Q2].", items, []).status

    # 94,836 million
    assert status("$94.8 billion") == VERIFIED
    assert status("$95 billion") == VERIFIED
    assert status("$94.84 billion") == VERIFIED
    assert status("$94,836 million") == VERIFIED and status("94,836") == VERIFIED
    assert status("$94.9 billion") == NEEDS_REVIEW  # off by one in the last digit: a rounding slip
    assert status("$94.5 billion") == NEEDS_REVIEW  # within 1%
    assert status("$90 billion") == UNSUPPORTED


def test_a_number_is_matched_as_a_whole_token_not_a_substring(items: list[dict[str, Any]]) -> None:
    for text in ("$1,797 million", "1,797", "$797 million", "8,179", "$81,79 million"):
        validation = verify_answer(f"Revenue was {text} [10Q3].", items, [])
        assert validation.status == UNSUPPORTED, text
    assert verify_answer("Revenue was 81,797 [10Q3].", items, []).status == VERIFIED


def test_parenthesised_negatives(items: list[dict[str, Any]]) -> None:
    for text in (
        "Other income (expense), net was (370) [10Q3].",
        "Other income (expense), net was -$370 million [10Q3].",
        "Other income (expense), net was $(370) million [10Q3].",
        "Other income (expense), net showed a $370 million decrease [10Q3].",
        "Other income (expense), net was a net expense of $370 million [10Q3].",
        "- AAPL Q3 FY2023 Other income (expense), net: $-370 million [10Q3]",  # format_value of -370
    ):
        assert verify_answer(text, items, []).status == VERIFIED, text
    explicit = verify_answer("Other income (expense), net was +$370 million [10Q3].", items, [])
    assert explicit.status == UNSUPPORTED
    assert [c.value for c in verify_answer("It was (370) [10Q3].", items, []).checks] == [-370.0]


def test_percent_changes_match_the_calculators_growth() -> None:
    end = date(2023, 7, 1)
    evidence = assign_labels(
        [
            _item(1, "XYZ", 2023, 2, date(2023, 4, 1), _statement("Revenue", "1,000", date(2023, 4, 1))),
            _item(2, "XYZ", 2023, 3, end, _statement("Revenue", "985.9", end)),
        ]
    )
    calculations = [
        {
            "ticker": "XYZ",
            "metric": "Revenue",
            "from_period": "Q2 FY2023",
            "to_period": "Q3 FY2023",
            "expression": "growth(1000.0, 985.9)",
            "result": -1.41,
            "result_text": "-1.4%",
            "sources": ["10Q1", "10Q2"],
        }
    ]

    def status(text: str) -> str:
        return verify_answer(f"Revenue {text} in Q3 FY2023 [10Q2].", evidence, calculations).status

    for ok in ("changed -1.4%", "showed a 1.4% decrease", "decreased by 1.4%", "fell 1.41%", "moved 1.4%"):
        assert status(ok) == VERIFIED, ok
    for bad in ("rose 1.4%", "showed a 1.4% increase", "changed +1.4%", "fell 2.4%"):
        assert status(bad) == UNSUPPORTED, bad


def test_a_small_percent_rounded_to_its_decimal_matches_the_calculation() -> None:
    """ "+0.3%" is 0.283% rounded: a small change shown to one decimal is the computed one, not a
    rounding slip (the 5% cap on rounding is for amounts such as "$95 billion")."""
    end = date(2024, 5, 31)
    evidence = assign_labels(
        [_item(1, "XYZ", 2024, 4, end, _statement("Revenue", "51,362", end) + " 51,217")]
    )
    calculations = [
        {
            "ticker": "XYZ",
            "metric": "Revenue",
            "from_period": "Q4 FY2023",
            "to_period": "Q4 FY2024",
            "expression": "growth(51217, 51362)",
            "result": 0.2831,
            "result_text": "+0.3%",
            "sources": ["10Q1"],
        }
    ]
    assert verify_answer("XYZ's revenue grew +0.3% [10Q1].", evidence, calculations).status == VERIFIED
    assert verify_answer("XYZ's revenue grew +0.4% [10Q1].", evidence, calculations).status == UNSUPPORTED


def test_a_cagr_needs_its_amounts_in_the_evidence_not_its_years(items: list[dict[str, Any]]) -> None:
    """ "cagr(81797, 94930, 2)": the two amounts are read from the passages; the 2 years are the span
    between the periods, which no passage prints."""
    cagr = {
        "ticker": "AAPL",
        "metric": "Total net sales",
        "from_period": "Q2 FY2023",
        "to_period": "Q3 FY2023",
        "expression": "cagr(94836, 81797, 2)",
        "result": ((81797 / 94836) ** 0.5 - 1) * 100,
        "result_text": "-7.1%",
        "sources": ["10Q2", "10Q3"],
    }
    sentence = "Net sales fell at a compound annual rate of 7.1% [10Q3]."
    assert verify_answer(sentence, items, [cagr]).status == VERIFIED
    invented = cagr | {"expression": "cagr(90000, 81797, 2)", "result": ((81797 / 90000) ** 0.5 - 1) * 100}
    validation = verify_answer("Net sales fell at a compound annual rate of 4.7% [10Q3].", items, [invented])
    assert validation.status == UNSUPPORTED
    assert "inputs are not in the evidence (90000)" in validation.unverified[0].how


def test_a_rounded_calculation_is_checked_on_its_figures_not_its_digits(items: list[dict[str, Any]]) -> None:
    rounded = {
        "ticker": "AAPL",
        "metric": "Total net sales",
        "from_period": "Q2 FY2023",
        "to_period": "Q3 FY2023",
        "expression": "round(growth(94836, 81797), 3)",
        "result": -13.749,
        "result_text": "-13.749%",
        "sources": ["10Q2", "10Q3"],
    }
    assert verify_answer("Net sales fell 13.749% [10Q3].", items, [rounded]).status == VERIFIED


def test_the_counts_an_expression_passes_are_its_cagr_years_and_rounding_digits() -> None:
    from finagent.finance.compute.safe_calculator import count_arguments

    assert count_arguments("cagr(65398, 65984, 2)") == [2.0]
    assert count_arguments("round(growth(94836, 81797), 1)") == [1.0]
    assert count_arguments("round(5.5)") == []
    assert count_arguments("cagr(abs(-5), growth(1, 2), 3) * 100") == [3.0]
    assert count_arguments("growth(1, 2) + (3 / 3)") == []
    assert count_arguments("cagr(1; 2)") == []  # refused by the calculator: nothing to count


def test_a_calculation_needs_its_inputs_in_the_evidence(items: list[dict[str, Any]]) -> None:
    invented = {
        "ticker": "AAPL",
        "metric": "Total net sales",
        "from_period": "Q2 FY2023",
        "to_period": "Q3 FY2023",
        "expression": "growth(90000.0, 81797.0)",
        "result": (81797 - 90000) / 90000 * 100,
        "result_text": "-9.1%",
        "sources": ["10Q2", "10Q3"],
    }
    validation = verify_answer("Net sales fell 9.1% [10Q3].", items, [invented])
    assert validation.status == UNSUPPORTED
    (check,) = validation.unverified
    assert check.text == "9.1%" and "inputs are not in the evidence (90000)" in check.how


def test_computed_metric_and_its_average_are_verified_through_their_inputs(
    items: list[dict[str, Any]],
) -> None:
    """Operating margin = operating income / revenue * 100: the 100 is the formula's, not an input."""
    formulas = formulas_for("What was Apple's operating margin?")
    inputs = {
        ("AAPL", i["period_label"]): {
            "revenue": {"value": float(v.replace(",", "")), "unit": "USD millions", "source": i["label"]},
            "operating_income": {"value": 20000.0, "unit": "USD millions", "source": i["label"]},
        }
        for i, (*_, v) in zip(items[:3], QUARTERS[:3], strict=True)
    }
    calculations = compute_formulas(formulas, inputs)
    assert calculations[0]["expression"] == "20000 / 117154 * 100"
    mean = sum(c["result"] for c in calculations) / 3
    calculations.append(
        {
            "kind": "formula",
            "ticker": "AAPL",
            "metric": "average operating margin",
            "period": "Q1 FY2023-Q3 FY2023",
            "expression": "(" + " + ".join(f"{c['result']:.10g}" for c in calculations) + ") / 3",
            "formula": "mean of operating margin over 3 periods",
            "result": mean,
            "result_text": f"{mean:.1f}%",
            "unit": "percent",
            "sources": ["10Q1", "10Q2", "10Q3"],
        }
    )
    lines = [f"- AAPL {describe_calculation(c)} (computed: {c['expression']})" for c in calculations]
    answer = (
        f"Apple's operating margin was 24.5% in Q3 FY2023 [10Q3], averaging {mean:.1f}% over the three "
        "quarters.\n\nFigures:\n" + "\n".join(lines)
    )
    assert "100" not in [t for t, _, _ in extract_figures(answer)]
    validation = verify_answer(answer, items, calculations)
    assert validation.status == VERIFIED, validation.unverified
    assert any(c.how.startswith("calculation (") for c in validation.checks)


def test_summary_lines_shape_is_verified(items: list[dict[str, Any]]) -> None:
    """figures.summary_lines: "(-30.2%)" is a signed change, "(= ... * 100)" a formula, not figures."""
    facts = _facts(items)
    calculations = compute_changes(facts)
    margin = {
        "kind": "formula",
        "ticker": "AAPL",
        "metric": "operating margin",
        "period": "Q3 FY2023",
        "expression": "20000 / 81797 * 100",
        "formula": "operating_income / revenue * 100",
        "result": 20000 / 81797 * 100,
        "result_text": "24.5%",
        "unit": "percent",
        "sources": ["10Q3"],
    }
    answer = summary_lines(facts, [*calculations, margin])
    assert "(-30.2%)" in answer and "(= operating_income / revenue * 100) [10Q3]." in answer
    validation = verify_answer(answer, items, [*calculations, margin])
    assert validation.status == VERIFIED, validation.unverified
    assert "100" not in [c.text for c in validation.checks]


def test_dates_years_and_fiscal_labels(items: list[dict[str, Any]]) -> None:
    def check(sentence: str) -> Validation:
        return verify_answer(sentence, items, [])

    for ok in (
        "In the quarter ended July 1, 2023 [10Q3] revenue was reported.",
        "In the quarter ended 2023-07-01 [10Q3] revenue was reported.",
        "In the quarter ended Jul. 1, 2023 [10Q3] revenue was reported.",
        "The period ended in July 2023 [10Q3].",
        "For fiscal 2023 and Q2 FY2023 [10Q2], see the statements.",
        "In 2022 and 2023 [10Q1] sales held up.",
    ):
        assert check(ok).status == VERIFIED, ok
    missing = check("In FY2021 and on June 30, 2021 [10Q3] sales held up.")
    assert [c.kind for c in missing.unverified] == ["date", "date"]
    assert missing.status == NEEDS_REVIEW  # dates that do not match are for review, not unsupported figures


def test_extract_figures_skips_labels_numbering_and_names() -> None:
    answer = (
        "1. Per the Form 10-Q (Item 2, p. 4), 3M's Q3 revenue was $8.3 billion [10Q1, 10Q2] [M1].\n"
        "2. Margin: 44.5%; EPS $1.26 per share; 15.7 billion shares; 3 segments; ratio 1.5x; 50 bps."
    )
    assert extract_figures(answer) == [
        ("$8.3 billion", 8.3e9, "amount"),
        ("44.5%", 44.5, "percent"),
        ("$1.26", 1.26, "amount"),
        ("15.7 billion", 15.7e9, "count"),
        ("3", 3.0, "count"),
        ("1.5x", 1.5, "number"),
        ("50 bps", 0.5, "percent"),
    ]
    # a parenthetical aside is not a negative, an accounting parenthesis is
    assert extract_figures("Sales ($94.8 billion in Q2) and (1,234)") == [
        ("$94.8 billion", 94.8e9, "amount"),
        ("(1,234)", -1234.0, "number"),
    ]
    assert extract_figures("In 2023, COVID-19 and 2022-23 aside") == [
        ("2023", 2023.0, "date"),
        ("2022", 2022.0, "date"),
    ]


def test_citation_scope_and_the_uncited_fallback(items: list[dict[str, Any]]) -> None:
    # Microsoft's figure cited to Apple's filing: found, but not where the answer says
    miscited = verify_answer("Revenue was $52,857 million [10Q3].", items, [])
    assert miscited.status == NEEDS_REVIEW
    assert miscited.unverified[0].how == "in evidence [10Q6], not in the cited [10Q3]"
    # a sentence citing nothing falls back to other evidence, and says which
    uncited = verify_answer("Revenue was $52,857 million. Apple's was $81.8 billion [10Q3].", items, [])
    assert uncited.status == VERIFIED
    assert uncited.checks[0].how == "evidence [10Q6] (not cited)"
    # a citation placed after the full stop still belongs to its sentence
    after = verify_answer("Revenue was $81.8 billion. [10Q3] Costs were stable.", items, [])
    assert after.checks[0].how == "evidence [10Q3]"


def test_market_data_items_and_per_share_amounts() -> None:
    market = {"label": "M1", "tool": "market_data", "summary": "AAPL close $189.71 on 2023-11-20; P/E 31.2"}
    caption = (
        "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (In millions, except number of shares, which "
        "are reflected in thousands, and per-share amounts)\n"
        "| Diluted earnings per share | $ 1.26 |\n| Shares used in computing diluted | 15,775,021 |"
    )
    filing = assign_labels([_item(7, "AAPL", 2023, 3, date(2023, 7, 1), caption)])
    answer = (
        "Diluted EPS was $1.26 on 15.8 billion shares [10Q1]; the stock closed at $189.71 on "
        "November 20, 2023 [M1]."
    )
    validation = verify_answer(answer, [*filing, market], [])
    assert validation.status == VERIFIED, validation.unverified


def test_flag_unsupported_marks_every_unverified_occurrence_only(items: list[dict[str, Any]]) -> None:
    answer = "Revenue was $42 million [10Q3]. Revenue was $81,797 million [10Q3]. Again $42 million [10Q3]."
    validation = verify_answer(answer, items, [])
    assert validation.numbers_total == 2 and validation.numbers_verified == 1
    flagged = flag_unsupported(answer, validation)
    assert flagged.count(MARK) == 2 and f"$81,797 million {MARK}" not in flagged
    assert flag_unsupported(flagged, verify_answer(flagged, items, [])).count(MARK) == 2  # idempotent
    # a validation built elsewhere (no offsets) still marks by text
    external = Validation(
        1, 0, [FigureCheck("$42 million", 42e6, "amount", False, "not found")], [], UNSUPPORTED
    )
    assert flag_unsupported(answer, external).count(MARK) == 2


def test_no_figures_is_verified() -> None:
    validation = verify_answer("Management discussed demand across products [10Q1].", [], [])
    assert validation.status == VERIFIED and validation.numbers_total == 0
    assert validation.to_dict()["unverified"] == []


def test_the_right_number_for_the_wrong_period_is_unsupported_naming_its_period() -> None:
    from finagent.finance.check.verify import PeriodScope

    table = (
        "CONSOLIDATED STATEMENTS OF OPERATIONS (in millions)\nYear Ended December 31,\n2022 | 2023 | 2024\n"
        "Total net sales | 513,983 | 574,785 | 637,959"
    )
    item = {
        "label": "10K1",
        "ticker": "AMZN",
        "kind": "10-K",
        "text": table,
        "period_label": "FY2024",
        "fiscal_year": 2024,
        "period_end": "2024-12-31",
    }
    from finagent.finance.check.verify import table_known

    scope = PeriodScope(
        known=table_known([item], {"AMZN": [12, 0]}),
        names={"AMZN": ["AMZN", "Amazon"]},
        targets={"AMZN": ["FY2024"]},
        calendars={"AMZN": (12, 0)},
    )
    wrong = verify_answer(
        "Amazon's total net sales in FY2024 were $513,983 million [10K1].", [item], [], scope=scope
    )
    assert wrong.status == UNSUPPORTED
    (check,) = [c for c in wrong.unverified if "513,983" in c.text]
    assert "FY2022" in check.how and "not FY2024" in check.how
    # the same number in the same cited chunk, stated for its own period, is verified
    right = verify_answer(
        "Amazon's total net sales in FY2022 were $513,983 million [10K1].", [item], [], scope=scope
    )
    assert right.status == VERIFIED
    # no period in the sentence: the question's period (FY2024) is the one it speaks of
    unstated = verify_answer(
        "Amazon's total net sales were $513,983 million [10K1].", [item], [], scope=scope
    )
    assert unstated.status == UNSUPPORTED
    # without the period scope the old check found the number in the chunk and let it through
    assert (
        verify_answer("Amazon's total net sales in FY2024 were $513,983 million [10K1].", [item], []).status
        == VERIFIED
    )


def test_a_figure_in_a_verbatim_quote_is_the_sources_own_words() -> None:
    """A quote “…” [label] whose words are the cited passage's own reports what the source wrote: its
    figures are read as written, not held to the question's period. A quote that is not the passage's
    own words is checked like any sentence."""
    from finagent.finance.check.verify import PeriodScope, table_known

    text = (
        "CONSOLIDATED STATEMENTS OF OPERATIONS (in millions)\nYear Ended December 31,\n2022 | 2023 | 2024\n"
        "Total net sales | 513,983 | 574,785 | 637,959\n"
        "Net sales were $574,785   million, driven by growth in North America."
    )
    item: dict[str, Any] = {"label": "10K1", "ticker": "AMZN", "kind": "10-K", "text": text}
    item |= {"period_label": "FY2024", "fiscal_year": 2024, "period_end": "2024-12-31"}
    scope = PeriodScope(
        known=table_known([item], {"AMZN": [12, 0]}),
        names={"AMZN": ["AMZN", "Amazon"]},
        targets={"AMZN": ["FY2024"]},
        calendars={"AMZN": (12, 0)},
    )
    sentence = "Net sales were $574,785 million, driven by growth in North America."
    quoted = f"In the sources' own words:\n- Amazon.com's 10-K for FY2024: “{sentence}” [10K1]"
    validation = verify_answer(quoted, [item], [], scope=scope)
    assert validation.status == VERIFIED, validation.unverified
    assert any(c.how == "quoted verbatim from [10K1]" and "574,785" in c.text for c in validation.checks)
    # the same words as the answer's own sentence speak of the question's year, FY2024: wrong period
    assert verify_answer(f"{sentence} [10K1]", [item], [], scope=scope).status == UNSUPPORTED
    altered = quoted.replace("$574,785 million", "$600,100 million")
    assert verify_answer(altered, [item], [], scope=scope).status == UNSUPPORTED


def test_a_balance_at_a_years_end_is_stated_for_that_year() -> None:
    """Working capital is a balance ("FY2022 end"): a sentence about FY2022, the year ended on that day
    or the balance as of it states its period; a sentence about another year does not."""
    from finagent.finance.check.verify import PeriodScope

    known = [
        {
            "ticker": "GLW",
            "period": "FY2022 end",
            "value": 2.278e9,
            "kind": "amount",
            "what": "working capital",
        }
    ]
    scope = PeriodScope(known=known, names={"GLW": ["GLW", "Corning"]}, calendars={"GLW": (12, 0)})
    for sentence in (
        "Corning's working capital in FY2022 was $2,278 million.",
        "Corning's working capital for the year ended December 31, 2022 was $2,278 million.",
        "As of December 31, 2022, Corning's working capital was $2,278 million.",
    ):
        (check,) = [c for c in verify_answer(sentence, [], [], scope=scope).checks if "2,278" in c.text]
        assert check.verified and check.how == "GLW working capital FY2022 end", sentence
    wrong = verify_answer("Corning's working capital in FY2021 was $2,278 million.", [], [], scope=scope)
    assert wrong.status == UNSUPPORTED
    (check,) = [c for c in wrong.unverified if "2,278" in c.text]
    assert "FY2022 end, not FY2021" in check.how


def test_a_figure_as_of_a_day_inside_a_quarter_is_the_latest_state_reported_before_it() -> None:
    from finagent.finance.check.verify import PeriodScope

    known = [
        {"ticker": "AAPL", "period": "FY2024 end", "value": 29.943e9, "kind": "amount", "what": "cash"},
        {"ticker": "AAPL", "period": "Q3 FY2024 end", "value": 25.565e9, "kind": "amount", "what": "cash"},
        {"ticker": "MSFT", "period": "Q2 FY2024", "value": 3.2e9, "kind": "amount", "what": "debt repaid"},
    ]
    scope = PeriodScope(
        known=known,
        names={"AAPL": ["Apple"], "MSFT": ["Microsoft"]},
        calendars={"AAPL": (9, 0), "MSFT": (6, 0)},
    )
    for sentence, figure in (
        ("As of November 15, 2024, Apple held cash of $29,943 million.", "29,943"),
        ("Microsoft had repaid $3.2 billion of debt as of 14 March 2024.", "3.2"),
    ):
        (check,) = [c for c in verify_answer(sentence, [], [], scope=scope).checks if figure in c.text]
        assert check.verified, sentence
    for sentence in (
        "As of November 15, 2024, Apple held cash of $25,565 million.",  # not the latest before the day
        "On November 15, 2024, Apple held cash of $29,943 million.",  # a day, not "as of": its own quarter
        "As of December 28, 2024, Apple held cash of $29,943 million.",  # a quarter's own end
    ):
        assert verify_answer(sentence, [], [], scope=scope).status == UNSUPPORTED, sentence


def test_a_level_stated_as_a_change_and_a_decline_called_growth_are_unsupported() -> None:
    from finagent.finance.check.verify import PeriodScope

    known = [
        {"ticker": "AMZN", "period": "FY2024", "value": 59248e6, "kind": "amount", "what": "net income"},
        {
            "ticker": "AAPL",
            "period": "Q1 FY2023",
            "value": -5.48,
            "kind": "percent",
            "what": "yoy",
            "change": True,
        },
    ]
    scope = PeriodScope(
        known=known,
        names={"AMZN": ["Amazon"], "AAPL": ["Apple"]},
        targets={"AMZN": ["FY2024"], "AAPL": ["Q1 FY2023"]},
    )
    level = verify_answer(
        "Amazon's net income in FY2024 was an increase of $59,248 million.", [], [], scope=scope
    )
    assert level.status == UNSUPPORTED and "a level, not a change" in level.unverified[0].how
    growth = verify_answer("Apple grew year over year in Q1 FY2023 by -5.5%.", [], [], scope=scope)
    assert growth.status == UNSUPPORTED and "described as growth" in growth.unverified[0].how
    fine = verify_answer("Apple's revenue fell 5.5% year over year in Q1 FY2023.", [], [], scope=scope)
    assert fine.status == VERIFIED


APPLE_Q3_SALES = {
    "ticker": "AAPL",
    "period": "Q3 FY2023",
    "metric": "Total net sales",
    "value": 81797.0,
    "unit": "USD millions",
    "source": "10Q3",
}


def test_the_writers_sentence_check_and_the_answer_check_are_one_rule() -> None:
    """The draft check and the final check read figures with the same scanner and matching: a figure
    in another scale, a date, a small count and a tools' number pass both; a change the wrong way
    round fails both."""
    from finagent.finance.check.matching import known_changes, known_facts
    from finagent.finance.check.verify import PeriodScope, check_prose

    facts = [APPLE_Q3_SALES]
    calcs = [
        {
            "ticker": "AAPL",
            "metric": "Total net sales",
            "from_period": "Q3 FY2022",
            "to_period": "Q3 FY2023",
            "result": -1.42,
            "expression": "growth(82959, 81797)",
        }
    ]
    names = {"AAPL": ["Apple"]}
    sentence = "Apple's net sales were $81.8 billion for the quarter ended July 1, 2023, across 5 segments."
    text, bad = check_prose(sentence, facts, calcs, [189.84], names)
    assert bad == [] and text.endswith("segments [10Q3].")
    assert check_prose("Apple's shares closed at $189.84.", facts, calcs, [189.84], names)[1] == []
    assert check_prose("Apple's net sales were $94.9 billion.", facts, calcs, [], names)[1] == [
        "$94.9 billion"
    ]

    wrong_way = "Apple's net sales grew 1.4% in Q3 FY2023."
    assert check_prose(wrong_way, facts, calcs, [], names)[1] == ["1.4%"]
    scope = PeriodScope(
        known=known_facts(facts) + known_changes(calcs), names=names, targets={"AAPL": ["Q3 FY2023"]}
    )
    final = verify_answer(wrong_way, [], calcs, scope=scope)
    assert final.status == UNSUPPORTED and "described as growth" in final.unverified[0].how
    right_way = "Apple's net sales fell 1.4% in Q3 FY2023."
    assert check_prose(right_way, facts, calcs, [], names)[1] == []
    assert verify_answer(right_way, [], calcs, scope=scope).status == VERIFIED


def test_numbers_in_reads_numbers_not_dates_or_labels() -> None:
    from finagent.finance.read.written_figures import numbers_in

    text = "Net sales | 81,797 | (1,234) | 44.5% for the quarter ended September 30, 2023 (Q3 FY2023, 10-Q)"
    assert numbers_in(text) == [81797.0, 1234.0, 44.5]
    assert numbers_in("$94.9 billion in 2023") == [94.9, 2023.0]


def test_a_threshold_the_question_gives_is_no_companys_figure_for_a_period() -> None:
    """ "… moved by up to 1.1 percentage points from FY2015 to FY2023, within 2%": the 2% is the
    question's own limit, not Best Buy's 2% revenue change of FY2016 stated for the wrong years."""
    from finagent.finance.check.verify import PeriodScope

    change = {"ticker": "BBY", "period": "FY2016", "value": -2.0, "kind": "percent", "what": "revenue"}
    known = [change | {"change": True}]
    sentence = (
        "Yes (computed from the figures: Best Buy's gross margin moved by up to 1.1 percentage points "
        "from one period to the next from FY2015 to FY2023, within 2%: the largest move was from FY2022 "
        "to FY2023)."
    )
    calculations = [{"kind": "limit", "ticker": "BBY", "result": 2.0, "expression": "", "sources": []}]
    names = {"BBY": ["BBY", "Best Buy"]}
    flagged = verify_answer(sentence, [], calculations, scope=PeriodScope(known=known, names=names))
    assert any(c.text == "2%" for c in flagged.unverified)
    scope = PeriodScope(known=known, names=names, givens=frozenset({2.0}))
    asked = {"chunk_id": None, "label": None, "text": "2 percentage points 2%", "period_label": ""}
    checks = verify_answer(sentence, [asked], calculations, scope=scope).checks
    assert not [c for c in checks if c.text == "2%" and not c.verified]


def test_another_lines_value_for_another_period_is_a_coincidence_when_no_period_is_written() -> None:
    """The cited table prints Consumer & Community Banking's $3,100 million net income; JPMorgan's cash
    taxes paid over six months were $3,100 million too. A sentence that writes no period and is not
    about taxes keeps the cited figure; one that writes the wrong period is still caught."""
    from finagent.finance.check.verify import PeriodScope

    taxes = {"ticker": "JPM", "period": "6M FY2022", "value": 3.1e9, "kind": "amount"}
    known = [taxes | {"what": "Cash income taxes paid, net"}]
    scope = PeriodScope(known=known, names={"JPM": ["JPM", "JPMorgan"]}, targets={"JPM": ["Q2 FY2022"]})
    passage = {
        "chunk_id": 1,
        "label": "10Q1",
        "text": "Net income (in millions) | 3,100 | 5,645",
        "period_label": "Q2 FY2022",
        "ticker": "JPM",
    }
    listed = "The others: Consumer & Community Banking $3,100 million [10Q1]."
    assert not verify_answer(listed, [passage], [], scope=scope).unverified
    taxes_said = "JPMorgan's cash income taxes paid were $3,100 million [10Q1]."
    flagged = verify_answer(taxes_said, [passage], [], scope=scope).unverified
    assert [c.text for c in flagged] == ["$3,100 million"]
    wrong_year = "JPMorgan's net income was $3,100 million in FY2020 [10Q1]."
    assert verify_answer(wrong_year, [passage], [], scope=scope).unverified


def test_a_name_abbreviation_ends_no_sentence_in_the_figure_checks() -> None:
    """The sentence checks cut sentences as every other reader does: cut after "Corp.", "reported net
    sales of $81.8 billion" named no company, and Apple's figure passed as Microsoft's."""
    from finagent.finance.check.verify import check_prose, without_sentences_stating

    facts = [APPLE_Q3_SALES]
    names = {"AAPL": ["Apple"], "MSFT": ["Microsoft"]}
    assert check_prose("Microsoft Corp. reported net sales of $81.8 billion.", facts, [], [], names)[1] == [
        "$81.8 billion"
    ]
    text, bad = check_prose("Apple Inc. (“Apple”) reported net sales of $81.8 billion.", facts, [], [], names)
    assert bad == [] and text == "Apple Inc. (“Apple”) reported net sales of $81.8 billion [10Q3]."
    kept = without_sentences_stating("Mary N. Dillon said sales rose 9%. Margins held.", ["9%"])
    assert kept == "Margins held."


def test_evidence_sentences_are_cut_at_sentence_ends_only() -> None:
    from finagent.agent.evidence import _prose_units

    lines = ["Apple Inc. (“Apple”) designs smartphones. Its CEO is", "Timothy D. Cook."]
    assert _prose_units(lines) == ["Apple Inc. (“Apple”) designs smartphones.", "Its CEO is Timothy D. Cook."]
