"""Earnings-call transcripts: one Block per speaker turn, tagged prepared remarks or Q&A.

Three manifest formats are understood (see ``../shared/data/transcripts``):

* ``{ticker, call_date, title}`` (Refinitiv-style "bigtech" files): the title's "Q1 2022" is the
  company's *fiscal* quarter; speaker turns are lines like
  ``Timothy D. Cook,  Apple Inc. - CEO & Director    [3]``.
* ``{ticker, fiscal_year, fiscal_quarter, file}`` ("amzn" files): one long line where turns are
  glued to the previous sentence (``...Please go ahead.Dave Fildes: Hello...``).
* ``{ticker, call_date, file}`` ("maec" files): prepared remarks, one sentence per line, no
  speakers and no quarter; the quarter reported is derived from the call date (the latest
  quarter that ended before the call) and flagged ``fiscal_period_derived``.

A transcript that never mentions its company is refused: some "AMZN" files of the amzn set are
in fact Whole Foods Market calls, and ingesting them under Amazon would poison answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from finagent.errors import ParseError, SkipDocument
from finagent.finance.company_registry import Company, lookup_builtin, normalize_name
from finagent.finance.document_records import Block, ParsedDocument, SourceItem, sha256_bytes, unusable_item
from finagent.finance.fiscal import fiscal_period, last_quarter_end_before, quarter_end
from finagent.ingest.transcript_formats import (
    INLINE_SPEAKER,
    SPEAKER_LINE,
    inline_blocks,
    refinitiv_blocks,
    sentence_blocks,
)

# A full call names its company many times (>= 9 in every real file here); a file that names it
# less than this is another company's call filed under the wrong ticker.
_MIN_MENTIONS = 3

# --------------------------------------------------------------------------- shared helpers


def decode_text(data: bytes, path: str) -> str:
    """UTF-8 (BOM allowed), else Windows-1252, else ParseError: never guess silently."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise ParseError(
            path, f"text is neither UTF-8 nor Windows-1252 ({exc.reason} at byte {exc.start})"
        ) from exc


