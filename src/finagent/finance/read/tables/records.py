"""The records of a period-read table: its columns' periods, rows, and the cell a target period selects."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from finagent.finance.fact_records import DurationClass, fiscal_label


@dataclass(frozen=True, slots=True)
class ColumnPeriod:
    """What a value column's header says about its period, as written (no calendar applied).

    ``end`` is set when the header writes a date or one can be completed from a spanning header
    ("Three Months Ended September 30," over "2023"); ``months`` comes from the span (3/6/9/12,
    None when unknown); ``instant`` marks balance-sheet dates under no span; ``fiscal_year`` /
    ``fiscal_quarter`` are set when the header names them ("Fiscal 2024", "Q3 FY23", or a bare
    year under no span, which filers write as the fiscal year's name).
    """

    end: date | None = None
    months: int | None = None
    instant: bool = False
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    header: str = ""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line item: ``cells`` holds one raw text per column (None = no value there: a blank or
    dash placeholder, or a cell of a row whose layout could not be decided: ``ambiguous``)."""

    label: str
    cells: tuple[str | None, ...]
    section: str | None = None  # the heading line above the row ("Cost of sales:", "North America")
    ambiguous: bool = False
    raw: tuple[str, ...] = ()  # the row's value cells as written


@dataclass(frozen=True, slots=True)
class PeriodTable:
    """A table whose value columns carry periods; ``scale`` is the power of ten of money amounts
    (6 = millions; None when the table states none), ``share_scale`` that of share counts."""

    header: str
    columns: tuple[ColumnPeriod, ...]
    rows: tuple[TableRow, ...]
    scale: int | None
    share_scale: int | None
    annual: bool  # columns of unknown span are fiscal years (an annual header, or a 10-K)
    flows: bool = False  # a statement of income or cash flows: an undated-span column is a year


@dataclass(frozen=True, slots=True)
class PeriodTarget:
    """The period a figure is wanted for: fiscal year, quarter (None for a fiscal year or its end),
    duration class, and optionally the actual period end (then the column must end that month)."""

    fiscal_year: int
    fiscal_quarter: int | None
    duration: DurationClass
    end: date | None = None

    @property
    def label(self) -> str:
        quarter = self.fiscal_quarter
        if self.duration == "instant" and quarter is None:
            quarter = 4
        return fiscal_label(self.fiscal_year, quarter, self.duration)


@dataclass(frozen=True, slots=True)
class TableCell:
    """One figure read from a table: the value as printed with its sign (``Decimal``, in the
    stated unit and scale), the value in base units (dollars, shares; None when the scale is not
    stated), where it was read (row label, column header) and the column's period."""

    value: Decimal
    base_value: Decimal | None
    unit: str | None  # "USD", "USD/share", "shares", "percent"; None when the table does not say
    scale: int  # power of ten applied to reach base units
    label: str
    header: str
    period: ColumnPeriod
    target: PeriodTarget | None  # the column's period in the company's fiscal calendar
    text: str  # the cell as written

    @property
    def period_label(self) -> str:
        return self.target.label if self.target else "undated"
