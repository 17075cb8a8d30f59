"""generate node: extract figures (JSON) → verify → compute (sympy) → write the cited answer.

A small model computes poorly but copies well, so it only copies labelled values; the arithmetic is
the calculator's, and a figure the evidence does not contain is dropped before anyone sees it.
"""

from __future__ import annotations

from typing import Any, cast

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.runtime import Runtime

from finagent.agent.answer.figures_answer import generate_figures
from finagent.agent.answer.writing import (
    MAX_SENTENCES,
    WRITER_CHARS,
    budgeted_evidence,
    cite_passages,
    drop_unknown_citations,
    favour_discussion,
    format_tool_items,
    not_available,
    resolve_citations,
    tool_items,
)
from finagent.agent.context import Context
from finagent.agent.evidence import (
    describe,
    format_evidence,
    query_terms,
    subject_companies,
    subject_note,
)
from finagent.agent.planning import NARRATIVE_WORDS
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.schemas import Facts, facts_schema
from finagent.agent.state import Analysis, State
from finagent.finance.figures.formulas import (
    Formula,
    average_over_periods,
    compute_formulas,
    formulas_for,
    input_items,
    needs_prior,
    read_line_items,
    with_prior_years,
)
from finagent.finance.figures.matching import known_changes, known_facts
from finagent.finance.figures.text import (
    compute_changes,
    describe_calculation,
    deterministic_facts,
    figures_by_company,
    format_facts,
    sort_facts,
    summary_lines,
    verify_facts,
)
from finagent.finance.figures.verdict import sign_verdict, with_verdict
from finagent.finance.figures.verify import (
    UNSUPPORTED,
    PeriodScope,
    check_prose,
    feedback_for,
    flag_unsupported,
    table_known,
    verify_answer,
    without_sentences_stating,
)
from finagent.finance.figures.written import numbers_in
from finagent.llm.structured import structured_call, text_call


def finalize_answer(
    text: str,
    facts: list[dict[str, Any]],
    calculations: list[dict[str, Any]],
    by_label: dict[str, dict[str, Any]],
    tools_by_label: dict[str, dict[str, Any]],
) -> tuple[str, list[dict[str, Any]], list[str]]:
    """Drop citations that match no evidence, append the verified figures, resolve every citation."""
    text, warnings = drop_unknown_citations(text, set(by_label) | set(tools_by_label))
    if facts:
        lines = [format_facts(facts)]
        lines += [
            f"- {c['ticker']} {describe_calculation(c)} (computed: {c['expression']})" for c in calculations
        ]
        text += "\n\nFigures:\n" + "\n".join(lines)
    return text, resolve_citations(text, by_label, tools_by_label), warnings


def fallback_answer(facts: list[dict[str, Any]], items: list[dict[str, Any]]) -> str:
    """An answer built from evidence alone when the model gives none."""
    if facts:
        return "The language model did not return an answer; these figures were found in the evidence."
    if not items:
        return "No evidence was found in the store for this question."
    lines = [f"- {describe(i)}: {i['text'][:200].strip()} [{i['label']}]" for i in items[:5]]
    return "The language model did not return an answer; the most relevant evidence is:\n" + "\n".join(lines)


