"""Company news: live headlines from Yahoo Finance, else recorded articles (store and news CSVs).

Like the market tools, this never raises for network or data problems: the live call is bounded by
``settings.tool_timeout``; without it, the newest ``kind='news'`` documents of the store and the
recorded news files (``<TICKER>_*.csv``; placeholder rows skipped) answer, labelled offline.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import psycopg

from finagent.db.news import recent_news
from finagent.errors import FinagentError, ParseError
from finagent.finance.company_registry import normalize_ticker
from finagent.settings import Settings
from finagent.tools import network
from finagent.tools.data_dirs import display_path, news_data_dir
from finagent.tools.market import short_error
from finagent.tools.prices import quiet_yfinance
from finagent.tools.results import ToolResult

log = logging.getLogger(__name__)

MAX_LIMIT = 20
SNIPPET_CHARS = 300
_NEWS_SUFFIXES = {".csv", ".jsonl", ".ndjson"}


class NoLiveNews(FinagentError):
    """Yahoo Finance answered without any usable article."""


@dataclass(frozen=True, slots=True)
class Article:
    """One news article as the tool reports it (published is timezone-aware or None)."""

    title: str
    published: datetime | None
    url: str | None
    snippet: str
    source: str

    def as_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "date": self.published.date().isoformat() if self.published else None,
            "published_at": self.published.isoformat() if self.published else None,
            "url": self.url,
            "snippet": self.snippet,
            "source": self.source,
        }

    def key(self) -> str:
        return self.url or f"{self.title}|{self.published}"


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The opening of an article, whitespace collapsed, cut at a word boundary."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:.") + "…"


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _since_ok(article: Article, since: date | None) -> bool:
    return since is None or (article.published is not None and article.published.date() >= since)


def _newest_first(articles: list[Article]) -> list[Article]:
    floor = datetime.min.replace(tzinfo=UTC)
    return sorted(articles, key=lambda a: a.published or floor, reverse=True)


# ---------------------------------------------------------------------------------------- live


def _parse_time(value: Any) -> datetime | None:
    if isinstance(value, int | float) and value > 0:
        return datetime.fromtimestamp(value, tz=UTC)
    if isinstance(value, str) and value.strip():
        try:
            return _aware(datetime.fromisoformat(value.strip().replace("Z", "+00:00")))
        except ValueError:
            return None
    return None


def _url_of(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("url")
    return value if isinstance(value, str) and value.startswith("http") else None


def parse_yahoo_item(item: Any) -> Article | None:
    """Yahoo news item, current shape ({"content": {...}}) or the older flat one, to an Article."""
    if not isinstance(item, dict):
        return None
    nested = item.get("content")
    content: dict[str, Any] = nested if isinstance(nested, dict) else item
    title = content.get("title")
    if not isinstance(title, str) or not title.strip():
        return None
    provider = content.get("provider")
    publisher = provider.get("displayName") if isinstance(provider, dict) else content.get("publisher")
    published = _parse_time(content.get("pubDate") or content.get("displayTime"))
    published = published or _parse_time(content.get("providerPublishTime"))
    url = _url_of(content.get("canonicalUrl")) or _url_of(content.get("clickThroughUrl"))
    url = url or _url_of(content.get("link"))
    text = content.get("summary") or content.get("description") or ""
    label = f"{publisher} via Yahoo Finance" if isinstance(publisher, str) and publisher else "Yahoo Finance"
    return Article(
        title=" ".join(title.split()),
        published=published,
        url=url,
        snippet=snippet(text if isinstance(text, str) else ""),
        source=label,
    )


def _live_news(ticker: str, count: int) -> list[Article]:
    import yfinance as yf

    quiet_yfinance()
    items = yf.Ticker(ticker).get_news(count=count)
    articles = [a for a in (parse_yahoo_item(i) for i in items or []) if a is not None]
    return articles


# ------------------------------------------------------------------------------------ recorded


def _store_articles(
    conn: psycopg.Connection[Any], ticker: str, since: date | None, limit: int
) -> list[Article]:
    """Newest kind='news' documents of the store (a failure leaves conn usable)."""
    articles = []
    for doc_id, title, published, source_uri, text in recent_news(conn, ticker, since, limit):
        url = source_uri if isinstance(source_uri, str) and source_uri.startswith("http") else None
        articles.append(
            Article(
                title=title,
                published=_aware(published) if isinstance(published, datetime) else None,
                url=url,
                snippet=snippet(text or ""),
                source=f"finagent store, news document {doc_id}",
            )
        )
    return articles


def news_files(ticker: str, directory: Path | None) -> list[Path]:
    """``<TICKER>.csv`` / ``<TICKER>_*.csv`` (or .jsonl) in the news folder belong to that ticker."""
    if directory is None or not directory.is_dir():
        return []
    found = []
    for path in sorted(directory.iterdir()):
        stem = path.stem.upper()
        if path.suffix.lower() in _NEWS_SUFFIXES and (stem == ticker or stem.startswith(ticker + "_")):
            found.append(path)
    return found


@lru_cache(maxsize=16)
def _file_articles(path_text: str, mtime_ns: int, size: int) -> tuple[tuple[str | None, Article], ...]:
    """(ticker, article) for every real article of a news file; placeholder rows are skipped."""
    from finagent.ingest.news import discover_news

    path = Path(path_text)
    out = []
    for item in discover_news(path):
        try:
            doc = item.load()
        except ParseError:  # placeholder text ("0", "2"), undated row, not a news file ...
            continue
        row = doc.metadata.get("row")
        body = doc.blocks[0].text if doc.blocks else ""
        url = doc.source_uri if doc.source_uri.startswith("http") else None
        article = Article(
            title=doc.title,
            published=doc.published_at,
            url=url,
            snippet=snippet(body),
            source=f"recorded news {path.name}" + (f" row {row}" if row is not None else ""),
        )
        out.append((doc.ticker, article))
    return tuple(out)


def _recorded_file_articles(ticker: str, paths: list[Path]) -> list[Article]:
    articles: list[Article] = []
    for path in paths:
        try:
            stat = path.stat()
            rows = _file_articles(str(path), stat.st_mtime_ns, stat.st_size)
        except (OSError, ParseError) as exc:
            log.warning("skipping unreadable news file %s: %s", path, exc)
            continue
        articles.extend(a for t, a in rows if t in (None, ticker))
    return articles


# ---------------------------------------------------------------------------------------- tool


def _from_store(articles: list[Article]) -> bool:
    return any(a.source.startswith("finagent store") for a in articles)


def _result(ticker: str, articles: list[Article], **fields: Any) -> ToolResult:
    newest = articles[0].published if articles and articles[0].published else None
    return ToolResult(
        tool="company_news",
        ticker=ticker,
        ok=bool(articles),
        data={"articles": [a.as_json() for a in articles], "count": len(articles)},
        as_of=newest.date().isoformat() if newest else None,
        **fields,
    )


def get_company_news(
    ticker: str,
    settings: Settings,
    *,
    limit: int = 5,
    since: date | None = None,
    conn: psycopg.Connection[Any] | None = None,
) -> ToolResult:
    """Newest articles about ``ticker`` (at most ``limit``, none older than ``since``), newest first."""
    try:
        symbol = normalize_ticker(str(ticker))
    except FinagentError as exc:
        return ToolResult(tool="company_news", ok=False, warning=str(exc), data={"input": str(ticker)})
    try:
        limit = max(1, min(int(limit), MAX_LIMIT))
    except (TypeError, ValueError):
        limit = 5
    if isinstance(since, datetime):
        since = since.date()
    try:
        return _company_news(symbol, settings, limit, since, conn)
    except Exception as exc:  # last resort: a tool answers, it does not crash the agent
        log.exception("company_news failed for %s", symbol)
        return ToolResult(tool="company_news", ticker=symbol, ok=False, warning=f"internal error: {exc}")


def _company_news(
    ticker: str, settings: Settings, limit: int, since: date | None, conn: psycopg.Connection[Any] | None
) -> ToolResult:
    """Live news when the network answers with some; else the recorded news, saying why."""
    online, reason = network.network_status(settings)
    if online:
        live, reason = _live_result(ticker, settings, limit, since)
        if live is not None:
            return live
    return _recorded_result(ticker, settings, limit, since, conn, reason)


def _live_result(
    ticker: str, settings: Settings, limit: int, since: date | None
) -> tuple[ToolResult | None, str]:
    """Yahoo Finance's newest articles, or no result and why (timed out, none, failed)."""
    try:
        found = network.run_with_timeout(
            lambda: _live_news(ticker, max(limit * 2, 10)), settings.tool_timeout, name="yf-news"
        )
        live = _newest_first([a for a in found if _since_ok(a, since)])[:limit]
        if not live:
            raise NoLiveNews(
                f"Yahoo Finance returned no news for {ticker}" + (f" since {since}" if since else "")
            )
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        return _result(ticker, live, source=f"Yahoo Finance news via yfinance (live, {stamp})"), ""
    except TimeoutError:
        reason = f"Yahoo Finance did not answer within {settings.tool_timeout:g} s"
        network.mark_unreachable(reason)
        return None, reason
    except NoLiveNews as exc:
        return None, str(exc)
    except Exception as exc:  # any live failure: answer from recorded news
        return None, f"Yahoo Finance news request failed ({short_error(exc)})"


