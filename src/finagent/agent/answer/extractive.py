"""A narrative answer in the passages' own sentences, chosen by code, under an opening the model
writes from those sentences alone.

A small model reading many passages paraphrases loosely and slowly; a quote cannot misstate its
source. So code chooses the sentences that answer (``write.answer_quotes``), the model reads only
them and writes the one or two opening sentences (one short call), and each opening sentence stands
only where the quote it cites supports it; what does not stand is withheld and the quotes answer
alone. The answer is graded by code (``nodes.evaluate``): no second call.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from finagent.agent.answer.check import Verify, evidence_support, evidence_verdict
from finagent.agent.answer.choose import Read
from finagent.agent.answer.draft import Composed, Writer, draft
from finagent.agent.answer.passages import years_asked
from finagent.agent.answer.quotes import QUOTED_LEAD, Quote, event_quotes, quoted_block, source_phrase
from finagent.agent.answer.write import Written, answer_quotes
from finagent.agent.answer.writing import citable, cite_passages, drop_unknown_citations
from finagent.agent.context import Context
from finagent.agent.evidence import evidence_block
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.finance.check.support import Passage, content_words, direction_problem, name_problem
from finagent.finance.read.table_columns import column_pick
from finagent.finance.words import split_sentences

QUOTES = 4
"""Sentences quoted: enough for a list (segments, regions, three deals), few enough to read."""
LEAD_TOKENS = 120
"""The opening's cap: two sentences."""
NONE = "NONE"


def answers_extractively(plan: Question, context: Context, tools: list[dict[str, Any]]) -> bool:
    """A question answered in words about named companies, asking no quantity for code to read,
    compute or check against a computed change (a forecast's figures are the filing's words, never
    computed, even a ratio's; a call's are spoken, in no table; the share of a line a part only words
    name is written in a sentence), nor a yes or no (the writer's verdict, held to the
    passages, answers it), and no tool's output to relay (recorded news is the store's own): the
    sentences that answer are quoted."""
    spoken = "transcript" in plan.asked_sources and not plan.metrics
    worded = spoken or plan.share_in_words  # a call's figures, a share a part only words name
    return (
        context.narrative_answers == "extractive"
        and bool(plan.tickers)
        and not plan.yes_no
        and (not (plan.quantities or plan.ask.computed) or plan.forecast or worded)
        and (not plan.formulas or plan.forecast)  # a margin guided is the call's words, not computed
        and not [t for t in tools if not _recorded_news(t)]
    )


def row_picked(state: State, read: Read) -> str:
    """Which row of a passage's table stands at the end asked under the column the question names
    ("Most under “Against” of every row of the table: Art Levinson, 561,437,085 …"), from the
    best-ranked passage holding such a table; empty when none does."""
    plan = Question.of(state)
    if not plan.row_pick:
        return ""
    asked = content_words(" ".join(plan.terms))
    for item in read.items:
        pick = column_pick(item.get("text") or "", asked, content_words, plan.row_pick == "highest")
        if pick is not None:
            end = "Most" if plan.row_pick == "highest" else "Least"
            return (
                f"{end} under “{pick.column}” of every row of the table: {pick.label}, {pick.printed} (its "
                f"columns: {', '.join(pick.header)}), in {source_phrase(item, plan.names)} [{item['label']}]."
            )
    return ""


def _recorded_news(tool: dict[str, Any]) -> bool:
    """The news tool's recorded articles (no live feed): the newest the store holds, whatever the
    period asked, while the search reads the stored articles of that period: nothing to relay."""
    return tool.get("tool") == "company_news" and bool(tool.get("offline"))


def _delimited(quotes: list[Quote], names: dict[str, list[str]]) -> str:
    """The quotes as the prompt's delimited data, each with its label and whose words it is."""
    return "\n".join(
        evidence_block(q.item["label"], source_phrase(q.item, names), q.sentence) for q in quotes
    )


