"""Agent tools: recorded-data fallback when offline, bounded live calls, news, safe calculator."""

from __future__ import annotations

import asyncio
import csv
import json
import os
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from finagent.db import Database
from finagent.settings import Settings
from finagent.tools import ToolResult, network, news, prices
from finagent.tools.calculator import CalcResult, cagr_pct, calculate, growth_pct, ratio
from finagent.tools.langchain_tools import build_tools
from finagent.tools.market import get_key_statistics, get_price_history, get_quote
from finagent.tools.news import get_company_news, parse_yahoo_item
from tests.conftest import require_shared


@pytest.fixture(autouse=True)
def _fresh_network_cache() -> Iterator[None]:
    """Each test decides whether the network is 'up'; no probe result leaks between tests."""
    network.reset_cache()
    yield
    network.reset_cache()


@pytest.fixture()
def offline(tmp_path: Path) -> Settings:
    """FINAGENT_OFFLINE semantics on the real recorded data of ../shared."""
    return Settings(
        offline=True,
        home=tmp_path / "home",
        market_data_dir=require_shared("market", "prices"),
        news_data_dir=require_shared("news"),
    )


@pytest.fixture()
def online(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend Yahoo Finance is reachable (the probe succeeds); the yfinance calls are faked per test."""
    monkeypatch.setattr(network, "_probe", lambda *a, **k: (True, "test: reachable"))


def _online_settings(tmp_path: Path, timeout: float = 5.0) -> Settings:
    return Settings(
        offline=False,
        home=tmp_path / "home",
        tool_timeout=timeout,
        market_data_dir=require_shared("market", "prices"),
        news_data_dir=require_shared("news"),
    )


def _csv_rows(name: str) -> list[dict[str, str]]:
    with require_shared("market", "prices", name).open(newline="") as handle:
        return list(csv.DictReader(handle))


def _json_roundtrip(result: ToolResult) -> None:
    assert json.loads(json.dumps(result.model_dump(mode="json")))["tool"] == result.tool


# --------------------------------------------------------------------------------- offline


@pytest.mark.shared
def test_offline_quote_from_most_recent_recorded_file(offline: Settings) -> None:
    result = get_quote("aapl", offline)
    assert result.ok and result.offline and result.ticker == "AAPL"
    assert result.data["price"] == pytest.approx(185.85, abs=1e-3)
    assert result.data["price_date"] == result.as_of == "2024-02-02"
    assert result.data["previous_close"] == pytest.approx(186.86, abs=1e-3)
    assert result.data["change_pct"] == pytest.approx((185.85 / 186.86 - 1) * 100, abs=0.01)
    assert result.data["market_cap"] is None
    # AAPL.csv ends in 2017; the 1980-2024 file is newer and must win.
    assert "AAPL_1980_2024.csv" in result.source and "last close 2024-02-02" in result.source
    assert result.warning and "offline" in result.warning
    line = result.summary()
    assert "$185.85" in line and "2024-02-02" in line and "offline" in line and "52-week range" in line
    _json_roundtrip(result)


@pytest.mark.shared
def test_offline_statistics_match_an_independent_computation(offline: Settings) -> None:
    rows = [r for r in _csv_rows("AAPL_1980_2024.csv") if r["Date"] > "2023-02-02"]
    result = get_key_statistics("AAPL", offline)
    assert result.ok and result.offline
    data = result.data
    assert data["year_high"] == pytest.approx(max(float(r["High"]) for r in rows), abs=1e-3)
    assert data["year_low"] == pytest.approx(min(float(r["Low"]) for r in rows), abs=1e-3)
    close_2023_02_02 = float(
        next(r for r in _csv_rows("AAPL_1980_2024.csv") if r["Date"] == "2023-02-02")["Close"]
    )
    assert data["return_1y_pct"] == pytest.approx((185.85 / close_2023_02_02 - 1) * 100, abs=0.01)
    for key in ("return_1m_pct", "return_3m_pct", "return_6m_pct", "return_ytd_pct", "avg_volume_3m"):
        assert data[key] is not None
    assert "market_cap" in data["unavailable"] and "trailing_pe" in data["unavailable"]
    assert "need live data" in (result.warning or "")
    _json_roundtrip(result)


@pytest.mark.shared
def test_offline_price_history_ranges_and_intervals(offline: Settings) -> None:
    default = get_price_history("AAPL", offline)
    assert default.ok and default.offline
    assert default.data["end"] == "2024-02-02" and default.data["start"] >= "2023-02-02"
    assert 245 <= default.data["total_bars"] <= 255
    assert default.data["bars"][-1]["close"] == pytest.approx(185.85, abs=1e-3)

    august = get_price_history("MSFT", offline, date(2017, 8, 1), date(2017, 8, 31))
    expected = [r for r in _csv_rows("MSFT.csv") if "2017-08-01" <= r["Date"] <= "2017-08-31"]
    assert [b["date"] for b in august.data["bars"]] == [r["Date"] for r in expected]
    assert august.data["last_close"] == pytest.approx(float(expected[-1]["Close"]), abs=1e-3)

    monthly = get_price_history("AAPL", offline, date(2023, 1, 1), date(2023, 12, 31), interval="1mo")
    assert [b["date"][:7] for b in monthly.data["bars"]] == [f"2023-{m:02d}" for m in range(1, 13)]
    weekly = get_price_history("AAPL", offline, date(2023, 1, 1), date(2023, 3, 31), interval="1wk")
    assert all(date.fromisoformat(b["date"]).weekday() == 0 for b in weekly.data["bars"])

    long = get_price_history("AAPL", offline, date(2000, 1, 1), date(2024, 1, 1))
    assert long.ok and long.data["returned_bars"] == prices.MAX_BARS < long.data["total_bars"]
    assert "1wk" in (long.warning or "")

    partial = get_price_history("AAPL", offline, date(2023, 12, 1), date(2024, 6, 30))
    assert partial.ok and "partly covered" in (partial.warning or "")
    beyond = get_price_history("AAPL", offline, date(2025, 1, 1), date(2025, 2, 1))
    assert not beyond.ok and "2024-02-02" in (beyond.warning or "")
    assert not get_price_history("AAPL", offline, date(2024, 2, 1), date(2024, 1, 1)).ok
    bad_interval = get_price_history("AAPL", offline, interval="5m")
    assert not bad_interval.ok and "1d, 1wk, 1mo" in (bad_interval.warning or "")


@pytest.mark.shared
def test_no_data_is_a_result_not_an_exception(offline: Settings) -> None:
    for tool in (get_quote, get_key_statistics, get_price_history):
        result = tool("NVDA", offline)
        assert not result.ok and result.ticker == "NVDA"
        assert "no market data for NVDA: offline and no recorded prices" in (result.warning or "")
        assert "NVDA" in result.summary()
    news_result = get_company_news("NVDA", offline)
    assert not news_result.ok and "no news for NVDA: offline" in (news_result.warning or "")
    for bad in ("not a ticker!", "", "$", "A" * 20, "__import__"):
        refused = get_quote(bad, offline)
        assert not refused.ok and "not a valid ticker" in (refused.warning or "")


def test_recorded_file_choice_and_null_rows(tmp_path: Path) -> None:
    prices = tmp_path / "prices"
    prices.mkdir()
    header = "Date,Open,High,Low,Close,Adj Close,Volume\n"
    (prices / "XYZ.csv").write_text(
        header + "".join(f"2015-01-{d:02d},1,2,0.5,1.5,1.5,100\n" for d in range(2, 30))
    )
    (prices / "XYZ_2020.csv").write_text(
        header + "2020-03-02,10,11,9,10.5,10.5,1000\n2020-03-03,null,null,null,null,null,null\n"
        "2020-03-04,10.5,12,10,11.5,11.5,2000\n"
    )
    (prices / "XYZW.csv").write_text(header + "2024-01-02,1,1,1,99,99,1\n")  # another ticker
    settings = Settings(offline=True, home=tmp_path / "home", market_data_dir=prices)
    result = get_quote("XYZ", settings)
    assert result.ok and result.data["price"] == 11.5 and result.data["previous_close"] == 10.5
    assert result.as_of == "2020-03-04" and "XYZ_2020.csv" in result.source
    missing = Settings(offline=True, home=tmp_path / "home", market_data_dir=tmp_path / "nowhere")
    assert not get_quote("XYZ", missing).ok


# --------------------------------------------------------------------------- live (faked)


def _frame(days: int = 300, start: date = date(2025, 1, 2), last_close: float = 250.0) -> Any:
    pd = pytest.importorskip("pandas")
    index = pd.DatetimeIndex(
        [datetime(start.year, start.month, start.day, tzinfo=UTC) + timedelta(days=i) for i in range(days)]
    )
    closes = [last_close - (days - 1 - i) * 0.1 for i in range(days)]
    return pd.DataFrame(
        {
            "Open": closes,
            "High": [c + 1 for c in closes],
            "Low": [c - 1 for c in closes],
            "Close": closes,
            "Adj Close": closes,
            "Volume": [1_000_000] * days,
        },
        index=index,
    )


class FakeTicker:
    """Stands in for yfinance.Ticker: behaviour chosen per test (answer, raise, or hang)."""

    mode = "ok"
    calls = 0

    def __init__(self, symbol: str) -> None:
        self.symbol = symbol
        type(self).calls += 1

    def _act(self) -> None:
        if self.mode == "raise":
            raise ConnectionError("Could not resolve host: query2.finance.yahoo.com")
        if self.mode == "hang":
            time.sleep(3)

    def history(self, **kwargs: Any) -> Any:
        self._act()
        frame = _frame()
        if "start" in kwargs:
            frame = frame[frame.index >= kwargs["start"]]
        if "end" in kwargs:
            frame = frame[frame.index < kwargs["end"]]
        return frame

    @property
    def fast_info(self) -> dict[str, Any]:
        self._act()
        return {"lastPrice": 251.5, "previousClose": 250.0, "currency": "USD", "marketCap": 3.1e12}

    @property
    def info(self) -> dict[str, Any]:
        self._act()
        return {"marketCap": 3.1e12, "trailingPE": 31.2, "dividendYield": 0.45, "longName": "Fake Inc."}

    def get_news(self, count: int = 10) -> list[dict[str, Any]]:
        self._act()
        return [
            {
                "id": "1",
                "content": {
                    "title": "Fake Inc. beats estimates",
                    "pubDate": "2025-10-30T20:05:00Z",
                    "summary": "Revenue rose 8% to $102.5 billion.",
                    "canonicalUrl": {"url": "https://finance.yahoo.com/news/fake-beats"},
                    "provider": {"displayName": "Reuters"},
                },
            },
            {
                "title": "Old format item",
                "link": "https://e.com/old",
                "publisher": "AP",
                "providerPublishTime": 1.7e9,
            },
            {"content": {"title": ""}},  # unusable
        ]


@pytest.fixture()
def fake_yf(monkeypatch: pytest.MonkeyPatch, online: None) -> type[FakeTicker]:
    yf = pytest.importorskip("yfinance")
    monkeypatch.setattr(yf, "Ticker", FakeTicker)
    FakeTicker.mode, FakeTicker.calls = "ok", 0
    return FakeTicker


@pytest.mark.shared
def test_live_path_with_a_working_service(fake_yf: type[FakeTicker], tmp_path: Path) -> None:
    settings = _online_settings(tmp_path)
    quote = get_quote("AAPL", settings)
    assert quote.ok and not quote.offline and quote.warning is None
    assert quote.data["price"] == 251.5 and quote.data["market_cap"] == 3.1e12
    assert "live" in quote.source and "live" in quote.summary()
    stats = get_key_statistics("AAPL", settings)
    assert stats.ok and stats.data["trailing_pe"] == 31.2 and stats.data["name"] == "Fake Inc."
    history = get_price_history("AAPL", settings, date(2025, 3, 1), date(2025, 3, 10))
    assert history.ok and history.data["bars"][0]["date"] == "2025-03-01"
    assert history.data["end"] == "2025-03-10"
    articles = get_company_news("AAPL", settings, limit=5)
    assert articles.ok and not articles.offline
    first = articles.data["articles"][0]
    assert first["title"] == "Fake Inc. beats estimates" and first["source"] == "Reuters via Yahoo Finance"
    assert first["url"] == "https://finance.yahoo.com/news/fake-beats" and first["date"] == "2025-10-30"
    assert [a["title"] for a in articles.data["articles"]] == ["Fake Inc. beats estimates", "Old format item"]


@pytest.mark.shared
def test_live_failure_falls_back_to_recorded_data(fake_yf: type[FakeTicker], tmp_path: Path) -> None:
    fake_yf.mode = "raise"
    settings = _online_settings(tmp_path)
    result = get_quote("AAPL", settings)
    assert result.ok and result.offline and result.data["price"] == pytest.approx(185.85, abs=1e-3)
    assert "live data unavailable" in (result.warning or "") and "ConnectionError" in (result.warning or "")
    articles = get_company_news("AAPL", settings)
    assert articles.ok and articles.offline and "ConnectionError" in (articles.warning or "")
    gone = get_quote("NVDA", settings)
    assert (
        not gone.ok
        and "ConnectionError" in (gone.warning or "")
        and "no recorded prices" in (gone.warning or "")
    )


@pytest.mark.shared
def test_hanging_service_is_abandoned_after_the_timeout(fake_yf: type[FakeTicker], tmp_path: Path) -> None:
    fake_yf.mode = "hang"  # sleeps 3 s per call
    settings = _online_settings(tmp_path, timeout=0.3)
    get_quote("MSFT", settings)  # warm the CSV cache so only the wait is measured
    network.reset_cache()
    started = time.monotonic()
    result = get_quote("AAPL", settings)
    elapsed = time.monotonic() - started
    assert elapsed < 0.3 + 0.7, f"took {elapsed:.2f} s"
    assert result.ok and result.offline and "did not answer within 0.3 s" in (result.warning or "")
    # The timeout marks the service unreachable: the next calls fall back at once, without calling it.
    calls = fake_yf.calls
    started = time.monotonic()
    again = get_key_statistics("AAPL", settings)
    assert time.monotonic() - started < 0.3 and fake_yf.calls == calls
    assert again.ok and again.offline and "did not answer" in (again.warning or "")


def test_network_probe_is_cached_and_respects_offline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    probes: list[int] = []

    def probe(*args: Any, **kwargs: Any) -> tuple[bool, str]:
        probes.append(1)
        return False, "cannot resolve query1.finance.yahoo.com"

    monkeypatch.setattr(network, "_probe", probe)
    settings = Settings(offline=False, home=tmp_path)
    assert network.is_online(settings) is False
    assert network.is_online(settings) is False
    assert len(probes) == 1
    assert network.is_online(Settings(offline=True, home=tmp_path)) is False and len(probes) == 1
    with pytest.raises(TimeoutError):
        network.run_with_timeout(lambda: time.sleep(2), 0.05)


def test_yahoo_news_item_shapes() -> None:
    assert (
        parse_yahoo_item({"content": {"title": " A  title ", "pubDate": "2025-01-02T03:04:05Z"}}) is not None
    )
    assert parse_yahoo_item("junk") is None
    assert parse_yahoo_item({"content": {"summary": "no title"}}) is None


# ------------------------------------------------------------------------------------ news


@pytest.mark.shared
def test_offline_news_from_csv_skips_placeholders(offline: Settings) -> None:
    result = get_company_news("AAPL", offline, limit=5)
    assert result.ok and result.offline and "AAPL_2023_2024.csv" in result.source
    articles = result.data["articles"]
    assert len(articles) == 5
    stamps = [a["published_at"] for a in articles]
    assert stamps == sorted(stamps, reverse=True) and articles[0]["date"] == "2024-02-03"
    for article in articles:
        assert article["snippet"] not in {"0", "2"} and len(article["snippet"]) > 40
        assert article["title"] and article["url"].startswith("https://")
        assert article["source"].startswith("recorded news AAPL_2023_2024.csv row ")
    # Every real article is there, none of the 761 placeholder rows.
    path = require_shared("news", "AAPL_2023_2024.csv")
    assert len(news._recorded_file_articles("AAPL", [path])) == 143
    recent = get_company_news("AAPL", offline, limit=20, since=date(2024, 2, 2))
    assert recent.ok and all(a["date"] >= "2024-02-02" for a in recent.data["articles"])
    assert not get_company_news("AAPL", offline, since=date(2030, 1, 1)).ok
    assert len(get_company_news("AAPL", offline, limit=500).data["articles"]) == news.MAX_LIMIT


def _insert_news(db: Database, ticker: str, title: str, published: datetime, url: str, text: str) -> None:
    vector = "[" + ",".join(["0.1"] * 384) + "]"
    with db.connection() as conn:
        doc_id = conn.execute(
            """INSERT INTO documents (kind, ticker, title, source_uri, content_sha256, published_at,
                                     chunk_count)
               VALUES ('news', %s, %s, %s, %s, %s, 1) RETURNING id""",
            (ticker, title, url, f"sha-{url}", published),
        ).fetchone()
        assert doc_id is not None
        conn.execute(
            """INSERT INTO chunks (document_id, ordinal, ticker, kind, char_start, char_end, text, embedding)
               VALUES (%s, 0, %s, 'news', 0, %s, %s, %s::vector)""",
            (doc_id[0], ticker, len(text), text, vector),
        )


def test_offline_news_from_the_store(db: Database, tmp_path: Path) -> None:
    _insert_news(
        db,
        "NVDA",
        "Nvidia guides higher",
        datetime(2024, 2, 21, 21, 0, tzinfo=UTC),
        "https://e.com/nvda-guides",
        "Nvidia said data center revenue rose 409%. " * 5,
    )
    _insert_news(
        db,
        "NVDA",
        "Nvidia older news",
        datetime(2023, 5, 1, tzinfo=UTC),
        "https://e.com/nvda-old",
        "Older article text about Nvidia.",
    )
    _insert_news(db, "AMD", "AMD news", datetime(2024, 3, 1, tzinfo=UTC), "https://e.com/amd", "AMD text.")
    settings = Settings(offline=True, home=tmp_path / "home", news_data_dir=tmp_path / "no-news")
    with db.connection() as conn:
        result = get_company_news("NVDA", settings, conn=conn)
        assert result.ok and result.offline and "finagent store" in result.source
        titles = [a["title"] for a in result.data["articles"]]
        assert titles == ["Nvidia guides higher", "Nvidia older news"]
        assert result.data["articles"][0]["snippet"].startswith("Nvidia said data center revenue rose 409%")
        since = get_company_news("NVDA", settings, conn=conn, since=date(2024, 1, 1))
        assert [a["title"] for a in since.data["articles"]] == ["Nvidia guides higher"]
        assert conn.execute("SELECT 1").fetchone() == (1,)  # connection still usable
    assert not get_company_news("NVDA", settings).ok  # no connection, no files


# ------------------------------------------------------------------------------ calculator


def test_calculator_values() -> None:
    assert calculate("growth(80,000, 94,836)").result == pytest.approx(18.545)
    assert growth_pct(80_000, 94_836).result_text == "18.545"
    assert growth_pct(80_000, 94_836).expression == "growth(80000, 94836)"
    assert cagr_pct(100, 200, 5).result == pytest.approx((2 ** (1 / 5) - 1) * 100)
    assert ratio(3, 4).result == 0.75
    assert calculate("(94,836 - 80,000) / 80,000").result == pytest.approx(0.18545)
    assert calculate("1,234,567.5 + 0.5").result == 1_234_568
    assert calculate("12% * 500").result == pytest.approx(60)
    assert calculate("(1 + 2)%").result == pytest.approx(0.03)
    assert calculate("margin(25, 200)").result == 12.5
    assert calculate("diff(5,000, 3,000)").result == 2000
    assert calculate("avg(1, 2, 3, 4)").result == 2.5
    assert calculate("round(2.345, 2)").result == 2.35
    assert calculate("abs(-3.5) + 2^3").result == 11.5
    assert calculate("0.1 + 0.2").result_text == "0.3"
    assert calculate("1/3").result_text == "0.3333"
    assert calculate("2 ** -3").result == 0.125 and calculate("-2 ** 2").result == -4
    assert calculate("$1,200 * 2").result == 2400
    assert calculate("5 \u2212 3 \u00d7 2").result == -1  # typographic minus and times
    assert calculate("growth(-100, -50)").result == 50  # change relative to |old|


def test_calculator_errors() -> None:
    for expression, message in [
        ("1 / 0", "division by zero"),
        ("ratio(5, 0)", "division by zero"),
        ("growth(0, 5)", "zero"),
        ("margin(1, 0)", "division by zero"),
        ("0 ** -1", "division by zero"),
        ("growth(100,200)", "separate arguments"),  # "100,200" is one hundred thousand two hundred
        ("cagr(-1, 5, 2)", "start > 0"),
        ("(-8) ** (1/3)", "not a real number"),
        ("(1, 2)", "single number"),
        ("10 % 3", "malformed"),
        ("", "empty"),
        ("1 +", "malformed"),
        ("((1)", "unbalanced"),
        ("round(1, 0.5)", "whole number"),
        ("10 ** 400", "too large"),
    ]:
        result = calculate(expression)
        assert not result.ok and result.result is None, expression
        assert message in (result.error or ""), (expression, result.error)


HOSTILE = [
    "__import__('os').system('{marker}')",
    "().__class__",
    "().__class__.__bases__[0].__subclasses__()",
    "9**9**9",
    "-(9**9**9)",
    "2**2**2**2**2",
    "a.b",
    "lambda: 1",
    "exec('1')",
    "eval('1')",
    "open('/etc/passwd')",
    "Symbol('x')",
    "Integer(1)",
    "x",
    "1" * 501,
    "(" * 240 + "1" + ")" * 240,
    "-" * 300 + "1",
    "\uff11\uff12",  # full-width digits
    "1\u00b2",  # superscript two
    "\u0441os(0)",  # Cyrillic 'с'
    "abs\u200b(1)",  # zero-width space
    "growth\n(1, 2)\n;import os",
    "1; import os",
    "1 if 1 else 2",
    "[1, 2]",
    "{'a': 1}",
    "'1' * 10",
    "1 @ 2",
    "1 // 2",
    "abs",
    "round(abs)",
    "ABS(1)**99999",
    "\x00",
    "1e309",
]


@pytest.mark.parametrize("expression", HOSTILE)
def test_calculator_refuses_hostile_input(
    expression: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "pwned"
    expression = expression.replace("{marker}", f"touch {marker}")
    calls: list[str] = []

    def fake_system(command: str) -> int:
        calls.append(command)
        return 0

    monkeypatch.setattr(os, "system", fake_system)
    started = time.monotonic()
    result = calculate(expression)
    assert not result.ok and result.error, expression
    assert time.monotonic() - started < 1.0
    assert not marker.exists() and calls == []


def test_refused_names_never_reach_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    from finagent.finance.compute import safe_calculator as implementation  # the tool's calculator: finance/

    seen: list[str] = []
    real = implementation.parse_expr

    def spy(code: str, **kwargs: Any) -> Any:
        seen.append(code)
        return real(code, **kwargs)

    monkeypatch.setattr(implementation, "parse_expr", spy)
    for expression in ("__import__('os')", "().__class__", "exec('1')", "a.b", "lambda: 1", "x"):
        assert not calculate(expression).ok
    assert seen == []
    assert calculate("growth(1, 2)").ok and seen == ["growth ( 1 , 2 )"]


# ------------------------------------------------------------------------------- langchain


@pytest.mark.shared
def test_langchain_tools_sync_and_async(offline: Settings) -> None:
    tools = {t.name: t for t in build_tools(offline)}
    assert set(tools) == {"market_quote", "price_history", "key_statistics", "company_news", "calculator"}
    for tool in tools.values():
        assert tool.description and tool.args
    quote = tools["market_quote"].invoke({"ticker": "AAPL"})
    assert isinstance(quote, dict) and quote["ok"] and quote["offline"] and "$185.85" in quote["summary"]
    json.dumps(quote)
    history = tools["price_history"].invoke(
        {"ticker": "AAPL", "start": "2024-01-02", "end": "2024-02-02", "interval": "1wk"}
    )
    assert history["ok"] and history["data"]["interval"] == "1wk"
    bad_date = tools["price_history"].invoke({"ticker": "AAPL", "start": "last year"})
    assert isinstance(bad_date, dict) and not bad_date["ok"] and "not a date" in bad_date["warning"]
    calc = tools["calculator"].invoke({"expression": "growth(80,000, 94,836)"})
    assert calc["ok"] and calc["result_text"] == "18.545"
    refused = tools["calculator"].invoke({"expression": "__import__('os')"})
    assert not refused["ok"] and refused["error"]
    nvda = tools["key_statistics"].invoke({"ticker": "NVDA"})
    assert not nvda["ok"] and "no recorded prices" in nvda["warning"]
    wrong_type = tools["company_news"].invoke({"ticker": "AAPL", "limit": "many"})
    assert isinstance(wrong_type, str) and json.loads(wrong_type)["ok"] is False

    async def run_async() -> list[Any]:
        return list(
            await asyncio.gather(
                tools["market_quote"].ainvoke({"ticker": "MSFT"}),
                tools["company_news"].ainvoke({"ticker": "AAPL", "limit": 2}),
                tools["calculator"].ainvoke({"expression": "ratio(1, 4)"}),
            )
        )

    quote_msft, articles, ratio_result = asyncio.run(run_async())
    assert quote_msft["ok"] and quote_msft["as_of"] == "2017-09-01"
    assert articles["ok"] and len(articles["data"]["articles"]) == 2
    assert ratio_result["result"] == 0.25


@pytest.mark.shared
def test_news_tool_survives_a_broken_store(offline: Settings) -> None:
    def broken() -> Any:
        raise ConnectionError("database is down")

    tool = next(t for t in build_tools(offline, conn_factory=broken) if t.name == "company_news")
    result = tool.invoke({"ticker": "AAPL", "limit": 1})
    assert result["ok"] and "store not available" in result["warning"]


@pytest.mark.shared
def test_async_tools_do_not_block_the_event_loop(fake_yf: type[FakeTicker], tmp_path: Path) -> None:
    fake_yf.mode = "hang"
    tools = {t.name: t for t in build_tools(_online_settings(tmp_path, timeout=0.5))}
    ticks: list[float] = []

    async def ticker() -> None:
        for _ in range(8):
            ticks.append(time.monotonic())
            await asyncio.sleep(0.05)

    async def main() -> dict[str, Any]:
        result, _ = await asyncio.gather(tools["market_quote"].ainvoke({"ticker": "AAPL"}), ticker())
        return result

    result = asyncio.run(main())
    assert result["ok"] and result["offline"] and len(ticks) == 8
    assert threading.active_count() >= 1  # the abandoned worker is a daemon; nothing waits for it


def test_results_are_models() -> None:
    assert isinstance(calculate("1+1"), CalcResult)
    assert CalcResult(expression="x", ok=False, error="bad").summary().startswith("'x' not computed")


def test_default_data_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import finagent.tools.data_dirs as tools

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    settings = Settings(offline=True, home=tmp_path / "home")
    shared = Path(__file__).resolve().parents[2].parent / "shared" / "data"
    if shared.is_dir():  # found beside the checkout even when the working dir is elsewhere
        assert tools.market_data_dir(settings) == (shared / "market" / "prices").resolve()
    monkeypatch.setattr(tools, "_repo_root", lambda: None)
    assert tools.market_data_dir(settings) == tmp_path / "home" / "market" / "prices"
    assert tools.news_data_dir(settings) == tmp_path / "home" / "news"
    (tmp_path / "shared" / "data" / "news").mkdir(parents=True)  # ../shared relative to the working dir
    assert tools.news_data_dir(settings) == (tmp_path / "shared" / "data" / "news").resolve()
    missing = get_quote("AAPL", settings)
    assert not missing.ok and "folder missing" in (missing.warning or "")
