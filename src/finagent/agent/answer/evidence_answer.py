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
from dataclasses import dataclass, field
from typing import Any, cast

from finagent.agent.answer.draft import Composed, Drafted, Writer, basis, draft
from finagent.agent.answer.parts import parts_opening, parts_passages
from finagent.agent.answer.quotes import QUOTED_LEAD, event_report, quoted_answer, source_phrase
from finagent.agent.answer.statements import Facts, opening
from finagent.agent.answer.wording import name
from finagent.agent.answer.writing import (
    MAX_SENTENCES,
    WRITER_CHARS,
    WRITER_TOKENS,
    budgeted_evidence,
    citable,
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
    assign_labels,
    best_match,
    describe,
    format_evidence,
    query_terms,
    subject_note,
)
from finagent.agent.planning import NARRATIVE_WORDS, about_an_event_filing
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.schemas import Facts as ExtractedFacts
from finagent.agent.schemas import facts_schema
from finagent.agent.state import Analysis, State
from finagent.finance.asks import Ask
from finagent.finance.compare import Comparisons
from finagent.finance.figures.formulas import (
    FORMULAS,
    Formula,
    LineItem,
    compute_formulas,
    formula_changes,
    input_items,
    mean_over_periods,
    needs_prior,
    read_line_items,
    with_prior_years,
    without_other_readings,
)
from finagent.finance.figures.matching import known_changes, known_facts, known_results
from finagent.finance.figures.text import (
    after_its_report,
    asked_line_facts,
    compute_changes,
    describe_calculation,
    deterministic_facts,
    figures_by_company,
    format_facts,
    format_value,
    labelled_by_passage,
    sort_facts,
    summary_lines,
    table_facts,
    verify_facts,
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
from finagent.finance.parts import PartsAsk
from finagent.finance.revisions import asked_revision, revision_record, revisions
from finagent.finance.support import (
    support_problem,
    unanswered,
    verdict_problem,
    yes_or_no_against_computed,
)
from finagent.finance.tables.schedule import asked_schedule, scheduled_rows
from finagent.finance.words import BETTER_VERBS, LEADING_YES_NO, WORSE_VERBS, rise_is_better
from finagent.llm.structured import structured_call


@dataclass
class Read:
    """What was read from the passages before the model writes: items, figures and calculations."""

    items: list[dict[str, Any]]
    item_chars: int
    facts: list[dict[str, Any]] = field(default_factory=list)
    calculations: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rejected: int = 0  # figures the model copied that its cited passage does not hold
    givens: list[str] = field(default_factory=list)  # figures the question itself gives (a share asked about)


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
        default=ExtractedFacts,
    )
    by_label = {i["label"]: i for i in items}
    verified, rejected = verify_facts([f.model_dump() | {"method": "model"} for f in reply.facts], by_label)
    return verified, [c.to_dict() for c in calls], len(rejected)


async def _formula_inputs(
    formulas: list[Formula], items: list[dict[str, Any]], read: Read, analysis: Analysis, context: Context
) -> tuple[dict[tuple[str, str], dict[str, dict[str, Any]]], int]:
    """Line items of the formulas per (ticker, period): statement rows first, then the model copies
    the missing ones (constrained to those line items) from the same periods' evidence."""
    wanted = input_items(formulas)
    inputs = read_line_items(items, wanted, sorted(needs_prior(formulas)))
    groups = {(i.get("ticker") or "", i["period_label"]) for i in items}
    missing = {line.label for group in groups for line in _uncomputed_lines(formulas, inputs.get(group, {}))}
    if not missing:
        return with_prior_years(inputs), 0
    by_label = {line.label: line for line in wanted}
    extracted, calls, rejected = await _extract(
        items,
        list(analysis["tickers"]),
        analysis["question"],
        sorted(missing),
        list(analysis.get("terms") or []),
        read.item_chars,
        context,
        metrics=sorted(missing),
    )
    read.calls += calls
    cited = {i["label"]: i for i in items}
    for fact in extracted:
        line = by_label.get(fact["metric"])
        if line is None:
            continue
        if after_its_report(fact, cited.get(fact["source"])):
            rejected += 1  # a copy for a later year than its report's is no reported figure
            continue
        group = inputs.setdefault((fact["ticker"], fact["period"]), {})
        group.setdefault(line.name, fact | {"line_item": line.name})
    return with_prior_years(inputs), rejected


LINE_LIFT = 1.0


