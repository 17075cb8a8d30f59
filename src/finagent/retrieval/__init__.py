"""Retrieval: the search pipeline (request → hybrid SQL in db.search → priors → rerank → hits)."""

from finagent.db.search import SearchFilters, SearchHit, hybrid_search

__all__ = ["SearchFilters", "SearchHit", "hybrid_search"]