async def _extract(
    items: list[dict[str, Any]],
    tickers: list[str],
    question: str,
    phrases: list[str],
    terms: list[str],
    item_chars: int,
    context: Context,
    metrics: list[str] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Model extraction of labelled figures from the given items, verified against their text."""
    labels = sorted({i["period_label"] for i in items})
    limit = min(
        24, 2 * len(items) + 2, *([len(metrics) * len(labels) * max(1, len(tickers))] if metrics else [])
    )
    schema = facts_schema(tickers, labels, [i["label"] for i in items], limit=limit, metrics=metrics)
    reply, calls = await structured_call(
        get_resources().chat_model("extract", context),
        render(
            "extract",
            question=question,
            metrics=", ".join(phrases[:6]),
            evidence=format_evidence(items, terms, item_chars),
        ),
        schema,
        role="extract",
        default=Facts,
    )
    by_label = {i["label"]: i for i in items}
    verified, rejected = verify_facts([f.model_dump() | {"method": "model"} for f in reply.facts], by_label)
    return verified, [c.to_dict() for c in calls], len(rejected)


async def _formula_inputs(
    formulas: list[Formula],
    items: list[dict[str, Any]],
    tickers: list[str],
    question: str,
    terms: list[str],
    item_chars: int,
    context: Context,
) -> tuple[dict[tuple[str, str], dict[str, dict[str, Any]]], list[dict[str, Any]], int]:
    """Line items of the formulas per (ticker, period): statement rows first, then the model copies
    the missing ones (constrained to those line items) from the same periods' evidence."""
    wanted = input_items(formulas)
    inputs = read_line_items(items, wanted, sorted(needs_prior(formulas)))
    groups = {(i.get("ticker") or "", i["period_label"]) for i in items}
    missing = {
        line.label
        for group in groups
        for line in wanted
        if line.name not in inputs.get(group, {})
        and not any(all(n in inputs.get(group, {}) for n in f.inputs) for f in formulas)
    }
    if not missing:
        return with_prior_years(inputs), [], 0
    by_label = {line.label: line for line in wanted}
    extracted, calls, rejected = await _extract(
        items, tickers, question, sorted(missing), terms, item_chars, context, metrics=sorted(missing)
    )
    for fact in extracted:
        line = by_label.get(fact["metric"])
        if line is not None:
            group = inputs.setdefault((fact["ticker"], fact["period"]), {})
            group.setdefault(line.name, fact | {"line_item": line.name})
    return with_prior_years(inputs), calls, rejected


def _merge_facts(facts: list[dict[str, Any]], more: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen = {(f["ticker"], f["period"], f["source"], f["value"]) for f in facts}
    return facts + [f for f in more if (f["ticker"], f["period"], f["source"], f["value"]) not in seen]


class _Draft:
    """Turns the model's text into the final answer: checks its figures, notes missing data, cites."""

    def __init__(
        self,
        facts: list[dict[str, Any]],
        calculations: list[dict[str, Any]],
        items: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        tool_results: list[dict[str, Any]],
        analysis: Analysis,
        context: Context,
    ) -> None:
        self.facts, self.calculations, self.items, self.tools = facts, calculations, items, tools
        self.tool_results, self.analysis, self.context = tool_results, analysis, context

    def compose(self, text: str) -> tuple[str, list[dict[str, Any]], list[str]]:
        warnings: list[str] = []
        if text.lstrip().startswith(("{", "[", "```")):  # JSON or code, not an answer to show
            warnings.append("the model's answer was not prose (JSON or code); it was set aside")
            text = ""
        if not text.strip():
            text = fallback_answer(self.facts, self.items)
            warnings.append("the model returned no answer; the answer was built from the evidence alone")
        elif self.facts and self.context.use_calculator:
            extra = [n for t in self.tools for n in numbers_in(t.get("summary", ""))]
            names = self.analysis.get("names") or {}
            text, bad = check_prose(text, self.facts, self.calculations, extra, names, self.items)
            if bad:
                kept = without_sentences_stating(text, bad)
                warnings.append(
                    "sentences of the model's answer were withheld: they stated figures found neither in "
                    f"the evidence nor in the computed results for the company named ({', '.join(bad[:5])})"
                )
                text = kept or summary_lines(self.facts, self.calculations)
        text = cite_passages(text, self.items)
        unavailable = not_available(self.tool_results)
        if unavailable:
            text += "\n\n" + unavailable
        answer, citations, citation_warnings = finalize_answer(
            text,
            self.facts,
            self.calculations,
            {i["label"]: i for i in self.items},
            {t["label"]: t for t in self.tools},
        )
        return answer, citations, warnings + citation_warnings


def period_scope(
    state: State, items: list[dict[str, Any]], facts: list[dict[str, Any]], calculations: list[dict[str, Any]]
) -> PeriodScope:
    """What the answer's numbers are checked against for their period: the figures read for each
    company and period, every cell of the cited statement tables, and the computed changes."""
    analysis = state["analysis"]
    calendars = analysis.get("calendars") or {}
    known = table_known(items, calendars) + known_facts(facts)
    known += [k for k in known_changes(calculations) if k["period"]]
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


def about_best_match(state: State) -> State:
    """A question naming no company is answered about the company whose filings matched it best:
    the evidence of the others (searched across the store) is set aside, so the answer does not mix
    one company's cash with another's."""
    evidence = list(state.get("evidence") or [])
    subjects = subject_companies(evidence, top=1)
    if not subjects:
        return state
    kept = [e for e in evidence if e.get("ticker") in subjects]
    return cast(State, {**state, "evidence": kept})


async def generate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """The cited answer: figure questions get the table of period-true figures (``generate_figures``),
    other questions the evidence-based answer below."""
    if not state["analysis"].get("tickers"):
        state = about_best_match(state)
    if (state["analysis"].get("metrics") or []) and state.get("figures"):
        return await generate_figures(state, runtime)
    return await generate_from_evidence(state, runtime)


async def generate_from_evidence(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    resources = get_resources()
    analysis = state["analysis"]
    question: str = analysis["question"]
    tickers: list[str] = analysis["tickers"]
    iteration = int(state.get("iterations") or 0) + 1
    evidence = list(state.get("evidence") or [])
    if analysis.get("narrative"):
        evidence = favour_discussion(evidence, NARRATIVE_WORDS)
    items, item_chars, left_out = budgeted_evidence(evidence, context)
    tools = tool_items(list(state.get("tool_results") or []))
    phrases = [p for ps in analysis["keywords"].values() for p in ps] + list(
        state.get("follow_up_queries") or []
    )
    terms = query_terms([question, *phrases])
    evidence_block = format_evidence(items, terms, item_chars)
    if tools:
        evidence_block += "\n" + format_tool_items(tools)

    calls: list[dict[str, Any]] = []
    warnings: list[str] = list(left_out)
    facts: list[dict[str, Any]] = []
    filings = [i for i in items if i["kind"] != "news"]
    # Statement rows named by the search phrases are read directly; the model extracts only what
    # the tables do not state plainly (it copies well but picks table columns poorly).
    facts = deterministic_facts(filings, phrases)
    formulas = formulas_for(question) if context.use_calculator else []
    if formulas:
        # A computed metric: its line items are the figures wanted, the calculator does the rest.
        inputs, extract_calls, rejected = await _formula_inputs(
            formulas, filings, tickers, question, terms, item_chars, context
        )
        facts = _merge_facts(facts, [f for group in inputs.values() for f in group.values()])
        calculations = compute_formulas(formulas, inputs)
        calculations += average_over_periods(question, calculations)
    else:
        found = {(f["ticker"], f["period"]) for f in facts}
        uncovered = [i for i in filings if (i.get("ticker") or "", i["period_label"]) not in found]
        extract_calls, rejected = [], 0
        if uncovered:
            extracted, extract_calls, rejected = await _extract(
                uncovered, tickers, question, phrases, terms, item_chars, context
            )
            facts += extracted
        calculations = []
    calls += extract_calls
    if rejected:
        warnings.append(f"dropped {rejected} extracted figure(s) not written in the cited evidence")
    facts = sort_facts(facts)
    if context.use_calculator:
        calculations += compute_changes(facts)

    # A question naming no company is answered about the companies whose filings matched it best.
    subjects = subject_companies(filings) if not tickers else []
    notes = [*(state.get("warnings") or []), *([subject_note(subjects)] if subjects else [])]
    template = "synthesis" if len(tickers) > 1 else "generate"
    # The writer always reads the passages (the why and what of a question), condensed to the
    # sentences carrying its terms within the answer mode's budget, beside the exact figures.
    budget = WRITER_CHARS.get(analysis["answer_mode"], WRITER_CHARS["standard"])
    writer_chars = min(item_chars, max(240, budget // max(1, len(items))))
    writer_evidence = format_evidence(items, terms, writer_chars)
    messages = render(
        template,
        question=question,
        companies=", ".join(tickers),
        facts=figures_by_company(facts, calculations) if facts else "(none read; use the passages)",
        evidence=writer_evidence + ("\n" + format_tool_items(tools) if tools else ""),
        warnings="; ".join(notes) or "none",
        max_sentences=MAX_SENTENCES.get(analysis["answer_mode"], 8),
    )
    model = resources.chat_model("generate", context)
    text, call = await text_call(model, messages, role="generate")
    calls.append(call.to_dict())
    draft = _Draft(facts, calculations, items, tools, state.get("tool_results") or [], analysis, context)
    answer, citations, draft_warnings = draft.compose(text)
    warnings += draft_warnings
    scope = period_scope(state, items, facts, calculations)
    validation = verify_answer(answer, [*items, *tools], calculations, citations, scope=scope)
    if validation.status == UNSUPPORTED:
        # One rewrite with the unsupported figures named; the first text stays in the prompt as context.
        retry = [*messages, AIMessage(text), HumanMessage(feedback_for(validation))]
        text, call = await text_call(model, retry, role="generate")
        calls.append(call.to_dict())
        unsupported = ", ".join(c.text for c in validation.unverified[:5])
        warnings.append(
            f"the answer was rewritten once: it stated figures the evidence does not support ({unsupported})"
        )
        if text.strip():
            answer, citations, draft_warnings = draft.compose(text)
            warnings += draft_warnings
            validation = verify_answer(answer, [*items, *tools], calculations, citations, scope=scope)
        if validation.status == UNSUPPORTED:
            answer = flag_unsupported(answer, validation)
            warnings.append(
                "figures marked [unverified] are not supported by the cited evidence or a computed result: "
                + ", ".join(c.text for c in validation.unverified[:5])
            )
    if context.use_calculator and answer.strip():  # a sign question: the computed sign says yes or no
        answer = with_verdict(answer, sign_verdict(question, calculations))
    if subjects and answer.strip():
        answer = f"{subject_note(subjects)}\n\n{answer}"
    covered = sorted(
        {f"{f['ticker']} {f['period']}" for f in facts}
        or {f"{i.get('ticker') or ''} {i['period_label']}".strip() for i in items}
    )
    return {
        "answer": answer,
        "citations": citations,
        "facts": facts,
        "calculations": calculations,
        "iterations": iteration,
        "draft_ok": call.ok,
        "periods_covered": covered,
        "llm_calls": calls,
        "warnings": warnings,
        "validation": validation.to_dict(),
    }
