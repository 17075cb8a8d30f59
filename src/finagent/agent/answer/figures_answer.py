"""generate for figure questions: period-true figures → computed comparisons → cited table → prose.

The figures come from the facts lookups (XBRL facts and derived quarters); a figure no fact states is
read from the statement table's column for its period, and only then asked of the model. The model
writes the prose from the figure list alone; the whole answer is checked for value *and* period.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.runtime import Runtime

from finagent.agent.answer.figures import model_figures, table_figures
from finagent.agent.answer.table import (
    cells_from_figures,
    computed_lines,
    derivation_record,
    figure_lines,
    filing_items,
    formula_lines,
    legacy_facts,
    markdown_table,
    withhold,
)
from finagent.agent.answer.writing import (
    MAX_SENTENCES,
    WRITER_CHARS,
    budgeted_evidence,
    cite_passages,
    drop_unknown_citations,
    format_tool_items,
    not_available,
    resolve_citations,
    tool_items,
)
from finagent.agent.context import Context
from finagent.agent.evidence import assign_labels, format_evidence, query_terms
from finagent.agent.planning import NARRATIVE_WORDS
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.state import Analysis, State, Target
from finagent.agent.understand.vocabulary import is_narrative
from finagent.finance.compare import Cell, Wanted, compare, scale_unit
from finagent.finance.figures.formulas import formula_results, formulas_for
from finagent.finance.figures.verify import UNSUPPORTED, PeriodScope, flag_unsupported, verify_answer
from finagent.finance.metrics import BY_NAME
from finagent.llm.structured import text_call


def _targets(state: State) -> list[Target]:
    """Target periods the answer reports: a Q4's companion fiscal year (searched for its text) is not
    itself a period the question asked about."""
    targets = [t for t in state.get("targets") or [] if t.get("ticker") and t.get("fiscal_year") is not None]
    return [t for t in targets if not t.get("companion")]


def _gaps(figures: list[dict[str, Any]], targets: list[Target], metrics: list[str]) -> list[dict[str, Any]]:
    """(ticker, period, metric) the facts did not answer, with the reason when one is known."""
    found = {(f["ticker"], f["period"], f["metric"]) for f in figures if f.get("value") is not None}
    reasons = {
        (f["ticker"], f["period"], f["metric"]): f.get("reason") for f in figures if f.get("value") is None
    }
    gaps = []
    for target in targets:
        for metric in metrics:
            key = (target["ticker"], target["label"], metric)
            if key not in found:
                gaps.append(
                    {
                        **target,
                        "metric": metric,
                        "reason": reasons.get(key) or "no reported figure in the store",
                    }
                )
    return gaps


async def generate_figures(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    context = runtime.context or Context()
    analysis = state["analysis"]
    question: str = analysis["question"]
    names: dict[str, list[str]] = analysis.get("names") or {}
    metrics: list[str] = list(analysis.get("metrics") or [])
    iteration = int(state.get("iterations") or 0) + 1
    figures = [f for f in state.get("figures") or [] if f.get("role") != "input"]
    year_inputs = [f for f in state.get("figures") or [] if f.get("role") == "input"]
    evidence = list(state.get("evidence") or [])
    warnings: list[str] = []
    calls: list[dict[str, Any]] = []

    # Citable items: the chunks displaying the figures first, then the best evidence per period.
    fact_chunks = {f.get("chunk_id") for f in [*figures, *year_inputs]} | {
        i.get("chunk_id") for f in figures for i in f.get("inputs") or []
    }
    fact_items = [e for e in evidence if e["chunk_id"] in fact_chunks]
    rest = [e for e in evidence if e["chunk_id"] not in fact_chunks]
    others, item_chars, _ = budgeted_evidence(rest, context)  # every chunk stays readable below
    chosen = {e["chunk_id"] for e in others}
    # Every retrieved chunk may hold a statement table to read a figure from (the best few per period
    # are what the model would read); labels follow that order.
    others += sorted((e for e in rest if e["chunk_id"] not in chosen), key=lambda e: -float(e["fused_score"]))
    items = assign_labels(
        [
            *fact_items,
            *filing_items(figures, {e["chunk_id"] for e in fact_items}),
            *[{k: v for k, v in i.items() if k != "label"} for i in others],
        ]
    )
    by_chunk = {i["chunk_id"]: i["label"] for i in items if i.get("chunk_id") is not None}
    by_document = {i["document_id"]: i["label"] for i in items if i.get("chunk_id") is None}

    cells, derivations = cells_from_figures(figures, by_chunk, by_document)
    targets = _targets(state)
    gaps = _gaps(figures, targets, metrics)
    calendars = analysis.get("calendars") or {}
    if gaps:
        years, _ = cells_from_figures(year_inputs, by_chunk, by_document)
        from_tables, gaps = table_figures(gaps, items, calendars, years)
        cells += from_tables
        derivations += [d for c in from_tables if (d := derivation_record(c)) is not None]
    if gaps and context.use_calculator:
        extracted, gaps, extract_calls = await model_figures(
            gaps, items, question, item_chars, context, calendars
        )
        cells += extracted
        calls += extract_calls
    for gap in gaps:
        warnings.append(f"{gap['ticker']} {gap['label']} {_label_of(gap['metric'])}: {gap['reason']}")
    for record in figures:
        for restated in record.get("restated") or []:
            warnings.append(
                f"{record['ticker']} {record['period']} {record['metric_label'].lower()} was restated: "
                f"{restated['original']} in {restated['original_filing']}, {restated['latest']} in "
                f"{restated['latest_filing']} (the latest is used)"
            )

    wanted = Wanted(**(analysis.get("comparisons") or {}))
    comparisons = compare(cells, wanted, analysis.get("computed") or [])
    formulas = formulas_for(question) if context.use_calculator else []
    computed_formulas = [
        r
        for r in formula_results(question, formulas, _figure_rows([*cells, *comparisons.cells]))
        # margins and free cash flow are compare()'s already: only their multi-year mean is new here
        if r["metric"].startswith("average ")
        or r["metric"].replace(" ", "_") not in (analysis.get("computed") or [])
    ]
    comparisons.calculations += computed_formulas
    calculations = [*derivations, *comparisons.calculations] if context.use_calculator else list(derivations)
    table = markdown_table(cells, comparisons, names, metrics, gaps)
    if computed_formulas:  # the question's own metric, stated by the calculator, not left to the model
        table += "\n\n" + formula_lines(computed_formulas, names)
    missing = (
        "; ".join(f"{g['ticker']} {g['label']} {g['metric'].replace('_', ' ')} ({g['reason']})" for g in gaps)
        or "none"
    )

    tool_results = list(state.get("tool_results") or [])
    tools = tool_items(tool_results)
    # The question itself is not shown to the writer of a figures answer: its wording ("which company
    # grew…") pulls a small model away from the computed results, which already answer it. A why/what
    # question needs it, with the passages that explain the figures.
    narrative = is_narrative(question)
    sections: dict[str, Any] = {}
    if narrative:
        sections = {"question": question, "passages": _passages(items, question, analysis, item_chars)}
    messages = render(
        "figures_why" if narrative else "figures",
        figures=figure_lines([c for c in cells if c.role == "target" or wanted.over_time], names),
        computed=computed_lines(comparisons, names, [*cells, *comparisons.cells]),
        market=format_tool_items(tools) if tools else "(not asked)",  # delimited: their text is data
        missing=missing,
        max_sentences=MAX_SENTENCES.get(analysis["answer_mode"], 8)
        if narrative
        else min(4, MAX_SENTENCES.get(analysis["answer_mode"], 4)),
        **sections,
    )
    model = get_resources().chat_model("prose", context)  # a few sentences: a tighter token cap
    text, call = await text_call(model, messages, role="generate")
    calls.append(call.to_dict())
    check_items = [*items, *tools, _period_item(cells)]
    known_labels = {i["label"] for i in items} | {t["label"] for t in tools}
    unavailable = not_available(tool_results)

    def compose(prose: str) -> tuple[str, list[str]]:
        notes: list[str] = []
        prose = prose.strip()
        if prose.startswith(("{", "[", "```", "|")):
            notes.append("the model's answer was not prose (JSON, code or a table); it was set aside")
            prose = ""
        if not prose:
            notes.append("the model returned no answer; the answer was built from the evidence alone")
        prose, dropped = drop_unknown_citations(prose, known_labels)
        if narrative:
            prose = cite_passages(prose, items)
        parts = [p for p in (table, prose, unavailable) if p]
        return "\n\n".join(parts) or "No reported figures were found for the periods asked.", notes + dropped

    scope = PeriodScope(
        known=_known(cells, calculations),
        names=names,
        targets={
            t: [x["label"] for x in targets if x["ticker"] == t] for t in {x["ticker"] for x in targets}
        },
        calendars={t: (int(v[0] or 12), int(v[1] or 0)) for t, v in calendars.items()},
    )
    answer, notes = compose(text)
    warnings += notes
    validation = verify_answer(answer, check_items, calculations, None, scope=scope)
    kept, reasons = _checked_prose(answer, table, unavailable, validation, comparisons.ranks, names)
    if reasons and not kept and call.ok:
        # Nothing the model wrote could stand: one more try, told what was wrong.
        retry = [*messages, AIMessage(text), HumanMessage(render_feedback(reasons))]
        text, call = await text_call(model, retry, role="generate")
        calls.append(call.to_dict())
        warnings.append(f"the prose was rewritten once: {'; '.join(reasons[:3])}")
        answer, notes = compose(text)
        warnings += [n for n in notes if n not in warnings]
        validation = verify_answer(answer, check_items, calculations, None, scope=scope)
        kept, reasons = _checked_prose(answer, table, unavailable, validation, comparisons.ranks, names)
    if reasons:
        # Every figure a reader sees must be the value for the company and period named: sentences that
        # misstate one are withheld (the table states them all), never shown with a warning attached.
        warnings.append(
            f"withheld {len(reasons)} sentence(s) of the model's prose that misstated figures or rankings: "
            + "; ".join(reasons[:4])
        )
        answer, notes = compose(kept)
        warnings += [n for n in notes if n not in warnings]
        validation = verify_answer(answer, check_items, calculations, None, scope=scope)
    if validation.status == UNSUPPORTED:
        answer = flag_unsupported(answer, validation)
        warnings.append(
            "figures marked [unverified] are not the value for the company and period their sentence "
            "names: " + ", ".join(f"{c.text} ({c.how})" for c in validation.unverified[:5])
        )
    targets_with = {(c.ticker, c.period) for c in cells if c.role == "target"}
    return {
        "answer": answer,
        "citations": resolve_citations(
            answer, {i["label"]: i for i in items}, {t["label"]: t for t in tools}
        ),
        "facts": legacy_facts(cells),
        "calculations": calculations,
        "iterations": iteration,
        "draft_ok": call.ok and bool(text.strip()),
        "periods_covered": sorted(f"{t} {p}" for t, p in targets_with),
        "llm_calls": calls,
        "warnings": warnings,
        "validation": validation.to_dict(),
    }


def _checked_prose(
    answer: str,
    table: str,
    unavailable: str,
    validation: Any,
    ranks: list[dict[str, Any]],
    names: dict[str, list[str]],
) -> tuple[str, list[str]]:
    """The prose's sentences that stand, and why the others do not (figures' value or period, rankings)."""
    prose = answer[len(table) + 2 :] if table and answer.startswith(table + "\n\n") else ""
    if unavailable and prose.endswith(unavailable):
        prose = prose[: -len(unavailable)].rstrip()
    bad = {c.start: f"{c.text}: {c.how}" for c in validation.unverified if c.start >= len(table)}
    return withhold(prose, len(table) + 2, bad, ranks, names)


def _passages(items: list[dict[str, Any]], question: str, analysis: Analysis, item_chars: int) -> str:
    """The labelled passages a why/what answer explains the figures with: prose before tables (the
    figures are in the table already), condensed to the sentences carrying the question's terms."""
    discussion = [i for i in items if any(NARRATIVE_WORDS in q for q in i.get("queries") or [])]
    discussion.sort(key=lambda i: (bool(i.get("is_table") or i.get("statement")), -float(i["fused_score"])))
    chosen = _per_group(discussion, 2)[:8] or [i for i in items if i.get("label")][:6]
    budget = WRITER_CHARS.get(analysis["answer_mode"], WRITER_CHARS["standard"])
    terms = query_terms([question, *(p for ps in analysis["keywords"].values() for p in ps)])
    return format_evidence(chosen, terms, min(item_chars, max(240, budget // max(1, len(chosen)))))


def _figure_rows(cells: list[Cell]) -> list[tuple[str, str, str, float, str, str]]:
    """Cells as (ticker, period, metric, value as shown, unit, first citation) for the formulas."""
    return [
        (
            c.ticker,
            c.period,
            c.metric,
            float(c.shown),
            scale_unit(c.scale) if c.unit == "USD" else c.unit,
            c.sources[0] if c.sources else "",
        )
        for c in cells
    ]


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


def render_feedback(reasons: list[str]) -> str:
    """What was wrong with the prose, for its one rewrite."""
    listed = "; ".join(reasons[:4])
    return (
        f"These sentences were not used because they misstate the figures: {listed}. Write the answer again "
        "using only the figures and computed results listed, with their exact wording (a result that "
        "'declined' is a decline, never growth), each figure with its company and period."
    )


def _label_of(metric: str) -> str:
    return BY_NAME[metric].label.lower() if metric in BY_NAME else metric.replace("_", " ")


def _period_item(cells: list[Cell]) -> dict[str, Any]:
    """The figures' own periods and period ends, so the labels and dates the answer states are checked
    like any other figure (a derived Q4 has no document of its own that names it)."""
    days = sorted({c.period_end.isoformat() for c in cells if c.period_end})
    labels = sorted({c.period for c in cells})
    return {"chunk_id": None, "label": None, "text": "; ".join([*labels, *days]), "period_label": ""}


def _known(cells: list[Cell], calculations: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
        scale = {"USD millions": 1e6, "USD thousands": 1e3, "USD billions": 1e9}.get(
            str(calc.get("unit")), 1.0
        )
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
