"""evaluate node and the route after it: score the answer, decide whether to search again."""

from __future__ import annotations

import re
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Send

from finagent.agent.context import Context
from finagent.agent.nodes.fan_out import plan_follow_ups
from finagent.agent.prompts import render
from finagent.agent.resources import get_resources
from finagent.agent.schemas import Evaluation
from finagent.agent.state import State
from finagent.agent.understand.plan import sanitize_phrases
from finagent.agent.understand.question import Question
from finagent.finance.check.verify import UNSUPPORTED as UNSUPPORTED_FIGURES
from finagent.finance.figure_records import format_facts
from finagent.finance.lines import REPORTED
from finagent.llm.structured import structured_call

ANY_PERIOD = "any period"  # the label of a target searched over every stored period
LLM_WEIGHT = 0.5  # the rest of the confidence is deterministic coverage of the asked periods
UNSUPPORTED_CAP = 0.5  # confidence ceiling while the answer carries figures the evidence does not support
NO_COMPANY_CAP = 0.5  # an answer about whichever company matched best is never a confident one
WITHHELD_MARGIN = 0.1  # how far below the mode's threshold an answer with withheld sentences stays
EXTRACTED_CONFIDENCE = 0.7
"""An answer quoting the passages that share most of the question's words: sourced, but whether the
quotes answer all of it is not known, so never a figure answer's confidence."""


def coverage(state: State) -> float:
    """Share of target (ticker, period) pairs the answer has figures for (or evidence, if no figures)."""
    available = [t for t in state.get("targets") or [] if t.get("available")]
    targets = [(t.get("ticker"), t["label"]) for t in available]
    facts = state.get("facts") or []
    evidence = state.get("evidence") or []
    if facts:
        covered = {(f["ticker"], f["period"]) for f in facts}
    else:
        covered = {(e.get("ticker"), e["period_label"]) for e in evidence}
        # a company's whole history ("any period") is covered by any of its passages
        covered |= {(ticker, ANY_PERIOD) for ticker, _ in covered}
    # a document the question names by its day ("the 8-K dated July 1, 2022") is covered by its passages
    documents = {e.get("document_id") for e in evidence}
    covered |= {
        (t.get("ticker"), t["label"]) for t in available if documents & set(t.get("document_ids") or [])
    }
    if not targets:
        return 1.0 if covered else 0.0
    return sum(1 for t in targets if t in covered) / len(targets)


FIGURES_CONFIDENCE = 0.95  # every asked figure found in the filings, each verified for its period
REVIEW_CONFIDENCE = 0.85  # only dates or rounding-level slips left unverified


def _asked(state: State) -> set[tuple[str, str]]:
    return {
        (t["ticker"], t["label"])
        for t in state.get("targets") or []
        if t.get("ticker") and t.get("fiscal_year") is not None and not t.get("companion")
    }


def _found(state: State) -> set[tuple[str, str]]:
    return {
        (f["ticker"], f["period"]) for f in state.get("facts") or [] if f.get("role", "target") == "target"
    }


def figures_complete(state: State) -> bool:
    """A figure answer whose every asked (company, period) has its reported figures, all verified:
    nothing a grader could add, so no model call is spent on grading it."""
    if not Question.of(state).metrics or (state.get("validation") or {}).get("status") != "verified":
        return False
    if not state.get("draft_ok", True) or state.get("withheld"):
        return False  # the model wrote nothing, or sentences its passages do not support
    wanted = _asked(state)
    return (
        bool(wanted)
        and wanted <= _found(state)
        and not any("not derivable" in w for w in state.get("warnings") or [])
    )


def computed_grade(state: State) -> dict[str, Any] | None:
    """The grade of a figure answer without narrative, computed: the share of asked periods with their
    figures, held down while any figure is unverified; the missing figures' other row wordings are
    the follow-up searches. None for answers with words the model wrote."""
    plan = Question.of(state)
    if not plan.metrics or plan.narrative or not state.get("figures"):
        return None
    wanted = _asked(state)
    share = len(wanted & _found(state)) / len(wanted) if wanted else 0.0
    status = (state.get("validation") or {}).get("status")
    ceiling = {"verified": FIGURES_CONFIDENCE, UNSUPPORTED_FIGURES: UNSUPPORTED_CAP}.get(
        str(status), REVIEW_CONFIDENCE
    )
    confidence = round(ceiling * share, 3)
    done = {s["query"].lower() for s in state.get("searches") or []}
    # A long history's figures were read from facts for every period at once: a period without one is
    # a gap the answer names, which searching other row wordings in every period would not fill.
    history = plan.long_history is not None
    missing = set(plan.metric_names) if share < 1 and not history else set()
    follow_ups = [
        row
        for m in sorted(missing)
        if m in REPORTED
        for row in REPORTED[m].rows[1:3]
        if row.lower() not in done
    ][:3]
    record = {
        "iteration": state.get("iterations") or 0,
        "model_ok": False,
        "coverage": round(share, 3),
        "confidence": confidence,
        "satisfied": share == 1.0 or history,
        "graded": f"computed: {len(wanted & _found(state))} of {len(wanted)} periods found, figures {status}",
    }
    return {"evaluations": [record], "confidence": confidence, "follow_up_queries": follow_ups}


async def evaluate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    graded = await _evaluate(state, runtime)
    if Question.of(state).subject_note:  # about the best match, not a company the question named
        capped = min(graded["confidence"], NO_COMPANY_CAP)
        records = [{**r, "confidence": min(r["confidence"], capped)} for r in graded["evaluations"]]
        graded = {**graded, "confidence": capped, "evaluations": records, "follow_up_queries": []}
    return graded


