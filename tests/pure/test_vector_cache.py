"""Chunk vectors are computed once per model and text, whatever store they are ingested into."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from finagent.embeddings import EMBEDDING_DIM, Embedder
from finagent.settings import Settings
from finagent.vector_cache import VectorCache


class CountingModel:
    """Stands in for the ONNX encoder: a deterministic vector per text, and a record of what it embedded."""

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def encode(self, texts: list[str], **_: object) -> np.ndarray:
        self.embedded += texts
        rows = [np.random.default_rng(abs(hash(t)) % 2**32).standard_normal(EMBEDDING_DIM) for t in texts]
        vectors = np.asarray(rows, dtype=np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def embedder(cache_dir: Path) -> tuple[Embedder, CountingModel]:
    model = CountingModel()
    emb = Embedder(Settings().model_copy(update={"cache_dir_override": cache_dir}), backend="onnx")
    emb._model = model
    emb._vectors = VectorCache(cache_dir / "vectors" / "test-model", EMBEDDING_DIM)
    return emb, model


def test_a_text_embedded_before_is_read_back_not_computed(tmp_path: Path) -> None:
    first, model = embedder(tmp_path)
    texts = ["Net sales rose 8%.", "Services grew.", "Mac sales fell."]
    vectors = first.encode(texts)
    assert model.embedded == texts
    again, model_again = embedder(tmp_path)  # another process, another store: the same cache dir
    more = ["Services grew.", "iPad sales were flat.", "Net sales rose 8%."]
    result = again.encode(more)
    assert model_again.embedded == ["iPad sales were flat."]
    assert result.dtype == np.float32 and result.shape == (3, EMBEDDING_DIM)
    np.testing.assert_array_equal(result[0], vectors[1])
    np.testing.assert_array_equal(result[2], vectors[0])


def test_a_query_is_not_cached(tmp_path: Path) -> None:
    emb, model = embedder(tmp_path)
    emb.encode_query("revenue growth")
    emb.encode_query("revenue growth")
    assert model.embedded == ["revenue growth", "revenue growth"]


def test_an_unusable_cache_never_stops_embedding(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    emb, model = embedder(tmp_path)
    emb._vectors = VectorCache(blocked / "vectors", EMBEDDING_DIM)
    with caplog.at_level(logging.WARNING):
        vectors = emb.encode(["a", "b"])
        emb.encode(["a", "b"])
    assert vectors.shape == (2, EMBEDDING_DIM)
    assert model.embedded == ["a", "b", "a", "b"]
    assert "embedding cache" in caplog.text and "not used" in caplog.text
