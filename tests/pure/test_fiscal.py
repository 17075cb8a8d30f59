"""Fiscal calendars, table-driven: the same calendar month is a different fiscal quarter per company."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.finance.company_registry import lookup_builtin
from finagent.finance.fiscal import fiscal_period, last_quarter_end_before, quarter_end, quarter_label


@pytest.mark.parametrize(
    ("ticker", "period_end", "expected"),
    [
        ("AAPL", date(2023, 7, 1), (2023, 3)),  # 52/53-week year: July 1 closes the June quarter
        ("AAPL", date(2022, 12, 31), (2023, 1)),
        ("AAPL", date(2023, 9, 30), (2023, 4)),
        ("AAPL", date(2025, 6, 28), (2025, 3)),
        ("MSFT", date(2022, 9, 30), (2023, 1)),
        ("MSFT", date(2023, 6, 30), (2023, 4)),
        ("MSFT", date(2023, 3, 31), (2023, 3)),
        ("NVDA", date(2022, 10, 30), (2023, 3)),
        ("NVDA", date(2023, 1, 29), (2023, 4)),
        ("NVDA", date(2024, 4, 28), (2025, 1)),
        ("AMZN", date(2022, 9, 30), (2022, 3)),
        ("AMZN", date(2023, 3, 31), (2023, 1)),
        ("INTC", date(2023, 4, 1), (2023, 1)),  # Intel's quarter ends on a Saturday
        ("INTC", date(2022, 10, 1), (2022, 3)),
        ("HD", date(2025, 2, 2), (2024, 4)),  # named after the year it began
        ("WMT", date(2025, 1, 31), (2025, 4)),  # named after the year it ends
    ],
)
def test_fiscal_period_by_company(ticker: str, period_end: date, expected: tuple[int, int]) -> None:
    company = lookup_builtin(ticker)
    assert company is not None
    assert fiscal_period(period_end, company.fiscal_year_end_month, company.fiscal_year_offset) == expected


@pytest.mark.parametrize(
    ("fiscal", "fye", "offset", "expected"),
    [
        ((2023, 1), 9, 0, date(2022, 12, 31)),  # Apple
        ((2023, 1), 6, 0, date(2022, 9, 30)),  # Microsoft
        ((2024, 4), 1, 0, date(2024, 1, 31)),  # Nvidia
        ((2022, 4), 12, 0, date(2022, 12, 31)),
        ((2024, 4), 1, -1, date(2025, 1, 31)),  # Home Depot FY2024
    ],
)
def test_quarter_end_inverts_fiscal_period(
    fiscal: tuple[int, int], fye: int, offset: int, expected: date
) -> None:
    assert quarter_end(*fiscal, fye, offset) == expected
    assert fiscal_period(expected, fye, offset) == fiscal


def test_last_quarter_end_before_and_labels() -> None:
    assert last_quarter_end_before(date(2023, 2, 2), 9) == date(2022, 12, 31)
    assert last_quarter_end_before(date(2015, 7, 1), 5) == date(2015, 5, 31)
    assert last_quarter_end_before(date(2023, 1, 5), 12) == date(2022, 12, 31)
    assert quarter_label(2025, 1) == "Q1 FY2025"
    assert quarter_label(2024, None) == "FY2024"
    with pytest.raises(ValueError):
        fiscal_period(date(2023, 1, 1), 13)
