"""What code computes before the model writes: comparisons, the question's formulas, and the
answer's computed first sentences of both writers.

A figure question's opening (``opening``) is written from its cells and the calculator's results
(the sentences themselves in ``statements`` and ``movements``); a question answered from the
passages opens with what code reads from them (``evidence_opening``): a ranking of parts, a
revision, a scheduled year, a ratio's change, an asked line, or the yes/no a computed change
decides through ``opening``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from finagent.agent.answer.choose import Chosen, Read, choose_cells
from finagent.agent.answer.figures import figures_of
from finagent.agent.answer.history import history_sentences
from finagent.agent.answer.movements import (
    change_opening,
    direction_opening,
    overtake_opening,
    restatement_opening,
    several_metrics_opening,
    stability_opening,
    threshold_opening,
)
from finagent.agent.answer.part_figures import Breakdown
from finagent.agent.answer.part_sentences import PartSentences, part_sentences
from finagent.agent.answer.parts import parts_opening
from finagent.agent.answer.passages import parts_wanted
from finagent.agent.answer.quotes import source_phrase
from finagent.agent.answer.statements import (
    Facts,
    Opening,
    asked_formulas,
    comparison_opening,
    formula_opening,
    gap_sentences,
    ranking_opening,
    unreported_sentences,
    values_opening,
    whole_company,
)
from finagent.agent.answer.wording import name
from finagent.agent.context import Context
from finagent.agent.state import State
from finagent.agent.understand.question import Question
from finagent.finance.ask.asked_lines import asked_line_facts
from finagent.finance.ask.asks import Ask
from finagent.finance.ask.parts_ask import PartsAsk
from finagent.finance.compute.compare import Cell, Comparisons, Wanted, compare, scale_unit
from finagent.finance.compute.formula_values import (
    compute_formulas,
    mean_over_periods,
    read_line_items,
    with_prior_years,
)
from finagent.finance.compute.formulas import FORMULAS, PRIOR, Formula, line_of_metric, needs_prior
from finagent.finance.compute.revisions import asked_revision, revision_record, revisions
from finagent.finance.computed import computed_named
from finagent.finance.figure_records import format_value
from finagent.finance.lines import INPUTS
from finagent.finance.periods.period import FiscalPeriod
from finagent.finance.read.tables.schedule import asked_schedule, scheduled_rows
from finagent.finance.words import BETTER_VERBS, WORSE_VERBS, parts_named, rise_is_better


@dataclass
class Computed:
    """Everything code says before the model writes: the chosen figures, the comparisons, the opening
    sentences, the calculations they rest on, the question's formulas computed, and (once rendered,
    ``render.figures_head``) the opening and table the answer begins with."""

    chosen: Chosen
    comparisons: Comparisons
    opening: Opening
    calculations: list[dict[str, Any]]
    formulas: list[dict[str, Any]] = field(default_factory=list)
    head: str = ""


def wanted_for(plan: Question, ask: Ask) -> Wanted:
    """The comparisons to compute: those the question's words ask for and those its ask needs."""
    words = plan.comparisons
    change = ask.change
    history = plan.long_history
    # A long history is read earliest against latest: its change, and its CAGR over fiscal years.
    span = history is not None and history.test is None
    return Wanted(
        yoy=(words.yoy or change == "yoy") and not span,
        qoq=words.qoq or change == "qoq",
        change=words.change or change in ("change", "trend") or ask.kind == "direction" or span,
        cagr=words.cagr or change == "cagr" or (span and history is not None and history.unit == "year"),
        rank=words.rank or ask.kind in ("ranking", "comparison"),
        difference=words.difference,
    )


