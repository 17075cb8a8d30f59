"""The one vocabulary of figures (finance/words.py) is the one every reader uses: a word known to one
reader is known to all."""

from __future__ import annotations

from decimal import Decimal

import pytest

from finagent.agent.answer.draft import whole_sentences
from finagent.agent.answer.prose import sentences
from finagent.agent.answer.quotes import _candidates
from finagent.agent.answer.wording import format_amount
from finagent.evaluation.answers import asks_direction
from finagent.finance import words
from finagent.finance.ask.asks import _threshold, read_ask, stated_direction
from finagent.finance.ask.parts_ask import read_parts_ask
from finagent.finance.check.support import content_words
from finagent.finance.check.verdict import Verdict, with_stated_yes_no, with_verdict
from finagent.finance.compute.compare import scale_unit
from finagent.finance.read.tables.parse import _scales
from finagent.finance.read.tables.schedule import _CAPTION
from finagent.finance.read.tables.transposed import _LEADING_UNIT
from finagent.finance.read.written_figures import scan_figures
from finagent.ingest.sec.furniture import _UNITS_RE


def test_verb_forms_cover_regular_doubled_and_irregular_verbs() -> None:
    assert words.verb_forms("decline") == ("decline", "declines", "declined", "declining")
    assert words.verb_forms("drop") == ("drop", "drops", "dropped", "dropping")
    assert words.verb_forms("rise") == ("rise", "rises", "rose", "risen", "rising")
    assert words.verb_forms("shrink") == ("shrink", "shrinks", "shrank", "shrunk", "shrinking")
    assert words.past_forms(("fall", "cut", "plunge")) == ("fell", "plunged")  # "a tax cut" names a thing


@pytest.mark.parametrize(
    "sentence", ["Revenue plunged 12%", "Sales tumbled", "Margins narrowed", "Costs were reduced"]
)
def test_a_fall_known_to_the_question_reader_is_known_to_every_reader(sentence: str) -> None:
    """ "plunged", "tumbled", "narrowed", "reduced" were known only to the question reader."""
    assert words.DOWN_WORDS.search(sentence)
    assert not words.UP_WORDS.search(sentence)
    assert stated_direction(sentence) is False


@pytest.mark.parametrize(
    "sentence", ["Revenue soared", "The loss widened", "Sales jumped", "Cloud revenue climbed"]
)
def test_a_rise_is_known_to_every_reader(sentence: str) -> None:
    assert words.UP_WORDS.search(sentence)
    assert stated_direction(sentence) is True


def test_a_contract_says_no_direction_in_a_sentence_but_does_in_a_question() -> None:
    assert not words.DOWN_WORDS.search("The contract was signed in 2023")
    assert stated_direction("Did the economy contract?") is False


def test_a_written_figure_takes_its_sign_from_every_direction_word() -> None:
    """The figure reader knew "fell 3%" but not "plunged 3%", nor "a 3% jump"."""
    for text, sign in (
        ("Revenue plunged 3%", -1),
        ("Revenue fell 3%", -1),
        ("a 3% jump", 1),
        ("soared 3%", 1),
    ):
        (figure,) = scan_figures(text)
        assert figure.sign == sign, text


def test_the_grader_and_the_ranker_read_the_same_directions() -> None:
    """ "go up" and "tumbled" were unknown to the grader; "plunged" to the ranking reader."""
    assert asks_direction("Did Apple's gross margin go up in FY2023?")
    assert asks_direction("Has Boeing's backlog tumbled since 2019?")
    ask = read_parts_ask("Which region's revenue plunged the most in FY2022?")
    assert ask is not None and ask.by == "change" and not ask.highest


def test_the_support_check_holds_every_direction_word_to_its_direction() -> None:
    """ "revenue fell" is held to "net sales decreased": "decreased" was stemmed to "decreas", apart
    from the "decrease" that "fell" stood for."""
    assert content_words("revenue fell") == content_words("net sales decreased") - {"net"}
    assert content_words("sales plunged") == content_words("sales declined")
    assert content_words("income soared") == content_words("income increased")


_APPLE = (
    "Apple Inc. (“Apple”) reported net sales of $383.3 billion in the U.S. and abroad, said Mary N. Dillon."
)


def test_every_sentence_reader_cuts_where_the_shared_splitter_does() -> None:
    """ "Apple Inc. (“Apple”)", "U.S.", "Mary N. Dillon" and "$383.3" end no sentence for any reader."""
    text = f"{_APPLE} It grew."
    assert words.split_sentences(text) == [_APPLE, "It grew."]
    assert [s.strip() for _, s in sentences(text)] == [_APPLE, "It grew."]
    item = {"text": text}
    assert [s for _, _, s in _candidates(item, content_words("sales"), why=False)] == [_APPLE]
    assert words.split_sentences("Sales rose approx. five percent. It grew.", capital_next=True) == [
        "Sales rose approx. five percent.",
        "It grew.",
    ]


def test_an_unfinished_draft_is_not_cut_at_an_abbreviation() -> None:
    """The draft's trailing unfinished sentence was cut after "Inc.", leaving "… by Apple Inc."."""
    assert (
        whole_sentences("Revenue grew 5% [10K1]. It was reported by Apple Inc. and")
        == "Revenue grew 5% [10K1]."
    )


def test_the_yes_or_no_reads_the_whole_first_sentence() -> None:
    """The first sentence was "Apple Inc.", which states no direction, so no "No" was put before it."""
    ask = read_ask("Did Apple's net sales increase in FY2023?", ["AAPL"], {}, [])
    answer = "Apple Inc. net sales decreased in FY2023 [10K1]."
    assert with_stated_yes_no(answer, ask) == f"No. {answer}"


def test_every_reader_of_a_scale_knows_trillion() -> None:
    """Four of the scale maps knew "trillion"; every one reads the table in finance/words.py now."""
    assert words.table_unit("(in trillions)") == "USD trillions"
    assert words.UNIT_SCALES["USD trillions"] == 1e12
    assert _scales("(In trillions, except shares in thousands)") == (12, 3)
    assert _LEADING_UNIT.sub("", "(in trillions) Revenue") == "Revenue"
    assert _CAPTION.match("in trillions")
    assert _UNITS_RE.search("Amounts in trillions")
    assert _threshold("more than $1.5 trillion") == "1500000000000"
    assert [f.value for f in scan_figures("It was worth $2.1 trillion.")] == [2.1e12]
    assert scale_unit(12) == "USD trillions"
    assert format_amount(Decimal("2100000000000"), "USD", 12) == "$2.1 trillion"


def test_a_contradicted_yes_or_no_is_replaced_with_its_whole_sentence() -> None:
    """The model's "No, …" sentence ran to the first period, inside "5.5%": "5% [10K1]." was left
    behind the computed "Yes"."""
    answer = "No, Apple Inc. net sales fell 5.5% [10K1]. Services grew."
    replaced = with_verdict(answer, Verdict(yes=True, grounds=(), rule="net sales rose"))
    assert replaced == "Yes (computed from the figures: net sales rose). Services grew."
    leading = words.LEADING_YES_NO.match("**Yes** the margin rose\nIt did.")
    assert leading is not None and leading[0] == "**Yes** the margin rose"
