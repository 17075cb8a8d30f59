"""The answer to a figure question: computed first sentences that answer the ask, the cited table of
period-true figures, then — only for a why/what question — the model's explanation from the passages.

A figure question without narrative needs no model call at all: its figures are chosen in
``figures``, its comparisons computed by the calculator (``finance.compare``), its first sentences
rendered by ``statements``. When the model writes, it writes only what code cannot (drivers, context)
and its sentences go through the one draft loop (``draft``).
"""

from __future__ import annotations

import re
from typing import Any

from finagent.agent.answer.compute import Computed, compute
from finagent.agent.answer.draft import Composed, Writer, basis, draft
from finagent.agent.answer.figures import asked_targets
from finagent.agent.answer.prose import fact_records
from finagent.agent.answer.quotes import quoted_answer
from finagent.agent.answer.writing import (
    MAX_SENTENCES,
    WRITER_CHARS,
    citable,
    cite_passages,
    drop_unknown_citations,
    format_tool_items,
    not_available,
    resolve_citations,
    tool_items,
)
from finagent.agent.context import Context
from finagent.agent.evidence import format_evidence
from finagent.agent.planning import NARRATIVE_WORDS
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.state import Analysis, State
from finagent.finance.compare import Cell
from finagent.finance.figures.verify import (
    UNSUPPORTED,
    PeriodScope,
    Validation,
    flag_unsupported,
    verify_answer,
)
from finagent.finance.support import (
    support_problem,
    unanswered,
    yes_or_no_against_computed,
)
from finagent.finance.words import UNIT_SCALES


def _scope(state: State, computed: Computed) -> PeriodScope:
    analysis = state["analysis"]
    targets = asked_targets(list(state.get("targets") or []))
    calendars = analysis.get("calendars") or {}
    known = known_figures([*computed.chosen.cells, *computed.comparisons.cells], computed.calculations)
    return PeriodScope(
        known=known + part_figures(computed.chosen.gaps),
        names=analysis.get("names") or {},
        targets={
            t: [x["label"] for x in targets if x["ticker"] == t] for t in {x["ticker"] for x in targets}
        },
        calendars={t: (int(v[0] or 12), int(v[1] or 0)) for t, v in calendars.items()},
        givens=frozenset(float(c["result"]) for c in computed.calculations if c.get("kind") == "limit"),
    )


async def figures_answer(state: State, context: Context) -> dict[str, Any]:
    """The cited answer of a figure question (see the module docstring)."""
    analysis = state["analysis"]
    computed = await compute(state, context)
    tool_results = list(state.get("tool_results") or [])
    tools = tool_items(tool_results)
    items = computed.chosen.items
    check_items = [*items, *tools, _period_item(computed)]
    scope = _scope(state, computed)

    def verify(answer: str) -> Validation:
        return verify_answer(answer, check_items, computed.calculations, None, scope=scope)

    tail = not_available(tool_results)
    known_labels = {i["label"] for i in items} | {t["label"] for t in tools}
    warnings = list(computed.chosen.warnings)
    calls = list(computed.chosen.calls)
    drafted_from = ""
    # Words are the model's when the question asks why or what, or asks for news or market data.
    if analysis.get("narrative") or tools:
        writer = _writer(state, computed, context, known_labels, tail, verify, tools)
        if writer.stands(state):  # a follow-up round added nothing the model would read
            return {"stood": True, "llm_calls": calls}
        drafted_from = writer.basis
        drafted = await draft(writer)
        answer, validation, wrote = drafted.answer, drafted.validation, drafted.wrote
        warnings += drafted.warnings
        calls += drafted.calls
        withheld = drafted.withheld
        if analysis.get("narrative") and unanswered(drafted.prose, bool(analysis.get("drivers"))):
            answer, note = _in_the_filings_words(answer, items, analysis)
            warnings += [note] if note else []
            validation = verify(answer)
    elif analysis.get("says") and (said := _in_the_filings_words(computed.head, items, analysis, SAID))[1]:
        # "what does it say about …": the computed figures, then the filing's own sentences on it
        withheld, wrote = 0, True
        answer = "\n\n".join(p for p in (said[0], tail) if p)
        warnings.append(SAID)
        validation = verify(answer)
    else:  # every number is computed: no model call
        withheld = 0
        answer = (
            "\n\n".join(p for p in (computed.head, tail) if p)
            or "No reported figures were found for the periods asked."
        )
        validation, wrote = verify(answer), True
    if validation.status == UNSUPPORTED:
        answer = flag_unsupported(answer, validation)
        warnings.append(
            "figures marked [unverified] are not the value for the company and period their sentence "
            "names: " + ", ".join(f"{c.text} ({c.how})" for c in validation.unverified[:5])
        )
    cells = computed.chosen.cells
    covered = sorted({f"{c.ticker} {c.period}" for c in cells if c.role == "target"})
    return {
        "answer": answer,
        "citations": resolve_citations(
            answer, {i["label"]: i for i in items}, {t["label"]: t for t in tools}
        ),
        "facts": fact_records(cells),
        "calculations": computed.calculations,
        "iterations": int(state.get("iterations") or 0) + 1,
        "draft_ok": wrote,
        "withheld": withheld,
        "periods_covered": covered,
        "llm_calls": calls,
        "warnings": warnings,
        "validation": validation.to_dict(),
        "drafted_from": drafted_from,
    }


