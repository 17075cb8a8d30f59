"""Upkeep of facts across documents, after an ingest run: provenance and derived quarters.

* An XBRL instance document has no text of its own: once a text copy of the same report is stored
  (a PDF or iXBRL of the same 10-K), each of its facts is pointed at the chunk printing the number.
* Derived quarters (Q4 = FY − nine months; quarters from year-to-date differences) are recomputed
  from the company's current facts; unchanged ones keep their ids so old citations still resolve.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import psycopg

from finagent.db.facts import (
    TableChunk,
    UnlinkedFact,
    derivation_inputs,
    link_facts,
    replace_derived,
    table_chunks,
    unlinked_facts,
    unlinked_filings,
)
from finagent.finance.numbers import contains_number, printed_forms
from finagent.finance.read.derive import derive_quarters

_WORD = re.compile(r"[a-z]{3,}")
_SHORT = 4  # numbers with fewer digits than this also need a matching row label ("6.16", "2024")


def _label_words(text: str | None) -> set[str]:
    return set(_WORD.findall((text or "").lower())) - {"total", "and", "the", "net", "for", "from"}


def _row_matches(chunk: TableChunk, printed: str, label_words: set[str]) -> bool:
    """A line of the chunk prints the number and its row label shares a word with the fact's label."""
    for line in chunk.text.splitlines():
        if contains_number(line, printed) and _label_words(line.split("|", 1)[0]) & label_words:
            return True
    return False


def locate(fact: UnlinkedFact, chunks: Sequence[TableChunk]) -> TableChunk | None:
    """The table chunk (statements first) that prints this fact's number, preferring its own row."""
    words = _label_words(fact.label)
    for printed in printed_forms(fact.value, fact.decimals):
        hits = [c for c in chunks if contains_number(c.text, printed)]
        if not hits:
            continue
        labelled = [c for c in hits if words and _row_matches(c, printed, words)]
        if labelled:
            return labelled[0]
        if sum(ch.isdigit() for ch in printed) >= _SHORT:
            return hits[0]
    return None


def link_instance_facts(conn: psycopg.Connection[Any], tickers: Sequence[str]) -> int:
    """Point facts without readable text at the stored text copy of their report. Returns links made."""
    made = 0
    for filing_key, document_id in unlinked_filings(conn, tickers):
        chunks = table_chunks(conn, document_id)
        if not chunks:
            continue
        links = []
        for fact in unlinked_facts(conn, filing_key):
            chunk = locate(fact, chunks)
            if chunk is not None:
                links.append((fact.id, chunk))
        with conn.transaction():
            link_facts(conn, links)
        made += len(links)
    return made


def refresh_company_facts(conn: psycopg.Connection[Any], tickers: Sequence[str]) -> int:
    """Provenance links and derived quarters for the companies an ingest touched; returns the number
    of derived facts added."""
    link_instance_facts(conn, tickers)
    added = 0
    for ticker in tickers:
        derived = derive_quarters(derivation_inputs(conn, ticker))
        new, _ = replace_derived(conn, ticker, derived)
        added += new
    return added
