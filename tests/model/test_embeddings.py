"""Embeddings: packaged model only, ONNX int8 export into the cache (not site-packages)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from finagent.embeddings import EMBEDDING_DIM, Embedder, model_source_path
from finagent.settings import Settings


def test_onnx_export_goes_to_cache_and_matches_torch(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path).model_copy(update={"cache_dir_override": tmp_path / "cache"})
    before = set(model_source_path().rglob("*"))
    onnx = Embedder(settings, backend="onnx")
    texts = ["Total net sales increased 8%", "capital expenditures", "Purchases of property and equipment"]
    fast = onnx.encode(texts)
    assert fast.shape == (3, EMBEDDING_DIM) and fast.dtype == np.float32
    assert np.allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-4)
    assert list((tmp_path / "cache" / "models").rglob("model_qint8_*.onnx"))
    assert set(model_source_path().rglob("*")) == before  # nothing written into site-packages
    exact = Embedder(settings, backend="torch").encode(texts)
    assert np.all((fast * exact).sum(axis=1) > 0.97)  # int8 stays close to the float model


def test_empty_input_and_order_is_preserved(tmp_path: Path) -> None:
    from tests.conftest import MODEL_CACHE

    embedder = Embedder(Settings(home=tmp_path).model_copy(update={"cache_dir_override": MODEL_CACHE}))
    assert embedder.encode([]).shape == (0, EMBEDDING_DIM)
    texts = ["a much longer sentence about revenue growth in the third quarter", "EPS", "cash"]
    together = embedder.encode(texts)
    alone = np.stack([embedder.encode([t])[0] for t in texts])
    # Batches are length-sorted internally; each output must still belong to its own input.
    # (int8 dynamic quantisation makes batch-mates shift values slightly, hence cosine, not equality.)
    similarity = together @ alone.T
    assert np.all(np.argmax(similarity, axis=1) == np.arange(len(texts)))
    assert np.all(np.diag(similarity) > 0.98)


def test_a_texts_vector_is_the_same_alone_and_among_others(tmp_path: Path) -> None:
    """A chunk's vector depends on its text only: not on the chunks embedded with it (another
    document, another build, another state of the cache), nor on the query path."""
    from tests.conftest import MODEL_CACHE

    settings = Settings(home=tmp_path).model_copy(
        update={"cache_dir_override": MODEL_CACHE, "embedding_cache": False}
    )
    embedder = Embedder(settings, backend="onnx")
    text = "Net sales in the Americas segment increased due to higher iPhone sales."
    others = ["Capital expenditures", "A much longer passage about the risk factors " * 30, "EPS"]
    among = embedder.encode([others[0], text, *others[1:]])[1]
    assert np.array_equal(embedder.encode([text])[0], among)
    assert np.array_equal(embedder.encode_query(text), among)