def favour_line_items(evidence: list[dict[str, Any]], formulas: list[Formula]) -> list[dict[str, Any]]:
    """Statement tables that state a formula's lines for their period rank first, one lift per line
    they state: a table classified as a balance sheet that states none of them (Verizon's asset-backed
    debt table) must not take the place of the one that states current assets and liabilities."""
    wanted, prior = input_items(formulas), sorted(needs_prior(formulas))
    lifted = []
    for item in evidence:
        read = read_line_items([item | {"label": ""}], wanted, prior)
        lift = LINE_LIFT * sum(len(group) for group in read.values())
        lifted.append({**item, "fused_score": float(item["fused_score"]) + lift} if lift else item)
    return lifted


def favour_asked_lines(
    evidence: list[dict[str, Any]], asked: list[str], phrases: list[str], periods: list[str]
) -> list[dict[str, Any]]:
    """A table printing the line a "what was X for P" question names (``asked``: the plan's
    value_line_words), in P's column, ranks first: the twelve-month reconciliation of a release that
    states Amcor's FY2023 adjusted EBITDA must not be left out of the passages read for its
    three-month twin."""
    if not asked:
        return evidence
    return [
        {**e, "fused_score": float(e["fused_score"]) + LINE_LIFT}
        if asked_line_facts(asked, table_facts(e | {"label": ""}, phrases), periods)
        else e
        for e in evidence
    ]


def _uncomputed_lines(formulas: list[Formula], have: dict[str, Any]) -> list[LineItem]:
    """The line items not read of each metric none of whose formulas can be computed from ``have``
    (a capital-intensity judgement's capex, though the ratios shown beside it could be)."""
    lines: list[LineItem] = []
    for metric in dict.fromkeys(f.metric for f in formulas):
        alternatives = [f for f in formulas if f.metric == metric]
        if any(all(n in have for n in f.inputs) for f in alternatives):
            continue
        lines += [line for line in input_items(alternatives) if line.name not in have and line not in lines]
    return lines


def _merge_facts(facts: list[dict[str, Any]], more: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One figure per company, period, source and value: a year's line read for its own formula and
    again as the next year's opening balance is listed once."""
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}
    for fact in [*facts, *more]:
        merged.setdefault((fact["ticker"], fact["period"], fact["source"], fact["value"]), fact)
    return list(merged.values())


async def read_figures(state: State, context: Context, phrases: list[str]) -> Read:
    """Figures of the passages: statement rows named by the search phrases, the question's formulas
    (their line items), else the model's copies of what the tables do not state plainly."""
    analysis = state["analysis"]
    evidence = list(state.get("evidence") or [])
    if analysis.get("narrative"):
        evidence = favour_discussion(evidence, NARRATIVE_WORDS)
    formulas = (
        [FORMULAS[i] for i in analysis.get("formulas") or []] if context.ablations.use_calculator else []
    )
    if formulas:
        evidence = favour_line_items(evidence, formulas)
    elif not (analysis.get("narrative") or analysis.get("forecast") or analysis.get("drivers")):
        periods = [str(t["label"]) for t in state.get("targets") or [] if not t.get("companion")]
        evidence = favour_asked_lines(
            evidence, list(analysis.get("value_line_words") or []), phrases, periods
        )
    evidence = favour_parts_tables(state, evidence)
    needed = list(analysis.get("statements") or []) if formulas else []
    figures = bool(formulas) or Ask.from_dict(analysis.get("ask")).computed
    items, item_chars, left_out = budgeted_evidence(evidence, context, needed, figures)
    read = Read(items, item_chars, warnings=list(left_out))
    filings = [i for i in items if i["kind"] != "news"]
    read.facts = deterministic_facts(filings, phrases)
    rejected = 0
    if formulas:  # a computed metric: its line items are the figures wanted, the calculator does the rest
        inputs, rejected = await _formula_inputs(formulas, filings, read, analysis, context)
        read.facts = _merge_facts(
            without_other_readings(read.facts, inputs),
            [f for group in inputs.values() for f in group.values()],
        )
        read.calculations = compute_formulas(formulas, inputs)
        if analysis.get("average"):
            read.calculations += mean_over_periods(read.calculations)
        read.calculations += formula_changes(read.calculations)
    elif analysis.get("quantities", True) and analysis.get("tickers") and not analysis.get("revision"):
        # The model copies figures only for named companies of a question that asks a quantity (not
        # the size of a revision: code computes it from the passage that states both figures).
        found = {(f["ticker"], f["period"]) for f in read.facts}
        uncovered = [i for i in filings if (i.get("ticker") or "", i["period_label"]) not in found]
        if uncovered:
            terms = list(analysis.get("terms") or [])
            extracted, calls, rejected = await _extract(
                uncovered, analysis["tickers"], analysis["question"], phrases, terms, item_chars, context
            )
            read.facts += extracted
            read.calls += calls
    read.rejected = rejected
    if rejected:
        read.warnings.append(f"dropped {rejected} extracted figure(s) not written in the cited evidence")
    read.facts = sort_facts(read.facts)
    if context.ablations.use_calculator:
        read.calculations += compute_changes(read.facts)
    return read


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


