"""The calculator tool's implementation lives in the finance domain (pure); this name stays for callers."""

from finagent.finance.compute.safe_calculator import (
    HELPERS,
    CalcResult,
    CalculationError,
    cagr_pct,
    calculate,
    growth_pct,
    margin_pct,
    ratio,
)

__all__ = [
    "HELPERS",
    "CalcResult",
    "CalculationError",
    "cagr_pct",
    "calculate",
    "growth_pct",
    "margin_pct",
    "ratio",
]
