"""Chunker rules on hand-made blocks: sizes, overlap, places, tables and offsets."""

from __future__ import annotations

import itertools
import re

import pytest

from finagent.finance.document_records import Block, ChunkDraft
from finagent.ingest.chunking import chunk_blocks, chunk_pages


def _doc_text(blocks: list[Block]) -> str:
    return "\n\n".join(b.text for b in blocks)


def _sentences(n: int, start: int = 0) -> str:
    """Distinct numbered sentences so overlap and order can be checked."""
    return " ".join(
        f"Sentence number {i} talks about revenue growth in segment {i % 7} for the quarter."
        for i in range(start, start + n)
    )


def _paragraphs(count: int, sentences: int = 4) -> list[str]:
    return [_sentences(sentences, start=p * 100) for p in range(count)]


def _assert_offsets(chunks: list[ChunkDraft], full: str) -> None:
    for c in chunks:
        assert 0 <= c.char_start < c.char_end <= len(full)
        if (
            c.is_table
            and "\n" in c.text
            and not full[c.char_start : c.char_end].startswith(c.text.split("\n", 1)[0])
        ):
            # Continuation piece of a split table: header repeated, then the rows it covers.
            assert c.text.endswith(full[c.char_start : c.char_end])
        else:
            assert full[c.char_start : c.char_end] == c.text


def test_single_small_block_is_one_chunk() -> None:
    blocks = [Block("Revenue grew 5% year over year.", section="item_7", section_title="MD&A")]
    chunks = chunk_blocks(blocks)
    assert len(chunks) == 1
    c = chunks[0]
    assert (c.ordinal, c.text, c.section, c.section_title, c.is_table) == (
        0,
        "Revenue grew 5% year over year.",
        "item_7",
        "MD&A",
        False,
    )
    assert (c.char_start, c.char_end) == (0, len(c.text))


def test_long_text_sizes_overlap_and_word_boundaries() -> None:
    blocks = [Block(p, section="item_7") for p in _paragraphs(12)]
    full = _doc_text(blocks)
    chunks = chunk_blocks(blocks, chunk_size=1000, overlap=200)
    assert len(chunks) > 3
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    _assert_offsets(chunks, full)
    words = set(full.split())
    for i, c in enumerate(chunks):
        assert len(c.text) <= 1000 + 150, len(c.text)
        if i < len(chunks) - 1:
            assert len(c.text) >= 400  # not cut needlessly small
        # Never mid-word: the first and last tokens are whole words of the document.
        assert c.text.split()[0] in words and c.text.split()[-1] in words
        assert c.text == c.text.strip()
    # Consecutive chunks overlap by roughly `overlap` characters, never more.
    for a, b in itertools.pairwise(chunks):
        shared = a.char_end - b.char_start
        assert 0 < shared <= 200, shared
    # Together the chunks cover the whole document.
    assert chunks[0].char_start == 0 and chunks[-1].char_end == len(full)
    for a, b in itertools.pairwise(chunks):
        assert b.char_start <= a.char_end


def test_cuts_prefer_paragraph_then_sentence_boundaries() -> None:
    paras = _paragraphs(6, sentences=3)  # ~250 chars each
    blocks = [Block(p, section="item_1") for p in paras]
    chunks = chunk_blocks(blocks, chunk_size=600, overlap=0)
    for c in chunks:
        # With paragraphs shorter than the chunk size every cut lands on a paragraph boundary.
        assert c.text.startswith("Sentence number") and c.text.endswith("quarter.")
        assert all(p in paras for p in c.text.split("\n\n"))
    one_para = [Block(_sentences(30), section="item_1")]
    for c in chunk_blocks(one_para, chunk_size=500, overlap=100):
        assert c.text.endswith("quarter."), c.text[-40:]


def test_no_overlap_when_zero() -> None:
    blocks = [Block(p, section="s") for p in _paragraphs(10)]
    chunks = chunk_blocks(blocks, chunk_size=700, overlap=0)
    for a, b in itertools.pairwise(chunks):
        assert b.char_start >= a.char_end


