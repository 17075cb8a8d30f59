"""Daily prices: recorded CSVs (offline, cited by file) and live Yahoo Finance bars, as ``Bar`` rows."""

from __future__ import annotations

import bisect
import calendar
import csv
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from finagent.errors import FinagentError
from finagent.settings import Settings
from finagent.tools.data_dirs import display_path, market_data_dir
from finagent.tools.results import ToolResult

MAX_BARS = 300  # rows returned by price_history; longer ranges keep the most recent ones

INTERVALS = ("1d", "1wk", "1mo")


class NoLiveData(FinagentError):
    """The live service answered but had nothing usable (unknown symbol, empty frame)."""


@dataclass(frozen=True, slots=True)
class Bar:
    """One daily (or resampled) OHLCV row."""

    day: date
    open: float | None
    high: float | None
    low: float | None
    close: float
    adj_close: float | None
    volume: int | None

    def as_json(self) -> dict[str, Any]:
        return {
            "date": self.day.isoformat(),
            "open": round_price(self.open),
            "high": round_price(self.high),
            "low": round_price(self.low),
            "close": round_price(self.close),
            "adj_close": round_price(self.adj_close),
            "volume": self.volume,
        }


@dataclass(frozen=True, slots=True)
class Recorded:
    """Recorded prices of one ticker and the file they came from."""

    bars: tuple[Bar, ...]
    path: Path

    @property
    def last_day(self) -> date:
        return self.bars[-1].day

    def source(self) -> str:
        return f"recorded prices {display_path(self.path)} (offline; last close {self.last_day.isoformat()})"

    def result(
        self, tool: str, symbol: str, data: dict[str, Any], *, warning: str | None, as_of: date | None = None
    ) -> ToolResult:
        """A successful tool answer from these recorded prices (source and offline flag filled in)."""
        return ToolResult(
            tool=tool,
            ticker=symbol,
            ok=True,
            data=data,
            source=self.source(),
            offline=True,
            as_of=(as_of or self.last_day).isoformat(),
            warning=warning,
        )


def round_price(value: float | None, digits: int = 4) -> float | None:
    """Round for JSON; NaN/inf become None (JSON has no NaN)."""
    if value is None or not math.isfinite(value):
        return None
    return round(float(value), digits)


def to_float(raw: Any) -> float | None:
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def pct_change(new: float | None, old: float | None) -> float | None:
    if new is None or old is None or old == 0:
        return None
    return round((new - old) / abs(old) * 100, 2)


