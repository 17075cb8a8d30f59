"""Figures the model copies for a gap: their unit is the metric's, whatever unit word the model picks."""

from __future__ import annotations

import asyncio
from datetime import date
from decimal import Decimal

from finagent.agent.answer.choose import model_figures
from finagent.agent.context import Context
from finagent.agent.resources import close_resources, configure_resources
from finagent.finance.lines import REPORTED
from finagent.finance.looked_up import Gap
from finagent.finance.periods.period import FiscalPeriod
from finagent.settings import Settings
from tests.fakes import ScriptedModels

RELEASE = (
    "Condensed Consolidated Statement of Earnings (in millions, except per share figures)\n"
    "Fiscal Three Months Ended | April 2, 2023 | April 3, 2022\n"
    "Net earnings | 7,068 | 7,129\n"
    "Net earnings per share (Diluted) | 2.68 | 2.67"
)


def _copy(settings: Settings, metric: str, value: float, unit: str) -> list[tuple[Decimal, str, int]]:
    evidence = {
        "label": "ER1",
        "chunk_id": 1,
        "ticker": "JNJ",
        "kind": "earnings_release",
        "period_label": "Q1 FY2023",
        "text": RELEASE,
    }
    gap = Gap(
        ticker="JNJ",
        metric=metric,
        period=FiscalPeriod.of_quarter(2023, 1),
        reason="",
        period_end=date(2023, 4, 2),
    )
    fact = {"ticker": "JNJ", "period": "Q1 FY2023", "metric": REPORTED[metric].label, "value": value}
    models = ScriptedModels({"extract": [{"facts": [fact | {"unit": unit, "source": "ER1"}]}]})
    configure_resources(settings, chat_model_factory=models)
    try:
        cells, _, _ = asyncio.run(
            model_figures([gap], [evidence], "JnJ's EPS?", 2000, Context(), {"JNJ": [12, 0]})
        )
    finally:
        close_resources()
    return [(c.value, c.unit, c.scale) for c in cells]


def test_a_per_share_figure_is_per_share_whatever_unit_the_model_names(settings: Settings) -> None:
    # The table is "in millions, except per share": $2.68 is a share's earnings, not $2.68 million.
    for unit in ("USD", "USD millions", "other", "per share"):
        assert _copy(settings, "eps_diluted", 2.68, unit) == [(Decimal("2.68"), "USD/shares", 0)], unit


def test_a_money_figure_takes_the_tables_stated_scale(settings: Settings) -> None:
    [(value, unit, _)] = _copy(settings, "net_income", 7068, "USD")
    assert (value, unit) == (Decimal("7068000000"), "USD")
