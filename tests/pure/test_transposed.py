"""Tables printed on their side: a column per part, a group of rows per year."""

from __future__ import annotations

from finagent.finance.tables import parse_tables, transposed_tables
from finagent.finance.tables.groups import split_names

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


def test_an_acronym_is_a_name_of_its_own() -> None:
    names = split_names("United States EMEA APAC LACC Other Unallocated Consolidated", 6)
    assert names == ("United States", "EMEA", "APAC", "LACC", "Other Unallocated", "Consolidated")


def test_a_table_of_period_columns_is_not_on_its_side() -> None:
    plain = """Year Ended December 31, | 2022 | 2021
Revenues | $52,862 | $42,380
Net income | 7,514 | 8,060
"""
    assert transposed_tables(parse_tables(plain, form="10-K")) == []
