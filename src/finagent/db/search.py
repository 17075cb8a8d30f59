"""Hybrid search: pgvector cosine + tsvector full-text, normalised and fused, in one SQL round trip."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

import numpy as np
import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from finagent.db.filters import SearchFilters, clean_text
from finagent.errors import SearchInputError
from finagent.finance.fiscal import quarter_label
from finagent.finance.line_item import STATEMENTS
from finagent.finance.read.filing_parts import part_name
from finagent.finance.read.filing_sections import EXHIBITS_ITEM, RELEASE_OPENING
from finagent.resources import read_sql

# An 8-K's own Items, its account of the event (finance.read.filing_sections.event_item), as SQL over
# chunks c: the search lifts them and always keeps some of them as candidates.
_EVENT_ITEM = sql.SQL(
    "(c.kind = '8-K' AND c.section LIKE 'item\\_%%' AND (c.section <> {exhibits} OR c.text ~* {release}))"
).format(exhibits=sql.Literal(EXHIBITS_ITEM), release=sql.Literal(RELEASE_OPENING))

MAX_QUERY_CHARS = 4000
Fusion = Literal["weighted", "rrf"]


@dataclass(slots=True)
class SearchHit:
    """One ranked chunk with its scores and everything needed to cite it."""

    chunk_id: int
    document_id: int
    fused_score: float
    vector_score: float | None
    keyword_score: float | None
    ticker: str | None
    kind: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    period_end: date | None
    section: str | None
    section_title: str | None
    page: int | None
    char_start: int
    char_end: int
    is_table: bool
    text: str
    title: str
    source_uri: str
    statement: str | None = None
    company_name: str | None = None
    published_at: datetime | None = None
    content_sha256: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def period_label(self) -> str:
        return quarter_label(self.fiscal_year, self.fiscal_quarter)

    def citation(self) -> str:
        """Human-readable location: "AAPL 10-Q Q3 FY2023, Part I, Item 1, p.4"."""
        parts = [p for p in (self.ticker, self.kind, self.period_label) if p]
        where = [part_name(self.section), f"p.{self.page + 1}" if self.page is not None else ""]
        return " ".join(parts) + "".join(f", {w}" for w in where if w)


@dataclass(slots=True)
class SearchRequest:
    """A validated sub-search: the SQL to run and its parameters; ``flagged`` finds the flagged
    passages (never evidence) that match it, so an answer can say what it left out."""

    query: sql.Composed
    params: dict[str, Any]
    flagged: sql.Composed | None = None


@dataclass(frozen=True, slots=True)
class FlaggedMatch:
    """A flagged passage (finance.untrusted) that matched a sub-search; it is not a hit."""

    chunk_id: int
    document_id: int
    title: str
    reason: str


ROUTED_CANDIDATES = 24  # statement chunks always considered per sub-search when a question is routed
EVENT_CANDIDATES = 6  # an 8-K's own Items always considered per sub-search of a company's filings


def build_search(
    query: str,
    query_vector: np.ndarray,
    filters: SearchFilters | None = None,
    *,
    k: int = 15,
    candidates: int = 60,
    vector_weight: float = 0.7,
    keyword_weight: float = 0.3,
    fusion: Fusion = "weighted",
    statement_boost: float = 0.3,
    statements: Sequence[str] = (),
    route_boost: float = 1.0,
    event_boost: float = 0.0,
    exact: bool | None = None,
) -> SearchRequest:
    """Validate the request and compose its single SQL statement."""
    text = validate_query(query)
    if not 1 <= k <= 1000:
        raise SearchInputError(f"k must be between 1 and 1000, got {k}")
    if fusion not in ("weighted", "rrf"):
        raise SearchInputError(f"unknown fusion '{fusion}'; use weighted or rrf")
    if vector_weight < 0 or keyword_weight < 0 or vector_weight + keyword_weight == 0:
        raise SearchInputError("vector/keyword weights must be >= 0 and not both 0")
    filters = filters or SearchFilters()
    predicate, params = filters.predicates()
    use_exact = filters.narrows if exact is None else exact
    leg_file = "queries/vector_leg_exact.sql" if use_exact else "queries/vector_leg_ann.sql"
    vector_leg = sql.SQL(read_sql(leg_file)).format(filters=predicate)
    statement = sql.SQL(read_sql("queries/hybrid_search.sql")).format(
        vector_leg=vector_leg, filters=predicate, event_item=_EVENT_ITEM
    )
    flagged_predicate, _ = filters.predicates(flagged=True)
    flagged = sql.SQL(read_sql("queries/flagged_matches.sql")).format(filters=flagged_predicate)
    params |= {
        "query": text,
        "query_vector": np.asarray(query_vector, dtype=np.float32),
        "candidates": max(candidates, k),
        "k": k,
        "fusion": fusion,
        "vector_weight": float(vector_weight),
        "keyword_weight": float(keyword_weight),
        "statement_boost": float(statement_boost),
        "statements": [s for s in statements if s in STATEMENTS],
        "routed": ROUTED_CANDIDATES,
        "route_boost": float(route_boost),
        "event_boost": float(event_boost),
        # only where a company is named: a whole-store scan of every 8-K's Items would cost too much
        "event_candidates": EVENT_CANDIDATES if event_boost > 0 and filters.narrows else 0,
    }
    return SearchRequest(statement, params, flagged)


def _placed() -> sql.SQL:
    """A passage read by its place (an opening, a neighbour) as a search hit's columns, scored 0."""
    return sql.SQL(read_sql("queries/placed_passage_columns.sql"))


