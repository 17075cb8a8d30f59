"""News articles from CSV or JSON Lines: one document per article.

The file is read once, in ``discover_news``; each row becomes a SourceItem whose ``load``
returns the article or raises ParseError for that row alone (empty text, undated, ...), so one
bad row never hides the others. Column names are matched case-insensitively (``Date``/``date``,
``Url``/``link``, ``Text``/``content``/``body``, ``Ticker``/``symbol``, ``Title``/``headline``);
without a ticker column the ticker is the file-name prefix (``AAPL_2023_2024.csv`` -> AAPL).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from finagent.errors import ParseError, SkipDocument
from finagent.finance.company_registry import lookup_builtin
from finagent.finance.dates import MONTHS
from finagent.finance.document_records import Block, ParsedDocument, SourceItem, sha256_bytes, unusable_item
from finagent.finance.fiscal import fiscal_period

_ALIASES: dict[str, tuple[str, ...]] = {
    "date": ("date", "published", "published_at", "datetime", "time", "timestamp", "pub_date"),
    "url": ("url", "link", "source_url", "href"),
    "text": ("text", "content", "body", "article", "article_text"),
    "ticker": ("ticker", "symbol", "stock_symbol"),
    "title": ("title", "headline"),
}
# A text that carries no letters ("0", "2", "-") is a placeholder, not an article.
_HAS_WORDS = re.compile(r"[A-Za-z]{2}")
_TICKER_PREFIX = re.compile(r"^([A-Za-z]{1,5}(?:\.[A-Za-z])?)(?:[_\-\s]|$)")
_MAX_TITLE = 200

# --------------------------------------------------------------------------- dates

_TZ_OFFSETS = {
    "UTC": 0,
    "GMT": 0,
    "Z": 0,
    "EST": -5,
    "EDT": -4,
    "ET": -5,
    "CST": -6,
    "CDT": -5,
    "CT": -6,
    "MST": -7,
    "MDT": -6,
    "PST": -8,
    "PDT": -7,
    "PT": -8,
}
_MONTH_DATE = re.compile(
    r"^(?P<month>[A-Za-z]{3,9})\.?\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})"
    r"(?:\s*(?:—|–|-|,|\||@|at)?\s*"
    r"(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?)?"
    r"\s*(?P<tz>[A-Za-z]{1,4})?\s*$"
)


def parse_news_date(raw: str) -> datetime | None:
    """Parse "January 25, 2024 — 03:33 am EST", "FEB 2, 2024 9:32AM EST", "JAN 05, 2023", ISO.

    Returns a timezone-aware datetime (date-only values are midnight UTC), or None when the value
    is not an absolute date (e.g. "5 DAYS AGO").
    """
    text = " ".join(raw.replace("\u2014", " — ").split()).strip()
    if not text:
        return None
    iso = text.replace("Z", "+00:00") if text.endswith("Z") else text
    try:
        parsed = datetime.fromisoformat(iso)
    except ValueError:
        parsed = None
    if parsed is not None:
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    m = _MONTH_DATE.match(text.replace(" — ", " "))
    if not m:
        return None
    month = MONTHS.get(m.group("month").lower())
    if month is None:
        return None
    hour = int(m.group("hour") or 0)
    minute = int(m.group("minute") or 0)
    second = int(m.group("second") or 0)
    ampm = (m.group("ampm") or "").lower().replace(".", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    tz_name = (m.group("tz") or "").upper()
    if tz_name and tz_name not in _TZ_OFFSETS:
        return None
    tz = timezone(timedelta(hours=_TZ_OFFSETS.get(tz_name, 0)))
    try:
        return datetime(int(m.group("year")), month, int(m.group("day")), hour, minute, second, tzinfo=tz)
    except ValueError:
        return None


# --------------------------------------------------------------------------- reading


def _read_rows(path: Path) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """All rows as dicts (keys lower-cased) plus (row index, error) for unreadable JSON lines."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as exc:
            raise ParseError(str(path), f"text is neither UTF-8 nor Windows-1252 (byte {exc.start})") from exc
    rows: list[dict[str, Any]] = []
    errors: list[tuple[int, str]] = []
    if path.suffix.lower() in {".jsonl", ".ndjson"}:
        index = 0
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("not a JSON object")
                rows.append({str(k).strip().lower(): v for k, v in obj.items()})
            except ValueError as exc:
                rows.append({})
                errors.append((index, f"invalid JSON: {exc}"))
            index += 1
        return rows, errors
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        for row in reader:
            rows.append({str(k).strip().lower(): v for k, v in row.items() if k is not None})
    except csv.Error as exc:
        raise ParseError(str(path), f"invalid CSV: {exc}") from exc
    return rows, errors


def _field(row: dict[str, Any], name: str) -> str:
    for key in _ALIASES[name]:
        value = row.get(key)
        if value is not None and str(value).strip():
            return str(value).strip()
    return ""


def _has_column(rows: list[dict[str, Any]], name: str) -> bool:
    return any(key in row for row in rows for key in _ALIASES[name])


