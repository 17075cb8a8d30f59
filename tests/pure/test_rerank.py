"""Second-stage reranking: line-item match and the pluggable cross-encoder hook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from finagent.errors import FinagentError
from finagent.retrieval.rerank import cross_encoder, has_line_item, phrase_terms, rerank

CASH_FLOW = "Operating activities\nPurchases of property, plant and equipment (PP&E) | (1,577) | (1,373)"
MDNA = "Capital spending: purchases of property and equipment were $1.6 billion in 2018."


def _item(chunk_id: int, text: str, score: float) -> dict[str, Any]:
    return {"chunk_id": chunk_id, "text": text, "fused_score": score}


def test_line_item_needs_every_word_in_a_row_label() -> None:
    terms = phrase_terms("purchases of property and equipment")
    assert terms == ["purchases", "property", "equipment"]
    assert has_line_item(CASH_FLOW, terms)
    assert not has_line_item(MDNA, terms)  # prose, not a table row
    assert not has_line_item(CASH_FLOW, phrase_terms("What is the FY2018 capital expenditure amount for 3M"))


def test_rerank_lifts_the_statement_row_and_records_why() -> None:
    items = [_item(1, MDNA, 1.0), _item(2, CASH_FLOW, 0.8)]
    ranked = rerank(items, "purchases of property and equipment", line_item_boost=0.3)
    assert [i["chunk_id"] for i in ranked] == [2, 1]
    assert ranked[0]["rerank"] == {"line_item": 0.3} and "rerank" not in ranked[1]


def test_cross_encoder_hook_takes_any_pair_scorer() -> None:
    seen: list[tuple[str, str]] = []

    def scorer(pairs: list[tuple[str, str]]) -> list[float]:
        seen.extend(pairs)
        return [-5.0 if "Capital spending" in text else 5.0 for _, text in pairs]

    items = [_item(1, MDNA, 1.0), _item(2, CASH_FLOW, 0.9)]
    ranked = rerank(items, "capex", line_item_boost=0.0, scorer=scorer, scorer_weight=0.5)
    assert [i["chunk_id"] for i in ranked] == [2, 1] and len(seen) == 2
    assert ranked[0]["rerank"]["cross_encoder"] == pytest.approx(0.5 / (1 + 2.718281828**-5), rel=1e-3)


def test_cross_encoder_path_must_be_a_local_model(tmp_path: Path) -> None:
    with pytest.raises(FinagentError, match="not a directory"):
        cross_encoder(str(tmp_path / "missing"))