def years_asked(state: State) -> frozenset[str]:
    """The fiscal years of the periods the question was resolved to ("2022" of "Q3 FY2022")."""
    labels = [str(t.get("label") or "") for t in state.get("targets") or []]
    return frozenset(y for label in labels for y in re.findall(r"(?:19|20)\d\d", label))


def _opening(state: State, read: Read) -> str:
    """The answer's computed first sentences: a ranking of the parts of a whole read from the tables,
    or a yes/no the computed figures decide (a sign or a direction)."""
    analysis = state["analysis"]
    ask = Ask.from_dict(analysis.get("ask"))
    if ask.parts is not None:
        ranking = _parts_opening(state, read, ask.parts)
        if ranking:
            return ranking
    if ask.kind != "direction":
        return (
            _revision_opening(state, read)
            or _schedule_opening(state, read)
            or _ratio_change_opening(state, read)
            or _asked_line_opening(state, read)
        )
    facts = Facts(
        ask=ask,
        metric=ask.metric or "",
        cells=[],
        comparisons=Comparisons(calculations=[c for c in read.calculations if c.get("kind") != "formula"]),
        names=analysis.get("names") or {},
        formulas=[c for c in read.calculations if c.get("kind") == "formula"],
    )
    said = opening(facts)
    return said.text if said.text.startswith(("Yes (", "No (")) else ""


def _revision_opening(state: State, read: Read) -> str:
    """ "PepsiCo raised its core constant currency EPS growth guidance by 1 percentage point, to 9
    percent from 8 percent [ER2]." for a question asking by how much a report revised a figure, from
    the passage of the asked period that states both (code subtracts; the model stated both and left
    the reader to)."""
    analysis = state["analysis"]
    if not analysis.get("revision"):
        return ""
    periods = {str(t["label"]) for t in state.get("targets") or [] if not t.get("companion")}
    for item in read.items:
        if periods and item.get("period_label") not in periods:
            continue
        revision = asked_revision(revisions(str(item.get("text") or "")), analysis.get("terms") or [])
        ticker, label = item.get("ticker") or "", item["label"]
        record = (
            revision_record(revision, ticker, item.get("period_label") or "", label) if revision else None
        )
        if revision is None or record is None:
            continue
        read.calculations.append(record)
        verb = "raised" if record["result"] > 0 else "lowered"
        return (
            f"{name(ticker, analysis.get('names') or {})} {verb} its {revision.what} guidance by "
            f"{record['result_text'][1:]}, to {revision.new.text} from {revision.old.text} [{label}]."
        )
    return ""


def _schedule_opening(state: State, read: Read) -> str:
    """ "Verizon's 10-K for FY2021 [10K1] gives for 2024, in its table “The benefit payments to retirees
    are expected to be paid as follows”: Pension Benefits $1,097 million; Health Care and Life $862
    million." for a forecast of a year the named report schedules, read by that year's row (the model
    could not tell the row from its neighbours in a flattened table)."""
    analysis = state["analysis"]
    if not analysis.get("ahead_years"):
        return ""
    year = analysis["ahead_years"][0]
    periods = {str(t["label"]) for t in state.get("targets") or [] if not t.get("companion")}
    found = [
        (row, item)
        for item in read.items
        if item.get("period_label") in periods and item.get("kind") != "news"
        for row in scheduled_rows(str(item.get("text") or ""), year)
    ]
    row = asked_schedule([r for r, _ in found], analysis.get("terms") or [])
    if row is None:
        return ""
    item = next(i for r, i in found if r is row)
    table = f", in its table “{row.title}”" if row.title else ""
    source = source_phrase(item, analysis.get("names") or {})
    return f"{source} [{item['label']}] gives for {year}{table}: {row.reads()}."


