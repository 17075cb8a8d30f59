"""The draft loop withholds what stood only on a withheld sentence: a yes or no whose cited ground went."""

from __future__ import annotations

import asyncio

from finagent.agent.answer.draft import Composed, Writer, draft
from finagent.finance.ask.asks import read_ask
from finagent.finance.check.support import Passage, support_problem, verdict_problem
from finagent.finance.check.verify import verify_answer
from tests.fakes import ScriptedChatModel

QUESTION = "Is CVS Health a capital-intensive business based on FY2022 data?"
PASSAGES = {
    "10K1": Passage(
        "10K1", "Purchases of property and equipment were $2,727 million in 2022.", "CVS", "10-K", "FY2022"
    )
}
NAMES = {"CVS": ["CVS", "CVS Health"]}
VERDICT = "Yes, CVS Health is a capital-intensive business based on FY2022 data."
GROUND = "CVS Health's purchases of property and equipment were $2,727 million in 2022 [10K1]."


def run(reply: str, compose_drops: str = "") -> tuple[str, list[str]]:
    """Draft one scripted reply; ``compose_drops``: a sentence the answer's composer leaves out once
    other sentences are withheld (as the figures check of the evidence answer does)."""
    asked = frozenset(read_ask(QUESTION, ["CVS"], {"CVS": [3]}, []).about)
    seen: list[str] = []

    def compose(text: str) -> Composed:
        seen.append(text)
        if len(seen) > 1 and compose_drops:
            text = " ".join(text.replace(compose_drops, "").split())
        return Composed(text, text, 0)

    writer = Writer(
        model=ScriptedChatModel(replies=[reply], calls=[]),
        messages=[],
        compose=compose,
        verify=lambda answer: verify_answer(answer, [], []),
        names=NAMES,
        support=lambda sentence: support_problem(sentence, PASSAGES, NAMES),
        verdict=lambda sentence, grounds: verdict_problem(sentence, PASSAGES, NAMES, grounds, asked),
        withhold_unfound=False,
        rewrites=0,
    )
    drafted = asyncio.run(draft(writer))
    return drafted.answer, drafted.warnings


def test_a_yes_stands_with_its_cited_ground() -> None:
    answer, warnings = run(f"{VERDICT} {GROUND} It is the largest pharmacy chain and grows every year.")
    assert answer == f"{VERDICT} {GROUND}"
    assert any(w.startswith("withheld 1 sentence") for w in warnings), warnings


def test_a_yes_whose_ground_is_left_out_afterwards_is_withheld_too() -> None:
    answer, warnings = run(
        f"{VERDICT} {GROUND} It is the largest pharmacy chain and grows every year.", GROUND
    )
    assert answer == "", answer
    assert any(w.startswith("withheld 2 sentence") and "no cited sentence" in w for w in warnings), warnings


def test_an_answer_whose_every_sentence_was_withheld_is_no_answer() -> None:
    """The figures read are no stand-in for an answer nothing of which stood: it is asked of the
    sources' own sentences instead (a list like 'much expect pay spin off upjohn: 15' was returned)."""
    from finagent.agent.answer.draft import Drafted
    from finagent.agent.answer.write import NO_ANSWER_LEAD, why_no_answer
    from finagent.finance.check.verify import verify_answer

    stand_in = f"{NO_ANSWER_LEAD}; these figures were found in the evidence."
    validation = verify_answer(stand_in, [], [])
    withheld = Drafted(stand_in, validation, [], [], True, prose=stand_in, withheld=2)
    assert why_no_answer(withheld) == "none of its sentences is supported by the passages it cites"
    answered = Drafted(GROUND, validation, [], [], True, prose=GROUND, withheld=1)
    assert why_no_answer(answered) is None
    assert why_no_answer(Drafted("", validation, [], [], False, prose="")) == "it is empty"
    down = Drafted(stand_in, validation, [], [], False, prose=stand_in, withheld=1)  # the model wrote nothing
    assert why_no_answer(down) is None
    code = Drafted(stand_in, validation, [], [], True, prose=stand_in)  # its JSON reply was set aside
    assert why_no_answer(code) == "it wrote no prose (JSON or code)"
