"""The drivers of a line: the sentences that explain the line asked, not the next line's."""

from __future__ import annotations

from finagent.finance.lines import line
from finagent.finance.read.drivers import drivers_of, line_named

MDA = (
    "Net sales for fiscal 2026 increased $3.2 billion, or 4.1%, primarily due to higher unit volumes "
    "in the Outdoor segment and growth in online orders. "
    "Gross profit rate decreased 30 basis points, driven by higher freight costs. "
    "Selling, general and administrative expenses as a percentage of net sales increased 15 basis points. "
    "The increase was primarily due to higher advertising spend. "
    "For fiscal 2025, net sales growth was driven by price increases. "
    "Net sales in the Indoor segment were flat."
)


def test_only_the_sentences_about_the_line_asked_are_its_drivers() -> None:
    found = drivers_of(MDA, line("revenue"), year=2026)
    assert [d.quoted for d in found] == [
        "Net sales for fiscal 2026 increased $3.2 billion, or 4.1%, primarily due to higher unit volumes "
        "in the Outdoor segment and growth in online orders."
    ]


def test_a_subject_named_only_by_the_sentence_before_is_quoted_with_it() -> None:
    found = drivers_of(MDA, line("sga"), year=2026)
    assert len(found) == 1
    assert found[0].sentence == "The increase was primarily due to higher advertising spend."
    assert found[0].quoted.startswith("Selling, general and administrative expenses as a percentage")


def test_a_pronoun_subject_after_a_line_without_a_cause_is_that_lines_driver() -> None:
    text = "Revenue rose 12% to $840 million. This reflected new contracts with two utilities."
    found = drivers_of(text, line("revenue"))
    assert [d.quoted for d in found] == [
        "Revenue rose 12% to $840 million. This reflected new contracts with two utilities."
    ]


def test_a_sentence_about_another_year_or_naming_no_cause_is_not_a_driver() -> None:
    assert drivers_of(MDA, line("revenue"), year=2027) == []
    assert drivers_of("Revenue rose 12% to $840 million.", line("revenue")) == []


def test_a_part_the_question_names_is_the_lines_part() -> None:
    text = "Subscription fees grew 9%, driven by price increases and higher renewals."
    assert drivers_of(text, line("revenue")) == []
    assert [d.position for d in drivers_of(text, line("revenue"), parts=["subscription fees"])] == [0]


def test_the_first_line_a_text_names_wins_and_the_longest_name_of_two() -> None:
    named = line_named("Gross profit rate decreased")
    assert named is not None and named.name == "gross_profit"
    cost = line_named("Cost of sales as a share of net sales rose")
    assert cost is not None and cost.name == "cost_of_revenue"
    assert line_named("Headcount grew") is None


def test_a_calendar_year_compared_with_another_is_that_years_driver_not_the_asked_ones() -> None:
    """A 10-K discusses its year and the year before: the earlier comparison is not the asked year's."""
    text = (
        "Total revenues increased in 2023 compared to 2022, primarily driven by higher transaction volumes. "
        "Total revenues increased in 2022 compared to 2021, primarily driven by the recovery in travel. "
        "Revenues rose 9% year over year, reflecting higher pricing."
    )
    asked = [d.sentence for d in drivers_of(text, line("revenue"), year=2023)]
    assert asked[0].startswith("Total revenues increased in 2023 compared to 2022")
    assert not any("in 2022 compared to 2021" in s for s in asked)
    assert any(s.startswith("Revenues rose 9%") for s in asked)  # names no year: kept
    assert [d.sentence[:40] for d in drivers_of(text, line("revenue"), year=2022)][:1] == [
        "Total revenues increased in 2022 compare"
    ]


def test_a_cause_named_by_a_driver_is_explained_by_its_own_drivers_after_it() -> None:
    """What drove revenue: net sales rose on store traffic, and store traffic grew on new stores and
    remodels: both are quoted, the cause's own driver marked with the cause it explains; a cause
    that is itself a line, or a clause, is not followed."""
    text = (
        "Net sales increased 3.9% primarily due to increases in store traffic of 3.6%. "
        "Operating income increased due to lower freight costs. "
        "For fiscal 2026, store traffic growth was driven by new store openings and remodels. "
        "Store traffic for fiscal 2025 was driven by promotions. "
        "Membership income increased due to higher renewal rates."
    )
    found = drivers_of(text, line("revenue"), year=2026)
    assert [(d.sentence[:40], d.explains) for d in found] == [
        ("Net sales increased 3.9% primarily due t", ""),
        ("For fiscal 2026, store traffic growth wa", "store traffic"),
    ]
    from finagent.finance.read.drivers import causes_named

    assert causes_named("Revenue rose primarily due to increases in comparable sales of 3.6%.") == [
        "comparable sales"
    ]
    assert (
        causes_named("Margins fell as a result of the company deciding to cut prices in every region.") == []
    )


def test_a_passage_opening_on_the_increase_is_about_what_the_sentence_before_it_names() -> None:
    """A passage may open on "The increases were primarily due to …": the sentence before, in the
    passage before, says what increased; without it nothing says what the cause is a cause of."""
    opening = "The increases were primarily due to higher volumes, which included strength in online orders."
    before = "Consolidated net sales increased $9.1 billion or 4.4% in fiscal 2026."
    from finagent.finance.read.drivers import opens_referring_back

    assert opens_referring_back(opening) and not opens_referring_back(before)
    assert drivers_of(opening, line("revenue")) == []
    (found,) = drivers_of(opening, line("revenue"), before=before)
    assert found.quoted == f"{before} {opening}"
    assert drivers_of(opening, line("operating_income"), before=before) == []