def test_chunks_never_cross_section_or_page() -> None:
    blocks = [
        Block(_sentences(3), section="item_1", page=0),
        Block(_sentences(3, 10), section="item_1", page=0),
        Block(_sentences(3, 20), section="item_1", page=1),
        Block(_sentences(3, 30), section="item_1a", page=1),
        Block(_sentences(2, 40), section="item_1a", page=1, section_title="Risk Factors"),
    ]
    full = _doc_text(blocks)
    chunks = chunk_blocks(blocks, chunk_size=5000)
    assert [(c.section, c.page) for c in chunks] == [("item_1", 0), ("item_1", 1), ("item_1a", 1)]
    assert chunks[0].text == blocks[0].text + "\n\n" + blocks[1].text
    _assert_offsets(chunks, full)
    # Each chunk lies inside blocks of its own place.
    for c in chunks:
        start = 0
        for b in blocks:
            end = start + len(b.text)
            if start < c.char_end and c.char_start < end:
                assert (b.section, b.page) == (c.section, c.page)
            start = end + 2


def test_tiny_tail_merges_into_previous_chunk() -> None:
    text = _sentences(11) + " Short end."
    chunks = chunk_blocks([Block(text, section="x")], chunk_size=500, overlap=0)
    assert chunks[-1].text.endswith("Short end.")
    assert len(chunks[-1].text) > 150
    # A tiny block in its own place still becomes its own chunk (it cannot merge across places).
    tiny = chunk_blocks([Block(_sentences(10), section="a"), Block("Tiny.", section="b")], chunk_size=500)
    assert tiny[-1].text == "Tiny." and tiny[-1].section == "b"


def test_empty_and_whitespace_blocks_skipped_but_offsets_kept() -> None:
    blocks = [
        Block("   ", section="s"),
        Block("First paragraph.", section="s"),
        Block("", section="s"),
        Block("Second paragraph.", section="s"),
    ]
    full = _doc_text(blocks)
    chunks = chunk_blocks(blocks)
    assert len(chunks) == 1
    c = chunks[0]
    assert c.text.startswith("First paragraph.") and c.text.endswith("Second paragraph.")
    assert full[c.char_start : c.char_start + 16] == "First paragraph."
    assert full[c.char_end - 17 : c.char_end] == "Second paragraph."
    assert chunk_blocks([Block(" \n ")]) == []
    assert chunk_blocks([]) == []


def test_metadata_comes_from_first_block() -> None:
    blocks = [
        Block("Operator: welcome to the call.", section="Operator", metadata={"speaker": "Operator"}),
        Block("Thanks everyone.", section="Operator", metadata={"speaker": "Someone else"}),
    ]
    chunks = chunk_blocks(blocks)
    assert chunks[0].metadata == {"speaker": "Operator"}
    chunks[0].metadata["x"] = 1
    assert "x" not in blocks[0].metadata  # copied, not shared


def _table(rows: int, header: str = "Item | 2025 | 2024", prefix: str = "Line") -> str:
    lines = [header] + [f"{prefix} {i} | {i * 1000:,} | {i * 900:,}" for i in range(rows)]
    return "\n".join(lines)


def test_table_is_its_own_chunk_never_mixed_with_prose() -> None:
    blocks = [
        Block("Intro paragraph about results.", section="item_7"),
        Block(_table(5), section="item_7", is_table=True),
        Block("Paragraph after the table.", section="item_7"),
    ]
    full = _doc_text(blocks)
    chunks = chunk_blocks(blocks)
    assert [c.is_table for c in chunks] == [False, True, False]
    assert chunks[1].text == blocks[1].text
    _assert_offsets(chunks, full)


def test_consecutive_small_tables_merge_up_to_table_max() -> None:
    tables = [Block(_table(3, prefix=f"T{k}"), section="item_8", is_table=True) for k in range(6)]
    full = _doc_text(tables)
    size = len(tables[0].text)
    chunks = chunk_blocks(tables, table_max=size * 2 + 2)
    assert len(chunks) == 3
    assert all(c.is_table for c in chunks)
    assert chunks[0].text == tables[0].text + "\n\n" + tables[1].text
    _assert_offsets(chunks, full)
    # Different sections are never merged.
    other = [Block(_table(2), section="a", is_table=True), Block(_table(2), section="b", is_table=True)]
    assert len(chunk_blocks(other)) == 2


def test_long_table_split_on_rows_with_header_repeated() -> None:
    header = "Line item | June 28, 2025 | June 29, 2024"
    table = _table(200, header=header)
    blocks = [Block("Before.", section="item_8"), Block(table, section="item_8", is_table=True)]
    full = _doc_text(blocks)
    chunks = chunk_blocks(blocks, table_max=1000)
    pieces = [c for c in chunks if c.is_table]
    assert len(pieces) > 3
    rows = table.split("\n")
    seen: list[str] = []
    for p in pieces:
        assert len(p.text) <= 1000
        lines = p.text.split("\n")
        assert lines[0] == header
        assert all(line in rows for line in lines)  # whole rows only, never cut mid-row
        seen += lines[1:]
    assert seen == rows[1:]  # every row exactly once, in order
    _assert_offsets(chunks, full)
    assert pieces[0].char_start == len("Before.") + 2
    assert pieces[-1].char_end == len(full)


