"""Read statement-table figures by *period*, never by position.

A figure is a value for a company and a period. Filers order their columns differently (Amazon and
Alphabet list the oldest year first, Microsoft the newest; 10-Qs put "Three Months Ended" and
"Nine Months Ended" side by side), so each value column's period is read from its header and the
column whose period is the one asked for gives the figure.

Input is chunk text as the ingest parsers write tables: caption / header lines, then
``label | cell | cell`` rows. The header's tokens (spans such as "Three Months Ended", dates,
month-days over bare years, "Fiscal 2024", "Q3 FY23", "Change" and "% of Net Sales" columns) are
read in order; spans are spread over the columns they cover; a caption that names periods of its
own heads no column.

Fails closed, never shifts: no figure when no column names the period (a trailing twelve months,
an unknown span in a 10-Q, a bare year under a quarterly span), when a row's cell count fits no
layout of the header, when text stands where a number belongs, when columns of one period
disagree, or when a line-item phrase matches rows with different values. Pure functions, no I/O.
"""

from finagent.finance.read.tables.column_periods import column_target, columns_for
from finagent.finance.read.tables.groups import grouped_tables
from finagent.finance.read.tables.parse import parse_table, parse_tables, stated_scale
from finagent.finance.read.tables.reading import cell_for, find_row, label_match, row_unit, table_cells
from finagent.finance.read.tables.records import ColumnPeriod, PeriodTable, PeriodTarget, TableCell, TableRow
from finagent.finance.read.tables.rows import decimal_places, parse_number
from finagent.finance.read.tables.transposed import transposed_tables

__all__ = [
    "ColumnPeriod",
    "PeriodTable",
    "PeriodTarget",
    "TableCell",
    "TableRow",
    "cell_for",
    "column_target",
    "columns_for",
    "decimal_places",
    "find_row",
    "grouped_tables",
    "label_match",
    "parse_number",
    "parse_table",
    "parse_tables",
    "row_unit",
    "stated_scale",
    "table_cells",
    "transposed_tables",
]
