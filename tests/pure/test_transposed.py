"""Tables printed on their side: a column per part, a group of rows per year."""

from __future__ import annotations

import pytest

from finagent.finance.read.tables import parse_tables, transposed_tables
from finagent.finance.read.tables.groups import split_names

ON_SIDE = """(Millions) United States EMEA APAC LACC Other Unallocated Consolidated 2022
Total revenues net of interest expense | $41,396 | $4,871 | $3,835 | $2,917 | $(157) | $52,862
Pretax income (loss) from continuing operations | 10,383 | 550 | 376 | 500 | (2,224) | 9,585 | 2021
Total revenues net of interest expense | $33,103 | $3,643 | $3,418 | $2,238 | $(22) | $42,380
Pretax income (loss) from continuing operations | 10,325 | 460 | 420 | 494 | (1,010) | 10,689
"""


def test_each_line_item_becomes_a_table_of_the_columns_by_year() -> None:
    revenue, pretax = transposed_tables(parse_tables(ON_SIDE, form="10-K"))
    assert [c.fiscal_year for c in revenue.columns] == [2022, 2021]
    rows = {r.label: r.cells for r in revenue.rows}
    assert rows["EMEA"] == ("$4,871", "$3,643")
    assert rows["Other Unallocated"] == ("$(157)", "$(22)")
    assert rows["Total revenues net of interest expense"] == ("$52,862", "$42,380")
    assert {r.label: r.cells for r in pretax.rows}["LACC"] == ("500", "494")


@pytest.mark.parametrize(
    ("line", "names"),
    [
        (  # an acronym is a name of its own
            "United States EMEA APAC LACC Other Unallocated Consolidated",
            ("United States", "EMEA", "APAC", "LACC", "Other Unallocated", "Consolidated"),
        ),
        (  # a last "Total" is its own name; the word ending the line ends each of the others
            "United States Operations Canadian Operations Other International Operations Total",
            ("United States Operations", "Canadian Operations", "Other International Operations", "Total"),
        ),
    ],
)
def test_run_together_names_are_split_at_their_own_cues(line: str, names: tuple[str, ...]) -> None:
    assert split_names(line, len(names)) == names


def test_a_segment_note_on_its_side_is_read_by_year() -> None:
    """Costco's segment note: three operations and their total, a group of rows per fiscal year."""
    text = """United States Operations Canadian Operations Other International Operations Total 2019
Total revenue | $111,751 | $21,366 | $19,586 | $152,703
Operating income | 3,063 | 924 | 750 | 4,737 | 2018
Total revenue | $102,286 | $20,689 | $18,601 | $141,576
Operating income | 2,787 | 939 | 754 | 4,480
"""
    revenue, income = transposed_tables(parse_tables(text, form="10-K"))
    assert [(r.label, r.cells) for r in income.rows] == [
        ("United States Operations", ("3,063", "2,787")),
        ("Canadian Operations", ("924", "939")),
        ("Other International Operations", ("750", "754")),
        ("Total operating income", ("4,737", "4,480")),
    ]
    assert revenue.rows[-1].label == "Total revenue"


def test_a_table_of_period_columns_is_not_on_its_side() -> None:
    plain = """Year Ended December 31, | 2022 | 2021
Revenues | $52,862 | $42,380
Net income | 7,514 | 8,060
"""
    assert transposed_tables(parse_tables(plain, form="10-K")) == []