MIN_WORDS = 2
"""Words in lower case an opening sentence has at least: fewer, and it is a name or heading copied."""
COPY_SHARE = 0.9
"""A sentence of the opening whose words are this share of one quote's is that quote again."""


def _without_copies(text: str, quotes: list[Quote]) -> str:
    """The opening without the sentences that copy a quote (the quotes follow, so a copy only makes
    the reader read it twice) or that are no sentence at all."""
    quoted = [content_words(s) for q in quotes for s in split_sentences(q.sentence)]
    kept = []
    for sentence in split_sentences(text):
        words = content_words(sentence)
        if len(re.findall(r"\b[a-z]{3,}\b", sentence)) < MIN_WORDS:
            continue  # a name or a heading copied ("AMCOR FINANCE (USA), INC"), no sentence
        if not any(len(words) >= 6 and len(words & q) >= COPY_SHARE * len(words) for q in quoted):
            kept.append(sentence)
    return " ".join(kept)


def _quote_support(
    passages: dict[str, Passage], names: dict[str, list[str]], question: str
) -> Callable[[str], str | None]:
    """The support check of an opening sentence: as any written sentence's, and the names and the
    direction it states must be the quote's own or the question's (the model read nothing else, and
    no change is computed on this path)."""
    usual = evidence_support(passages, names, [])
    aliases = [a for group in names.values() for a in group if a]
    return lambda sentence: (
        usual(sentence)
        or name_problem(sentence, passages, aliases, question)
        or direction_problem(sentence, passages)
    )


def _writer(
    state: State, read: Read, quotes: list[Quote], block: str, context: Context, verify: Verify
) -> Writer:
    """One call: the model's opening over the quotes, each sentence held to the quote it cites."""
    plan = Question.of(state)
    names = plan.names
    passages = citable(read.items, [])
    known = {i["label"] for i in read.items}

    def compose(text: str) -> Composed:
        text = text.strip()
        if text.upper().rstrip(".") == NONE or text.startswith(("{", "[", "```")):
            text = ""
        text = _without_copies(text, quotes)
        text, dropped = drop_unknown_citations(cite_passages(text, read.items), known)
        answer = f"{text}\n\n{block}" if text else block
        return Composed(answer, text, 0, dropped)

    return Writer(
        model=get_resources().chat_model("prose", context, max_tokens=LEAD_TOKENS),
        messages=render("lead", question=plan.question, quotes=_delimited(quotes, names)),
        compose=compose,
        verify=verify,
        names=names,
        support=_quote_support(passages, names, plan.question),
        verdict=evidence_verdict(passages, names, frozenset(plan.ask.about) | years_asked(state), []),
        rewrites=0,
    )


async def extractive_answer(
    state: State, read: Read, context: Context, first: str, verify: Verify
) -> Written | None:
    """The quoted answer with the model's opening (None: no sentence of the passages answers, and
    the writer reads them instead). ``first`` is code's own quote block when it has one (an 8-K's
    Items)."""
    quotes = answer_quotes(state, read, QUOTES)
    names = Question.of(state).names
    block = first if first.startswith(QUOTED_LEAD) else quoted_block([q.line(names) for q in quotes])
    if first.startswith(QUOTED_LEAD):  # an 8-K's Items, shown cut at a clause: the model reads them whole
        quotes = [q for q, _ in event_quotes(read.items)] or quotes
    picked = row_picked(state, read)
    if picked:  # which row stands at an end is a ranking: code's, with no model call
        answer = f"{picked}\n\n{block}" if block else picked
        note = "the row asked for ranked by code from its table's column; no model call"
        return Written(answer, verify(answer), True, 0, [note], [], answered=True)
    if not quotes or not block:
        return None
    drafted = await draft(_writer(state, read, quotes, block, context, verify))
    warnings = [*drafted.warnings, "answered in the passages' own sentences, chosen by code; one model call"]
    return Written(
        drafted.answer,
        drafted.validation,
        True,
        drafted.withheld,
        warnings,
        list(drafted.calls),
        answered=True,
    )
