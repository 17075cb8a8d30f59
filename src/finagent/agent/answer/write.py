"""The model's words: the one draft loop (``draft``) run for a figure question's explanation or for
the answer from the passages, and what stands in for words that did not stand (the filings' own
sentences, quoted).

The model writes only what code cannot (drivers, context); every sentence it writes is checked by
the draft loop against the figures and the passages it cites (``check``), and the figures it may
state are those chosen and computed before (``choose``, ``compute``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

from finagent.agent.answer.check import Verify, evidence_support, evidence_verdict, figures_support
from finagent.agent.answer.choose import Read
from finagent.agent.answer.closeness import closeness_to, quotes_of_each_part
from finagent.agent.answer.compute import Computed
from finagent.agent.answer.draft import Composed, Drafted, Writer, basis, draft
from finagent.agent.answer.listing import COMPUTED_LEAD, computed_lines, figure_list, reports_read
from finagent.agent.answer.passages import years_asked
from finagent.agent.answer.quotes import (
    QUOTED_LEAD,
    Quote,
    chosen_quotes,
    driver_lines,
    event_openings,
    in_windows,
    quoted_answer,
    quoted_block,
)
from finagent.agent.answer.searched import nothing_found
from finagent.agent.answer.withheld import without_withheld
from finagent.agent.answer.writing import (
    MAX_SENTENCES,
    WRITER_CHARS,
    WRITER_TOKENS,
    citable,
    cite_passages,
    drop_unknown_citations,
    format_tool_items,
    not_available,
    resolve_citations,
)
from finagent.agent.context import Context
from finagent.agent.evidence import assign_labels, describe, format_evidence, query_terms, subject_note
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.agent.understand.vocabulary import NARRATIVE_WORDS
from finagent.finance.check.answer_shape import unanswered
from finagent.finance.check.matching import same_value
from finagent.finance.check.support import content_words
from finagent.finance.check.verdict import with_stated_yes_no
from finagent.finance.check.verify import Validation, check_prose, verify_answer, without_sentences_stating
from finagent.finance.figure_records import figures_by_company, summary_lines
from finagent.finance.read.drivers import CAUSE
from finagent.finance.read.written_figures import WrittenFigure, numbers_in, scan_figures
from finagent.finance.words import LEADING_YES_NO, split_sentences


def figures_writer(
    state: State,
    computed: Computed,
    context: Context,
    known_labels: set[str],
    tail: str,
    verify: Verify,
    tools: list[dict[str, Any]],
) -> Writer:
    """The draft loop of a why/what figure question: the model explains the computed answer."""
    plan = Question.of(state)
    items = computed.chosen.items
    mode = plan.answer_mode
    shown = _shown(items)
    market = format_tool_items(tools) if tools else "(not asked)"  # delimited: their text is data
    messages = render(
        "figures_why",
        question=plan.question,
        computed=computed.head,
        passages=_passages(shown, plan, computed.chosen.item_chars),
        market=market,
        max_sentences=MAX_SENTENCES.get(mode, 8),
    )

    def compose(prose: str) -> Composed:
        notes: list[str] = []
        prose = prose.strip()
        if prose.startswith(("{", "[", "```", "|")):
            notes.append("the model's answer was not prose (JSON, code or a table); it was set aside")
            prose = ""
        if not prose:
            notes.append("the model returned no explanation; the answer gives the computed figures alone")
        prose = without_echo(prose, computed.head)
        prose, dropped = drop_unknown_citations(prose, known_labels)
        prose = cite_passages(prose, items)
        head = computed.head + "\n\n" if computed.head and prose else computed.head
        answer = "\n\n".join(p for p in (head + prose, tail) if p.strip())
        return Composed(
            answer or "No reported figures were found for the periods asked.",
            prose,
            len(head),
            notes + dropped,
        )

    passages = citable(items, tools)
    names = plan.names
    return Writer(
        model=get_resources().chat_model("prose", context),
        messages=messages,
        compose=compose,
        verify=verify,
        ranks=computed.comparisons.ranks,
        names=names,
        support=figures_support(passages, names, computed.calculations),
        basis=basis(shown, market),
    )


def _discussion(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The passages that are prose, not a table or a statement."""
    return [i for i in items if i.get("label") and not (i.get("is_table") or i.get("statement"))]


UNSTOOD = "no sentence of the model's explanation stood; the filings' own sentences on it are quoted"


