"""Stored chunks take the parts a new reading of their document gives, without re-embedding.

A store ingested before a reader learnt a filing's parts (or learnt them better) holds chunks with no
part or an older one. Ingesting the same file again reads it anew; its blocks carry the parts, and
each stored chunk sits at a known offset of the document's text (``char_start``, the offset the
chunker gave it over the blocks joined as it joins them). The chunk takes the part of the block at
its offset when that block holds the chunk's opening words, else it keeps the part it has: the text,
its vector and its place are never touched, so the update is safe to repeat.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

import psycopg

from finagent.db.chunks import chunk_places, update_chunk_parts
from finagent.finance.document_records import Block
from finagent.ingest.chunking import JOIN


def _starts(blocks: Sequence[Block]) -> list[int]:
    """Each block's offset in the document's text, as the chunker counts it."""
    starts, pos = [], 0
    for block in blocks:
        starts.append(pos)
        pos += len(block.text) + len(JOIN)
    return starts


def _opening(text: str) -> str:
    """A chunk's first words, whitespace-blind, long enough to tell one block from another."""
    return " ".join(text.split())[:40]


def part_updates(blocks: Sequence[Block], stored: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored chunks (id, char_start, opening, section, section_title) whose part the blocks
    change: [{id, section, section_title}]."""
    starts = _starts(blocks)
    updates = []
    for chunk in stored:
        index = bisect_right(starts, int(chunk["char_start"])) - 1
        if index < 0:
            continue
        block = blocks[index]
        inside = len(block.text) - (int(chunk["char_start"]) - starts[index])  # its opening's room here
        if _opening(chunk["opening"])[: max(8, inside)] not in " ".join(block.text.split()):
            continue  # the new reading's text differs here: keep the stored part
        if (block.section, block.section_title) != (chunk["section"], chunk["section_title"]):
            updates.append(
                {"id": chunk["id"], "section": block.section, "section_title": block.section_title}
            )
    return updates


def refresh_parts(
    conn: psycopg.Connection[Any], document_id: int, blocks: Sequence[Block]
) -> tuple[str, str] | None:
    """Give a stored document's chunks the parts of a new reading of it; what changed ("12 of 40
    passages with a part" before and after), or None when nothing did."""
    with conn.transaction():
        stored = chunk_places(conn, document_id)
        updates = part_updates(blocks, stored)
        update_chunk_parts(conn, updates)
    if not updates:
        return None
    changed = {u["id"]: u["section"] for u in updates}
    before = sum(c["section"] is not None for c in stored)
    after = sum(changed.get(c["id"], c["section"]) is not None for c in stored)
    return f"{before} of {len(stored)} passages", f"{after} of {len(stored)} passages, {len(updates)} changed"