def as_utc(day: date) -> datetime:
    """Date-only timestamps are stored as midnight UTC (the store's column is timestamptz)."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def company_terms(company: Company) -> list[str]:
    """Lower-case strings whose presence shows a text is about ``company``."""
    terms = {company.ticker.lower(), normalize_name(company.name)}
    terms.update(alias.lower() for alias in company.aliases if len(alias) > 2)
    return sorted(t for t in terms if len(t) > 2)


# --------------------------------------------------------------------------- manifest entries


@dataclass(slots=True)
class _Entry:
    """One transcript as described by its manifest row (or its file name)."""

    file: Path
    ticker: str | None
    call_date: date | None = None
    title: str | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    fmt: str = "unknown"  # "bigtech" | "amzn" | "maec" | "unknown"
    extra: dict[str, Any] = field(default_factory=dict)


_TITLE_QUARTER = re.compile(r"\bQ([1-4])\s*(?:FY\s*)?'?(\d{4}|\d{2})\b", re.I)
_NAME_PATTERNS = (
    re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})-(?P<ticker>[A-Za-z.]+)$"),
    re.compile(r"^(?P<ticker>[A-Za-z.]+)_Q(?P<q>[1-4])_(?P<fy>\d{4})$"),
    re.compile(r"^(?P<ticker>[A-Za-z.]+)_(?P<compact>\d{8})$"),
)


def _entry_from_row(directory: Path, row: dict[str, Any]) -> _Entry:
    for name in ("file", "ticker", "call_date", "title"):
        if row.get(name) is not None and not isinstance(row[name], str):
            raise ValueError(f"'{name}' must be text, not {type(row[name]).__name__}")
    relative = Path(row["file"])
    if relative.is_absolute() or ".." in relative.parts:
        raise ValueError(f"file '{row['file']}' is outside the manifest's folder")
    file = directory / relative
    ticker = str(row["ticker"]).strip().upper() if row.get("ticker") else None
    entry = _Entry(file=file, ticker=ticker)
    if row.get("call_date"):
        entry.call_date = date.fromisoformat(str(row["call_date"])[:10])
    if row.get("title"):
        entry.title = str(row["title"]).strip()
        entry.fmt = "bigtech"
        m = _TITLE_QUARTER.search(entry.title)
        if m:
            year = int(m.group(2))
            entry.fiscal_year = year + 2000 if year < 100 else year
            entry.fiscal_quarter = int(m.group(1))
    elif row.get("fiscal_year") is not None and row.get("fiscal_quarter") is not None:
        entry.fiscal_year = int(row["fiscal_year"])
        entry.fiscal_quarter = int(row["fiscal_quarter"])
        entry.fmt = "amzn"
    elif entry.call_date:
        entry.fmt = "maec"
    if row.get("provider_header"):
        entry.extra["provider"] = str(row["provider_header"])
    return entry


def _entry_from_name(file: Path) -> _Entry | None:
    for rx in _NAME_PATTERNS:
        m = rx.match(file.stem)
        if not m:
            continue
        groups = m.groupdict()
        entry = _Entry(file=file, ticker=groups["ticker"].upper())
        try:
            if groups.get("date"):
                entry.call_date = date.fromisoformat(groups["date"])
            if groups.get("compact"):
                entry.call_date = datetime.strptime(groups["compact"], "%Y%m%d").date()
        except ValueError:
            return None
        if groups.get("fy"):
            entry.fiscal_year, entry.fiscal_quarter = int(groups["fy"]), int(groups["q"])
        return entry
    return None


def discover_transcripts(path: Path) -> list[SourceItem]:
    """Transcripts in a directory (or the directory of a ``manifest.json`` path).

    Manifest rows name the files; a row that cannot be read, or a missing manifest with file
    names that say nothing, turns into an item whose ``load`` raises ParseError.
    """
    path = Path(path)
    directory = path.parent if path.is_file() else path
    manifest = directory / "manifest.json"
    items: list[SourceItem] = []
    if manifest.is_file():
        try:
            rows = json.loads(manifest.read_text(encoding="utf-8-sig"))
            if not isinstance(rows, list):
                raise ValueError("expected a JSON list")
        except (OSError, ValueError) as exc:
            return [unusable_item(str(manifest), f"unreadable manifest: {exc}", kind_hint="transcript")]
        for index, row in enumerate(rows):
            uri = str(directory / str(row.get("file", f"<row {index}>"))) if isinstance(row, dict) else ""
            try:
                if not isinstance(row, dict) or not row.get("file"):
                    raise ValueError("row has no 'file'")
                entry = _entry_from_row(directory, row)
            except (ValueError, TypeError) as exc:
                items.append(
                    unusable_item(
                        uri or f"{manifest}#{index}",
                        f"bad manifest row {index}: {exc}",
                        kind_hint="transcript",
                    )
                )
                continue
            items.append(SourceItem(uri=str(entry.file), load=_loader(entry), kind_hint="transcript"))
        return items
    for file in sorted(directory.glob("*.txt")):
        named = _entry_from_name(file)
        if named is None:
            items.append(
                unusable_item(
                    str(file),
                    "no manifest.json and the file name gives no ticker/date",
                    kind_hint="transcript",
                )
            )
        else:
            items.append(SourceItem(uri=str(file), load=_loader(named), kind_hint="transcript"))
    return items


def _loader(entry: _Entry) -> Callable[[], ParsedDocument]:
    def load() -> ParsedDocument:
        return load_transcript(entry)

    return load


# --------------------------------------------------------------------------- loading


def load_transcript(entry: _Entry) -> ParsedDocument:
    """Parse one transcript file; every failure becomes ParseError."""
    uri = str(entry.file)
    try:
        data = entry.file.read_bytes()
    except OSError as exc:
        raise ParseError(uri, f"cannot read file: {exc.strerror or exc}") from exc
    if not data.strip():
        raise ParseError(uri, "empty file")
    try:
        return _build(entry, data)
    except ParseError:
        raise
    except Exception as exc:  # a parser bug must still be reported as this file's failure
        raise ParseError(uri, f"{type(exc).__name__}: {exc}") from exc


def _build(entry: _Entry, data: bytes) -> ParsedDocument:
    uri = str(entry.file)
    text = decode_text(data, uri).replace("\r\n", "\n").replace("\r", "\n").replace("\x85", "\n")
    if not entry.ticker:
        raise ParseError(uri, "no ticker in the manifest row or file name")
    company = lookup_builtin(entry.ticker)
    ticker = company.ticker if company else entry.ticker
    metadata: dict[str, Any] = {"file": uri, "format": entry.fmt, **entry.extra}
    if company and company.ticker != entry.ticker:
        metadata["source_ticker"] = entry.ticker
    fye = company.fiscal_year_end_month if company else None
    offset = company.fiscal_year_offset if company else 0
    if fye is None:
        metadata["fiscal_calendar_assumed"] = True
    fmt = entry.fmt if entry.fmt != "unknown" else _sniff_format(text)
    blocks, header = _blocks(text, fmt, uri)
    if company and fmt != "maec":
        _check_mentions(company, text, uri)
    fiscal_year, fiscal_quarter, period_end = _call_period(entry, fye, offset, metadata)
    published = _published_at(entry, header, text, period_end)
    title = entry.title or _title(
        entry, company.name if company else ticker, fiscal_year, fiscal_quarter, fmt
    )
    if entry.call_date:
        metadata["call_date"] = entry.call_date.isoformat()
    return ParsedDocument(
        kind="transcript",
        title=title,
        source_uri=uri,
        content_sha256=sha256_bytes(data),
        blocks=blocks,
        ticker=ticker,
        company_name=company.name if company else None,
        fiscal_year=fiscal_year,
        fiscal_quarter=fiscal_quarter,
        period_end=period_end,
        published_at=published,
        fiscal_year_end_month=fye,
        metadata=metadata,
    )


def _blocks(text: str, fmt: str, uri: str) -> tuple[list[Block], dict[str, Any]]:
    """The transcript's blocks in its format, and what its header says; ParseError when none has text."""
    if fmt == "bigtech":
        blocks, header = refinitiv_blocks(text)
    elif fmt == "maec":
        blocks, header = sentence_blocks(text), {}
    else:
        blocks, header = inline_blocks(text)
    if not any(b.text.strip() for b in blocks):
        raise ParseError(uri, "no transcript text found")
    return blocks, header


