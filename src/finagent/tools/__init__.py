"""The agent's tools: market data, company news and a safe calculator.

Market and news tools never raise for network or data problems: they answer from live Yahoo Finance
data when it is reachable, else from recorded data (labelled offline), else with ``ok=False`` and a
warning the model can relay. Every result says where its figures came from (``source``) so that the
answer can cite them.
"""

from __future__ import annotations

from finagent.tools.calculator import CalcResult, cagr_pct, calculate, growth_pct, ratio
from finagent.tools.data_dirs import display_path, market_data_dir, news_data_dir
from finagent.tools.market import get_key_statistics, get_price_history, get_quote
from finagent.tools.network import is_online
from finagent.tools.news import get_company_news
from finagent.tools.results import ToolResult, fmt_money, fmt_pct

__all__ = [
    "CalcResult",
    "ToolResult",
    "cagr_pct",
    "calculate",
    "display_path",
    "fmt_money",
    "fmt_pct",
    "get_company_news",
    "get_key_statistics",
    "get_price_history",
    "get_quote",
    "growth_pct",
    "is_online",
    "market_data_dir",
    "news_data_dir",
    "ratio",
]
