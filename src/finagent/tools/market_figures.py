"""Market figures computed from price bars: quote, 52-week range, returns, volatility, resampled history."""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from finagent.tools.prices import MAX_BARS, Bar, months_back, on_or_before, pct_change, round_price, to_float


def _year_range(bars: Sequence[Bar]) -> tuple[float | None, float | None]:
    last = bars[-1].day
    window = [b for b in bars if b.day > last - timedelta(days=365)]
    highs = [b.high if b.high is not None else b.close for b in window]
    lows = [b.low if b.low is not None else b.close for b in window]
    return (max(highs) if highs else None), (min(lows) if lows else None)


def _return_since(bars: Sequence[Bar], day: date) -> float | None:
    """Percent change of the close from the last trading day on or before ``day`` to the latest."""
    if not bars or day < bars[0].day:
        return None
    then = on_or_before(bars, day)
    return pct_change(bars[-1].close, then.close if then else None)


def quote_data(bars: Sequence[Bar], extras: dict[str, Any] | None = None) -> dict[str, Any]:
    extras = extras or {}
    last = bars[-1]
    price = extras.get("last_price") or last.close
    prev_close = extras.get("previous_close") or (bars[-2].close if len(bars) > 1 else None)
    high, low = _year_range(bars)
    return {
        "price": round_price(price),
        "price_date": last.day.isoformat(),
        "currency": extras.get("currency") or "USD",
        "previous_close": round_price(prev_close),
        "change": round_price(price - prev_close) if prev_close is not None else None,
        "change_pct": pct_change(price, prev_close),
        "open": round_price(last.open),
        "day_high": round_price(last.high),
        "day_low": round_price(last.low),
        "volume": last.volume,
        "year_high": round_price(high),
        "year_low": round_price(low),
        "change_1m_pct": _return_since(bars, months_back(last.day, 1)),
        "market_cap": round_price(extras.get("market_cap"), 0),
    }


def statistics_data(bars: Sequence[Bar]) -> dict[str, Any]:
    """What daily prices alone can tell: level, 52-week range, returns, volume, volatility."""
    last = bars[-1]
    high, low = _year_range(bars)
    recent = [b for b in bars if b.day > months_back(last.day, 3) and b.volume is not None]
    year = [b for b in bars if b.day > last.day - timedelta(days=365)]
    logs = [math.log(b.close / a.close) for a, b in itertools.pairwise(year) if a.close > 0 < b.close]
    ytd_base = on_or_before(bars, date(last.day.year - 1, 12, 31))
    return {
        "price": round_price(last.close),
        "price_date": last.day.isoformat(),
        "currency": "USD",
        "year_high": round_price(high),
        "year_low": round_price(low),
        "return_1m_pct": _return_since(bars, months_back(last.day, 1)),
        "return_3m_pct": _return_since(bars, months_back(last.day, 3)),
        "return_6m_pct": _return_since(bars, months_back(last.day, 6)),
        "return_ytd_pct": pct_change(last.close, ytd_base.close) if ytd_base else None,
        "return_1y_pct": _return_since(bars, months_back(last.day, 12)),
        "avg_volume_3m": round(statistics.fmean(b.volume or 0 for b in recent)) if recent else None,
        "volatility_1y_pct": round_price(statistics.stdev(logs) * math.sqrt(252) * 100, 2)
        if len(logs) > 2
        else None,
    }


_INFO_FIELDS: dict[str, tuple[str, float]] = {
    # Yahoo key -> (our key, scale); dividendYield is already in percent in Yahoo's current API.
    "marketCap": ("market_cap", 1),
    "enterpriseValue": ("enterprise_value", 1),
    "trailingPE": ("trailing_pe", 1),
    "forwardPE": ("forward_pe", 1),
    "priceToBook": ("price_to_book", 1),
    "trailingEps": ("eps_trailing", 1),
    "forwardEps": ("eps_forward", 1),
    "dividendYield": ("dividend_yield_pct", 1),
    "beta": ("beta", 1),
    "profitMargins": ("profit_margin_pct", 100),
    "totalRevenue": ("revenue_ttm", 1),
    "sharesOutstanding": ("shares_outstanding", 1),
    "fiftyTwoWeekHigh": ("year_high", 1),
    "fiftyTwoWeekLow": ("year_low", 1),
    "averageVolume": ("avg_volume_3m", 1),
}


OFFLINE_UNAVAILABLE = [
    "market_cap",
    "trailing_pe",
    "forward_pe",
    "dividend_yield_pct",
    "eps_trailing",
    "beta",
]


def info_data(info: Any) -> dict[str, Any]:
    if not isinstance(info, dict):
        return {}
    out: dict[str, Any] = {}
    for key, (name, scale) in _INFO_FIELDS.items():
        value = to_float(info.get(key))
        if value is not None:
            out[name] = round_price(value * scale)
    for key, name in (("longName", "name"), ("sector", "sector"), ("industry", "industry")):
        if isinstance(info.get(key), str):
            out[name] = info[key]
    if isinstance(info.get("currency"), str):
        out["currency"] = info["currency"]
    price = to_float(info.get("currentPrice")) or to_float(info.get("regularMarketPrice"))
    if price is not None:
        out["price"] = round_price(price)
    return out


def resample(bars: Sequence[Bar], interval: str) -> list[Bar]:
    """Weekly bars labelled by the Monday, monthly by the 1st (as Yahoo labels them)."""
    if interval == "1d":
        return list(bars)
    groups: dict[date, list[Bar]] = {}
    for bar in bars:
        key = bar.day - timedelta(days=bar.day.weekday()) if interval == "1wk" else bar.day.replace(day=1)
        groups.setdefault(key, []).append(bar)
    out = []
    for key in sorted(groups):
        rows = groups[key]
        highs = [b.high for b in rows if b.high is not None]
        lows = [b.low for b in rows if b.low is not None]
        volumes = [b.volume for b in rows if b.volume is not None]
        out.append(
            Bar(
                day=key,
                open=rows[0].open,
                high=max(highs) if highs else None,
                low=min(lows) if lows else None,
                close=rows[-1].close,
                adj_close=rows[-1].adj_close,
                volume=sum(volumes) if volumes else None,
            )
        )
    return out


def history_data(
    bars: Sequence[Bar], interval: str, first: date | None = None, last: date | None = None
) -> tuple[dict[str, Any], str | None]:
    """Range figures plus the (capped) bars; first/last are the real trading days of resampled bars."""
    shown = list(bars[-MAX_BARS:])
    highs = [b.high if b.high is not None else b.close for b in bars]
    lows = [b.low if b.low is not None else b.close for b in bars]
    volumes = [b.volume for b in bars if b.volume is not None]
    data = {
        "interval": interval,
        "start": (first or bars[0].day).isoformat(),
        "end": (last or bars[-1].day).isoformat(),
        "total_bars": len(bars),
        "returned_bars": len(shown),
        "first_close": round_price(bars[0].close),
        "last_close": round_price(bars[-1].close),
        "change_pct": pct_change(bars[-1].close, bars[0].close),
        "high": round_price(max(highs)),
        "low": round_price(min(lows)),
        "avg_volume": round(statistics.fmean(volumes)) if volumes else None,
        "bars": [b.as_json() for b in shown],
    }
    note = None
    if len(shown) < len(bars):
        note = (
            f"only the last {len(shown)} of {len(bars)} bars are listed (the summary figures cover all); "
            "use interval 1wk or 1mo for long ranges"
        )
    return data, note
