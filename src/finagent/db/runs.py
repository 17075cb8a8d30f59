"""The audit trail in Postgres: write a finished (or failed) research run, read it back.

One transaction per run: a run is either fully recorded or not at all. Citations resolve through
``chunks`` → ``documents``, whose superseded versions are kept, so an old run still points at the
exact text, version (content hash), page and character offsets it quoted.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from finagent.db.documents import clean_json, clean_text
from finagent.resources import read_sql


@dataclass(frozen=True, slots=True)
class RunRecord:
    """Everything a run produced, as plain JSON-like values (built from the graph state)."""

    run_id: str
    question: str
    status: str  # completed | failed
    started_at: datetime
    finagent_version: str
    thread_id: str | None = None
    options: dict[str, Any] | None = None
    models: list[dict[str, Any]] | None = None
    analysis: dict[str, Any] | None = None
    targets: list[dict[str, Any]] | None = None
    answer: str | None = None
    confidence: float | None = None
    iterations: int | None = None
    validation: dict[str, Any] | None = None
    tool_results: list[dict[str, Any]] | None = None
    evaluations: list[dict[str, Any]] | None = None
    facts: list[dict[str, Any]] | None = None
    calculations: list[dict[str, Any]] | None = None
    warnings: list[str] | None = None
    errors: list[str] | None = None
    node_timings: list[dict[str, Any]] | None = None
    searches: list[dict[str, Any]] | None = None
    llm_calls: list[dict[str, Any]] | None = None
    citations: list[dict[str, Any]] | None = None


def _json(value: Any) -> Jsonb:
    return Jsonb(clean_json(value if value is not None else []), dumps=_dumps)


def _dumps(value: Any) -> str:
    """JSON Postgres accepts: lone surrogates (undecodable input bytes) become U+FFFD."""
    return json.dumps(value, default=str).encode("utf-8", "replace").decode("utf-8")


def write_run(conn: psycopg.Connection[Any], run: RunRecord) -> None:
    """Store the run and its searches, LLM calls and citations (replacing a partial earlier record)."""
    calls = run.llm_calls or []
    with conn.transaction():
        conn.execute("DELETE FROM runs WHERE id = %s", (run.run_id,))
        conn.execute(
            read_sql("queries/insert_run.sql"),
            {
                "id": run.run_id,
                "thread_id": run.thread_id,
                "question": clean_text(run.question) or "",
                "options": _json(run.options or {}),
                "models": _json(run.models),
                "status": run.status,
                "analysis": _json(run.analysis) if run.analysis is not None else None,
                "targets": _json(run.targets) if run.targets is not None else None,
                "answer": clean_text(run.answer),
                "confidence": run.confidence,
                "iterations": run.iterations,
                "validation": _json(run.validation) if run.validation is not None else None,
                "tool_results": _json(run.tool_results),
                "evaluations": _json(run.evaluations),
                "facts": _json(run.facts),
                "calculations": _json(run.calculations),
                "warnings": _json(run.warnings),
                "errors": _json(run.errors),
                "node_timings": _json(run.node_timings),
                "input_tokens": sum(int(c.get("input_tokens") or 0) for c in calls),
                "output_tokens": sum(int(c.get("output_tokens") or 0) for c in calls),
                "started_at": run.started_at,
                "finagent_version": run.finagent_version,
            },
        )
        with conn.cursor() as cur:
            cur.executemany(
                read_sql("queries/insert_run_search.sql"),
                [_search_row(run.run_id, seq, s) for seq, s in enumerate(run.searches or [], 1)],
            )
            cur.executemany(
                read_sql("queries/insert_run_llm_call.sql"),
                [_call_row(run.run_id, seq, c) for seq, c in enumerate(calls, 1)],
            )
            cur.executemany(
                read_sql("queries/insert_run_citation.sql"),
                [_citation_row(run.run_id, c) for c in _unique_labels(run.citations or [])],
            )


def _search_row(run_id: str, seq: int, search: dict[str, Any]) -> dict[str, Any]:
    filters = {
        key: search.get(key)
        for key in ("fiscal_year", "fiscal_quarter", "annual", "kinds", "statements", "priors", "k")
        if search.get(key) is not None
    }
    return {
        "run_id": run_id,
        "seq": seq,
        "round": int(search.get("round") or 0),
        "ticker": search.get("ticker"),
        "period_label": search.get("period_label"),
        "query": clean_text(str(search.get("query") or "")) or "",
        "filters": _json(filters),
        "results": _json(search.get("scores") or [{"chunk_id": i} for i in search.get("chunk_ids") or []]),
        "ms": search.get("ms"),
        "error": clean_text(search.get("error")),
    }


def _call_row(run_id: str, seq: int, call: dict[str, Any]) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "seq": seq,
        "role": call.get("role") or "unknown",
        "provider": call.get("provider"),
        "model": call.get("model"),
        "template": call.get("template"),
        "prompt_sha256": call.get("prompt_sha256"),
        "prompt": clean_text(call.get("prompt")),
        "reply": clean_text(call.get("reply")),
        "input_tokens": int(call.get("input_tokens") or 0),
        "output_tokens": int(call.get("output_tokens") or 0),
        "latency_s": call.get("latency_s"),
        "ok": bool(call.get("ok")),
        "repaired": bool(call.get("repaired")),
        "error": clean_text(call.get("error")),
    }


def _unique_labels(citations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for citation in citations:
        seen.setdefault(str(citation.get("label") or ""), citation)
    return list(seen.values())


def _citation_row(run_id: str, citation: dict[str, Any]) -> dict[str, Any]:
    return {
        "run_id": run_id,
        "label": str(citation.get("label") or ""),
        "chunk_id": citation.get("chunk_id"),
        "ticker": citation.get("ticker"),
        "kind": citation.get("kind"),
        "period": citation.get("period"),
        "section": citation.get("section"),
        "page": citation.get("page"),
        "source_uri": citation.get("source_uri"),
    }


# ------------------------------------------------------------------------------------ reading


def list_runs(conn: psycopg.Connection[Any], limit: int = 20) -> list[dict[str, Any]]:
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(read_sql("queries/list_runs.sql"), {"limit": limit})
        return list(cur.fetchall())


def resolve_run_id(conn: psycopg.Connection[Any], text: str) -> str | None:
    """A full run id, or a unique prefix of one (as `runs list` shows them)."""
    value = text.strip().lower()
    try:
        return str(uuid.UUID(value))
    except ValueError:
        pass
    if not value or len(value) < 4 or any(ch not in "0123456789abcdef-" for ch in value):
        return None
    rows = conn.execute(
        "SELECT id FROM runs WHERE id::text LIKE %s ORDER BY started_at DESC LIMIT 2", (value + "%",)
    ).fetchall()
    return str(rows[0][0]) if len(rows) == 1 else None


def load_run(conn: psycopg.Connection[Any], run_id: str) -> dict[str, Any] | None:
    """The run with its searches, LLM calls and citations resolved to document versions."""
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute("SELECT * FROM runs WHERE id = %s", (run_id,))
        run = cur.fetchone()
        if run is None:
            return None
        cur.execute("SELECT * FROM run_searches WHERE run_id = %s ORDER BY seq", (run_id,))
        run["searches"] = list(cur.fetchall())
        cur.execute("SELECT * FROM run_llm_calls WHERE run_id = %s ORDER BY seq", (run_id,))
        run["llm_calls"] = list(cur.fetchall())
        cur.execute(read_sql("queries/run_citations.sql"), {"run_id": run_id})
        run["citations"] = list(cur.fetchall())
    run["id"] = str(run["id"])
    for part in ("searches", "llm_calls", "citations"):
        for row in run[part]:
            row.pop("run_id", None)
    return dict(run)
