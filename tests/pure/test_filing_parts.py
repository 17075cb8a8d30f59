"""A filing's parts named as the form prints them, and read back from what a user writes."""

from __future__ import annotations

import pytest

from finagent.finance.read.filing_parts import part_codes, part_name


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("item_1a", "Item 1A"),
        ("part2_item_1a", "Part II, Item 1A"),
        ("part1_item_2", "Part I, Item 2"),
        ("item_2_02", "Item 2.02"),
        ("cover", "Cover page"),
        ("qa", "Q&A"),
        ("something_else", "something_else"),
        (None, ""),
    ],
)
def test_a_stored_part_is_named_as_the_form_prints_it(code: str | None, name: str) -> None:
    assert part_name(code) == name


@pytest.mark.parametrize(
    ("written", "codes"),
    [
        ("1A", ["item_1a", "part1_item_1a", "part2_item_1a"]),
        ("Item 7", ["item_7", "part1_item_7", "part2_item_7"]),
        ("Part II Item 1A", ["part2_item_1a"]),
        ("part ii, item 1", ["part2_item_1"]),
        ("Part 1 Item 2", ["part1_item_2"]),
        ("2.02", ["item_2_02"]),
        ("Item 5.07", ["item_5_07"]),
        ("cover", ["cover"]),
        ("Cover page", ["cover"]),
        ("Q&A", ["qa"]),
        ("part2_item_1a", ["part2_item_1a"]),
        ("risk", []),
    ],
)
def test_a_written_part_is_read_as_the_stored_codes_it_means(written: str, codes: list[str]) -> None:
    assert part_codes(written) == codes


def test_every_name_reads_back_as_its_code() -> None:
    for code in ("item_1a", "part2_item_1a", "item_2_02", "cover", "qa", "prepared_remarks"):
        assert code in part_codes(part_name(code))
