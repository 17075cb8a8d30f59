"""Split parsed blocks into citeable chunks.

Why the rules are what they are:

* A chunk never crosses a change of (section, page), so every chunk cites exactly one place, nor
  the edge of untrusted text (``metadata["hidden"]``: text the document hides; ``["flagged"]``: a
  paragraph addressed to AI systems), which is stored flagged on its own (finance.untrusted).
* Prose is cut on paragraph, then sentence, then whitespace boundaries (never mid-word) and
  consecutive chunks of a run share about ``overlap`` characters, so a fact straddling a cut is
  still found whole in one chunk.
* Tables are never mixed with prose and never cut mid-row; a long table repeats its header
  line (the first line, or the first ``block.metadata["header_rows"]`` lines when the parser
  knows the table has several header rows) on every piece so each piece can be read (and
  embedded) on its own. Consecutive small tables of one place merge up to ``table_max``.
* ``char_start``/``char_end`` refer to the document text ``"\\n\\n".join(b.text for b in blocks)``
  so a citation can point back into the document: ``full[c.char_start:c.char_end] == c.text``
  except for a continuation piece of a split table (its text starts with the repeated header;
  the offsets cover the rows it adds) and for chunks spanning a skipped empty block.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from finagent.finance.document_records import Block, ChunkDraft

JOIN = "\n\n"  # between blocks in the document text that chunk offsets count
_JOIN = JOIN
# Trailing pieces shorter than this are merged into the previous chunk of the run.
_MIN_TAIL = 150
# End of a sentence: terminal punctuation, optional closing quotes/brackets, then whitespace.
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*\s+")
_WS = re.compile(r"\s")


@dataclass(slots=True)
class _Piece:
    """One block that takes part in a run, with its offset in the document text."""

    block: Block
    doc_start: int


def chunk_blocks(
    blocks: list[Block], *, chunk_size: int = 1000, overlap: int = 200, table_max: int = 3600
) -> list[ChunkDraft]:
    """Turn a document's blocks into ordered chunks (see the module docstring for the rules)."""
    if chunk_size <= 0:
        raise ValueError(f"chunk_size must be positive, got {chunk_size}")
    if not 0 <= overlap < chunk_size:
        raise ValueError(f"overlap must be in [0, chunk_size), got {overlap}")
    if table_max <= 0:
        raise ValueError(f"table_max must be positive, got {table_max}")

    chunks: list[ChunkDraft] = []
    run: list[_Piece] = []
    run_is_table = False
    pos = 0
    for block in blocks:
        start = pos
        pos += len(block.text) + len(_JOIN)
        if not block.text.strip():
            continue
        if run and (
            block.is_table != run_is_table
            or block.section != run[0].block.section
            or block.page != run[0].block.page
            or _kept_apart(block) != _kept_apart(run[0].block)
        ):
            _flush(run, run_is_table, chunks, chunk_size, overlap, table_max)
            run = []
        run_is_table = block.is_table
        run.append(_Piece(block, start))
    if run:
        _flush(run, run_is_table, chunks, chunk_size, overlap, table_max)
    return chunks


def _kept_apart(block: Block) -> object:
    """Untrusted text (hidden, or flagged as addressed to AI systems) never shares a chunk with evidence."""
    return block.metadata.get("hidden") or block.metadata.get("flagged")


def _flush(
    run: list[_Piece],
    is_table: bool,
    out: list[ChunkDraft],
    chunk_size: int,
    overlap: int,
    table_max: int,
) -> None:
    if is_table:
        _chunk_tables(run, out, table_max)
    else:
        _chunk_text(run, out, chunk_size, overlap)


def _emit(out: list[ChunkDraft], text: str, first: Block, start: int, end: int, is_table: bool) -> None:
    out.append(
        ChunkDraft(
            ordinal=len(out),
            text=text,
            section=first.section,
            section_title=first.section_title,
            page=first.page,
            char_start=start,
            char_end=end,
            is_table=is_table,
            metadata=dict(first.metadata),
        )
    )


