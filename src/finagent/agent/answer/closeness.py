"""How close in meaning a passage's sentences are to the question: the search's own embedding model
scores the sentences code may quote, beside the words they share with the question."""

from __future__ import annotations

from finagent.agent.answer.quotes import Closeness
from finagent.agent.resources import get_resources
from finagent.agent.understand.question import Question
from finagent.finance.words import as_the_company


def closeness_to(plan: Question) -> Closeness:
    """Sentences' closeness to the question (the cosine of their vectors), the question read with its
    companies as "the company", so that a sentence is not close for naming one. The sentences'
    vectors are computed, never kept: they are read once."""
    embedder = get_resources().embedder()
    asked = embedder.encode_query(as_the_company(plan.question, _written(plan.names)))
    return lambda sentences: (embedder.encode_passing(list(sentences)) @ asked).tolist()


def _written(names: dict[str, list[str]]) -> list[str]:
    """The names of the question's companies (not their tickers: "NOW" or "IT" is also a word)."""
    return [alias for aliases in names.values() for alias in aliases]
