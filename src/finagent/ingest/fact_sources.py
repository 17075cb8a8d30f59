"""Where each fact of a filing is displayed: the chunk a citation of the fact opens.

A fact knows the parsed block that shows it (``Fact.block_index``); chunks know their character
range in the document text (blocks joined by a blank line). A block split over several chunks (a
long table) is narrowed to the piece whose text prints the number.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from finagent.finance.document_records import Block, ChunkDraft
from finagent.finance.fact_records import Fact
from finagent.finance.numbers import contains_number

_JOIN = 2  # len("\n\n"), the separator the chunker joins blocks with


def fact_chunk_ordinals(
    blocks: Sequence[Block], chunks: Sequence[ChunkDraft], facts: Sequence[Fact]
) -> list[int | None]:
    """Chunk ordinal displaying each fact (None for hidden facts or when no chunk holds it)."""
    starts: list[int] = []
    pos = 0
    for block in blocks:
        starts.append(pos)
        pos += len(block.text) + _JOIN
    ordered = sorted(chunks, key=lambda c: c.char_start)
    chunk_starts = [c.char_start for c in ordered]
    result: list[int | None] = []
    for fact in facts:
        index = fact.block_index
        if index is None or not 0 <= index < len(blocks):
            result.append(None)
            continue
        begin, end = starts[index], starts[index] + len(blocks[index].text)
        overlapping: list[ChunkDraft] = []
        for chunk in ordered[max(0, bisect_right(chunk_starts, begin) - 1) :]:
            if chunk.char_start >= end:
                break
            if chunk.char_end > begin:
                overlapping.append(chunk)
        if not overlapping:
            result.append(None)
            continue
        shown = [c for c in overlapping if fact.display and contains_number(c.text, fact.display)]
        result.append((shown or overlapping)[0].ordinal)
    return result
