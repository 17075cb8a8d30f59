"""By how much a report revised a figure: read from "<figure> <what> (previously <figure>)", computed."""

from __future__ import annotations

from typing import Any

import pytest

from finagent.finance.compute.revisions import asked_revision, asks_revision_size, revisions, size_text

RELEASE = (
    "For fiscal year 2023, the Company now expects to deliver 8 percent organic revenue growth\n"
    "(previously 6 percent), and 9 percent core constant currency EPS growth (previously 8 percent).\n"
    "This assumption and the guidance above imply 2023 core EPS of $7.27 (previously $7.20), a 7 percent\n"
    "increase (previously 6 percent) compared to 2022 core EPS of $6.79."
)


def test_revisions_read_the_figure_its_words_and_the_figure_it_replaces() -> None:
    found = [(r.what, r.new.value, r.old.value, r.points) for r in revisions(RELEASE)]
    assert found == [
        ("organic revenue growth", 8.0, 6.0, True),
        ("core constant currency EPS growth", 9.0, 8.0, True),
        ("guidance above imply 2023 core EPS", 7.27, 7.20, False),
        ("increase", 7.0, 6.0, True),
    ]
    assert revisions("Net sales were $5.2 billion (previously reported as part of Other).") == []


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("By how many percentage points did PepsiCo raise full year guidance for core EPS growth?", True),
        ("How much did Boeing lower its delivery outlook by?", False),  # no "by how much": not the size
        ("By how much did PepsiCo cut its 2023 forecast of organic revenue growth?", True),
        ("By how much did PepsiCo's revenue increase in 2023?", False),  # a change, not a revision
    ],
)
def test_a_question_asking_the_size_of_a_revision(question: str, asked: bool) -> None:
    assert asks_revision_size(question) is asked


def test_the_asked_revision_is_the_one_the_question_names_and_its_size_is_computed() -> None:
    terms = ["pepsico", "raise", "full", "guidance", "core", "constant", "currency", "eps", "growth"]
    revision = asked_revision(revisions(RELEASE), terms)
    assert revision is not None and revision.what == "core constant currency EPS growth"
    moved = revision.moved()
    assert moved.result == 1.0 and size_text(revision, moved.result or 0) == "1 percentage point"
    eps = asked_revision(revisions(RELEASE), ["core", "eps", "guidance"])
    assert eps is not None and size_text(eps, eps.moved().result or 0) == "$0.07"
    assert asked_revision(revisions(RELEASE), ["dividends", "growth"]) is None  # one shared word


def test_the_answer_opens_with_the_computed_size_of_the_revision() -> None:
    """PepsiCo's Q1 2023 release: the model wrote "previously 8%, now 9%" and no size; code answers."""
    from finagent.agent.answer.choose import Read
    from finagent.agent.answer.compute import evidence_opening as _opening
    from finagent.agent.understand.plan import query_terms

    question = (
        "As of FY2023Q1, by how many percentage points did Pepsico raise full year guidance in respect of "
        "core constant currency EPS growth?"
    )
    item = {"label": "ER1", "ticker": "PEP", "kind": "earnings_release", "period_label": "Q1 FY2023"}
    other = item | {
        "label": "ER2",
        "period_label": "Q2 FY2023",
        "text": "12 percent core constant currency EPS growth (previously 9 percent)",
    }
    analysis = {
        "question": question,
        "ask": {"kind": "value"},
        "revision": asks_revision_size(question),
        "terms": query_terms([question]),
        "names": {"PEP": ["PEP", "PepsiCo"]},
    }
    state: Any = {"analysis": analysis, "targets": [{"ticker": "PEP", "label": "Q1 FY2023"}]}
    read = Read([other, item | {"text": RELEASE}], 0)
    assert _opening(state, read) == (
        "PepsiCo raised its core constant currency EPS growth guidance by 1 percentage point, to 9 percent "
        "from 8 percent [ER1]."
    )
    (computed,) = read.calculations
    assert (computed["expression"], computed["result_text"]) == ("diff(9.0, 8.0)", "+1 percentage point")
