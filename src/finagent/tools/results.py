"""What a data tool returns (``ToolResult``) and the one-line summary the model quotes and cites."""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import BaseModel, Field

_EVIDENCE_TAG = re.compile(r"<\s*/?\s*evidence\b[^<>\n]{0,300}>?", re.IGNORECASE)


class ToolResult(BaseModel):
    """Uniform, JSON-serialisable answer of a data tool (what the LLM sees and cites)."""

    tool: str = Field(description="Tool name, e.g. market_quote.")
    ticker: str | None = None
    ok: bool = Field(description="False when no data could be produced; see warning.")
    data: dict[str, Any] = Field(default_factory=dict, description="The figures (JSON values only).")
    source: str = Field(default="", description="Where the figures come from, live or recorded.")
    offline: bool = Field(default=False, description="True when the figures are recorded, not live.")
    as_of: str | None = Field(default=None, description="Date/time the figures refer to.")
    warning: str | None = Field(default=None, description="Why data is missing, stale or partial.")

    def summary(self) -> str:
        """One line the model can quote verbatim, with the provenance spelled out.

        Headlines and error texts come from outside: look-alikes of the ``<evidence>`` delimiters the
        agent wraps this line in are removed, so the line cannot close its block and pose as rules.
        """
        name = self.ticker or "-"
        if not self.ok:
            text = f"{self.tool} for {name}: no data — {self.warning or 'unknown error'}"
        else:
            formatter = _SUMMARIES.get(self.tool)
            text = formatter(self) if formatter else f"{self.tool} for {name}: {self.data}"
            text = f"{text} [{self.source}]" if self.source else text
        return _EVIDENCE_TAG.sub(" ", text)


def fmt_money(value: Any, currency: str | None = "USD") -> str:
    """$185.85, $2.87T — compact enough for one summary line."""
    if not isinstance(value, int | float) or not math.isfinite(value):
        return "n/a"
    prefix = "$" if (currency or "USD") == "USD" else f"{currency} "
    magnitude = abs(value)
    for limit, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if magnitude >= limit:
            return f"{prefix}{value / limit:,.2f}{suffix}"
    return f"{prefix}{value:,.2f}"


def fmt_pct(value: Any) -> str:
    """+1.2% / -0.5% (the sign always shown, as for a change)."""
    if not isinstance(value, int | float) or not math.isfinite(value):
        return "n/a"
    return f"{value:+.1f}%"


def _label(result: ToolResult) -> str:
    return "recorded data, offline" if result.offline else "live"


def _quote_summary(r: ToolResult) -> str:
    d = r.data
    cur = d.get("currency")
    what = "last close" if r.offline else "last price"
    parts = [f"{r.ticker} {what} {fmt_money(d.get('price'), cur)} on {d.get('price_date')} ({_label(r)})"]
    if d.get("change_pct") is not None:
        parts.append(f"day change {fmt_pct(d.get('change_pct'))}")
    if d.get("year_low") is not None and d.get("year_high") is not None:
        parts.append(
            f"52-week range {fmt_money(d.get('year_low'), cur)}–{fmt_money(d.get('year_high'), cur)}"
        )
    if d.get("change_1m_pct") is not None:
        parts.append(f"1-month change {fmt_pct(d.get('change_1m_pct'))}")
    if d.get("market_cap") is not None:
        parts.append(f"market cap {fmt_money(d.get('market_cap'), cur)}")
    return "; ".join(parts)


def _history_summary(r: ToolResult) -> str:
    d = r.data
    text = (
        f"{r.ticker} {d.get('interval')} prices {d.get('start')}..{d.get('end')} "
        f"({d.get('total_bars')} bars, {_label(r)}): close {fmt_money(d.get('first_close'))} → "
        f"{fmt_money(d.get('last_close'))} ({fmt_pct(d.get('change_pct'))})"
    )
    if d.get("high") is not None:
        text += f", high {fmt_money(d.get('high'))}, low {fmt_money(d.get('low'))}"
    return text


def _statistics_summary(r: ToolResult) -> str:
    d = r.data
    cur = d.get("currency")
    parts = [
        f"{r.ticker} key statistics as of {r.as_of} ({_label(r)}): last {fmt_money(d.get('price'), cur)}"
    ]
    if d.get("market_cap") is not None:
        parts.append(f"market cap {fmt_money(d.get('market_cap'), cur)}")
    if d.get("trailing_pe") is not None:
        parts.append(f"P/E {d['trailing_pe']:.1f}")
    if d.get("year_low") is not None and d.get("year_high") is not None:
        parts.append(
            f"52-week range {fmt_money(d.get('year_low'), cur)}–{fmt_money(d.get('year_high'), cur)}"
        )
    for key, label in (("return_1m_pct", "1m"), ("return_3m_pct", "3m"), ("return_1y_pct", "1y")):
        if d.get(key) is not None:
            parts.append(f"{label} {fmt_pct(d.get(key))}")
    if d.get("dividend_yield_pct") is not None:
        parts.append(f"dividend yield {d['dividend_yield_pct']:.2f}%")
    return "; ".join(parts)


def _news_summary(r: ToolResult) -> str:
    articles = r.data.get("articles") or []
    kind = "recorded, offline" if r.offline else "live"
    head = f"{len(articles)} news article(s) for {r.ticker} ({kind})"
    shown = "; ".join(f"{a.get('date')}: {a.get('title')}" for a in articles[:3])
    return f"{head}: {shown}" if shown else head


_SUMMARIES = {
    "market_quote": _quote_summary,
    "price_history": _history_summary,
    "key_statistics": _statistics_summary,
    "company_news": _news_summary,
}
