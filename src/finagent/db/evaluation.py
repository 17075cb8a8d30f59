"""Queries of the evaluation harness: the baselines' rankings and the benchmark names of documents."""

from __future__ import annotations

from typing import Any

import psycopg

from finagent.resources import read_sql

Ranked = list[tuple[Any, ...]]


def dense_ranking(conn: psycopg.Connection[Any], vector: Any, k: int) -> Ranked:
    """(chunk id, document id, page) by cosine distance alone: the dense baseline."""
    return [
        tuple(r) for r in conn.execute(read_sql("queries/eval_dense.sql"), {"query_vector": vector, "k": k})
    ]


def seed_hybrid_ranking(conn: psycopg.Connection[Any], params: dict[str, Any]) -> Ranked:
    """(chunk id, document id, page) as the replaced seed system's hybrid query ranks them."""
    return [tuple(r) for r in conn.execute(read_sql("queries/eval_seed_hybrid.sql"), params)]


def document_names(conn: psycopg.Connection[Any], document_ids: list[int]) -> dict[int, str]:
    """Benchmark names of documents: FinanceBench doc_name, else the source file's stem."""
    rows = conn.execute(read_sql("queries/eval_document_names.sql"), {"ids": document_ids})
    return {int(r[0]): str(r[1]) for r in rows}


def corpus_size(conn: psycopg.Connection[Any]) -> tuple[Any, ...] | None:
    """What the evaluation store holds (the row of queries/corpus_size.sql)."""
    row = conn.execute(read_sql("queries/corpus_size.sql")).fetchone()
    return tuple(row) if row is not None else None
