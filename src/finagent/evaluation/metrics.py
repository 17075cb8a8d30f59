"""Retrieval metrics over ranked chunks: document Hit@k, page Recall@k, MRR, document recall."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

PAGE_KS = (5, 10, 20)


@dataclass(frozen=True, slots=True)
class RankedChunk:
    doc: str
    page: int | None


def ranked_documents(chunks: Sequence[RankedChunk]) -> list[str]:
    """Documents in the order their first chunk appears."""
    return list(dict.fromkeys(c.doc for c in chunks))


def retrieval_scores(
    chunks: Sequence[RankedChunk], gold_docs: Sequence[str], gold_pages: Sequence[tuple[str, int]]
) -> dict[str, float]:
    """Scores of one question (page metrics only when gold pages are known)."""
    docs = ranked_documents(chunks)
    scores = {
        # A question with several gold documents (multi-quarter) is hit by any of them.
        "doc_hit@1": float(bool(docs) and docs[0] in gold_docs),
        "doc_hit@5": float(bool(set(gold_docs) & set(docs[:5]))),
        "doc_recall": len(set(gold_docs) & set(docs)) / len(set(gold_docs)) if gold_docs else 0.0,
    }
    if gold_pages:
        gold = set(gold_pages)
        for k in PAGE_KS:
            found = {(c.doc, c.page) for c in chunks[:k]} & gold
            scores[f"page_recall@{k}"] = len(found) / len(gold)
        first = next((rank for rank, c in enumerate(chunks, 1) if (c.doc, c.page) in gold), None)
        scores["page_mrr"] = 1 / first if first else 0.0
    return scores


def aggregate(rows: Sequence[tuple[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean of every metric overall and per question type: {"all": {...}, "<type>": {...}}."""
    groups: dict[str, list[dict[str, float]]] = defaultdict(list)
    for question_type, scores in rows:
        groups["all"].append(scores)
        groups[question_type].append(scores)
    return {
        group: {"n": float(len(items))} | {m: round(fmean(s[m] for s in items), 4) for m in items[0]}
        for group, items in groups.items()
    }
