"""Question sets with gold evidence: FinanceBench (documents + pages) and sec10q (documents)."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finagent.errors import FinagentError


@dataclass(frozen=True, slots=True)
class EvalQuestion:
    """One benchmark question; gold pages are (doc_name, 0-based page) pairs."""

    id: str
    question: str
    answer: str
    question_type: str
    gold_docs: tuple[str, ...]
    gold_pages: tuple[tuple[str, int], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise FinagentError(f"question set not found: {path}")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise FinagentError(f"{path}:{number}: not a JSON line ({exc.msg})") from exc
    return rows


def load_questions(path: Path) -> list[EvalQuestion]:
    """FinanceBench rows carry gold_evidence pages; sec10q rows carry gold_docs (file stems)."""
    questions = []
    for row in _rows(path):
        try:
            if "gold_evidence" in row:
                pages = tuple((str(e["doc_name"]), int(e["page"])) for e in row["gold_evidence"])
                docs = tuple(dict.fromkeys([str(row["doc_name"]), *(d for d, _ in pages)]))
            else:
                pages, docs = (), tuple(str(d) for d in row["gold_docs"])
            questions.append(
                EvalQuestion(
                    id=str(row["id"]),
                    question=str(row["question"]),
                    answer=str(row.get("answer", "")),
                    question_type=str(row.get("question_type") or "unknown"),
                    gold_docs=docs,
                    gold_pages=pages,
                    extra={
                        k: row[k]
                        for k in ("company", "doc_type", "doc_period", "question_reasoning")
                        if k in row
                    },
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise FinagentError(f"{path}: question {row.get('id', '?')} is malformed ({exc})") from exc
    return questions


HALVES = ("A", "B")


def halves(questions: list[EvalQuestion]) -> dict[str, str]:
    """Question id -> half "A" (tuned on) or "B" (held back).

    Within each question type, questions are ordered by a hash of their id and dealt alternately:
    both halves hold every type in equal measure, and the deal depends on the ids only (not on the
    file's order), so the same file always splits the same way.
    """
    by_type: dict[str, list[EvalQuestion]] = defaultdict(list)
    for question in questions:
        by_type[question.question_type].append(question)
    half: dict[str, str] = {}
    for group in by_type.values():
        ordered = sorted(group, key=lambda q: hashlib.sha256(q.id.encode()).hexdigest())
        for index, question in enumerate(ordered):
            half[question.id] = HALVES[index % 2]
    return half


def filter_questions(
    questions: list[EvalQuestion],
    *,
    ids: list[str] | None = None,
    question_type: str | None = None,
    limit: int | None = None,
    half: str | None = None,
) -> list[EvalQuestion]:
    """The questions matching every given filter (``half`` as ``halves`` deals them)."""
    if half is not None and half.upper() not in HALVES:
        raise FinagentError(f"unknown half '{half}'; use A (tuned on) or B (held back)")
    dealt = halves(questions) if half else {}
    selected = [
        q
        for q in questions
        if (not ids or q.id in ids)
        and (not question_type or q.question_type == question_type)
        and (not half or dealt[q.id] == half.upper())
    ]
    return selected[:limit] if limit else selected
