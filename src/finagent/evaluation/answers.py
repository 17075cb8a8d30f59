"""Answer evaluation: numeric answers within tolerance, the rest by an LLM judge whose verdicts are kept."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from langchain_core.runnables import Runnable
from pydantic import BaseModel, Field

from finagent.agent.prompts import render
from finagent.llm.structured import structured_call

RELATIVE_TOLERANCE = 0.01
_NUMBER = re.compile(
    r"(?<![\w.])-?\$?\(?\d[\d,]*(?:\.\d+)?\)?\s*(%|percent|billion|million|thousand|bn|mn|m|b|k)?", re.I
)
_SCALE = {"billion": 1e9, "bn": 1e9, "b": 1e9, "million": 1e6, "mn": 1e6, "m": 1e6, "thousand": 1e3, "k": 1e3}
_NO_ANSWER = re.compile(
    r"(no evidence was found|not (available|found|provided|disclosed) in"
    r"|does not (contain|provide|include|mention)|cannot (be )?(determine|answer)"
    r"|unable to (determine|answer|find)|did not return an answer)",
    re.I,
)


class JudgeVerdict(BaseModel):
    verdict: Literal["correct", "incorrect", "failed"] = "failed"
    reason: str = Field(default="", max_length=400)


@dataclass(frozen=True, slots=True)
class Quantity:
    value: float
    percent: bool


def quantities(text: str) -> list[Quantity]:
    """Numbers with their scale: "$94.9 billion" → 9.49e10, "44.5%" → 44.5 (percent)."""
    found = []
    for match in _NUMBER.finditer(text):
        token = match.group(0)
        unit = (match.group(1) or "").lower()
        digits = re.sub(r"[^\d.\-]", "", token.split()[0] if unit else token)
        try:
            value = float(digits.replace("--", "-"))
        except ValueError:
            continue
        if "(" in token and ")" in token:
            value = -abs(value)
        percent = unit in ("%", "percent")
        found.append(Quantity(value * _SCALE.get(unit, 1.0), percent))
    return found


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=RELATIVE_TOLERANCE, abs_tol=1e-9)


def numeric_match(answer: str, reference: str) -> bool | None:
    """True when the reference's leading figure appears in the answer (any usual scale, 1% tolerance);
    None when the reference states no figure (then the judge decides)."""
    wanted = [q for q in quantities(reference) if not (q.value.is_integer() and 1990 <= q.value <= 2100)]
    if not wanted:
        return None
    target = wanted[0]
    for got in quantities(answer):
        if target.percent and got.percent:
            if _close(got.value, target.value):
                return True
            continue
        for scale in (1.0, 1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9):
            if _close(abs(got.value) * scale, abs(target.value)) and (got.value < 0) == (target.value < 0):
                return True
    return False


_YES_NO = re.compile(r"^\W*(yes|no)\b", re.I)


def yes_no(text: str) -> str | None:
    """ "yes" / "no" when the text opens with it (FinanceBench's judgement questions do), else None."""
    match = _YES_NO.match(text)
    return match.group(1).lower() if match else None


def yes_no_agree(answer: str, references: Sequence[str]) -> bool | None:
    """False when the answer opens with the opposite yes/no of every reference that opens with one;
    None when either side does not open with yes/no (the check does not apply)."""
    wanted = {yes_no(r) for r in references} - {None}
    given = yes_no(answer)
    if not wanted or given is None:
        return None
    return given in wanted


_FIGURE = re.compile(
    r"^\s*[-+$(]?\s*\d[\d,]*(\.\d+)?\s*\)?\s*(%|percent|x|times|days|[a-z]{0,8})?\.?\s*$", re.I
)


def is_figure(reference: str) -> bool:
    """The reference is just a figure with its unit ("65.4%", "$1577.00", "-3.7", "0.68", "63.86 days")."""
    return bool(_FIGURE.match(reference))


def failed_to_answer(answer: str) -> bool:
    return not answer.strip() or bool(_NO_ANSWER.search(answer[:400]))


async def grade(
    question: str,
    answer: str,
    references: Sequence[str],
    judge: Runnable | None,
    *,
    numeric: bool,
) -> dict[str, Any]:
    """Verdict for one answer: numeric tolerance first when the question is numeric, else the judge."""
    if failed_to_answer(answer):
        return {"verdict": "failed", "method": "rule", "reason": "the answer says it could not answer"}
    if yes_no_agree(answer, references) is False:
        # A judgement question answered the other way round is wrong whatever figures it quotes.
        return {
            "verdict": "incorrect",
            "method": "yes/no",
            "reason": f"the reference answers {yes_no(references[0]) or 'differently'}; the answer does not",
        }
    if numeric:
        matches = [numeric_match(answer, r) for r in references]
        if any(m is True for m in matches):
            return {"verdict": "correct", "method": "numeric", "reason": "figure within 1% of the reference"}
        # A reference that *is* a figure ("65.4%", "$1,577.00") is graded by the figure alone: a
        # lenient judge must not accept a different number. Sentences with figures go to the judge.
        figure_only = any(is_figure(r) for r in references)
        if (judge is None or figure_only) and any(m is False for m in matches):
            return {
                "verdict": "incorrect",
                "method": "numeric",
                "reason": "no figure within 1% of the reference",
            }
    if judge is None:
        return {"verdict": "ungraded", "method": "none", "reason": "no judge model configured"}
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


def is_numeric_question(reasoning: str | None, reference: str) -> bool:
    return bool(reasoning and "numerical" in reasoning.lower()) or bool(re.match(r"^\s*[-$(]?\d", reference))


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
    numeric = is_numeric_question(question.extra.get("question_reasoning"), references[0])
    verdict = await grade(question.question, result.answer, references, judge, numeric=numeric)
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