def part_openings(filters: SearchFilters, k: int = 2) -> SearchRequest:
    """The first ``k`` prose passages of the parts ``filters`` name, in the newest filing they select
    (see ``queries/part_openings.sql``)."""
    if not filters.sections:
        raise SearchInputError("a part's opening needs the part (sections)")
    predicate, params = filters.predicates()
    statement = sql.SQL(read_sql("queries/part_openings.sql")).format(columns=_placed(), filters=predicate)
    return SearchRequest(statement, params | {"k": k})


def neighbor_passages(
    chunk_ids: Sequence[int], leads: Sequence[int] = (), backs: Sequence[int] = ()
) -> SearchRequest:
    """The passages right before and after the given ones in their documents, right after the
    ``leads`` (passages announcing what follows) and right before the ``backs`` (passages opening
    on what the one before names), none of them flagged (see ``queries/neighbor_passages.sql``)."""
    statement = sql.SQL(read_sql("queries/neighbor_passages.sql")).format(columns=_placed())
    params = {"ids": list(chunk_ids), "leads": list(leads), "backs": list(backs)}
    return SearchRequest(statement, params)


def validate_query(query: str) -> str:
    text = clean_text(query or "").strip()
    if not text:
        raise SearchInputError("the search query is empty")
    if len(text) > MAX_QUERY_CHARS:
        raise SearchInputError(
            f"the search query is {len(text):,} characters long; the limit is {MAX_QUERY_CHARS:,}"
        )
    return text


def _to_hits(rows: list[dict[str, Any]]) -> list[SearchHit]:
    return [SearchHit(**row) for row in rows]


def run_search(conn: psycopg.Connection[Any], request: SearchRequest) -> list[SearchHit]:
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(request.query, request.params)
        return _to_hits(cur.fetchall())


async def arun_search(conn: psycopg.AsyncConnection[Any], request: SearchRequest) -> list[SearchHit]:
    async with conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(request.query, request.params)
        return _to_hits(await cur.fetchall())


def flagged_matches(
    conn: psycopg.Connection[Any], request: SearchRequest, hits: Sequence[SearchHit]
) -> list[FlaggedMatch]:
    """Flagged passages matching the request as well as its weakest hit (or holding every term)."""
    if request.flagged is None:
        return []
    scores = [h.vector_score for h in hits if h.vector_score is not None]
    params = request.params | {"min_vector": min(scores) if scores else 2.0}  # 2.0: no vector match
    rows = conn.execute(request.flagged, params).fetchall()
    return [FlaggedMatch(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]


def hybrid_search(
    conn: psycopg.Connection[Any],
    query: str,
    query_vector: np.ndarray,
    filters: SearchFilters | None = None,
    **options: Any,
) -> list[SearchHit]:
    """Ranked chunks for ``query`` under ``filters`` (see build_search for options)."""
    return run_search(conn, build_search(query, query_vector, filters, **options))