def _asked_line_opening(state: State, read: Read) -> str:
    """ "Amcor's Adjusted EBITDA in FY2023 was $2,018 million [ER1]." for a question asking the value
    of a line a table of the passages prints for the asked period, read by code, not copied by the
    model (which took the release's "Adjusted EBIT of $1,608 million" for it)."""
    analysis = state["analysis"]
    if analysis.get("narrative") or analysis.get("forecast") or analysis.get("drivers"):
        return ""
    periods = [str(t["label"]) for t in state.get("targets") or [] if not t.get("companion")]
    found = asked_line_facts(analysis.get("value_line_words") or [], read.facts, periods)
    names = analysis.get("names") or {}
    return " ".join(
        f"{name(f['ticker'], names)}'s {_in_a_sentence(f['metric'])} in {f['period']} was "
        f"{format_value(f['value'], f.get('unit'))} [{f['source']}]."
        for f in found
    )


def _in_a_sentence(label: str) -> str:
    """A row's label inside a sentence: "Total net sales" -> "total net sales"; "EBITDA" stays."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def _ratio_change_opening(state: State, read: Read) -> str:
    """ "Amcor's quick ratio rose from 0.67 in FY2022 to 0.69 in FY2023, +3.4% (computed: ...)." for a
    question asking how a computed ratio changed ("improved or declined"), which asks no yes or no."""
    analysis = state["analysis"]
    wanted = analysis.get("comparisons") or {}
    if not (wanted.get("change") or wanted.get("yoy")):
        return ""
    formulas = [c for c in read.calculations if c.get("kind") == "formula"]
    levels = {(c["ticker"], c["metric"], c["period"]): c for c in formulas}
    sentences = []
    for change in (c for c in read.calculations if "from_period" in c):  # a formula's, by its levels
        old = levels.get((change["ticker"], change["metric"], change["from_period"]))
        new = levels.get((change["ticker"], change["metric"], change["to_period"]))
        if old is None or new is None or change["result"] == 0:
            continue
        verb = _weighed(change["metric"], change["result"] > 0, Ask.from_dict(analysis.get("ask")))
        sentences.append(
            f"{name(change['ticker'], analysis.get('names') or {})}'s {change['metric']} {verb} from "
            f"{old['result_text']} in {old['period']} to {new['result_text']} in {new['period']}, "
            f"{change['result_text']} (computed: {change['expression']}) [{', '.join(change['sources'])}]."
        )
    return " ".join(sentences)


_WEIGHS = frozenset(verb[:5] for verb in (*BETTER_VERBS, *WORSE_VERBS))  # stems, as Ask.about holds


def _weighed(metric: str, went_up: bool, ask: Ask) -> str:
    """ "improved: it rose" when the question weighs the change as better or worse ("has the quick
    ratio improved or declined?"): a rise is better unless the line is a cost, a debt or days."""
    verb = "rose" if went_up else "fell"
    if not _WEIGHS & set(ask.about):
        return verb
    better = went_up == rise_is_better(metric)
    return f"{'improved' if better else 'worsened'}: it {verb}"


def _parts_wanted(state: State) -> dict[str, list[tuple[int, int | None]]]:
    """Each company's asked periods, as (fiscal year, quarter), whose parts are ranked."""
    wanted: dict[str, list[tuple[int, int | None]]] = {}
    for target in state.get("targets") or []:
        if target.get("ticker") and target.get("fiscal_year") and not target.get("companion"):
            wanted.setdefault(target["ticker"], []).append(
                (target["fiscal_year"], target.get("fiscal_quarter"))
            )
    return wanted


def favour_parts_tables(state: State, evidence: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A table whose rows are the asked parts of the whole, adding up to it for the asked period,
    ranks first: code ranks from it, so Best Buy's segment note (Domestic revenue by product category)
    must not be left out of the passages read for the MD&A pages around it."""
    ask = Ask.from_dict(state["analysis"].get("ask")).parts
    if ask is None:
        return evidence
    calendars = state["analysis"].get("calendars") or {}
    holding = parts_passages(ask, evidence, _parts_wanted(state), calendars)
    return [
        {**e, "fused_score": float(e["fused_score"]) + LINE_LIFT} if e["chunk_id"] in holding else e
        for e in evidence
    ]


def _parts_opening(state: State, read: Read, ask: PartsAsk) -> str:
    """The parts ranking's sentences; their computed shares and changes join the calculations."""
    analysis = state["analysis"]
    found = parts_opening(
        ask, read.items, _parts_wanted(state), analysis.get("calendars") or {}, analysis.get("names") or {}
    )
    if found is None:
        return ""
    read.calculations += found.calculations
    read.givens += [found.givens] if found.givens else []
    return found.text


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
    answer = _parts_opening(state, read, parts)
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
    first = _opening(state, read) if context.ablations.use_calculator else ""  # may add computed results
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
