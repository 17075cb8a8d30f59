"""Question sets with gold evidence: FinanceBench (documents + pages) and sec10q (documents)."""

from __future__ import annotations

import json
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


def filter_questions(
    questions: list[EvalQuestion],
    *,
    ids: list[str] | None = None,
    question_type: str | None = None,
    limit: int | None = None,
) -> list[EvalQuestion]:
    selected = [
        q
        for q in questions
        if (not ids or q.id in ids) and (not question_type or q.question_type == question_type)
    ]
    return selected[:limit] if limit else selected