SAID = "the question asks what the filing says: its own sentences on it are quoted"


DRIVEN = "the question asks what drove a line: the sentences giving its causes are quoted, no model call"


def in_the_filings_words(
    answer: str, items: list[dict[str, Any]], plan: Question, note: str = UNSTOOD
) -> tuple[str, str | None]:
    """A why/what answer none of whose explaining sentences stood (or a question asking what the
    filing says): the passages' own sentences on it, quoted and cited, after the computed figures,
    with ``note`` for the warnings (None: no passage sentence shares the question's words)."""
    terms = list(plan.terms)
    names, named = plan.names, list(plan.named)
    drivers = driver_lines(plan.metric_names) if plan.drivers else ()
    quoted = quoted_answer(_discussion(items), terms, names, why=True, named=named, drivers=drivers)
    if not quoted:
        return answer, None
    return "\n\n".join(p for p in (answer, quoted) if p), note


def _shown(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The passages a why/what answer explains the figures with: prose before tables (the figures are
    in the table already)."""
    discussion = [i for i in items if any(NARRATIVE_WORDS in q for q in i.get("queries") or [])]
    discussion.sort(key=lambda i: (bool(i.get("is_table") or i.get("statement")), -float(i["fused_score"])))
    return _per_group(discussion, 4)[:8] or [i for i in items if i.get("label")][:6]


def _passages(chosen: list[dict[str, Any]], plan: Question, item_chars: int) -> str:
    """The shown passages, labelled, condensed to the sentences carrying the question's terms."""
    budget = WRITER_CHARS.get(plan.answer_mode, WRITER_CHARS["standard"])
    terms = list(plan.terms)
    return format_evidence(chosen, terms, min(item_chars, max(240, budget // max(1, len(chosen)))))


def _per_group(items: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """At most ``limit`` items per (ticker, period), in the given order."""
    seen: dict[tuple[Any, Any], int] = {}
    kept = []
    for item in items:
        key = (item.get("ticker"), item.get("period_label"))
        if seen.get(key, 0) < limit:
            seen[key] = seen.get(key, 0) + 1
            kept.append(item)
    return kept


_TABLE = re.compile(r"\|\s*Company\s*\|.*?(?=\n[ \t]*\n|\Z)", re.DOTALL)


def without_echo(prose: str, given: str) -> str:
    """The model's prose without what it restates of code's opening and table (``given``): a number
    code already gave is never restated. A sentence goes when it copies one of code's, or when every
    figure it states is code's and it says nothing code did not ("The passage states that net income
    grew 45.9% from $11,153 million …"); one that adds a cause or an event stays."""
    prose = _TABLE.sub("", prose)
    for sentence in split_sentences(given):
        prose = prose.replace(sentence, "")
    figures = [f for f in scan_figures(given) if f.kind != "date"]
    words = content_words(given)
    for sentence in split_sentences(prose):
        if _restates(sentence, figures, words):
            prose = prose.replace(sentence, "")
    return re.sub(r"[ \t]{2,}", " ", prose).strip()


_FRAMING = frozenset(
    content_words(
        "shown above below earlier table year-over-year annual prior previous figure number amount value"
        " versus consistent went moved changed stood came level"
    )
)
"""Words about a figure (where it stands, that it moved) rather than about the business: a
restatement may carry them."""


def _restates(sentence: str, given: list[WrittenFigure], words: set[str]) -> bool:
    """Every figure of ``sentence`` is one code gave, every word of it is one code wrote (or points
    at them), and it gives no cause."""
    stated = [f for f in scan_figures(sentence) if f.kind != "date"]
    return (
        bool(stated)
        and all(any(same_value(f, g.value, g.kind) for g in given) for f in stated)
        and content_words(sentence) - _FRAMING <= words
        and not CAUSE.search(sentence)
    )


NO_ANSWER_LEAD = "The language model did not return an answer"


def fallback_answer(facts: list[dict[str, Any]], items: list[dict[str, Any]]) -> str:
    """An answer built from evidence alone when the model gives none."""
    if facts:
        return f"{NO_ANSWER_LEAD}; these figures were found in the evidence."
    if not items:
        return "No evidence was found in the store for this question."
    lines = [f"- {describe(i)}: {i['text'][:200].strip()} [{i['label']}]" for i in items[:5]]
    return f"{NO_ANSWER_LEAD}; the most relevant evidence is:\n" + "\n".join(lines)


def why_no_answer(drafted: Drafted, drivers: bool = False) -> str | None:
    """Why the drafted prose is no answer: empty, only citations, cut off, or nothing of what the
    model wrote stood (every sentence withheld, or JSON or code set aside, leaving the figures read as
    a stand-in). A model that wrote nothing (a provider down) keeps that stand-in."""
    if drafted.wrote and drafted.prose.startswith(NO_ANSWER_LEAD):
        if drafted.withheld:
            return "none of its sentences is supported by the passages it cites"
        return "it wrote no prose (JSON or code)"
    return unanswered(drafted.prose, drivers)


def _compose_for(state: State, read: Read, tools: list[dict[str, Any]], context: Context, first: str) -> Any:
    """How the model's prose becomes the evidence answer: figures checked against their company,
    passages cited, the figures read listed, unavailable tools named."""
    plan = Question.of(state)
    known = {i["label"] for i in read.items} | {t["label"] for t in tools}
    extra = [n for t in tools for n in numbers_in(t.get("summary", ""))]
    names = plan.names
    unavailable = not_available(list(state.get("tool_results") or []))
    ask = plan.ask
    every_report = ask.coverage == "all" or any(spec.kind == "held" for spec in plan.time_specs)
    covered = reports_read(read.items) if every_report else ""
    figures = figure_list(read) if plan.quantities else ""

    def compose(text: str) -> Composed:
        notes: list[str] = []
        if text.lstrip().startswith(("{", "[", "```")):  # JSON or code, not an answer to show
            notes.append("the model's answer was not prose (JSON or code); it was set aside")
            text = ""
        if first:  # the computed yes/no leads; the model's own yes or no, and its copy of code's, give way
            text = without_echo(LEADING_YES_NO.sub("", text, count=1), first)
        if not text.strip() and first:  # code's opening is the answer; the model added nothing
            notes.append("the model returned no answer; the answer was built from the evidence alone")
        elif not text.strip() and read.facts and plan.quantities:
            text = fallback_answer(read.facts, read.items)
            notes.append("the model returned no answer; the answer was built from the evidence alone")
        elif text.strip() and read.facts and context.ablations.use_calculator:
            text, bad = check_prose(text, read.facts, read.calculations, extra, names, read.items)
            if bad:
                notes.append(
                    "sentences of the model's answer were withheld: they stated figures found neither in "
                    f"the evidence nor in the computed results for the company named ({', '.join(bad[:5])})"
                )
                text = without_sentences_stating(text, bad) or summary_lines(read.facts, read.calculations)
        if read.withheld:  # written in a passage, but not the line it claims to be
            text = without_withheld(text, read.withheld, names)
        text, dropped = drop_unknown_citations(cite_passages(text, read.items), known)
        if not first:
            text = with_stated_yes_no(text, ask)
        head = f"{first}\n\n" if first and text.strip() else first
        answer = head + text
        if covered:
            answer += "\n\n" + covered
        if unavailable:
            answer += "\n\n" + unavailable
        if figures:
            answer += "\n\nFigures:\n" + figures
        return Composed(answer, text, len(head), notes + dropped)

    return compose


QUOTE_POOL = 8
"""Passages of each company and period read for sentences to quote: quoting costs no model time, so
it reads past the few passages the model was given."""


def _quotable(state: State, read: Read) -> list[dict[str, Any]]:
    """The read passages, then the next-best found for the same companies and periods (labelled after
    them and added to the answer's evidence, so a quote of one is cited and checked like the rest)."""

    def group(item: dict[str, Any]) -> tuple[Any, str]:
        return item.get("ticker"), item["period_label"]

    held = {i.get("chunk_id") for i in read.items}
    ranked = sorted(state.get("evidence") or [], key=lambda e: (-e["fused_score"], e["chunk_id"]))
    more: list[dict[str, Any]] = []
    for key in dict.fromkeys(group(i) for i in read.items):  # in the read passages' order
        room = QUOTE_POOL - sum(group(i) == key for i in read.items)
        fresh = [e for e in ranked if group(e) == key and e["chunk_id"] not in held]
        # the passages beside the best hits are read whatever their rank (the search's ``neighbors``)
        more += fresh[: max(0, room)] + [e for e in fresh[max(0, room) :] if e.get("neighbor")]
    read.items = [*read.items, *assign_labels(more, after=read.items)]
    return read.items


def answer_quotes(state: State, read: Read, limit: int = 3) -> list[Quote]:
    """The passages' sentences that answer the question best (the read passages and the next-best
    of the same companies and periods), as code chooses them for an answer in their own words; of a
    compound question, the best of each of its parts in turn (``quotes_of_each_part``)."""
    plan = Question.of(state)
    pool = [item for item in _quotable(state, read) if in_windows(item, plan.news_windows)]
    options: dict[str, Any] = {
        "why": plan.narrative,
        "named": list(plan.named),
        "ahead": sorted(years_asked(state)) if plan.forecast else (),
        "recent": plan.status,
        "forecast": plan.forecast,
    }
    if plan.drivers:
        options["drivers"] = driver_lines(plan.metric_names)
    elif len(plan.sub_asks) > 1:
        return quotes_of_each_part(pool, plan, limit, options)
    else:
        options["closeness"] = closeness_to(plan)
    return chosen_quotes(pool, list(plan.terms), plan.names, limit=limit, **options)


def in_their_words(state: State, read: Read, why: str) -> tuple[str, str]:
    """The answer when the model's was none: the passages' own sentences that answer, else a plain
    statement of what could not be answered."""
    plan = Question.of(state)
    lines = [q.line(plan.names) for q in answer_quotes(state, read)]
    quoted = quoted_block(lines or event_openings(read.items, plan.names, 3))
    if quoted:
        return quoted, f"the model's answer was not an answer ({why}); the sources' own sentences are quoted"
    closest = quoted_answer(read.items, list(plan.terms), plan.names, limit=1).partition("\n")[2]
    text = nothing_found(list(state.get("searches") or []), plan.names, closest)
    return text, f"the model's answer was not an answer ({why}) and no passage answers the question"


def quoted_instead(state: State, read: Read, tools: list[dict[str, Any]]) -> tuple[str, Validation] | None:
    """A narrative answer in the passages' own sentences, without the model, and its figures check
    (None: no passage answers)."""
    answer, _ = in_their_words(state, read, "")
    if not answer.startswith(QUOTED_LEAD):
        return None
    citations = resolve_citations(answer, {i["label"]: i for i in read.items}, {t["label"]: t for t in tools})
    return answer, verify_answer(answer, [*read.items, *tools], [], citations)


@dataclass
class Written:
    """What the write stage gives the answer: its text and figures check, whether it was written
    (the model's draft stood, or code built it), and the draft loop's count of withheld sentences,
    warnings, model calls and what the model read."""

    answer: str
    validation: Validation
    wrote: bool
    withheld: int = 0
    warnings: list[str] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    drafted_from: str = ""
    answered: bool = True


async def write_figures(
    state: State, computed: Computed, context: Context, tools: list[dict[str, Any]], verify: Verify
) -> Written | None:
    """The words of a figure answer: the model's explanation after the computed head when the
    question asks why or what (or asks for news or market data), the filing's own sentences when it
    asks what the filing says, else the computed head alone, with no model call (None: a follow-up
    round added nothing the model would read, and the last answer stands)."""
    plan = Question.of(state)
    items = computed.chosen.items
    tail = not_available(list(state.get("tool_results") or []))
    driven = _drivers_quoted(computed.head, items, plan) if not tools else None
    if driven is not None:  # extractive first: the causes the filings give, chosen by code
        answer = "\n\n".join(p for p in (driven, tail) if p)
        return Written(answer, verify(answer), True, warnings=[DRIVEN])
    if plan.narrative or tools:
        known_labels = {i["label"] for i in items} | {t["label"] for t in tools}
        writer = figures_writer(state, computed, context, known_labels, tail, verify, tools)
        if writer.stands(state):
            return None
        drafted = await draft(writer)
        written = Written(
            drafted.answer,
            drafted.validation,
            drafted.wrote,
            drafted.withheld,
            list(drafted.warnings),
            list(drafted.calls),
            writer.basis,
        )
        if plan.narrative and unanswered(drafted.prose, plan.drivers):
            written.answer, note = in_the_filings_words(written.answer, items, plan)
            written.warnings += [note] if note else []
            written.validation = verify(written.answer)
        return written
    said = in_the_filings_words(computed.head, items, plan, SAID) if plan.says else None
    if said is not None and said[1]:
        # "what does it say about …": the computed figures, then the filing's own sentences on it
        answer = "\n\n".join(p for p in (said[0], tail) if p)
        return Written(answer, verify(answer), True, warnings=[SAID])
    answer = (  # every number is computed: no model call
        "\n\n".join(p for p in (computed.head, tail) if p)
        or "No reported figures were found for the periods asked."
    )
    return Written(answer, verify(answer), True)


def _drivers_quoted(head: str, items: list[dict[str, Any]], plan: Question) -> str | None:
    """A what-drove question about a line: the computed figures, then the passages' sentences that
    give a cause of that line's change (None: no such question, or no passage gives one — the model
    then explains from the passages, and its sentences are checked like any)."""
    if not (plan.drivers and driver_lines(plan.metric_names)):
        return None
    answer, note = in_the_filings_words(head, items, plan, DRIVEN)
    return answer if note else None


def evidence_prompt(
    state: State, read: Read, tools: list[dict[str, Any]], subject: str | None
) -> tuple[list[BaseMessage], str]:
    """The model's prompt for the answer from the passages (the figures read, the passages condensed
    to the question's terms, the tools' summaries, the warnings so far), and the tools' text."""
    plan = Question.of(state)
    tickers = list(plan.tickers)
    notes = [*(state.get("warnings") or []), *([subject_note([subject])] if subject else [])]
    budget = WRITER_CHARS.get(plan.answer_mode, WRITER_CHARS["standard"])
    writer_chars = min(read.item_chars, max(240, budget // max(1, len(read.items))))
    terms = list(plan.terms) + query_terms(list(state.get("follow_up_queries") or []))
    market = format_tool_items(tools) if tools else ""  # delimited: their text is data
    messages = render(
        "synthesis" if len(tickers) > 1 else "generate",
        question=plan.question,
        companies=", ".join(tickers),
        facts=figures_by_company(read.facts, read.calculations)
        if read.facts
        else "(none read; use the passages)",
        evidence=format_evidence(read.items, terms, writer_chars, plan.status)
        + ("\n" + market if market else ""),
        warnings="; ".join(notes) or "none",
        max_sentences=MAX_SENTENCES.get(plan.answer_mode, 8),
    )
    return messages, market


def evidence_writer(
    state: State,
    read: Read,
    tools: list[dict[str, Any]],
    context: Context,
    prompt: tuple[list[BaseMessage], str],
    first: str,
    verify: Verify,
) -> Writer:
    """The draft loop of the answer from the passages: the model's prompt, how its prose becomes the
    answer after the computed ``first`` sentences, and its checks."""
    plan = Question.of(state)
    messages, market = prompt
    passages = citable(read.items, tools)
    names = plan.names
    asked = frozenset(plan.ask.about) | years_asked(state)
    return Writer(
        model=get_resources().chat_model("generate", context, max_tokens=WRITER_TOKENS.get(plan.answer_mode)),
        messages=messages,
        compose=_compose_for(state, read, tools, context, first),
        verify=verify,
        names=names,
        withhold_unfound=False,  # a figure found nowhere stays, marked [unverified]
        support=evidence_support(passages, names, read.calculations),
        verdict=evidence_verdict(passages, names, asked, read.calculations),
        rewrites=1 if plan.tickers else 0,  # a question naming no company gets one model call
        basis=basis(read.items, market),
    )


async def write_evidence(state: State, read: Read, writer: Writer, first: str, verify: Verify) -> Written:
    """The words of the answer from the passages: the model's draft, or, when it is no answer (and
    code wrote no opening), the passages' own sentences after the formulas computed."""
    drafted = await draft(writer)
    answer, validation = drafted.answer, drafted.validation
    warnings = list(drafted.warnings)
    # prose naming no cause for a what-drove question gives way to the passages' own causes, quoted
    not_an_answer = None if first else why_no_answer(drafted, Question.of(state).drivers)
    if not_an_answer:
        answer, note = in_their_words(state, read, not_an_answer)
        if lines := computed_lines(read.calculations):  # code's results stand whatever the model wrote
            answer = f"{lines}\n\n{answer}" if answer.startswith(QUOTED_LEAD) else lines
        warnings.append(note)
        validation = verify(answer)
    return Written(
        answer,
        validation,
        drafted.wrote and not not_an_answer,
        drafted.withheld,
        warnings,
        list(drafted.calls),
        writer.basis,
        answered=not not_an_answer or answer.startswith((QUOTED_LEAD, COMPUTED_LEAD)),
    )