def formula_results(
    plan: Question, cells: list[Cell], items: Sequence[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """The question's own computed metrics (beyond margins and free cash flow) over the cells; an
    average's opening balance, when no cell is of the previous year, is read from the previous-year
    column of the statements among ``items``."""
    formulas = [FORMULAS[i] for i in plan.formulas if 0 <= i < len(FORMULAS)]
    if not formulas:
        return []
    inputs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for cell in cells:
        line = line_of_metric(cell.metric)
        if line is not None:
            unit = scale_unit(cell.scale) if cell.unit == "USD" else cell.unit
            source = cell.sources[0] if cell.sources else ""
            inputs.setdefault((cell.ticker, cell.period.label), {}).setdefault(
                line, {"value": float(cell.shown), "unit": unit, "source": source}
            )
    inputs = with_prior_years(inputs)
    _opening_balances(inputs, formulas, items)
    results = compute_formulas(formulas, inputs)
    if plan.average:
        results += mean_over_periods(results)
    computed = list(plan.computed)
    # margins and free cash flow are compare()'s already: only their multi-year mean is new here
    return [
        r
        for r in results
        if r["metric"].startswith("average ") or computed_named(r["metric"]) not in computed
    ]


def _opening_balances(
    inputs: dict[tuple[str, str], dict[str, dict[str, Any]]],
    formulas: Sequence[Formula],
    items: Sequence[dict[str, Any]],
) -> None:
    """Fill each year's missing ``<line>_prior`` from its statements' previous-year column, so
    J&J's FY2022 inventory turnover averages FY2021's inventory in, as the textbook does."""
    prior = sorted(needs_prior(formulas))
    if not prior:
        return
    filings = [i for i in items if i.get("chunk_id") is not None and i.get("kind") != "news"]
    stated = read_line_items(filings, [INPUTS[line] for line in prior], prior)
    for key, values in inputs.items():
        for line, fact in stated.get(key, {}).items():
            if line.endswith(PRIOR):
                values.setdefault(line, {k: fact[k] for k in ("value", "unit", "source")})


async def compute(state: State, context: Context) -> Computed:
    """The figures, comparisons and opening sentences of a figure question."""
    plan = Question.of(state)
    ask = plan.ask
    metrics = list(plan.metric_names)
    figures = figures_of(state)
    chosen = await choose_cells(
        figures,
        list(state.get("evidence") or []),
        list(state.get("targets") or []),
        metrics,
        plan.calendars,
        context,
        plan.question,
        list(plan.terms),
        extract=plan.long_history is None,
    )
    computed_metrics = list(plan.computed)
    comparisons = compare(chosen.cells, wanted_for(plan, ask), computed_metrics)
    formulas = (
        formula_results(plan, [*chosen.cells, *comparisons.cells], chosen.items)
        if context.ablations.use_calculator
        else []
    )
    comparisons.calculations += formulas
    names = plan.names
    facts = Facts(
        ask=ask,
        metric=primary_metric(ask, computed_metrics, metrics),
        cells=[*chosen.cells, *comparisons.cells],
        comparisons=comparisons,
        names=names,
        figures=figures,
        gaps=chosen.gaps,
        formulas=formulas,
        labels={i["chunk_id"]: i["label"] for i in chosen.items if i.get("chunk_id") is not None},
        document_labels={i["document_id"]: i["label"] for i in chosen.items if i.get("chunk_id") is None},
        history=plan.long_history,
        parts=parts_named(list(plan.lines), names),
    )
    said = opening(facts) if context.ablations.use_calculator else Opening()
    if context.ablations.use_calculator:
        by_part = parts_said(state, facts.labels)
        if by_part.sentences:  # the part's own figure is read: no caveat that only the whole's is
            caveat = whole_company(facts)
            said.sentences = [*by_part.sentences, *(s for s in said.sentences if s not in caveat)]
        said.calculations += by_part.calculations
    calculations = [*chosen.derivations, *comparisons.calculations, *said.calculations]
    return Computed(
        chosen,
        comparisons,
        said,
        calculations if context.ablations.use_calculator else chosen.derivations,
        formulas,
    )


# -- the computed openings of a figure question ----------------------------------------------------
HISTORY_KEEPS = frozenset({"restatement", "overtake", "threshold", "ranking", "comparison", "stability"})
"""Asks whose own opening answers a long history too ("did its net income ever exceed $100 billion")."""


def primary_metric(ask: Ask, computed: Sequence[str], metrics: Sequence[str]) -> str:
    """What the first sentence is about: a computed metric the question asks for (a margin), else the
    ask's metric, else the first metric looked up."""
    if computed:
        return computed[0]
    if ask.metric and ask.metric in metrics:
        return ask.metric
    return metrics[0] if metrics else ask.metric or ""


def opening(facts: Facts) -> Opening:
    """The sentences that answer the ask, computed (empty when nothing was found to compute from)."""
    ask = facts.ask
    if facts.formulas and not facts.targets():
        return formula_opening(facts)
    handlers = {
        "restatement": restatement_opening,
        "overtake": overtake_opening,
        "threshold": threshold_opening,
        "direction": direction_opening,
        "stability": stability_opening,
        "ranking": ranking_opening,
        "comparison": comparison_opening,
        "change": change_opening,
    }
    if facts.history is not None and ask.kind not in HISTORY_KEEPS:
        sentences, counts = history_sentences(facts, facts.history)
        if sentences:
            return Opening(sentences, known_text=counts)
    handler = handlers.get(ask.kind, values_opening)
    if ask.yes_no and whole_company(facts):  # a verdict on the whole would pass for one on the part
        handler = change_opening if ask.change and ask.change != "change" else values_opening
    result = handler(facts)
    if not result.sentences:
        result = values_opening(facts)
    if ask.changed and ask.kind == "change" and facts.metric in ask.changed:
        result.sentences = several_metrics_opening(facts, result.sentences)
    if facts.formulas and ask.kind in ("value", "narrative"):  # the ratio asked before its lines
        result.sentences = [*asked_formulas(facts), *result.sentences]
    elif facts.formulas and ask.kind in ("change", "trend") and not _formula_asked(facts):
        # the periods were named for the ratio's inputs ("average inventory between FY2018 and
        # FY2019"): the ratio asked opens, not how one of its inputs moved
        result.sentences = [*asked_formulas(facts), *gap_sentences(facts)]
    unreported = unreported_sentences(facts)
    if unreported:  # said first: the asked margin is not a measure the company reports
        result.sentences = [*unreported, *result.sentences]
    result.sentences += whole_company(facts) if result.sentences else []
    return result


def _formula_asked(facts: Facts) -> bool:
    """The ask's metric is one of the computed ratios itself (its change is computed as theirs)."""
    return any(computed_named(str(c.get("metric") or "")) == facts.metric for c in facts.formulas)


# -- the computed openings of the answer from the passages -----------------------------------------
def evidence_opening(state: State, read: Read) -> str:
    """The answer's computed first sentences: a ranking of the parts of a whole read from the tables,
    or a yes/no the computed figures decide (a sign or a direction)."""
    plan = Question.of(state)
    ask = plan.ask
    by_part = parts_said(
        state, {i["chunk_id"]: i["label"] for i in read.items if i.get("chunk_id") is not None}
    )
    if by_part.sentences:
        read.calculations += by_part.calculations
        return " ".join(by_part.sentences)
    if ask.parts is not None:
        ranking = parts_ranking(state, read, ask.parts)
        if ranking:
            return ranking
    if ask.kind != "direction":
        return (
            _revision_opening(state, read)
            or _schedule_opening(state, read)
            or ratio_change_opening(state, read)
            or _asked_line_opening(state, read)
        )
    facts = Facts(
        ask=ask,
        metric=ask.metric or "",
        cells=[],
        comparisons=Comparisons(calculations=[c for c in read.calculations if c.get("kind") != "formula"]),
        names=plan.names,
        formulas=[c for c in read.calculations if c.get("kind") == "formula"],
    )
    said = opening(facts)
    return said.text if said.text.startswith(("Yes (", "No (")) else ""


def parts_said(state: State, labels: Mapping[int, str]) -> PartSentences:
    """The sentences about the parts the question names or asks to have driven a change, from the
    breakdowns the facts lookups read (none: nothing to say)."""
    plan = Question.of(state)
    if not (plan.parts or plan.part_driver):
        return PartSentences()
    periods: dict[str, list[str]] = {}
    for target in state.get("targets") or []:
        if target.get("ticker") and target.get("label") and not target.get("companion"):
            periods.setdefault(str(target["ticker"]), []).append(str(target["label"]))
    found = [Breakdown.from_dict(b) for b in state.get("breakdowns") or []]
    latest = {t: [max(p, key=_period_order)] for t, p in periods.items()}
    return part_sentences(plan, found, latest, labels)


def _period_order(label: str) -> FiscalPeriod:
    found = FiscalPeriod.from_label(label)
    return found if found is not None else FiscalPeriod.year(0)


def _revision_opening(state: State, read: Read) -> str:
    """ "PepsiCo raised its core constant currency EPS growth guidance by 1 percentage point, to 9
    percent from 8 percent [ER2]." for a question asking by how much a report revised a figure, from
    the passage of the asked period that states both (code subtracts; the model stated both and left
    the reader to)."""
    plan = Question.of(state)
    if not plan.revision:
        return ""
    periods = {str(t["label"]) for t in state.get("targets") or [] if not t.get("companion")}
    for item in read.items:
        if periods and item.get("period_label") not in periods:
            continue
        revision = asked_revision(revisions(str(item.get("text") or "")), list(plan.terms))
        ticker, label = item.get("ticker") or "", item["label"]
        record = (
            revision_record(revision, ticker, item.get("period_label") or "", label) if revision else None
        )
        if revision is None or record is None:
            continue
        read.calculations.append(record)
        verb = "raised" if record["result"] > 0 else "lowered"
        return (
            f"{name(ticker, plan.names)} {verb} its {revision.what} guidance by "
            f"{record['result_text'][1:]}, to {revision.new.text} from {revision.old.text} [{label}]."
        )
    return ""


def _schedule_opening(state: State, read: Read) -> str:
    """ "Verizon's 10-K for FY2021 [10K1] gives for 2024, in its table “The benefit payments to retirees
    are expected to be paid as follows”: Pension Benefits $1,097 million; Health Care and Life $862
    million." for a forecast of a year the named report schedules, read by that year's row (the model
    could not tell the row from its neighbours in a flattened table)."""
    plan = Question.of(state)
    if not plan.ahead_years:
        return ""
    year = plan.ahead_years[0]
    periods = {str(t["label"]) for t in state.get("targets") or [] if not t.get("companion")}
    found = [
        (row, item)
        for item in read.items
        if item.get("period_label") in periods and item.get("kind") != "news"
        for row in scheduled_rows(str(item.get("text") or ""), year)
    ]
    row = asked_schedule([r for r, _ in found], list(plan.terms))
    if row is None:
        return ""
    item = next(i for r, i in found if r is row)
    table = f", in its table “{row.title}”" if row.title else ""
    source = source_phrase(item, plan.names)
    return f"{source} [{item['label']}] gives for {year}{table}: {row.reads()}."


def _asked_line_opening(state: State, read: Read) -> str:
    """ "Amcor's Adjusted EBITDA in FY2023 was $2,018 million [ER1]." for a question asking the value
    of a line a table of the passages prints for the asked period, read by code, not copied by the
    model (which took the release's "Adjusted EBIT of $1,608 million" for it)."""
    plan = Question.of(state)
    if plan.narrative or plan.forecast or plan.drivers:
        return ""
    periods = [str(t["label"]) for t in state.get("targets") or [] if not t.get("companion")]
    found = asked_line_facts(list(plan.value_line_words), read.facts, periods)
    names = plan.names
    return " ".join(
        f"{name(f['ticker'], names)}'s {_in_a_sentence(f['metric'])} in {f['period']} was "
        f"{format_value(f['value'], f.get('unit'))} [{f['source']}]."
        for f in found
    )


def _in_a_sentence(label: str) -> str:
    """A row's label inside a sentence: "Total net sales" -> "total net sales"; "EBITDA" stays."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def ratio_change_opening(state: State, read: Read) -> str:
    """ "Amcor's quick ratio rose from 0.67 in FY2022 to 0.69 in FY2023, +3.4% (computed: ...)." for a
    question asking how a computed ratio changed ("improved or declined"), which asks no yes or no."""
    plan = Question.of(state)
    wanted = plan.comparisons
    if not (wanted.change or wanted.yoy):
        return ""
    formulas = [c for c in read.calculations if c.get("kind") == "formula"]
    levels = {(c["ticker"], c["metric"], c["period"]): c for c in formulas}
    sentences = []
    for change in (c for c in read.calculations if "from_period" in c):  # a formula's, by its levels
        old = levels.get((change["ticker"], change["metric"], change["from_period"]))
        new = levels.get((change["ticker"], change["metric"], change["to_period"]))
        if old is None or new is None or change["result"] == 0:
            continue
        verb = _weighed(change["metric"], change["result"] > 0, plan.ask)
        sentences.append(
            f"{name(change['ticker'], plan.names)}'s {change['metric']} {verb} from "
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


def parts_ranking(state: State, read: Read, ask: PartsAsk) -> str:
    """The parts ranking's sentences; their computed shares and changes join the calculations."""
    plan = Question.of(state)
    found = parts_opening(ask, read.items, parts_wanted(state), plan.calendars, plan.names)
    if found is None:
        return ""
    read.calculations += found.calculations
    read.givens += [found.givens] if found.givens else []
    return found.text