def _check_mentions(company: Company, text: str, uri: str) -> None:
    """Skip a transcript that hardly names its company: the manifest's ticker is likely wrong."""
    lowered = text.lower()
    mentions = sum(lowered.count(term) for term in company_terms(company))
    needed = _MIN_MENTIONS if len(text) > 5000 else 1
    if mentions < needed:
        raise SkipDocument(
            uri,
            f"transcript mentions {company.name} ({company.ticker}) {mentions} time(s); "
            "the manifest ticker looks wrong (another company's call?)",
        )


def _call_period(
    entry: _Entry, fye: int | None, offset: int, metadata: dict[str, Any]
) -> tuple[int | None, int | None, date | None]:
    """(fiscal year, quarter, nominal period end): as the entry names them, else the quarter that
    ended last before the call; ``metadata`` notes which."""
    fiscal_year, fiscal_quarter = entry.fiscal_year, entry.fiscal_quarter
    period_end: date | None = None
    if fiscal_year is None and entry.call_date is not None:
        period_end = last_quarter_end_before(entry.call_date, fye or 12)
        fiscal_year, fiscal_quarter = fiscal_period(period_end, fye or 12, offset)
        metadata["fiscal_period_derived"] = True
    elif fiscal_year is not None and fiscal_quarter is not None:
        period_end = quarter_end(fiscal_year, fiscal_quarter, fye or 12, offset)
    if period_end is not None:
        metadata["period_end_nominal"] = True  # month end; 52/53-week quarters end a few days off
    return fiscal_year, fiscal_quarter, period_end


def _title(entry: _Entry, name: str, fiscal_year: int | None, fiscal_quarter: int | None, fmt: str) -> str:
    """'Q3 2023 Apple Inc. Earnings Call' (the call date when the quarter is not known)."""
    label = f"Q{fiscal_quarter} {fiscal_year} " if fiscal_year and fiscal_quarter else ""
    suffix = " (prepared remarks)" if fmt == "maec" else ""
    when = f" {entry.call_date.isoformat()}" if entry.call_date and not label else ""
    return f"{label}{name} Earnings Call{when}{suffix}"


def _sniff_format(text: str) -> str:
    if SPEAKER_LINE.search(text):
        return "bigtech"
    if INLINE_SPEAKER.search(text[:3000]):
        return "amzn"
    return "maec"


_AS_OF_TODAY = re.compile(
    r"as of today,?\s+((?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\s+\d{1,2},?\s+\d{4})"
)


def _published_at(
    entry: _Entry, header: dict[str, Any], text: str, period_end: date | None
) -> datetime | None:
    """Call time from the transcript header when it agrees with the call date, else the date."""
    stamp = header.get("datetime")
    if isinstance(stamp, datetime) and (
        entry.call_date is None or abs((stamp.date() - entry.call_date).days) <= 1
    ):
        return stamp
    if entry.call_date:
        return as_utc(entry.call_date)
    m = _AS_OF_TODAY.search(text)
    if m:
        try:
            said = datetime.strptime(m.group(1).replace(",", ""), "%B %d %Y").date()
        except ValueError:
            return None
        if period_end is None or timedelta(0) < said - period_end < timedelta(days=120):
            return as_utc(said)
    return None


# --------------------------------------------------------------------------- Refinitiv format


# --------------------------------------------------------------------------- inline format


# --------------------------------------------------------------------------- sentence format