def _recorded_result(
    ticker: str,
    settings: Settings,
    limit: int,
    since: date | None,
    conn: psycopg.Connection[Any] | None,
    reason: str,
) -> ToolResult:
    """The newest recorded articles (the store's and the news files'), marked offline with the reason."""
    notes: list[str] = []
    sources: list[str] = []
    articles: list[Article] = []
    if conn is not None:
        try:
            stored = _store_articles(conn, ticker, since, limit)
            articles.extend(stored)
            sources.append("finagent store (kind='news')")
        except psycopg.Error as exc:
            notes.append(f"store unavailable ({type(exc).__name__}: {str(exc).strip()[:120]})")
    folder = news_data_dir(settings)
    files = news_files(ticker, folder)
    if files:
        articles.extend(a for a in _recorded_file_articles(ticker, files) if _since_ok(a, since))
        sources.append(", ".join(display_path(p) for p in files))
    unique: dict[str, Article] = {}
    for article in _newest_first(articles):
        unique.setdefault(article.key(), article)
    chosen = list(unique.values())[:limit]
    why = "offline mode" if settings.offline else f"live news unavailable ({reason})"
    if not chosen:
        store = "no matching articles" if conn is not None else "not connected"
        if files:
            listed = f"no matching articles in {', '.join(p.name for p in files)}"
        else:
            missing = "" if folder.is_dir() else " (folder missing)"
            listed = f"none for {ticker} in {display_path(folder)}{missing}"
        window = f" since {since}" if since else ""
        cause = "offline" if settings.offline else why
        message = (
            f"no news for {ticker}{window}: {cause} and no recorded news (store: {store}; files: {listed})"
        )
        return ToolResult(
            tool="company_news",
            ticker=ticker,
            ok=False,
            offline=True,
            source="; ".join(sources),
            warning="; ".join([message, *notes]),
        )
    newest = chosen[0].published.date().isoformat() if chosen[0].published else "unknown"
    used = [src for src in sources if src.startswith("finagent store")] if _from_store(chosen) else []
    used += [
        display_path(p) for p in files if any(a.source.startswith(f"recorded news {p.name}") for a in chosen)
    ]
    source = f"recorded news: {' and '.join(used)} (offline; newest {newest})"
    notes.insert(0, f"{why}: recorded articles, newest from {newest}; not live news")
    return _result(ticker, chosen, source=source, offline=True, warning="; ".join(notes))
