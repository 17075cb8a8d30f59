"""Answer evaluation: the reference's yes/no and figures must be in the answer before an LLM judge (whose
verdicts are kept) may call it correct."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from langchain_core.runnables import Runnable
from pydantic import BaseModel, Field

from finagent.agent.prompts import render
from finagent.errors import FinagentError
from finagent.finance.check.reference import (
    first_prose_line,
    gate,
    leading_yes_no,
    missing_figures,
    required_figures,
)
from finagent.finance.check.support import content_words
from finagent.finance.words import BETTER_WORDS, DOWN_WORDS, UP_WORDS, WORSE_WORDS, split_sentences
from finagent.llm.structured import structured_call

_NO_ANSWER = re.compile(
    r"(no evidence was found|not (available|found|provided|disclosed) in"
    r"|does not (contain|provide|include|mention)|cannot (be )?(determine|answer)"
    r"|unable to (determine|answer|find)|did not return an answer)",
    re.I,
)


class JudgeVerdict(BaseModel):
    verdict: Literal["correct", "incorrect", "failed"] = "failed"
    reason: str = Field(default="", max_length=400)


_FIGURE = re.compile(
    r"^\s*[-+$(]?\s*\d[\d,]*(\.\d+)?\s*\)?\s*(%|percent|x|times|days|[a-z]{0,8})?\.?\s*$", re.I
)


def is_figure(reference: str) -> bool:
    """The reference is just a figure with its unit ("65.4%", "$1577.00", "-3.7", "0.68", "63.86 days")."""
    return bool(_FIGURE.match(reference))


_NAME_WORDS = 6


def names_reference(answer: str, reference: str) -> bool:
    """A reference that is only a short name or list of names ("Customer deposits", "United States,
    EMEA, APAC, and LACC"), with no figure and no yes or no, is stated when the answer's first
    sentence names every word of it: the small judge refused "Customer deposits was the largest of
    American Express's liabilities" against "Customer deposits"."""
    wanted = content_words(reference)
    if not wanted or len(reference.split()) > _NAME_WORDS or leading_yes_no(reference):
        return False
    if required_figures(reference):
        return False
    first = split_sentences(first_prose_line(answer))[0]
    return wanted <= content_words(first)


def leads_with_reference_name(answer: str, reference: str) -> bool:
    """A reference that names its answer and then gives its figure ("Corporate. Its net revenue was
    -$473 million.") is stated when the answer's first sentence opens with that name (the gate has
    checked the figures): the small judge refused "Corporate had the lowest net revenue of JPMorgan
    Chase's segments in Q1 FY2021: -$473 million" while writing that it names no other segment."""
    name, _, rest = reference.strip().partition(". ")
    if not rest.strip() or not required_figures(rest) or required_figures(name) or leading_yes_no(name):
        return False
    words = name.split()
    if not words or len(words) > _NAME_WORDS or re.search(r"['’]s\b", name):
        return False  # "AMCOR's Adj. EBITDA was …" is a sentence, not a name
    return _opening(answer).startswith(_without_article(name))


def _without_article(text: str) -> str:
    """Lower case, without a leading "the": "The Entertainment segment" opens as "entertainment …"."""
    return re.sub(r"^(?:the)\s+", "", text.strip(), flags=re.I).lower()


def _opening(answer: str) -> str:
    """The answer's first sentence as a name is looked for at its start."""
    return _without_article(_first_sentence(answer))


_SUBJECT = re.compile(
    r"^(?:The\s+)?((?:[A-Z][\w&.'’-]*)(?:\s+(?:[A-Z][\w&.'’-]*|&|of|and|the))*)\s+(?!(?:of|and|the)\b)[a-z]"
)
_TRAILING_LINK = re.compile(r"(?:\s+(?:of|and|the|&))+$")


def leads_with_reference_subject(answer: str, reference: str, question: str) -> bool:
    """A which-question's reference whose first sentence has a name for its subject ("MGM China
    experienced the worst topline performance …") is stated when the answer's first sentence opens
    with that name (the gate has checked the figures): the small judge refused "MGM China had the
    largest decline in MGM's reportable segment net revenues in FY2022 … -44.4%" as not saying which
    region did worst. Over the 250 stored answers with hand verdicts this fires on 2, both right."""
    if not _NAME_QUESTION.search(question) or leading_yes_no(reference):
        return False
    subject = _SUBJECT.match(_first_sentence(reference).strip())
    if subject is None:
        return False
    name = _TRAILING_LINK.sub("", subject.group(1)).lower()
    if len(name.split()) > _NAME_WORDS:
        return False
    first = _opening(answer)
    return first.startswith(name) and not first[len(name) : len(name) + 1].isalnum()


# A judgement says a direction too: "improved" answers "has it risen or fallen?" as much as "rose".
_DIRECTIONS = {"up": (UP_WORDS, BETTER_WORDS), "down": (DOWN_WORDS, WORSE_WORDS)}


def _directions(sentence: str) -> set[str]:
    return {name for name, said in _DIRECTIONS.items() if any(words.search(sentence) for words in said)}


def _first_sentence(text: str) -> str:
    return split_sentences(first_prose_line(text))[0]


_WH_QUESTION = re.compile(r"\b(which|what|who|whom|where|when|how)\b", re.I)


def asks_direction(question: str) -> bool:
    """The question asks which way a line moved ("Has AMCOR's quick ratio improved or declined …?"), not
    which part moved most ("Which region had the biggest drop …?")."""
    return bool(_directions(question)) and not _WH_QUESTION.search(question)


def states_reference_direction(answer: str, reference: str) -> bool:
    """A reference that answers which way a line moved, with figures ("The quick ratio has slightly
    improved from 0.67 times to 0.69 times"), is stated when the answer's first sentence says the same
    way and never the other (the gate has checked the figures): it is the yes or no of a question that
    asks "improved or declined". The small judge refused "Amcor's quick ratio improved: it rose from
    0.67 in FY2022 to 0.69 in FY2023" as giving no information about the quick ratio."""
    wanted = _directions(_first_sentence(reference))
    if len(wanted) != 1 or not required_figures(reference) or leading_yes_no(reference):
        return False
    return _directions(_first_sentence(answer)) == wanted


_NAME_QUESTION = re.compile(r"\b(which|who|whom|where)\b", re.I)
"""A question answered by a name: a figure in the first sentence may be another part's."""


def leads_with_reference_figures(answer: str, reference: str, question: str) -> bool:
    """A reference that states figures without a yes or no ("JnJ sold its inventory 2.7 times in
    FY2022.") is stated when the answer's first sentence states every one of them, within 1%, and,
    for a question asking which way, says the reference's way too. Not for a question answered by a
    name ("Which segment …?"), whose first sentence may give the figure of another. Over the 211
    distinct stored answers this fires on 24, all right by hand; the small judge had refused 5 of
    them ("inventory turnover for FY2022 was 2.72" as giving no turnover)."""
    if (
        leading_yes_no(reference)
        or not required_figures(reference, question)
        or _NAME_QUESTION.search(question)
    ):
        return False
    first = _first_sentence(answer)
    if missing_figures(first, reference, question):
        return False
    wanted = _directions(_first_sentence(reference))
    return not (asks_direction(question) and len(wanted) == 1) or _directions(first) == wanted


_NOT_USEFUL = re.compile(
    r"\bnot\b(?:\s+\w+){0,3}?\s+"
    r"(?:useful|meaningful|relevant|applicable|measured|a measure|reported|report)\b"
    r"|\bdoes not (?:report|measure|use|disclose)\b",
    re.I,
)


def says_metric_not_useful(answer: str, reference: str) -> bool:
    """A reference that only says the metric asked about does not apply ("Performance is not measured
    through operating margin") is stated when the answer's first sentence says so of the same metric:
    the small judge refused "operating margin is not a measure it reports, and none is computed"."""
    wanted = _first_sentence(reference)
    if not _NOT_USEFUL.search(wanted) or required_figures(reference) or leading_yes_no(reference):
        return False
    rest = re.sub(r"^\W*(?:through|by|using|via|with|on|in)\b", "", _NOT_USEFUL.split(wanted)[-1], flags=re.I)
    metric = content_words(rest) or content_words(wanted)
    first = _first_sentence(answer)
    return bool(_NOT_USEFUL.search(first)) and metric <= content_words(first)


def failed_to_answer(answer: str) -> bool:
    return not answer.strip() or bool(_NO_ANSWER.search(answer[:400]))


_Rule = Callable[[str, str, str], bool]
"""Whether an answer states one reference that passed the gate: (answer, reference, question)."""

_DECIDED_BY_CODE: tuple[tuple[str, str, _Rule], ...] = (
    ("figures", "the reference's figure, within 1%", lambda answer, ref, question: is_figure(ref)),
    (
        "name",
        "the answer's first sentence names the reference",
        lambda answer, ref, question: names_reference(answer, ref),
    ),
    (
        "name and figures",
        "the answer's first sentence opens with the reference's name, and states its figures",
        lambda answer, ref, question: leads_with_reference_name(answer, ref),
    ),
    (
        "subject",
        "the answer's first sentence opens with the name the reference's first sentence is about",
        leads_with_reference_subject,
    ),
    (
        "first-sentence figures",
        "the answer's first sentence states every figure of the reference",
        leads_with_reference_figures,
    ),
    (
        "metric not used",
        "the answer's first sentence says the metric asked about does not apply, as the reference does",
        lambda answer, ref, question: says_metric_not_useful(answer, ref),
    ),
    (
        "direction and figures",
        "the answer's first sentence says which way, as the reference does, and states its figures",
        lambda answer, ref, question: asks_direction(question) and states_reference_direction(answer, ref),
    ),
    # the reference's yes or no and every figure it gives it for: the small judge, asked anyway,
    # refused "No: the margin fell from 36.8% to 34.6%" as "no conclusion"
    (
        "yes/no and figures",
        "the reference's yes or no and every figure it states",
        lambda answer, ref, question: bool(leading_yes_no(ref) and required_figures(ref, question)),
    ),
)
"""The kinds of reference code decides, in the order they are tried: the first that holds grades."""


def _decided_by_code(answer: str, passed: Sequence[str], question: str) -> dict[str, Any] | None:
    """Correct when the answer states a passed reference in a way code can check, else undecided."""
    for method, reason, states in _DECIDED_BY_CODE:
        if any(states(answer, reference, question) for reference in passed):
            return {"verdict": "correct", "method": method, "reason": reason}
    return None


async def _judged(question: str, answer: str, references: Sequence[str], judge: Runnable) -> dict[str, Any]:
    """The judge's verdict, with its calls kept; a judge that itself failed gives no verdict."""
    alternatives = "".join(f"Also accepted: {r}\n" for r in references[1:])
    verdict, calls = await structured_call(
        judge,
        render(
            "judge",
            question=question,
            reference=references[0],
            alternatives=alternatives,
            answer=answer[:3000],
        ),
        JudgeVerdict,
        role="judge",
        default=JudgeVerdict,
    )
    record = [c.to_dict() for c in calls]
    if not calls or not calls[-1].ok:
        # The judge itself failed: that is no verdict on the answer.
        error = calls[-1].error if calls else "no call was made"
        reason = f"the judge gave no valid verdict ({error})"
        return {"verdict": "ungraded", "method": "judge", "reason": reason, "judge_calls": record}
    return {"verdict": verdict.verdict, "method": "judge", "reason": verdict.reason, "judge_calls": record}


async def grade(
    question: str,
    answer: str,
    references: Sequence[str],
    judge: Runnable | None,
) -> dict[str, Any]:
    """Verdict for one answer. No judge may call an answer correct unless it passes the gate
    (``finance.check.reference``): the reference's leading yes/no and every figure it states. A
    reference that is only a figure, a short name named by the answer's first sentence, a metric said
    not to apply, a direction or a yes or no with figures, is then decided; any other goes to the judge."""
    if failed_to_answer(answer):
        return {"verdict": "failed", "method": "rule", "reason": "the answer says it could not answer"}
    gates = [(reference, gate(answer, reference, question)) for reference in references]
    passed = [reference for reference, result in gates if result.passed]
    if not passed:
        refused = gates[0][1]
        return {"verdict": "incorrect", "method": refused.check, "reason": refused.reason}
    decided = _decided_by_code(answer, passed, question)
    if decided is not None:
        return decided
    if judge is None:
        return {"verdict": "ungraded", "method": "none", "reason": "no judge model configured"}
    return await _judged(question, answer, references, judge)


def load_flagged(path: Path | None) -> dict[str, list[str]]:
    """Alternative answers accepted for questions an independent review flagged."""
    if path is None or not path.is_file():
        return {}
    alternatives: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if row.get("mafin_answer_gpt4o"):
                alternatives.setdefault(row["financebench_id"], []).append(str(row["mafin_answer_gpt4o"]))
    return alternatives


RETRIEVED_KEPT = 20  # top chunks kept per question in the results file


async def answer_question(
    question: Any, references: Sequence[str], judge: Runnable | None, context: Any
) -> dict[str, Any]:
    """Run the full graph on one question and grade it; the row keeps everything needed to audit it."""
    from finagent.agent.api import aask

    retrieved: dict[int, dict[str, Any]] = {}

    def collect(node: str, update: dict[str, Any]) -> None:
        for item in update.get("evidence") or []:
            if isinstance(item, dict) and "chunk_id" in item:
                best = retrieved.get(item["chunk_id"])
                if best is None or item.get("fused_score", 0) > best["score"]:
                    retrieved[item["chunk_id"]] = {
                        "chunk_id": item["chunk_id"],
                        "document_id": item.get("document_id"),
                        "page": item.get("page"),
                        "score": round(float(item.get("fused_score") or 0.0), 4),
                    }

    result = await aask(question.question, context=context, on_update=collect)
    verdict = await grade(question.question, result.answer, references, judge)
    return {
        "id": question.id,
        "question_type": question.question_type,
        "question": question.question,
        "reference": references[0],
        "alternatives": list(references[1:]),
        "answer": result.answer,
        "retrieved": sorted(retrieved.values(), key=lambda r: (-r["score"], r["chunk_id"]))[:RETRIEVED_KEPT],
        "citations": result.citations,
        "confidence": result.confidence,
        "iterations": result.iterations,
        "llm_calls": len(result.llm_calls),
        "tokens": result.tokens,
        "seconds": result.wall_time_s,
        "warnings": result.warnings,
        **verdict,
    }


def answer_summary(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    n = max(1, len(rows))
    return {
        "n": float(len(rows)),
        "accuracy": round(sum(r["verdict"] == "correct" for r in rows) / n, 4),
        "failed_to_answer": round(sum(r["verdict"] == "failed" for r in rows) / n, 4),
        "ungraded": round(sum(r["verdict"] == "ungraded" for r in rows) / n, 4),
        "mean_llm_calls": round(sum(r["llm_calls"] for r in rows) / n, 2),
        "mean_tokens": round(sum(r["tokens"] for r in rows) / n, 1),
        "mean_seconds": round(sum(r["seconds"] for r in rows) / n, 2),
    }


def answers_table(rows: Sequence[dict[str, Any]]) -> str:
    """Markdown summary: overall, then by question type (accuracy, failures, calls, tokens, time)."""
    groups: dict[str, list[dict[str, Any]]] = {"all": list(rows)}
    for row in rows:
        groups.setdefault(str(row.get("question_type") or "other"), []).append(row)
    columns = [
        "n",
        "accuracy",
        "failed_to_answer",
        "ungraded",
        "mean_llm_calls",
        "mean_tokens",
        "mean_seconds",
    ]
    lines = ["| questions | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for name, members in groups.items():
        summary = answer_summary(members)
        lines.append(f"| {name} | " + " | ".join(f"{summary[c]:g}" for c in columns) + " |")
    return "\n".join(lines)


# -- agreement with verdicts read by hand ------------------------------------------------------------
def answer_digest(answer: str) -> str:
    """Names one answer's text: a hand verdict holds for the answer that was read, not a later rerun."""
    return hashlib.sha256(answer.encode("utf-8")).hexdigest()[:12]


def load_handcheck(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """Hand verdicts by (question id, answer digest); rows need id, answer_sha, verdict."""
    try:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError) as exc:
        raise FinagentError(f"cannot read hand verdicts {path}: {exc}") from exc
    if not all(isinstance(r, dict) and {"id", "answer_sha", "verdict"} <= r.keys() for r in rows):
        raise FinagentError(f"{path}: every hand verdict needs id, answer_sha and verdict")
    return {(str(r["id"]), str(r["answer_sha"])): r for r in rows}


def agreement(
    rows: Sequence[dict[str, Any]], hand: dict[tuple[str, str], dict[str, Any]], field: str = "verdict"
) -> tuple[int, int]:
    """(agreeing, hand-checked): rows whose ``field`` and the hand verdict agree on correct or not."""
    agree = checked = 0
    for row in rows:
        verdict = hand.get((str(row["id"]), answer_digest(str(row["answer"]))))
        if verdict is None or field not in row:
            continue
        checked += 1
        agree += (row[field] == "correct") == (verdict["verdict"] == "correct")
    return agree, checked


def _accuracy(rows: Sequence[dict[str, Any]], field: str) -> str:
    graded = [r for r in rows if field in r]
    if not graded:
        return "—"
    correct = sum(r[field] == "correct" for r in graded)
    return f"{correct}/{len(graded)} ({correct / len(graded):.3f})"


def agreement_lines(rows: Sequence[dict[str, Any]], hand: dict[tuple[str, str], dict[str, Any]]) -> str:
    """Markdown: per question type, each grading's accuracy beside its agreement with the hand
    verdicts (this grading, then the verdicts the rows were first recorded with)."""
    groups: dict[str, list[dict[str, Any]]] = {"all": list(rows)}
    for row in rows:
        groups.setdefault(str(row.get("question_type") or "other"), []).append(row)
    lines = [
        "| questions | accuracy | agrees with hand | recorded accuracy | recorded agrees with hand"
        " | hand-checked | hand: correct |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, members in groups.items():
        agree, checked = agreement(members, hand)
        before, recorded = agreement(members, hand, "recorded_verdict")
        correct = sum(
            hand[key]["verdict"] == "correct"
            for key in ((str(r["id"]), answer_digest(str(r["answer"]))) for r in members)
            if key in hand
        )
        old = f"{before}/{recorded}" if recorded else "—"
        lines.append(
            f"| {name} | {_accuracy(members, 'verdict')} | {agree}/{checked} "
            f"| {_accuracy(members, 'recorded_verdict')} | {old} | {checked} | {correct} |"
        )
    return "\n".join(lines)
