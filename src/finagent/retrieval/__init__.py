"""Retrieval: hybrid (vector + full-text) search over the chunk store."""

from finagent.retrieval.hybrid import SearchFilters, SearchHit, hybrid_search

__all__ = ["SearchFilters", "SearchHit", "hybrid_search"]