def test_oversize_row_is_kept_whole() -> None:
    table = "H1 | H2\n" + "Huge | " + "x" * 500 + "\nSmall | 1"
    chunks = chunk_blocks([Block(table, is_table=True)], table_max=100)
    assert any(("x" * 500) in c.text for c in chunks)
    assert all(c.text.startswith("H1 | H2") for c in chunks)


def test_giant_token_is_not_cut() -> None:
    token = "a" * 3000
    chunks = chunk_blocks(
        [Block(f"Start {token} end of text here.", section="s")], chunk_size=1000, overlap=100
    )
    assert any(token in c.text for c in chunks)


def test_invalid_arguments() -> None:
    with pytest.raises(ValueError):
        chunk_blocks([], chunk_size=100, overlap=100)
    with pytest.raises(ValueError):
        chunk_blocks([], chunk_size=0)


def test_many_sections_chunk_independently() -> None:
    paras = _paragraphs(4000, sentences=4)
    blocks = [Block(p, section=f"s{i // 50}") for i, p in enumerate(paras)]
    chunks = chunk_blocks(blocks)
    assert len(chunks) > 1000
    assert {c.section for c in chunks} == {f"s{i}" for i in range(80)}


def test_offsets_exact_on_mixed_document() -> None:
    blocks: list[Block] = []
    for s in range(5):
        for p in _paragraphs(4, sentences=5):
            blocks.append(Block(p, section=f"item_{s}"))
        blocks.append(Block(_table(30 + s * 40), section=f"item_{s}", is_table=True))
    full = _doc_text(blocks)
    chunks = chunk_blocks(blocks, chunk_size=800, overlap=150, table_max=1500)
    _assert_offsets(chunks, full)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert all(re.match(r"item_\d", c.section or "") for c in chunks)
    starts = [c.char_start for c in chunks]
    assert starts == sorted(starts)


def test_multi_row_header_from_metadata_is_repeated() -> None:
    header = ["Three Months Ended | Nine Months Ended", "June 28, 2025 | June 29, 2024 | June 28, 2025"]
    rows = [f"Row {i} | {i} | {i + 1} | {i + 2}" for i in range(100)]
    block = Block("\n".join(header + rows), section="item_8", is_table=True, metadata={"header_rows": 2})
    chunks = chunk_blocks([block], table_max=400)
    assert len(chunks) > 3
    seen: list[str] = []
    for c in chunks:
        lines = c.text.split("\n")
        assert lines[:2] == header
        assert len(c.text) <= 400
        seen += lines[2:]
    assert seen == rows
    assert chunks[0].metadata == {"header_rows": 2}


# -- page-aligned chunks (page-text sources cited by page) -----------------------------------------


def test_page_chunks_pack_a_page_with_its_statement_title() -> None:
    blocks = [
        Block("3M Company\nConsolidated Statement of Cash Flows", page=4),
        Block(_table(12, prefix="Purchases of property"), page=4, is_table=True),
        Block("See notes to the financial statements.", page=4),
        Block("Next page prose.", page=5),
    ]
    full = _doc_text(blocks)
    chunks = chunk_pages(blocks)
    assert [c.page for c in chunks] == [4, 5]
    assert chunks[0].text == "\n\n".join(b.text for b in blocks[:3])
    assert chunks[0].is_table and not chunks[1].is_table
    assert "Statement of Cash Flows" in chunks[0].metadata["caption"]
    assert [c.ordinal for c in chunks] == [0, 1]
    _assert_offsets(chunks, full)


def test_page_chunks_split_long_pages_and_blocks_without_crossing_pages() -> None:
    blocks = [
        Block(_sentences(30), page=0),
        Block(_sentences(30, 30), page=0),
        Block(_table(300), page=0, is_table=True),
        Block(_sentences(3), page=1),
    ]
    full = _doc_text(blocks)
    chunks = chunk_pages(blocks, max_chars=1500)
    assert all(len(c.text) <= 1500 for c in chunks)
    assert [c.page for c in chunks][-1] == 1 and {c.page for c in chunks[:-1]} == {0}
    assert sum(1 for c in chunks if c.page == 0 and c.is_table) >= 2  # the long table, split on rows
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    _assert_offsets(chunks, full)
    with pytest.raises(ValueError):
        chunk_pages(blocks, max_chars=0)