async def _evaluate(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """The grade by code when code can give it, else the model's grade blended with coverage."""
    graded = computed_grade(state) or _graded_without_model(state)
    if graded is not None:
        return graded
    return await _model_grade(state, runtime.context or Context())


def _computed_record(
    state: State, coverage_share: float, confidence: float, satisfied: bool, why: str
) -> dict[str, Any]:
    record = {
        "iteration": state.get("iterations") or 0,
        "model_ok": False,
        "coverage": round(coverage_share, 3),
        "confidence": confidence,
        "satisfied": satisfied,
        "graded": why,
    }
    return {"evaluations": [record], "confidence": confidence, "follow_up_queries": []}


def _graded_without_model(state: State) -> dict[str, Any] | None:
    """No answer to grade, no company named, or every figure found and verified: graded by code."""
    plan = Question.of(state)
    if plan.unheld_subject:  # the answer says the store does not mention it: not an answer, nothing to grade
        why = f"computed: no stored passage mentions {', '.join(plan.unmentioned)}, and the answer says so"
        return _computed_record(state, 0.0, 0.0, True, why)
    if state.get("answered") is False:  # nothing written was an answer: nothing to grade
        why = "not an answer (empty, only citations or cut off): confidence 0"
        return _computed_record(state, coverage(state), 0.0, False, why)
    if state.get("extracted"):  # the passages' own sentences: graded by what they cover, no model grade
        share = coverage(state)
        confidence = EXTRACTED_CONFIDENCE - (WITHHELD_MARGIN if state.get("withheld") else 0.0)
        why = "computed: the passages' sentences that answer, quoted; confidence by the periods they cover"
        return _computed_record(state, share, round(confidence * share, 3), True, why)
    if not plan.tickers or plan.subject_note:  # no company named: no model grade
        share = coverage(state)
        why = "computed: no company named, so no grade beyond the evidence found"
        return _computed_record(state, share, round(NO_COMPANY_CAP * share, 3), True, why)
    if figures_complete(state):
        why = "figures complete and verified for their periods (no model grade needed)"
        return _computed_record(state, 1.0, FIGURES_CONFIDENCE, True, why)
    return None


async def _model_grade(state: State, context: Context) -> dict[str, Any]:
    """The model grades completeness, specificity, accuracy and clarity; coverage and the checks cap it."""
    plan = Question.of(state)
    targets = ", ".join(f"{t.get('ticker') or ''} {t['label']}".strip() for t in state.get("targets") or [])
    messages = render(
        "evaluate",
        question=plan.question,
        targets=targets or "any",
        facts=format_facts(state.get("facts") or []),
        answer=(state.get("answer") or "")[:3000],
    )
    reply, calls = await structured_call(
        get_resources().chat_model("evaluate", context),
        messages,
        Evaluation,
        role="evaluate",
        default=Evaluation,
    )
    model_ok = bool(calls) and calls[-1].ok
    share = coverage(state)
    confidence = _capped(state, context, plan, reply, model_ok, share)
    names = [n for aliases in plan.names.values() for n in aliases] or list(plan.tickers)
    done = {s["query"].lower() for s in state.get("searches") or []}
    follow_ups = [q for q in sanitize_phrases(list(reply.follow_up_keywords), names) if q.lower() not in done]
    follow_ups = [q for q in follow_ups if not re.fullmatch(r"[\d\s.,%$]+", q)]
    record = {
        "iteration": state.get("iterations") or 0,
        **reply.model_dump(),
        "model_ok": model_ok,
        "coverage": round(share, 3),
        "confidence": round(confidence, 3),
    }
    return {
        "evaluations": [record],
        "confidence": round(confidence, 3),
        "follow_up_queries": follow_ups,
        "llm_calls": [c.to_dict() for c in calls],
    }


def _capped(
    state: State, context: Context, plan: Question, reply: Evaluation, model_ok: bool, share: float
) -> float:
    """The model's grade blended with coverage, held down by what the checks found."""
    model_score = (reply.completeness + reply.specificity + reply.accuracy + reply.clarity) / 400
    # Without a grade, coverage alone never reaches a threshold; an answer the model did not write
    # (built from evidence after a failure) is low-confidence by construction.
    confidence = LLM_WEIGHT * model_score + (1 - LLM_WEIGHT) * share if model_ok else 0.6 * share
    if not state.get("draft_ok", True):
        confidence = min(confidence, 0.3)
    if (state.get("validation") or {}).get("status") == UNSUPPORTED_FIGURES:
        confidence = min(confidence, UNSUPPORTED_CAP)  # a figure nobody can check is not a confident answer
    if state.get("withheld"):  # sentences its citations did not support: below the bar, search again
        confidence = min(confidence, context.threshold(plan.answer_mode) - WITHHELD_MARGIN)
    return confidence


def route_after_evaluate(state: State, runtime: Runtime[Context]) -> list[Send] | Literal["finish"]:
    """Stop at the mode's threshold, its iteration limit, when satisfied or out of ideas; else search more."""
    context = runtime.context or Context()
    mode = Question.of(state).answer_mode
    last = (state.get("evaluations") or [{}])[-1]
    if (
        (state.get("confidence") or 0.0) >= context.threshold(mode)
        or int(state.get("iterations") or 0) >= context.iteration_limit(mode)
        or last.get("satisfied")
        or not state.get("follow_up_queries")
    ):
        return "finish"
    sends = plan_follow_ups(state, context)
    return sends or "finish"
