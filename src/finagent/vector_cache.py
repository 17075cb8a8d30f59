"""Vectors already computed, kept on disk under the text they embed.

Embedding is most of an ingest's time. The same filing ingested into another store (a benchmark
corpus, a rebuilt store, a second project, a test's fresh database) gives the same chunks, so their
vectors are read back instead of computed again. One cache per exported model: a new export (another
quantisation) starts a new one and never serves the old model's vectors. The cache is bounded (least
recently stored vectors go first) and only an optimisation: when it cannot be read or written,
embedding goes on without it.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

SIZE_LIMIT = 2**30  # bytes on disk: about 600,000 chunk vectors


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def model_digest(model_file: Path) -> str:
    """Short content digest of a model file: names its cache."""
    with model_file.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()[:16]


class VectorCache:
    """text → float32 vector of one model (diskcache: SQLite, safe across threads and processes)."""

    def __init__(self, directory: Path, dim: int) -> None:
        self.directory = directory
        self.dim = dim
        self._lock = threading.Lock()
        self._cache: Any = None
        self._failed = False

    def _open(self) -> Any:
        with self._lock:
            if self._cache is None and not self._failed:
                try:
                    from diskcache import Cache

                    self._cache = Cache(str(self.directory), size_limit=SIZE_LIMIT, timeout=60)
                except (OSError, sqlite3.Error) as exc:
                    self._give_up(exc)
            return self._cache

    def _give_up(self, exc: Exception) -> None:
        log.warning("embedding cache %s not used: %s", self.directory, exc)
        self._failed = True
        self._cache = None

    def get(self, texts: Sequence[str]) -> list[np.ndarray | None]:
        """The cached vector of each text, or None where there is none."""
        cache = self._open()
        if cache is None:
            return [None] * len(texts)
        found: list[np.ndarray | None] = []
        try:
            for text in texts:
                blob = cache.get(text_key(text))
                vector = None if blob is None else np.frombuffer(blob, dtype=np.float32)
                found.append(vector if vector is not None and vector.shape == (self.dim,) else None)
        except (OSError, sqlite3.Error) as exc:
            self._give_up(exc)
            return [None] * len(texts)
        return found

    def put(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        cache = self._open()
        if cache is None:
            return
        try:
            with cache.transact():
                for text, vector in zip(texts, vectors, strict=True):
                    cache.set(text_key(text), np.asarray(vector, dtype=np.float32).tobytes())
        except (OSError, sqlite3.Error) as exc:
            self._give_up(exc)