# --------------------------------------------------------------------------- prose


def _chunk_text(run: list[_Piece], out: list[ChunkDraft], chunk_size: int, overlap: int) -> None:
    """Split one run of same-place prose blocks into overlapping chunks."""
    # Local start of each block in the run text, for mapping local offsets to document offsets.
    local_starts: list[int] = []
    parts: list[str] = []
    n = 0
    for piece in run:
        local_starts.append(n)
        parts.append(piece.block.text)
        n += len(piece.block.text) + len(_JOIN)
    text = _JOIN.join(parts)

    def to_doc(local: int) -> tuple[int, int]:
        """Document offset of a local offset, and the index of the block holding it."""
        i = bisect_right(local_starts, local) - 1
        within = min(local - local_starts[i], len(run[i].block.text))
        return run[i].doc_start + within, i

    def emit(a: int, b: int) -> None:
        a, b = _strip_span(text, a, b)
        if a >= b:
            return
        doc_a, idx = to_doc(a)
        doc_b, _ = to_doc(b - 1)
        _emit(out, text[a:b], run[idx].block, doc_a, doc_b + 1, False)

    length = len(text)
    start, _ = _strip_span(text, 0, length)
    prev_end = start
    while start < length:
        target = start + chunk_size
        if target >= length:
            emit(start, length)
            return
        end = _find_cut(text, start, target, max(prev_end + 1, start + chunk_size // 2))
        if length - end < _MIN_TAIL:
            # A tiny remainder would be a useless chunk: keep it with this one.
            end = length
        emit(start, end)
        if end >= length:
            return
        prev_end = end
        start = _overlap_start(text, end, max(start + 1, end - overlap)) if overlap else end
        while start < length and text[start].isspace():
            start += 1


def _strip_span(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _find_cut(text: str, start: int, target: int, lo: int) -> int:
    """Best cut position in ``text[lo:target]``: paragraph, then sentence, then whitespace."""
    lo = min(lo, target)
    para = text.rfind(_JOIN, lo, target)
    if para > start:
        return para
    last = -1
    for m in _SENTENCE_END.finditer(text, lo, target + 1):
        last = m.end()
    if last > start:
        return min(last, target)
    space = max(text.rfind(" ", start + 1, target + 1), text.rfind("\n", start + 1, target + 1))
    if space > start:
        return space
    # One giant token: look forward for the next whitespace rather than cutting a word.
    ws = _WS.search(text, target)
    return ws.start() if ws else len(text)


def _overlap_start(text: str, end: int, lo: int) -> int:
    """Start of the next chunk: the earliest paragraph/sentence (else word) start in ``text[lo:end]``."""
    if lo >= end:
        return end
    best = end
    m = _SENTENCE_END.search(text, lo, end)
    if m:
        best = m.end()
    para = text.find(_JOIN, lo, end)
    if para != -1:
        best = min(best, para + len(_JOIN))
    if best < end:
        return best
    ws = _WS.search(text, lo, end)
    if ws:
        return ws.end()
    return end


# --------------------------------------------------------------------------- tables


def _chunk_tables(run: list[_Piece], out: list[ChunkDraft], table_max: int) -> None:
    """Merge small consecutive tables; split an oversize table on rows, repeating its header."""
    group: list[_Piece] = []
    size = 0

    def flush_group() -> None:
        nonlocal group, size
        if group:
            first, last = group[0], group[-1]
            text = _JOIN.join(p.block.text for p in group)
            _emit(out, text, first.block, first.doc_start, last.doc_start + len(last.block.text), True)
        group = []
        size = 0

    for piece in run:
        n = len(piece.block.text)
        if n > table_max:
            flush_group()
            _split_table(piece, out, table_max)
            continue
        added = n + (len(_JOIN) if group else 0)
        if group and size + added > table_max:
            flush_group()
            added = n
        group.append(piece)
        size += added
    flush_group()


def _header_rows(block: Block, n_lines: int) -> int:
    """Header lines of a table block: ``metadata["header_rows"]`` when the parser knows, else 1."""
    value = block.metadata.get("header_rows", 1)
    if not isinstance(value, int) or value < 1:
        return 1
    return min(value, max(n_lines - 1, 1))


def _split_table(piece: _Piece, out: list[ChunkDraft], table_max: int) -> None:
    """Split one long table on row boundaries; every piece after the first repeats the header."""
    text = piece.block.text
    lines = text.split("\n")
    # Offsets of each line within the block text.
    offsets: list[int] = []
    n = 0
    for line in lines:
        offsets.append(n)
        n += len(line) + 1
    h = _header_rows(piece.block, len(lines))
    header = "\n".join(lines[:h])
    i = 0
    first = True
    while i < len(lines):
        j = i
        size = 0 if first else len(header)
        # Every piece takes at least one data row (the first also takes the whole header).
        min_j = h + 1 if first else i + 1
        while j < len(lines):
            add = len(lines[j]) + (1 if size else 0)
            if j >= min_j and size + add > table_max:
                break
            size += add
            j += 1
        body = "\n".join(lines[i:j])
        chunk_text = body if first else f"{header}\n{body}"
        start = piece.doc_start + offsets[i]
        end = piece.doc_start + offsets[j - 1] + len(lines[j - 1])
        _emit(out, chunk_text, piece.block, start, end, True)
        first = False
        i = j


# --------------------------------------------------------------------------- pages


def chunk_pages(blocks: list[Block], *, max_chars: int = 3000, overlap: int = 200) -> list[ChunkDraft]:
    """Page-aligned chunks for page-text sources whose unit of citation is the page (FinanceBench).

    Each page's blocks are packed in reading order, prose and tables together, into as few chunks
    of at most ``max_chars`` as block boundaries allow, so a statement keeps its title and most
    pages are one or two chunks (the 1,000-character rules give ~5 per page, mostly fragments).
    A block longer than ``max_chars`` is split by the usual rules. A chunk counts as a table when
    tables make up at least ``TABLE_SHARE`` of it.
    """
    if max_chars <= 0:
        raise ValueError(f"max_chars must be positive, got {max_chars}")
    out: list[ChunkDraft] = []
    pack: list[_Piece] = []
    pos = 0

    def flush() -> None:
        if pack:
            _emit_pack(out, pack)
            pack.clear()

    for block in blocks:
        start = pos
        pos += len(block.text) + len(_JOIN)
        if not block.text.strip():
            continue
        if pack and block.page != pack[0].block.page:
            flush()
        if len(block.text) > max_chars:
            flush()
            for piece in chunk_blocks([block], chunk_size=max_chars, overlap=overlap, table_max=max_chars):
                piece.ordinal = len(out)
                piece.char_start += start
                piece.char_end += start
                out.append(piece)
            continue
        size = sum(len(p.block.text) + len(_JOIN) for p in pack)
        if pack and size + len(block.text) > max_chars:
            flush()
        pack.append(_Piece(block, start))
    flush()
    return out


TABLE_SHARE = 0.4


def _emit_pack(out: list[ChunkDraft], pack: list[_Piece]) -> None:
    text = _JOIN.join(p.block.text for p in pack)
    table_chars = sum(len(p.block.text) for p in pack if p.block.is_table)
    first = pack[0].block
    metadata = dict(first.metadata)
    caption = next((p.block.metadata.get("caption") for p in pack if p.block.metadata.get("caption")), None)
    if caption is None and not first.is_table:
        # On a statement page the title is the prose above the table: let it name the table.
        caption = first.text[:300]
    if caption:
        metadata["caption"] = caption
    last = pack[-1]
    end = last.doc_start + len(last.block.text)
    _emit(out, text, first, pack[0].doc_start, end, table_chars >= TABLE_SHARE * len(text))
    out[-1].metadata = metadata
