"""A compound question's parts: each searched by its own phrase and answered by its own quotes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from finagent.agent.answer import closeness
from finagent.agent.understand.question import Question
from finagent.finance.ask.sub_asks import sub_asks


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "What does Contoso actually do, and where does nearly all of its revenue come from?",
            ("What does Contoso actually do", "where does nearly all of its revenue come from"),
        ),
        ("Who is Fabrikam's CFO and when did she start?", ("Who is Fabrikam's CFO", "when did she start")),
        (
            "What were Contoso's main risks? How did management respond to them?",
            ("What were Contoso's main risks", "How did management respond to them"),
        ),
    ],
)
def test_a_compound_question_is_read_as_its_parts(question: str, parts: tuple[str, ...]) -> None:
    assert sub_asks(question) == parts


@pytest.mark.parametrize(
    "question",
    [
        "Compare Contoso and Fabrikam revenue in 2025",
        "What drove revenue and margins at Contoso in fiscal 2025?",
        "Did Fabrikam grow revenue, and why?",  # "and why" asks nothing of its own
        # an instruction after the question is part of it
        "Does Contoso have positive working capital based on FY2025 data? If working capital is not a "
        "useful metric for this company, then please state that and explain why.",
        "What is Fabrikam's FY2024 inventory turnover? Round your answer to two decimal places.",
    ],
)
def test_a_question_asking_one_thing_has_no_parts(question: str) -> None:
    assert sub_asks(question) == ()


def _item(label: str, text: str) -> dict[str, object]:
    return {"label": label, "text": text, "ticker": "CTSO", "kind": "10-K", "period_label": "FY2025"}


def test_each_part_of_a_compound_question_gets_its_own_quote(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sentences closest to the whole question all answer its first part; the second part's
    answer (where revenue comes from) is quoted too."""
    about = {
        "Contoso builds software that helps people plan and share their work.": (0.8, 0.2),
        "Contoso builds tools for teams, and its products help people plan their work.": (0.7, 0.2),
        "Our products help teams share plans across devices and the web.": (0.6, 0.1),
        "We generate substantially all of our revenue from subscriptions.": (0.2, 0.7),
    }

    def to(part: int) -> closeness.Closeness:
        return lambda sentences: [about.get(s, (0.0, 0.0))[part] for s in sentences]

    def each(plan: Question, asks: Sequence[str]) -> list[closeness.Closeness]:
        return [to(part) for part in range(len(asks))]

    monkeypatch.setattr(closeness, "closeness_to_each", each)
    pool = [_item(str(n), text) for n, text in enumerate(about, 1)]
    question = "What does Contoso actually do, and where does nearly all of its revenue come from?"
    plan = Question(question=question, names={"CTSO": ["CTSO", "Contoso"]}, sub_asks=sub_asks(question))
    quoted = [q.sentence for q in closeness.quotes_of_each_part(pool, plan, 3, {})]
    assert quoted[0].startswith("Contoso builds software")
    assert "We generate substantially all of our revenue from subscriptions." in quoted