def months_back(day: date, months: int) -> date:
    """Same day ``months`` earlier, clamped to the month's length (Mar 31 - 1 month = Feb 28/29)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    month += 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def on_or_before(bars: Sequence[Bar], day: date) -> Bar | None:
    days = [b.day for b in bars]
    index = bisect.bisect_right(days, day) - 1
    return bars[index] if index >= 0 else None


log = logging.getLogger(__name__)


def _ticker_variants(ticker: str) -> set[str]:
    return {ticker, ticker.replace(".", "-"), ticker.replace("-", "."), ticker.replace(".", "")}


def recorded_files(ticker: str, directory: Path | None) -> list[Path]:
    """``<TICKER>.csv`` and ``<TICKER>_*.csv`` (e.g. AAPL_1980_2024.csv) in the prices folder."""
    if directory is None or not directory.is_dir():
        return []
    variants = _ticker_variants(ticker.upper())
    found = []
    for path in sorted(directory.iterdir()):
        if path.suffix.lower() != ".csv" or not path.is_file():
            continue
        stem = path.stem.upper()
        if stem in variants or any(stem.startswith(v + "_") for v in variants):
            found.append(path)
    return found


@lru_cache(maxsize=64)
def _read_price_csv(path_text: str, mtime_ns: int, size: int) -> tuple[Bar, ...]:
    """Parsed rows of a Yahoo-style price CSV, sorted by date (cached per file version)."""
    bars: dict[date, Bar] = {}
    with open(path_text, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        fields = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
        if "date" not in fields or "close" not in fields:
            raise ValueError(f"not a price file (columns: {', '.join(sorted(fields))})")

        def get(row: dict[str, str], name: str) -> float | None:
            key = fields.get(name)
            return to_float(row.get(key)) if key else None

        for row in reader:
            try:
                day = date.fromisoformat((row.get(fields["date"]) or "").strip()[:10])
            except ValueError:
                continue
            close = get(row, "close")
            if close is None:  # "null" rows of Yahoo exports
                continue
            volume = get(row, "volume")
            bars[day] = Bar(
                day=day,
                open=get(row, "open"),
                high=get(row, "high"),
                low=get(row, "low"),
                close=close,
                adj_close=get(row, "adj close"),
                volume=int(volume) if volume is not None else None,
            )
    return tuple(bars[d] for d in sorted(bars))


def load_recorded(ticker: str, settings: Settings) -> Recorded | None:
    """The recorded prices of ``ticker`` with the most recent data (ties: the longest history)."""
    best: Recorded | None = None
    for path in recorded_files(ticker, market_data_dir(settings)):
        try:
            stat = path.stat()
            bars = _read_price_csv(str(path), stat.st_mtime_ns, stat.st_size)
        except (OSError, ValueError, csv.Error) as exc:
            log.warning("skipping unreadable price file %s: %s", path, exc)
            continue
        if not bars:
            continue
        candidate = Recorded(bars=bars, path=path)
        if best is None or (candidate.last_day, len(bars)) > (best.last_day, len(best.bars)):
            best = candidate
    return best


def _bars_from_frame(frame: Any) -> list[Bar]:
    """yfinance DataFrame (DatetimeIndex; Open, High, Low, Close, Adj Close, Volume) -> bars."""
    if frame is None or getattr(frame, "empty", True):
        return []
    bars: list[Bar] = []
    for stamp, row in frame.iterrows():
        close = to_float(row.get("Close"))
        if close is None:
            continue
        day = stamp.date() if hasattr(stamp, "date") else date.fromisoformat(str(stamp)[:10])
        volume = to_float(row.get("Volume"))
        bars.append(
            Bar(
                day=day,
                open=to_float(row.get("Open")),
                high=to_float(row.get("High")),
                low=to_float(row.get("Low")),
                close=close,
                adj_close=to_float(row.get("Adj Close")),
                volume=int(volume) if volume is not None else None,
            )
        )
    bars.sort(key=lambda b: b.day)
    return bars


def quiet_yfinance() -> None:
    """yfinance logs every failed request at ERROR on stderr; the tools report failures themselves."""
    logger = logging.getLogger("yfinance")
    if logger.level == logging.NOTSET:  # leave a level chosen by the user alone
        logger.setLevel(logging.CRITICAL)


def yf_ticker(ticker: str) -> Any:
    """A yfinance Ticker; imported lazily (pandas is slow to import and unneeded offline)."""
    import yfinance as yf

    quiet_yfinance()
    return yf.Ticker(ticker)


def live_history(
    ticker: str,
    settings: Settings,
    *,
    start: date | None = None,
    end: date | None = None,
    interval: str = "1d",
    tkr: Any = None,
) -> list[Bar]:
    """Live bars; ``end`` is inclusive here (yfinance's is exclusive). Default: the last year."""
    tkr = tkr if tkr is not None else yf_ticker(ticker)
    kwargs: dict[str, Any] = {
        "interval": interval,
        "auto_adjust": False,
        "actions": False,
        "timeout": settings.tool_timeout,
        "raise_errors": True,
    }
    if start is None and end is None:
        kwargs["period"] = "1y"
    else:
        kwargs["start"] = (start or (end or date.today()) - timedelta(days=365)).isoformat()
        if end is not None:
            kwargs["end"] = (end + timedelta(days=1)).isoformat()
    bars = _bars_from_frame(tkr.history(**kwargs))
    if not bars:
        raise NoLiveData(f"Yahoo Finance returned no prices for {ticker}")
    return bars


def fast_info(tkr: Any) -> dict[str, Any]:
    """Real-time fields of fast_info; each may fail on its own (it fetches lazily)."""
    out: dict[str, Any] = {}
    try:
        info = tkr.fast_info
    except Exception:
        return out
    for key, name in (
        ("lastPrice", "last_price"),
        ("previousClose", "previous_close"),
        ("currency", "currency"),
        ("marketCap", "market_cap"),
    ):
        try:
            value = info.get(key)
        except Exception:
            continue
        out[name] = value if isinstance(value, str) else to_float(value)
    return out


def live_stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def live_source() -> str:
    return f"Yahoo Finance via yfinance (live, {live_stamp()})"