def _writer(
    state: State,
    computed: Computed,
    context: Context,
    known_labels: set[str],
    tail: str,
    verify: Any,
    tools: list[dict[str, Any]],
) -> Writer:
    """The draft loop of a why/what figure question: the model explains the computed answer."""
    analysis = state["analysis"]
    items = computed.chosen.items
    mode = analysis["answer_mode"]
    shown = _shown(items)
    market = format_tool_items(tools) if tools else "(not asked)"  # delimited: their text is data
    messages = render(
        "figures_why",
        question=analysis["question"],
        computed=computed.head,
        passages=_passages(shown, analysis, computed.chosen.item_chars),
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
        prose = without_echo(prose, computed.opening.sentences)
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
    names = analysis.get("names") or {}
    return Writer(
        model=get_resources().chat_model("prose", context),
        messages=messages,
        compose=compose,
        verify=verify,
        ranks=computed.comparisons.ranks,
        names=names,
        support=lambda sentence: (
            support_problem(sentence, passages, names, computed=True, calculations=computed.calculations)
            or yes_or_no_against_computed(sentence, computed.calculations)
        ),
        basis=basis(shown, market),
    )


def _discussion(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The passages that are prose, not a table or a statement."""
    return [i for i in items if i.get("label") and not (i.get("is_table") or i.get("statement"))]


UNSTOOD = "no sentence of the model's explanation stood; the filings' own sentences on it are quoted"
SAID = "the question asks what the filing says: its own sentences on it are quoted"


def _in_the_filings_words(
    answer: str, items: list[dict[str, Any]], analysis: Analysis, note: str = UNSTOOD
) -> tuple[str, str | None]:
    """A why/what answer none of whose explaining sentences stood (or a question asking what the
    filing says): the passages' own sentences on it, quoted and cited, after the computed figures,
    with ``note`` for the warnings (None: no passage sentence shares the question's words)."""
    terms = list(analysis.get("terms") or [])
    names, named = analysis.get("names") or {}, analysis.get("named") or []
    quoted = quoted_answer(_discussion(items), terms, names, why=True, named=named)
    if not quoted:
        return answer, None
    return "\n\n".join(p for p in (answer, quoted) if p), note


def _shown(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The passages a why/what answer explains the figures with: prose before tables (the figures are
    in the table already)."""
    discussion = [i for i in items if any(NARRATIVE_WORDS in q for q in i.get("queries") or [])]
    discussion.sort(key=lambda i: (bool(i.get("is_table") or i.get("statement")), -float(i["fused_score"])))
    return _per_group(discussion, 4)[:8] or [i for i in items if i.get("label")][:6]


def _passages(chosen: list[dict[str, Any]], analysis: Analysis, item_chars: int) -> str:
    """The shown passages, labelled, condensed to the sentences carrying the question's terms."""
    budget = WRITER_CHARS.get(analysis["answer_mode"], WRITER_CHARS["standard"])
    terms = list(analysis.get("terms") or [])
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


def without_echo(prose: str, opening_sentences: list[str]) -> str:
    """The model's prose without what it copied of the computed opening and table: a number code
    already gave is never restated."""
    prose = _TABLE.sub("", prose)
    for sentence in opening_sentences:
        prose = prose.replace(sentence, "")
    return re.sub(r"[ \t]{2,}", " ", prose).strip()


def _period_item(computed: Computed) -> dict[str, Any]:
    """The figures' own periods and period ends, so the labels and dates the answer states are checked
    like any other figure (a derived Q4 has no document of its own that names it), and the amounts
    the question itself names (a threshold)."""
    cells = [*computed.chosen.cells, *computed.comparisons.cells]
    parts = [p for g in computed.chosen.gaps for p in g.get("parts") or []]
    ends = {c.period_end.isoformat() for c in cells if c.period_end}
    days = sorted(ends | {p["period_end"] for p in parts})
    gaps = {str(g["label"]) for g in computed.chosen.gaps}
    labels = sorted({c.period for c in cells} | gaps | {p["part"] for p in parts})
    text = "; ".join([*labels, *days, computed.opening.known_text])
    return {"chunk_id": None, "label": None, "text": text, "period_label": ""}


def part_figures(gaps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The parts of periods reported only in parts, each known for its own part (its label, e.g.
    "successor Jul 22–Sep 30, 2010"), never for the whole quarter or year it is part of."""
    return [
        {
            "ticker": gap["ticker"],
            "period": part["part"],
            "value": float(part["value"]),
            "kind": "per_share" if "/" in str(part.get("unit") or "") else "amount",
            "what": gap["metric"].replace("_", " "),
        }
        for gap in gaps
        for part in gap.get("parts") or []
    ]


def known_figures(cells: list[Cell], calculations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every figure whose company and period are known: what a sentence's number is checked against."""
    known = [
        {
            "ticker": c.ticker,
            "period": c.period,
            "value": float(c.value),
            "kind": "percent" if c.unit == "percent" else "per_share" if "/" in c.unit else "amount",
            "what": c.metric.replace("_", " "),
        }
        for c in cells
    ]
    for calc in calculations:
        period = calc.get("to_period") or calc.get("period")
        if not period or not isinstance(calc.get("result"), int | float):
            continue
        percent = calc.get("unit") == "percent"
        scale = UNIT_SCALES.get(str(calc.get("unit")), 1.0)
        known.append(
            {
                "ticker": calc["ticker"],
                "period": period,
                "value": float(calc["result"]) * (1.0 if percent else scale),
                "kind": "percent" if percent else "amount",
                "what": f"{calc.get('kind')} of {calc.get('metric')}",
                "change": calc.get("kind") in ("yoy", "qoq", "change", "difference", "cagr"),
            }
        )
    return known
