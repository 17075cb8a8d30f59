"""Fast answers for questions the store cannot answer: a company it does not hold, a name that is no
company, a question with nothing to search for. Each says why and what to do, within seconds and
without searching every company's filings (which would answer about someone else, slowly).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from finagent.agent.understand.entities import company_like_mentions, find_companies, listed_name_candidates
from finagent.db.companies import (
    ListedCompany,
    StoredCompany,
    listed_companies_loaded,
    listed_matches,
    listed_names,
)
from finagent.finance.company_registry import normalize_name

ADD_HINT = "`finagent ingest edgar TICKER` (or `finagent ingest path <folder>`)"


def holding(held: Sequence[str]) -> str:
    return f" The store holds: {', '.join(held)}." if held else " The store holds no filings yet."


def not_in_store_message(missing: list[tuple[str, str | None]], held: list[str]) -> str:
    """The fast answer for companies the store does not hold, and how to add them."""
    names = ", ".join(f"{t} ({n})" if n else t for t, n in missing)
    commands = " ".join(t for t, _ in missing)
    verb = "is" if len(missing) == 1 else "are"
    return (
        f"{names} {verb} not in the store, so there are no filings to answer from. "
        f"Add them with `finagent ingest edgar {commands}` (or `finagent ingest path <folder>`), "
        f"then ask again.{holding(held)}"
    )


def unknown_company_message(
    names: list[str], suggestions: dict[str, list[ListedCompany]], held: list[str], listed_known: bool
) -> str:
    """The answer for names that are neither a stored company nor (when the list is loaded) a listed one."""
    quoted = ", ".join(f"'{n}'" for n in names)
    where = "in the store or on SEC's list of listed companies" if listed_known else "in the store"
    parts = [f"No company named {quoted} is {where}, so there are no filings to answer from."]
    for name in names:
        close = list({c.ticker: c for c in reversed(suggestions.get(name) or [])}.values())[::-1]
        if close:
            options = " or ".join(
                f"{c.name} ({c.ticker}{', in the store' if c.ticker in held else ''})" for c in close
            )
            parts.append(f"Did you mean {options} for '{name}'?")
    if not listed_known:
        parts.append(
            "Load SEC's company list (`finagent ingest path <folder with company_tickers.json>`) so "
            "company names are recognised."
        )
    parts.append(f"Add a company with {ADD_HINT}, then ask again.{holding(held)}")
    return " ".join(parts)


def no_terms_message(held: list[str]) -> str:
    return (
        "The question has no words to search for (no company, metric or topic). Ask about a company "
        f'and what you want to know, e.g. "What was Apple\'s revenue in FY2023?".{holding(held)}'
    )


def explicit_unknown_message(raw: list[str], held: list[str]) -> str:
    quoted = ", ".join(f"'{r}'" for r in raw)
    return (
        f"None of the companies asked for ({quoted}) is in the store, so there are no filings to answer "
        f"from. Add a company with {ADD_HINT}, then ask again.{holding(held)}"
    )


def closest(name: str, candidates: Sequence[tuple[Any, str]], n: int = 3) -> list[Any]:
    """The candidates whose normalised name is closest to ``name`` (a typo's intended company)."""
    key = normalize_name(name)
    by_key: dict[str, list[Any]] = {}
    for item, item_key in candidates:
        by_key.setdefault(item_key, []).append(item)
    found = difflib.get_close_matches(key, list(by_key), n=n, cutoff=0.75)
    return [item for k in found for item in by_key[k]][:n]


def listed_in_question(
    conn: Any, question: str, known: set[str], known_names: set[str]
) -> list[ListedCompany]:
    """Listed companies (SEC's list) the question names that the store's company table does not know.

    A name inside a longer matched name is not a company of its own ("Express" in "American
    Express", "Best" in "Best Buy").
    """
    symbols, names = listed_name_candidates(question)
    if not symbols and not names:
        return []
    matches = listed_matches(conn, symbols, names)
    keys = {normalize_name(c.name) for c in matches}
    # Another share class or listing of a company the store knows (GOOG beside GOOGL) is that company.
    held_names = {normalize_name(n) for n in known_names if n}

    def inside_longer(key: str) -> bool:
        return any(other != key and f" {key} " in f" {other} " for other in keys)

    return [
        c
        for c in matches
        if c.ticker not in known
        and normalize_name(c.name) not in held_names
        and (c.ticker in symbols or not inside_longer(normalize_name(c.name)))
    ]


def part_of_stored_name(mention: str, companies: Sequence[StoredCompany]) -> bool:
    """ "MGM Resorts" of "MGM Resorts International", "Lockheed" of "Lockheed Martin": a shortened
    stored name is that company, never a refusal (the search across companies finds it)."""
    key = normalize_name(mention)
    names = (normalize_name(n) for c in companies for n in (c.name, *c.aliases) if n)
    return bool(key) and any(f" {key} " in f" {name} " for name in names)


def unknown_names(conn: Any, question: str, companies: list[StoredCompany]) -> str | None:
    """The refusal for a question naming only companies that exist nowhere we know, else None.

    Only names the question treats as a company count ("Teslaa's revenue", "Foobar Corp"); the
    nearest stored or listed names are offered, so a typo is one step from its answer.
    """
    mentions = [
        m
        for m in company_like_mentions(question)
        if not find_companies(m, companies) and not part_of_stored_name(m, companies)
    ]
    if not mentions:
        return None
    held = sorted(c.ticker for c in companies if c.documents)
    stored = [
        (ListedCompany(c.ticker, "", c.name or c.ticker), normalize_name(c.name or c.ticker))
        for c in companies
    ]
    initials = sorted({normalize_name(m)[:1] for m in mentions if normalize_name(m)})
    listed = listed_names(conn, initials)
    suggestions = {m: closest(m, [*stored, *listed]) for m in mentions}
    return unknown_company_message(mentions, suggestions, held, listed_companies_loaded(conn) > 0)
