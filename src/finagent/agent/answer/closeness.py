"""How close in meaning a passage's sentences are to the question: the search's own embedding model
scores the sentences code may quote, beside the words they share with the question."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from finagent.agent.answer.quotes import Closeness, Quote, chosen_quotes
from finagent.agent.evidence import query_terms
from finagent.agent.resources import get_resources
from finagent.agent.understand.question import Question
from finagent.finance.words import as_the_company


def closeness_to(plan: Question) -> Closeness:
    """Sentences' closeness to the question (the cosine of their vectors), the question read with its
    companies as "the company", so that a sentence is not close for naming one. The sentences'
    vectors are computed, never kept: they are read once."""
    return closeness_to_each(plan, [plan.question])[0]


def closeness_to_each(plan: Question, asks: Sequence[str]) -> list[Closeness]:
    """Sentences' closeness to each of the questions ``asks`` (a compound question's parts), each
    sentence embedded once for them all."""
    embedder = get_resources().embedder()
    vectors: dict[str, Any] = {}

    def sentence_vectors(sentences: Sequence[str]) -> Any:
        fresh = [s for s in dict.fromkeys(sentences) if s not in vectors]
        if fresh:
            vectors.update(zip(fresh, embedder.encode_passing(fresh), strict=True))
        return np.stack([vectors[s] for s in sentences])

    def closeness(text: str) -> Closeness:
        asked = embedder.encode_query(as_the_company(text, _written(plan.names)))
        return lambda sentences: (sentence_vectors(sentences) @ asked).tolist() if sentences else []

    return [closeness(text) for text in asks]


def _written(names: dict[str, list[str]]) -> list[str]:
    """The names of the question's companies (not their tickers: "NOW" or "IT" is also a word)."""
    return [alias for aliases in names.values() for alias in aliases]


def quotes_of_each_part(
    pool: Sequence[dict[str, Any]], plan: Question, limit: int, options: dict[str, Any]
) -> list[Quote]:
    """A compound question's quotes: for each of its parts in turn, its share of ``limit`` of the
    sentences closest to that part by meaning and words (``chosen_quotes`` with ``options``), none
    repeating one already chosen; the passages that answer one part seldom answer the other."""
    picked: list[Quote] = []
    each = -(-limit // len(plan.sub_asks))  # every part its share, rounded up
    for part, closeness in zip(plan.sub_asks, closeness_to_each(plan, plan.sub_asks), strict=True):
        chosen = chosen_quotes(
            pool, query_terms([part]), plan.names, limit=each, closeness=closeness, **options
        )
        picked += [
            q for q in chosen if not any(q.sentence in p.sentence or p.sentence in q.sentence for p in picked)
        ]
    return picked