def discover_news(path: Path, *, ticker: str | None = None) -> list[SourceItem]:
    """One lazily-built article per row of a CSV/JSONL file, read once here.

    A file that cannot be read, or that has no text column (e.g. a price CSV), yields a single
    item whose ``load`` raises ParseError, so the caller reports it instead of crashing.
    """
    path = Path(path)
    try:
        rows, errors = _read_rows(path)
    except ParseError as exc:
        return [unusable_item(str(path), exc.reason, kind_hint="news")]
    except OSError as exc:
        return [unusable_item(str(path), f"cannot read file: {exc.strerror or exc}", kind_hint="news")]
    if not rows:
        return [unusable_item(str(path), "no rows", kind_hint="news")]
    if not _has_column(rows, "text"):
        columns = sorted({k for row in rows[:5] for k in row})
        reason = f"not a news file: no text column (columns: {', '.join(columns)})"
        return [unusable_item(str(path), reason, kind_hint="news", skip=True)]
    default_ticker = ticker.strip().upper().lstrip("$") if ticker else _ticker_from_name(path)
    bad = dict(errors)
    items: list[SourceItem] = []
    for index, row in enumerate(rows):
        uri = f"{path}#{index}"
        if index in bad:
            items.append(unusable_item(uri, bad[index], kind_hint="news"))
            continue
        items.append(SourceItem(uri=uri, load=_loader(path, index, row, default_ticker), kind_hint="news"))
    return items


def _ticker_from_name(path: Path) -> str | None:
    m = _TICKER_PREFIX.match(path.stem)
    if not m:
        return None
    company = lookup_builtin(m.group(1))
    return company.ticker if company else m.group(1).upper()


def _loader(path: Path, index: int, row: dict[str, Any], ticker: str | None) -> Callable[[], ParsedDocument]:
    def load() -> ParsedDocument:
        try:
            return _article(path, index, row, ticker)
        except ParseError:
            raise
        except Exception as exc:  # one odd row must not escape as anything but ParseError
            raise ParseError(f"{path}#{index}", f"{type(exc).__name__}: {exc}") from exc

    return load


# --------------------------------------------------------------------------- articles


def _title_from_url(url: str) -> str | None:
    """Readable title from a URL slug: ".../could-apple-acquire-peloton-in-2024" -> "Could apple ..."."""
    slug = unquote(urlparse(url).path.rstrip("/").rsplit("/", 1)[-1])
    slug = re.sub(r"\.(html?|php|aspx?)$", "", slug)
    slug = re.sub(r"-\d{1,3}$", "", slug)  # de-duplication suffix ("...-offing-1")
    words = [w for w in re.split(r"[-_]+", slug) if w]
    if len(words) < 3:
        return None
    title = " ".join(words)
    return title[:1].upper() + title[1:]


def _article(path: Path, index: int, row: dict[str, Any], default_ticker: str | None) -> ParsedDocument:
    uri = f"{path}#{index}"
    text = _field(row, "text").replace("\r\n", "\n").replace("\r", "\n")
    if not text or not _HAS_WORDS.search(text):
        shown = f" ({text!r})" if text else ""
        raise SkipDocument(uri, f"empty article text{shown}")
    raw_date = _field(row, "date")
    if not raw_date:
        raise ParseError(uri, "no date")
    published = parse_news_date(raw_date)
    if published is None:
        raise ParseError(uri, f"unparseable date {raw_date!r}")
    url = _field(row, "url")
    ticker_raw = _field(row, "ticker") or default_ticker
    company = lookup_builtin(ticker_raw) if ticker_raw else None
    ticker = company.ticker if company else (ticker_raw.upper() if ticker_raw else None)
    metadata: dict[str, Any] = {"file": str(path), "row": index, "date_raw": raw_date}
    if url:
        metadata["url"] = url
    for key, value in row.items():
        if key not in {a for names in _ALIASES.values() for a in names} and value not in (None, ""):
            metadata.setdefault(f"column_{key}", value)
    fye = company.fiscal_year_end_month if company else 12
    if company is None:
        metadata["fiscal_calendar_assumed"] = True
    # The quarter the article falls in; mid-month avoids the period-end spill-over rule.
    day: date = published.date()
    fiscal_year, fiscal_quarter = fiscal_period(
        day.replace(day=15), fye, company.fiscal_year_offset if company else 0
    )

    first_line = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
    title = _field(row, "title") or (_title_from_url(url) if url else None) or first_line
    if len(title) > _MAX_TITLE:
        title = title[: _MAX_TITLE - 1].rstrip() + "…"
    paragraphs = [p.strip() for p in re.split(r"\n+", text) if p.strip()]
    body = "\n\n".join(paragraphs)
    digest = sha256_bytes(f"{url}\n{body}".encode())
    return ParsedDocument(
        kind="news",
        title=title,
        source_uri=url or uri,
        content_sha256=digest,
        blocks=[Block(text=body, section="article", section_title=title, metadata={})],
        ticker=ticker,
        company_name=company.name if company else None,
        fiscal_year=fiscal_year,
        fiscal_quarter=fiscal_quarter,
        period_end=None,
        published_at=published,
        fiscal_year_end_month=company.fiscal_year_end_month if company else None,
        metadata=metadata,
    )
