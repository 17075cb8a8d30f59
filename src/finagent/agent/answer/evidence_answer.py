"""The answer to a question the figures lookup does not cover (a narrative, a segment, a company's
own formula, a company named by no question): figures read from the statement rows of the passages,
else copied by the model (each verified against the text it cites), the question's formulas and the
changes computed by the calculator, then the model's cited answer through the one draft loop.

A small model computes poorly but copies well, so it only copies labelled values; the arithmetic is
the calculator's, and a figure the evidence does not contain is dropped before anyone sees it.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any, cast

from finagent.agent.answer.choose import Read, read_figures
from finagent.agent.answer.compute import evidence_opening, parts_ranking
from finagent.agent.answer.draft import Composed, Drafted, Writer, basis, draft
from finagent.agent.answer.passages import years_asked
from finagent.agent.answer.quotes import QUOTED_LEAD, event_report, quoted_answer
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
    tool_items,
)
from finagent.agent.context import Context
from finagent.agent.evidence import (
    assign_labels,
    best_match,
    describe,
    format_evidence,
    query_terms,
    subject_note,
)
from finagent.agent.planning import about_an_event_filing
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.state import State
from finagent.finance.asks import Ask
from finagent.finance.figures.matching import known_changes, known_facts, known_results
from finagent.finance.figures.text import (
    describe_calculation,
    figures_by_company,
    format_facts,
    labelled_by_passage,
    summary_lines,
)
from finagent.finance.figures.verdict import with_stated_yes_no
from finagent.finance.figures.verify import (
    UNSUPPORTED,
    PeriodScope,
    Validation,
    check_prose,
    flag_unsupported,
    table_known,
    verify_answer,
    without_sentences_stating,
)
from finagent.finance.figures.written import numbers_in
from finagent.finance.support import (
    support_problem,
    unanswered,
    verdict_problem,
    yes_or_no_against_computed,
)

LEADING_YES_NO = re.compile(r"^\s*(?:\*\*)?(?:yes|no)\b[^.!?\n]*[.!?]?[ \t]*", re.I)


def about_best_match(state: State) -> tuple[State, str | None]:
    """A question naming no company is answered about the company whose filings matched it best
    (returned, for the answer's note): the evidence of the others (searched across the store) is set
    aside, so the answer does not mix one company's cash with another's."""
    evidence = list(state.get("evidence") or [])
    subject = best_match(evidence, [dict(t) for t in state.get("targets") or []])
    if subject is None:
        return state, None
    kept = [e for e in evidence if e.get("ticker") == subject]
    return cast(State, {**state, "evidence": kept}), subject


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


def reports_read(items: list[dict[str, Any]]) -> str:
    """ "Reports read: AAPL 10-Q Q3 FY2022, ..." — the periods an answer about every report covers."""
    seen: dict[tuple[str, int, int, str], str] = {}
    for item in items:
        if item.get("kind") in ("news", "market_data") or not item.get("period_label"):
            continue
        key = (
            item.get("ticker") or "",
            item.get("fiscal_year") or 0,
            item.get("fiscal_quarter") or 5,
            item["kind"],
        )
        seen[key] = f"{key[0]} {item['kind']} {item['period_label']}".strip()
    return "Reports read: " + ", ".join(seen[k] for k in sorted(seen)) + "." if seen else ""


def period_scope(state: State, read: Read) -> PeriodScope:
    """What the answer's numbers are checked against for their period: the figures read for each
    company and period, every cell of the cited statement tables, and the computed changes and
    ratios."""
    analysis = state["analysis"]
    calendars = analysis.get("calendars") or {}
    known = table_known(read.items, calendars) + known_facts(read.facts)
    known += [k for k in known_changes(read.calculations) if k["period"]]
    known += [k for k in known_results(read.calculations) if k["period"]]  # a ratio computed for its year
    targets: dict[str, list[str]] = {}
    for target in state.get("targets") or []:
        if target.get("ticker") and not target.get("companion"):
            targets.setdefault(target["ticker"], []).append(target["label"])
    return PeriodScope(
        known=known,
        names=analysis.get("names") or {},
        targets=targets,
        calendars={t: (int(v[0] or 12), int(v[1] or 0)) for t, v in calendars.items() if v and v[0]},
    )


def _compose_for(state: State, read: Read, tools: list[dict[str, Any]], context: Context, first: str) -> Any:
    """How the model's prose becomes the evidence answer: figures checked against their company,
    passages cited, the figures read listed, unavailable tools named."""
    analysis = state["analysis"]
    known = {i["label"] for i in read.items} | {t["label"] for t in tools}
    extra = [n for t in tools for n in numbers_in(t.get("summary", ""))]
    names = analysis.get("names") or {}
    unavailable = not_available(list(state.get("tool_results") or []))
    ask = Ask.from_dict(analysis.get("ask"))
    every_report = ask.coverage == "all" or any(
        spec.get("kind") == "held" for spec in analysis.get("time_specs") or []
    )
    covered = reports_read(read.items) if every_report else ""
    figures = _figure_list(read) if analysis.get("quantities", True) else ""

    def compose(text: str) -> Composed:
        notes: list[str] = []
        if text.lstrip().startswith(("{", "[", "```")):  # JSON or code, not an answer to show
            notes.append("the model's answer was not prose (JSON or code); it was set aside")
            text = ""
        if first:  # the computed yes/no leads; the model's own yes or no gives way
            text = LEADING_YES_NO.sub("", text, count=1)
        if not text.strip() and first:  # code's opening is the answer; the model added nothing
            notes.append("the model returned no answer; the answer was built from the evidence alone")
        elif not text.strip() and read.facts and analysis.get("quantities", True):
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


COMPUTED_LEAD = "Computed from the statements:"


def _computed_lines(calculations: list[dict[str, Any]]) -> str:
    """The formulas computed (a quick ratio per year and its change), for an answer whose prose did
    not stand: "Computed from the statements:" and one line each; empty when none was computed."""
    metrics = {c["metric"] for c in calculations if c.get("kind") == "formula"}
    lines = [
        _calculation_line(c) + (f" [{', '.join(c['sources'])}]" if c.get("sources") else "")
        for c in _listed(calculations)
        if c["metric"] in metrics
    ]
    return "\n".join([COMPUTED_LEAD, *lines]) if lines else ""


def _figure_list(read: Read) -> str:
    """The figures read, each under its passage's own label, and what was computed from them."""
    listed = _named_by_their_passage(read.facts, read.items)
    if not listed:
        return ""
    unlisted = {f["metric"] for f in read.facts} - {f["metric"] for f in listed}
    lines = [format_facts(listed)] + [_calculation_line(c) for c in _listed(read.calculations, unlisted)]
    return "\n".join(lines)


def _named_by_their_passage(facts: list[dict[str, Any]], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The figures a figure list shows: a figure the model copied is listed only under a label its
    passage writes beside the value (the check of the prose still reads every verified figure)."""
    texts = {i["label"]: i.get("text") or "" for i in items}
    return [
        f
        for f in facts
        if f.get("method") != "model"
        or labelled_by_passage(f["metric"], f["value"], texts.get(f["source"], ""))
    ]


def _listed(calculations: list[dict[str, Any]], unlisted: Collection[str] = ()) -> list[dict[str, Any]]:
    """The calculations a figure list shows: none of an unlisted figure's; an amount's difference
    between two years is left to its change's line, which states it ("-5.1% (-$2,544 million)");
    the check still reads both."""
    changes = {
        (c["ticker"], c["metric"], c["from_period"], c["to_period"])
        for c in calculations
        if "from_period" in c
    }
    return [
        c
        for c in calculations
        if not ("since" in c and (c["ticker"], c["metric"], c["since"], c["period"]) in changes)
        and c.get("metric") not in unlisted
    ]


def _calculation_line(calc: dict[str, Any]) -> str:
    """ "- AMCR quick ratio FY2023: 0.69 (= ...) (computed: (5308 - 2213) / 4476)"."""
    return f"- {calc['ticker']} {describe_calculation(calc)} (computed: {calc['expression']})"


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
        more += fresh[: max(0, room)]
    read.items = [*read.items, *assign_labels(more, after=read.items)]
    return read.items


def _in_their_words(state: State, read: Read, why: str) -> tuple[str, str]:
    """The answer when the model's was none: the passages' own sentences that answer, else a plain
    statement of what could not be answered."""
    analysis = state["analysis"]
    quoted = quoted_answer(
        _quotable(state, read),
        list(analysis.get("terms") or []),
        analysis.get("names") or {},
        why=bool(analysis.get("narrative")),
        named=analysis.get("named") or [],
        ahead=sorted(years_asked(state)) if analysis.get("forecast") else (),
    )
    if quoted:
        return quoted, f"the model's answer was not an answer ({why}); the sources' own sentences are quoted"
    text = "finagent could not answer this question from the evidence it found."
    return text, f"the model's answer was not an answer ({why}) and no passage answers the question"


def _quoted(state: State, read: Read, tools: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A narrative answer in the passages' own sentences, without the model (None: none answers)."""
    answer, _ = _in_their_words(state, read, "")
    if not answer.startswith(QUOTED_LEAD):
        return None
    citations = resolve_citations(answer, {i["label"]: i for i in read.items}, {t["label"]: t for t in tools})
    validation = verify_answer(answer, [*read.items, *tools], [], citations)
    how = "answered in the sources' own sentences (quoted answers)"
    return _answered_without_draft(state, read, answer, validation, how, calculations=[])


def _answered_without_draft(
    state: State,
    read: Read,
    answer: str,
    validation: Validation,
    how: str,
    calculations: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The state update of an answer no draft loop wrote (quoted sentences, a computed ranking)."""
    tools = tool_items(list(state.get("tool_results") or []))
    return {
        "answer": answer,
        "citations": resolve_citations(
            answer, {i["label"]: i for i in read.items}, {t["label"]: t for t in tools}
        ),
        "facts": [],
        "calculations": read.calculations if calculations is None else calculations,
        "iterations": int(state.get("iterations") or 0) + 1,
        "draft_ok": True,
        "answered": True,
        "withheld": 0,
        "periods_covered": sorted(
            {f"{i.get('ticker') or ''} {i['period_label']}".strip() for i in read.items}
        ),
        "llm_calls": read.calls,
        "warnings": [*read.warnings, how],
        "validation": validation.to_dict(),
    }


def _verifier(state: State, read: Read, tools: list[dict[str, Any]]) -> Any:
    """The figures check of an answer: against the passages, the tools' summaries, the computed
    results and the figures the question gives, each for its company and period."""
    scope = period_scope(state, read)

    def verify(answer: str) -> Validation:
        citations = resolve_citations(
            answer, {i["label"]: i for i in read.items}, {t["label"]: t for t in tools}
        )
        given = [{"chunk_id": None, "label": None, "text": "; ".join(read.givens), "period_label": ""}]
        evidence = [*read.items, *tools, *(given if read.givens else [])]
        return verify_answer(answer, evidence, read.calculations, citations, scope=scope)

    return verify


def _computed_ranking(state: State, context: Context) -> dict[str, Any] | None:
    """A ranking of one company's parts (a segment, a region, a liability) read from its tables is
    the whole answer when the question asks no why: no model call (None: not such a question, or no
    table of the company and period has the parts)."""
    analysis = state["analysis"]
    parts = Ask.from_dict(analysis.get("ask")).parts
    if parts is None or analysis.get("narrative") or not context.ablations.use_calculator:
        return None
    # no model reads the passages, so every one found is searched for the table, best first
    evidence = sorted(state.get("evidence") or [], key=lambda e: -float(e.get("fused_score") or 0.0))
    read = Read(assign_labels(evidence), 0)
    answer = parts_ranking(state, read, parts)
    if not answer:
        return None
    tools = tool_items(list(state.get("tool_results") or []))
    validation = _verifier(state, read, tools)(answer)
    if validation.status == UNSUPPORTED:
        answer = flag_unsupported(answer, validation)
    return _answered_without_draft(
        state, read, answer, validation, "ranked by code from the statement table; no model call"
    )


async def evidence_answer(state: State, context: Context) -> dict[str, Any]:
    """The cited answer from the passages (see the module docstring)."""
    subject = None
    if not state["analysis"].get("tickers"):
        state, subject = about_best_match(state)
    computed = _computed_ranking(state, context)
    if computed is not None:
        return computed
    analysis = state["analysis"]
    tickers: list[str] = analysis["tickers"]
    phrases = [p for ps in analysis["keywords"].values() for p in ps] + list(
        state.get("follow_up_queries") or []
    )
    read = await read_figures(state, context, phrases)
    tools = tool_items(list(state.get("tool_results") or []))
    if context.narrative_answers == "quoted" and analysis.get("narrative") and not analysis.get("quantities"):
        quoted = _quoted(state, read, tools)
        if quoted is not None:
            return quoted
    notes = [*(state.get("warnings") or []), *([subject_note([subject])] if subject else [])]
    budget = WRITER_CHARS.get(analysis["answer_mode"], WRITER_CHARS["standard"])
    writer_chars = min(read.item_chars, max(240, budget // max(1, len(read.items))))
    terms = list(analysis.get("terms") or []) + query_terms(list(state.get("follow_up_queries") or []))
    market = format_tool_items(tools) if tools else ""  # delimited: their text is data
    messages = render(
        "synthesis" if len(tickers) > 1 else "generate",
        question=analysis["question"],
        companies=", ".join(tickers),
        facts=figures_by_company(read.facts, read.calculations)
        if read.facts
        else "(none read; use the passages)",
        evidence=format_evidence(read.items, terms, writer_chars) + ("\n" + market if market else ""),
        warnings="; ".join(notes) or "none",
        max_sentences=MAX_SENTENCES.get(analysis["answer_mode"], 8),
    )
    first = (
        evidence_opening(state, read) if context.ablations.use_calculator else ""
    )  # may add computed results
    if not first and about_an_event_filing(analysis):  # what the 8-K reports: its own Items first
        first = event_report(read.items, analysis.get("names") or {})
    verify = _verifier(state, read, tools)
    passages = citable(read.items, tools)
    names = analysis.get("names") or {}
    asked = frozenset(Ask.from_dict(analysis.get("ask")).about) | years_asked(state)
    writer = Writer(
        model=get_resources().chat_model(
            "generate", context, max_tokens=WRITER_TOKENS.get(analysis["answer_mode"])
        ),
        messages=messages,
        compose=_compose_for(state, read, tools, context, first),
        verify=verify,
        names=names,
        withhold_unfound=False,  # a figure found nowhere stays, marked [unverified]
        support=lambda sentence: (
            support_problem(sentence, passages, names, calculations=read.calculations)
            or yes_or_no_against_computed(sentence, read.calculations)
        ),
        # a yes or no stands on the answer's supported sentences, never against a computed change ("Yes,
        # the quick ratio improved" over 0.59 -> 0.36)
        verdict=lambda sentence, grounds: (
            verdict_problem(sentence, passages, names, grounds, asked)
            or yes_or_no_against_computed(sentence, read.calculations)
        ),
        rewrites=1 if tickers else 0,  # a question naming no company gets one model call
        basis=basis(read.items, market),
    )
    if writer.stands(state):  # a follow-up round added nothing the model would read
        return {"stood": True, "llm_calls": read.calls}
    drafted = await draft(writer)
    answer, validation = drafted.answer, drafted.validation
    warnings = read.warnings + drafted.warnings
    # prose naming no cause for a what-drove question gives way to the passages' own causes, quoted
    not_an_answer = None if first else why_no_answer(drafted, bool(analysis.get("drivers")))
    if not_an_answer:
        answer, note = _in_their_words(state, read, not_an_answer)
        if computed_lines := _computed_lines(
            read.calculations
        ):  # code's results stand whatever the model wrote
            has_quotes = answer.startswith(QUOTED_LEAD)
            answer = f"{computed_lines}\n\n{answer}" if has_quotes else computed_lines
        warnings.append(note)
        validation = verify(answer)
    answered = not not_an_answer or answer.startswith((QUOTED_LEAD, COMPUTED_LEAD))
    if validation.status == UNSUPPORTED:
        answer = flag_unsupported(answer, validation)
        warnings.append(
            "figures marked [unverified] are not supported by the cited evidence or a computed result: "
            + ", ".join(c.text for c in validation.unverified[:5])
        )
    if subject and answer.strip():
        answer = f"{subject_note([subject])}\n\n{answer}"
    covered = sorted(
        {f"{f['ticker']} {f['period']}" for f in read.facts}
        or {f"{i.get('ticker') or ''} {i['period_label']}".strip() for i in read.items}
    )
    return {
        "answer": answer,
        "citations": resolve_citations(
            answer, {i["label"]: i for i in read.items}, {t["label"]: t for t in tools}
        ),
        "facts": read.facts,
        "calculations": read.calculations,
        "iterations": int(state.get("iterations") or 0) + 1,
        "draft_ok": drafted.wrote and not not_an_answer,
        "answered": answered,
        "withheld": drafted.withheld + read.rejected,
        "periods_covered": covered,
        "llm_calls": read.calls + drafted.calls,
        "warnings": warnings,
        "validation": validation.to_dict(),
        "drafted_from": writer.basis,
    }
