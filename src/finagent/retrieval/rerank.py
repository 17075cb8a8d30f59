"""Second-stage reranking of one sub-search's hits: line-item match, then an optional cross-encoder.

The fused score ranks pages that *talk about* a metric close to the statement that *states* it. A
table row whose label holds every word of a short search phrase ("Purchases of property, plant and
equipment" for "purchases of property and equipment") is the strongest evidence a page can carry,
so it gets a lift. A cross-encoder (any sentence-transformers CrossEncoder directory, set with
FINAGENT_RERANKER_MODEL_PATH) can add its relevance score; no such weights ship on PyPI, so it is
off by default and never loaded by name from a hub.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from finagent.errors import FinagentError

_WORD = re.compile(r"[a-z][a-z&\-]+")
_STOP = frozenset({"total", "of", "and", "the", "a", "an", "in", "for", "to", "on", "by", "net"})
MAX_PHRASE_TERMS = 6  # longer phrases are questions, not line items
PairScorer = Callable[[list[tuple[str, str]]], Sequence[float]]


def phrase_terms(phrase: str) -> list[str]:
    return [w for w in _WORD.findall(phrase.lower()) if w not in _STOP]


def has_line_item(text: str, terms: Sequence[str]) -> bool:
    """A table row (``label | values``) whose label holds every term (prefix match: "purchase")."""
    if not terms or len(terms) > MAX_PHRASE_TERMS:
        return False
    for line in text.splitlines():
        if "|" not in line:
            continue
        words = _WORD.findall(line.split("|", 1)[0].lower())
        if all(any(w.startswith(t[:7]) for w in words) for t in terms):
            return True
    return False


def rerank(
    items: list[dict[str, Any]],
    query: str,
    *,
    line_item_boost: float,
    scorer: PairScorer | None = None,
    scorer_weight: float = 0.0,
) -> list[dict[str, Any]]:
    """Add the rerank features to ``fused_score`` (kept in ``rerank``) and sort best first."""
    terms = phrase_terms(query)
    scores = scorer([(query, item["text"][:2000]) for item in items]) if scorer and items else None
    for index, item in enumerate(items):
        features: dict[str, float] = {}
        if line_item_boost and has_line_item(item["text"], terms):
            features["line_item"] = line_item_boost
        if scores is not None:
            features["cross_encoder"] = scorer_weight * _sigmoid(float(scores[index]))
        if features:
            item["fused_score"] += sum(features.values())
            item["rerank"] = {k: round(v, 4) for k, v in features.items()}
    items.sort(key=lambda e: (-e["fused_score"], e["chunk_id"]))
    return items


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))


_LOCK = threading.Lock()


@lru_cache(maxsize=2)
def cross_encoder(path: str) -> PairScorer:
    """A CrossEncoder loaded from a local directory (never by hub name), shared and thread-safe."""
    if not Path(path).is_dir():
        raise FinagentError(f"reranker model path {path} is not a directory holding a cross-encoder model")
    from sentence_transformers import CrossEncoder

    model = CrossEncoder(path, local_files_only=True)

    def score(pairs: list[tuple[str, str]]) -> Sequence[float]:
        with _LOCK:
            return [float(s) for s in model.predict(pairs, show_progress_bar=False)]

    return score
