"""Process-wide resources shared by parallel search branches (threads)."""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from finagent.agent import resources as resources_module
from finagent.agent.resources import AgentResources
from finagent.settings import Settings


class CountingEmbedder:
    def encode_query(self, text: str) -> np.ndarray:
        time.sleep(0)  # yield to the other threads, like a real embedder releasing the GIL
        return np.full(4, float(len(text)), dtype=np.float32)


def test_query_vector_cache_is_safe_under_concurrent_eviction(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, request: pytest.FixtureRequest
) -> None:
    monkeypatch.setattr(resources_module, "QUERY_VECTOR_CACHE", 4)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: races show up at once
    request.addfinalizer(lambda: sys.setswitchinterval(switch))
    shared = AgentResources(Settings(home=tmp_path))
    monkeypatch.setattr(shared, "embedder", CountingEmbedder)

    def embed_many(worker: int) -> int:
        for i in range(2000):
            vector = shared.query_vector(f"{worker}-{i % 25}")
            assert vector.shape == (4,)
        return worker

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert sorted(pool.map(embed_many, range(8))) == list(range(8))
    assert len(shared._query_vectors) <= 4
