"""News articles from CSV / JSONL: one item per row, dates parsed, empty rows reported."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from finagent.errors import ParseError
from finagent.finance.document_records import ParsedDocument
from finagent.ingest.news import discover_news, parse_news_date

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
AAPL_NEWS = SHARED / "data" / "news" / "AAPL_2023_2024.csv"
EST = timezone(timedelta(hours=-5))


@pytest.mark.shared
def test_aapl_csv() -> None:
    if not AAPL_NEWS.exists():
        pytest.skip(f"needs the shared data set at {AAPL_NEWS} (../shared beside the repo)")
    items = discover_news(AAPL_NEWS)
    assert len(items) == 904
    assert items[0].uri == f"{AAPL_NEWS}#0"
    docs: list[ParsedDocument] = []
    reasons: Counter[str] = Counter()
    for item in items:
        try:
            docs.append(item.load())
        except ParseError as exc:
            reasons[exc.reason.split(" (")[0]] += 1
    # 761 rows carry only a placeholder ("0" or "2") instead of the article text.
    assert len(docs) == 143
    assert reasons == Counter({"empty article text": 761})
    first = docs[0]
    assert first.kind == "news" and first.ticker == "AAPL"
    assert first.published_at == datetime(2024, 1, 25, 3, 33, tzinfo=EST)
    assert first.source_uri.startswith("https://www.nasdaq.com/articles/zacks-earnings-trends")
    assert first.metadata["row"] == 0 and first.metadata["file"] == str(AAPL_NEWS)
    assert first.title.startswith("Zacks earnings trends highlights")
    assert (first.fiscal_year, first.fiscal_quarter) == (2024, 2)  # January 2024 is Apple's fiscal Q2
    for doc in docs:
        assert doc.ticker == "AAPL" and doc.published_at is not None and doc.published_at.tzinfo
        assert datetime(2023, 1, 1, tzinfo=UTC) <= doc.published_at < datetime(2025, 1, 1, tzinfo=UTC)
        assert doc.blocks and doc.blocks[0].text.strip()
    assert len({d.content_sha256 for d in docs}) == len(docs)


def test_jsonl_rows(tmp_path: Path) -> None:
    path = tmp_path / "feed.jsonl"
    rows = [
        {
            "date": "2023-08-15T14:30:00Z",
            "url": "https://example.com/news/microsoft-cloud-grows",
            "text": "Microsoft said Azure grew.\nMore text.",
            "ticker": "MSFT",
            "title": "Azure grows",
        },
        {"date": "2023-08-16", "url": "https://example.com/b", "text": "   ", "ticker": "MSFT"},
        {"date": "5 DAYS AGO", "url": "https://example.com/c", "text": "Nvidia rallies.", "ticker": "NVDA"},
        {
            "Date": "JAN 05, 2023",
            "Url": "https://example.com/x/nvidia-hits-new-high",
            "Text": "Nvidia up.",
            "Ticker": "NVDA",
        },
    ]
    lines = [json.dumps(r) for r in rows]
    lines.insert(2, "{broken json")
    path.write_text("\n".join(lines) + "\n")
    items = discover_news(path)
    assert [i.uri for i in items] == [f"{path}#{n}" for n in range(5)]
    msft = items[0].load()
    assert (msft.ticker, msft.title, msft.source_uri) == ("MSFT", "Azure grows", rows[0]["url"])
    assert msft.published_at == datetime(2023, 8, 15, 14, 30, tzinfo=UTC)
    assert (msft.fiscal_year, msft.fiscal_quarter) == (2024, 1)  # Microsoft's year ends in June
    assert msft.blocks[0].text == "Microsoft said Azure grew.\n\nMore text."
    with pytest.raises(ParseError, match="empty article text"):
        items[1].load()
    with pytest.raises(ParseError, match="invalid JSON"):
        items[2].load()
    with pytest.raises(ParseError, match="unparseable date"):
        items[3].load()
    nvda = items[4].load()
    assert nvda.title == "Nvidia hits new high" and nvda.fiscal_year == 2023 and nvda.fiscal_quarter == 4


def test_csv_with_bom_and_ticker_from_file_name(tmp_path: Path) -> None:
    path = tmp_path / "NVDA_headlines.csv"
    text = 'Date,Url,Text\n"February 03, 2024 — 01:07 pm EST",https://e.com/a,"Nvidia guided higher."\n'
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    [item] = discover_news(path)
    doc = item.load()
    assert doc.ticker == "NVDA" and doc.published_at == datetime(2024, 2, 3, 13, 7, tzinfo=EST)
    [override] = discover_news(path, ticker="AMD")
    assert override.load().ticker == "AMD"


def test_files_that_are_not_news_become_one_failing_item(tmp_path: Path) -> None:
    prices = tmp_path / "AAPL.csv"
    prices.write_text("Date,Open,High,Low,Close,Adj Close,Volume\n2017-01-03,1,2,0.5,1.5,1.5,100\n")
    [item] = discover_news(prices)
    with pytest.raises(ParseError, match="no text column"):
        item.load()
    binary = tmp_path / "bad.csv"
    binary.write_bytes(b"Date,Text\n\x81\x8d,\x90\x9d\n")
    [item] = discover_news(binary)
    with pytest.raises(ParseError, match="neither UTF-8"):
        item.load()


def test_parse_news_date() -> None:
    assert parse_news_date("January 25, 2024 — 03:33 am EST") == datetime(2024, 1, 25, 3, 33, tzinfo=EST)
    assert parse_news_date("FEB 2, 2024 9:32AM EST") == datetime(2024, 2, 2, 9, 32, tzinfo=EST)
    assert parse_news_date("JAN 05, 2023") == datetime(2023, 1, 5, tzinfo=UTC)
    assert parse_news_date("2024-01-25") == datetime(2024, 1, 25, tzinfo=UTC)
    assert parse_news_date("5 DAYS AGO") is None
    assert parse_news_date("2") is None
