"""Process-wide resources the graph nodes share: the store, the embedder and the chat models.

Opened lazily on first use (in a worker thread, so no node blocks the event loop) and closed at
exit. Tests swap them with ``configure_resources`` (e.g. a scripted chat model).
"""

from __future__ import annotations

import asyncio
import atexit
import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
from langchain_core.runnables import Runnable

from finagent.db import Database, open_database
from finagent.db.companies import StoredCompany, list_companies
from finagent.db.search import FlaggedMatch, SearchHit, SearchRequest, flagged_matches, run_search
from finagent.embeddings import Embedder, get_embedder
from finagent.retrieval.rerank import PairScorer, cross_encoder
from finagent.settings import Settings, get_settings

ChatModelFactory = Callable[[str, Any], Runnable]  # (role, Context) -> chat model runnable

# Output caps per role: the local model writes ~30 tokens/s, so every token is time.
QUERY_VECTOR_CACHE = 4096  # phrases kept embedded in a long-running server (oldest dropped first)
MAX_TOKENS = {"analyze": 320, "extract": 700, "generate": 450, "prose": 250, "evaluate": 160}


_ModelKey = tuple[str, str | None, str | None, int]  # role, provider, model override, token cap


class AgentResources:
    """Lazily opened handles; thread-safe so parallel search branches can share them."""

    def __init__(
        self,
        settings: Settings,
        chat_model_factory: ChatModelFactory | None = None,
        database_name: str | None = None,
    ) -> None:
        self.settings = settings
        self.database_name = database_name  # another database on the store's server (benchmarks)
        self._chat_model_factory = chat_model_factory
        self._db: Database | None = None
        self._lock = threading.Lock()
        self._query_vectors: dict[str, np.ndarray] = {}
        # per event loop: a model's HTTP client pools connections bound to the loop that opened them,
        # and the blocking ``ask`` runs each question in a loop of its own
        self._models: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[_ModelKey, Runnable]] = (
            weakref.WeakKeyDictionary()
        )
        self._loopless: dict[_ModelKey, Runnable] = {}

    # -- store -----------------------------------------------------------------------------
    def database(self) -> Database:
        with self._lock:
            if self._db is None:
                self._db = open_database(self.settings, database=self.database_name)
            return self._db

    def companies(self) -> list[StoredCompany]:
        with self.database().connection() as conn:
            return list_companies(conn)

    def search(self, request: SearchRequest) -> list[SearchHit]:
        with self.database().connection() as conn:
            return run_search(conn, request)

    def search_checked(self, request: SearchRequest) -> tuple[list[SearchHit], list[FlaggedMatch]]:
        """The hits, and the flagged passages (never evidence) that matched as well."""
        with self.database().connection() as conn:
            hits = run_search(conn, request)
            return hits, flagged_matches(conn, request, hits)

    # -- embeddings ------------------------------------------------------------------------
    def embedder(self) -> Embedder:
        return get_embedder(self.settings)

    def query_vector(self, text: str) -> np.ndarray:
        """Embed a search phrase once per process: the same phrase runs for every period."""
        cached = self._query_vectors.get(text)
        if cached is None:
            cached = self.embedder().encode_query(text)  # outside the lock: parallel branches embed at once
            with self._lock:  # search branches run in threads: evict and insert as one step
                while len(self._query_vectors) >= QUERY_VECTOR_CACHE:
                    self._query_vectors.pop(next(iter(self._query_vectors)), None)
                self._query_vectors[text] = cached
        return cached

    def reranker(self) -> PairScorer | None:
        """The configured cross-encoder, or None (the default: no reranker weights ship on PyPI)."""
        path = self.settings.reranker_model_path
        return cross_encoder(str(path)) if path else None

    # -- language models -------------------------------------------------------------------
    def chat_model(self, role: str, context: Any, max_tokens: int | None = None) -> Runnable:
        """The model for a role (analyze / extract / generate / evaluate) with provider fallbacks;
        ``max_tokens`` below the role's cap for a shorter answer (direct mode's few sentences)."""
        if self._chat_model_factory is not None:  # the prose is the writer's call, scripted as "generate"
            return self._chat_model_factory("generate" if role == "prose" else role, context)
        from finagent.llm.providers import chat_model_for_role

        llm_role = "generate" if role in ("extract", "prose") else role  # the writer's model, shorter caps
        override = getattr(context, f"{llm_role}_model", None)
        cap = min(MAX_TOKENS[role], max_tokens or MAX_TOKENS[role])
        key = (role, context.provider, override, cap)
        with self._lock:
            models = self._models_of_this_loop()
            if key not in models:
                settings = self.settings
                if override:
                    settings = settings.model_copy(update={f"{llm_role}_model": override})
                models[key] = chat_model_for_role(
                    llm_role, settings, provider=context.provider, max_tokens=cap
                )
            return models[key]

    def _models_of_this_loop(self) -> dict[_ModelKey, Runnable]:
        """The role models made in the running event loop (forgotten with it), or outside any loop."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return self._loopless
        for ended in [other for other in self._models if other.is_closed()]:
            del self._models[ended]  # its clients may refer to it, which weak keys alone cannot free
        return self._models.setdefault(loop, {})

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


_current: AgentResources | None = None
_current_lock = threading.Lock()


def get_resources() -> AgentResources:
    global _current
    with _current_lock:
        if _current is None:
            _current = AgentResources(get_settings())
        return _current


def configure_resources(
    settings: Settings | None = None,
    chat_model_factory: ChatModelFactory | None = None,
    database_name: str | None = None,
) -> AgentResources:
    """Replace the process-wide resources (closing the previous ones)."""
    global _current
    with _current_lock:
        if _current is not None:
            _current.close()
        _current = AgentResources(settings or get_settings(), chat_model_factory, database_name)
        return _current


def close_resources() -> None:
    global _current
    with _current_lock:
        if _current is not None:
            _current.close()
            _current = None


atexit.register(close_resources)
