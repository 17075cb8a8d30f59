"""The facts lookups a question fans out to: one per company and asked period (with the kinds of
part it asks about), one per company for a long history, or only the parts when no figure of the
whole is asked."""

from __future__ import annotations

from langgraph.types import Send

from finagent.agent.context import Context
from finagent.agent.state import FactsTask, State, Target
from finagent.agent.understand.question import Question
from finagent.finance.words import word_keys


def plan_fact_lookups(state: State, context: Context) -> list[Send]:
    """One facts lookup per (ticker, target period) when the question asks for reported metrics."""
    plan = Question.of(state)
    metrics = list(plan.metric_names)  # set by analyze only when facts are in use
    if not metrics:
        return _part_lookups(state, plan)
    comparatives = ["prior_year"]
    if plan.comparisons.qoq or plan.comparisons.change:
        comparatives.append("prior_quarter")
    if plan.long_history is not None:
        return _history_lookups(state, metrics)
    sends = []
    for target in state.get("targets") or []:
        if not target.get("ticker") or target.get("fiscal_year") is None or target.get("companion"):
            continue  # a Q4's 10-K is searched for its text; its year is not an asked figure
        if target.get("document_ids"):
            continue  # a document named by its day (an 8-K) is read for its text, not a period's figures
        task = _facts_task(target, metrics, comparatives, plan)
        sends.append(Send("facts", task))
    return sends


def _part_lookups(state: State, plan: Question) -> list[Send]:
    """A question about parts asking no figure of the whole: one lookup of only the parts (no figure
    of the whole) per company and period."""
    if not plan.part_metric:
        return []
    sends = []
    for target in state.get("targets") or []:
        if target.get("ticker") and target.get("fiscal_year") is not None and not target.get("companion"):
            task = _facts_task(target, [plan.part_metric], [], plan)
            sends.append(Send("facts", FactsTask(**task, parts_only=True)))
    return sends


def _facts_task(target: Target, metrics: list[str], comparatives: list[str], plan: Question) -> FactsTask:
    """One facts lookup of a company's period, with the kinds of part the question asks about."""
    task = FactsTask(
        ticker=target["ticker"],
        fiscal_year=int(target["fiscal_year"]),
        fiscal_quarter=target.get("fiscal_quarter"),
        period_label=target.get("label") or "",
        period_end=target.get("period_end"),
        metrics=metrics,
        comparatives=comparatives,
        as_reported=plan.as_reported,
        span=target.get("span"),
        words=_words(plan, target["ticker"]),
    )
    kinds = [p.kind for p in plan.parts if p.ticker == task["ticker"]] + [plan.part_driver]
    if any(kinds):
        task["part_kinds"] = [k for k in dict.fromkeys(kinds) if k]
    return task


def _words(plan: Question, ticker: str) -> list[str]:
    """The question's words and the company's own names, as statement rows are matched against them
    (the first five letters of each: ``Ask.about``)."""
    return sorted({*plan.ask.about, *word_keys(" ".join(plan.names.get(ticker, [])))})


def _history_lookups(state: State, metrics: list[str]) -> list[Send]:
    """A long history: one facts lookup per company for all its periods (one read of its facts); each
    period's neighbours are periods of the series itself, so no comparative periods are added."""
    plan = Question.of(state)
    sends = []
    for ticker in dict.fromkeys(t.get("ticker") for t in state.get("targets") or []):
        own = [
            t
            for t in state.get("targets") or []
            if t.get("ticker") == ticker and t.get("fiscal_year") is not None and not t.get("companion")
        ]
        if not ticker or not own:
            continue
        task = FactsTask(
            ticker=ticker,
            fiscal_year=int(own[-1]["fiscal_year"]),
            fiscal_quarter=own[-1].get("fiscal_quarter"),
            period_label=own[-1].get("label") or "",
            period_end=own[-1].get("period_end"),
            metrics=metrics,
            comparatives=[],
            as_reported=plan.as_reported,
            periods=[[int(t["fiscal_year"]), t.get("fiscal_quarter")] for t in own],
        )
        sends.append(Send("facts", task))
    return sends
