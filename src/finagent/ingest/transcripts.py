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

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from finagent.errors import ParseError, SkipDocument
from finagent.finance.companies import Company, lookup_builtin, normalize_name
from finagent.finance.documents import Block, ParsedDocument, SourceItem, sha256_bytes, unusable_item
from finagent.finance.fiscal import fiscal_period, last_quarter_end_before, quarter_end

PREPARED = "prepared_remarks"
QA = "qa"
PARTICIPANTS = "participants"
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
    if fmt == "bigtech":
        blocks, header = _refinitiv_blocks(text)
    elif fmt == "maec":
        blocks, header = _sentence_blocks(text), {}
    else:
        blocks, header = _inline_blocks(text)
    if not any(b.text.strip() for b in blocks):
        raise ParseError(uri, "no transcript text found")
    if company and fmt != "maec":
        lowered = text.lower()
        mentions = sum(lowered.count(term) for term in company_terms(company))
        needed = _MIN_MENTIONS if len(text) > 5000 else 1
        if mentions < needed:
            raise SkipDocument(
                uri,
                f"transcript mentions {company.name} ({ticker}) {mentions} time(s); "
                "the manifest ticker looks wrong (another company's call?)",
            )

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

    published = _published_at(entry, header, text, period_end)
    name = company.name if company else ticker
    title = entry.title
    if not title:
        label = f"Q{fiscal_quarter} {fiscal_year} " if fiscal_year and fiscal_quarter else ""
        suffix = " (prepared remarks)" if fmt == "maec" else ""
        when = f" {entry.call_date.isoformat()}" if entry.call_date and not label else ""
        title = f"{label}{name} Earnings Call{when}{suffix}"
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


def _sniff_format(text: str) -> str:
    if _SPEAKER_LINE.search(text):
        return "bigtech"
    if _INLINE_SPEAKER.search(text[:3000]):
        return "amzn"
    return "maec"


_AS_OF_TODAY = re.compile(
    r"as of today,?\s+((?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\s+\d{1,2},?\s+\d{4})"
)
_HEADER_TIME = re.compile(r"^([A-Za-z]+ \d{1,2}, \d{4}) / (\d{1,2}:\d{2}\s*[AP]M) (GMT|UTC)$", re.I)


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

_SPEAKER_LINE = re.compile(r"^(?P<who>[^\[\]\n]{2,200}?)\s+\[(?P<n>\d{1,4})\]\s*$", re.M)
_SECTION_MARKERS = {
    "presentation": PREPARED,
    "prepared remarks": PREPARED,
    "questions and answers": QA,
    "question and answer": QA,
    "question-and-answer session": QA,
    "q-and-a": QA,
    "q&a": QA,
}
_TRAILERS = {"definitions", "disclaimer"}
_PARTICIPANT_HEADINGS = {
    "corporate participants": "corporate",
    "conference call participants": "analyst",
    "conference call participiants": "analyst",
}
_SUFFIX_PARTS = {"jr.", "jr", "sr.", "sr", "ii", "iii", "iv", "phd", "ph.d."}


def _split_speaker(who: str) -> tuple[str, str | None, str | None]:
    """ "Timothy D. Cook,  Apple Inc. - CEO & Director" into (name, company, role)."""
    parts = [p.strip() for p in who.split(",")]
    name = parts[0]
    rest = parts[1:]
    while rest and rest[0].lower() in _SUFFIX_PARTS:
        name = f"{name}, {rest.pop(0)}"
    affiliation = ", ".join(p for p in rest if p).strip().rstrip("-").strip().rstrip(",").strip()
    if ";" in name:  # "Jensen Huang;Co-Founder, CEO, President & Director, -" (no company)
        name, title = (p.strip() for p in name.split(";", 1))
        role = ", ".join(p for p in (title, affiliation) if p)
        return name, None, role or None
    if not affiliation:
        return name, None, None
    if " - " in affiliation:
        org, role = affiliation.split(" - ", 1)
        return name, org.strip() or None, role.strip() or None
    return name, affiliation, None


def _refinitiv_blocks(text: str) -> tuple[list[Block], dict[str, Any]]:
    """Turns introduced by "Name, Company - Role    [n]" lines; header gives participants."""
    lines = text.split("\n")
    header_lines: list[str] = []
    participants: dict[str, str] = {}
    header: dict[str, Any] = {}
    turns: list[tuple[str, dict[str, Any], list[str]]] = []  # (section, speaker meta, lines)
    section: str | None = None
    kind_of_list: str | None = None
    saw_marker = False
    for raw in lines:
        line = raw.strip()
        lowered = line.lower()
        if lowered in _TRAILERS and turns:
            break
        if lowered in _SECTION_MARKERS:
            section = _SECTION_MARKERS[lowered]
            saw_marker = True
            continue
        m = _SPEAKER_LINE.match(line)
        if m:
            name, org, role = _split_speaker(m.group("who"))
            if name.lower() == "operator":
                participant: str | None = "operator"
            else:
                participant = participants.get(name) or (
                    "analyst" if role and "analyst" in role.lower() else None
                )
            meta: dict[str, Any] = {"speaker": name, "role": role}
            if org:
                meta["affiliation"] = org
            if participant:
                meta["participant"] = participant
            turns.append((section or PREPARED, meta, []))
            continue
        if turns:
            if line:
                turns[-1][2].append(line)
            continue
        # Header: title, date/time, participant lists.
        if not line:
            continue
        header_lines.append(line)
        if lowered in _PARTICIPANT_HEADINGS:
            kind_of_list = _PARTICIPANT_HEADINGS[lowered]
        elif line.startswith("*") and kind_of_list:
            participants[line.lstrip("* ").split(";", 1)[0].strip()] = kind_of_list
        stamp = _HEADER_TIME.match(line)
        if stamp and "datetime" not in header:
            with contextlib.suppress(ValueError):
                header["datetime"] = datetime.strptime(
                    f"{stamp.group(1)} {stamp.group(2).replace(' ', '')}", "%B %d, %Y %I:%M%p"
                ).replace(tzinfo=UTC)
    if not saw_marker:
        _mark_qa(turns)
    blocks: list[Block] = []
    if header_lines:
        blocks.append(
            Block(text="\n".join(header_lines), section=PARTICIPANTS, section_title="Call participants")
        )
    blocks += _turn_blocks(turns)
    return blocks, header


def _mark_qa(turns: list[tuple[str, dict[str, Any], list[str]]]) -> None:
    """Without explicit markers, Q&A starts at the operator's first call for questions after remarks."""
    spoke = False
    for i, (_, meta, lines) in enumerate(turns):
        is_operator = meta.get("participant") == "operator" or meta["speaker"].lower() == "operator"
        if is_operator and spoke and "question" in " ".join(lines).lower():
            for j in range(i, len(turns)):
                turns[j] = (QA, turns[j][1], turns[j][2])
            return
        if not is_operator:
            spoke = True


def _turn_blocks(turns: list[tuple[str, dict[str, Any], list[str]]]) -> list[Block]:
    blocks: list[Block] = []
    for turn_no, (section, meta, lines) in enumerate(turns):
        body = "\n\n".join(lines).strip()
        if not body:
            continue
        blocks.append(
            Block(
                text=body,
                section=section,
                section_title=meta["speaker"],
                metadata={**meta, "turn": turn_no},
            )
        )
    return blocks


# --------------------------------------------------------------------------- inline format

# "...Please go ahead.Dave Fildes: Hello" or "...Co.Justin Post - Bank of America: Great" -- a
# capitalised name (optionally " - affiliation") right after a sentence end, then a colon.
_INLINE_SPEAKER = re.compile(
    r"(?:(?<=[.?!\]\)\"'’”])|^)\s*"
    r"(?P<name>[A-Z][\w'’\-]*\.?(?:\s+(?:[A-Z][\w'’\-]*\.?|de|van|von|la|del)){0,4})"
    r"(?:\s+-\s+(?P<aff>[^:]{2,80}?))?:\s"
)
_HEADER_LABEL = re.compile(
    r"(Executives|Company Representatives|Company Participants|Corporate Participants|Analysts|"
    r"Conference Call Participants|Participants)\s*:"
)
_HEADER_KINDS = {"Analysts": "analyst", "Conference Call Participants": "analyst", "Participants": None}


def _inline_blocks(text: str) -> tuple[list[Block], dict[str, Any]]:
    """Turns glued inline ("...ahead.Dave Fildes: Hello..."), validated against the text."""
    flat = re.sub(r"\s*\n\s*", " ", text).strip()
    header, body = "", flat
    if _HEADER_LABEL.match(flat):
        # "Executives: ... Analysts: ...Operator: Good day" -- the call starts with the operator.
        op = flat.find("Operator:")
        if op > 0:
            header, body = flat[:op], flat[op:]
    segments: list[tuple[str, str]] = []  # (participant kind, header text listing those people)
    labels = list(_HEADER_LABEL.finditer(header))
    for i, m in enumerate(labels):
        kind = _HEADER_KINDS.get(m.group(1), "corporate")
        if kind:
            segments.append((kind, header[m.end() : labels[i + 1].start() if i + 1 < len(labels) else None]))

    candidates = list(_INLINE_SPEAKER.finditer(body))
    roles: dict[str, str] = {}
    for m in candidates:
        for kind, segment in segments:
            if f"{m.group('name')} -" in segment:
                roles.setdefault(m.group("name"), kind)
    seen: dict[str, int] = {}
    for m in candidates:
        seen[m.group("name")] = seen.get(m.group("name"), 0) + 1

    def plausible(name: str) -> bool:
        if name == "Operator" or name in roles or name in header or seen.get(name, 0) >= 2:
            return True
        return len(name.split()) >= 2 and flat.count(name) >= 2

    turns_at = [m for m in candidates if plausible(m.group("name"))]
    turns: list[tuple[str, dict[str, Any], list[str]]] = []
    for i, m in enumerate(turns_at):
        end = turns_at[i + 1].start() if i + 1 < len(turns_at) else len(body)
        name = m.group("name")
        meta: dict[str, Any] = {"speaker": name, "role": None}
        if m.group("aff"):
            meta["affiliation"] = m.group("aff").strip()
        participant = "operator" if name == "Operator" else roles.get(name)
        if participant:
            meta["participant"] = participant
        turns.append((PREPARED, meta, [body[m.end() : end].strip()]))
    _mark_qa(turns)
    _infer_participants(turns)
    blocks: list[Block] = []
    preamble = (header + body[: turns_at[0].start()] if turns_at else flat).strip()
    if preamble and turns:
        blocks.append(Block(text=preamble, section=PARTICIPANTS, section_title="Call participants"))
    elif preamble:
        blocks.append(Block(text=preamble, section=PREPARED, section_title="Prepared remarks"))
    blocks += _turn_blocks(turns)
    return blocks, {}


def _infer_participants(turns: list[tuple[str, dict[str, Any], list[str]]]) -> None:
    """Fill missing participant kinds: remarks speakers are corporate, people the operator
    introduces in Q&A are analysts, and whoever answers them is corporate."""
    corporate = {m["speaker"] for s, m, _ in turns if s == PREPARED and m["speaker"] != "Operator"}
    corporate |= {m["speaker"] for _, m, _ in turns if m.get("participant") == "corporate"}
    analysts = {m["speaker"] for _, m, _ in turns if m.get("participant") == "analyst"}
    last_operator_text = ""
    asking: str | None = None  # the analyst whose question is being answered
    for section, meta, lines in turns:
        name = meta["speaker"]
        if meta.get("participant") == "operator" or name == "Operator":
            last_operator_text, asking = " ".join(lines), None
            continue
        if section == QA and asking is None and name not in corporate:
            introduced = name in last_operator_text or name.split()[-1] in last_operator_text
            if introduced or name in analysts:
                asking = name
        if meta.get("participant"):
            continue
        if name in corporate:
            meta["participant"] = "corporate"
        elif name == asking or name in analysts:
            meta["participant"] = "analyst"
        elif section == QA and asking is not None:
            meta["participant"] = "corporate"  # answering the analyst's question


# --------------------------------------------------------------------------- sentence format


def _sentence_blocks(text: str) -> list[Block]:
    """MAEC prepared remarks: one sentence per line, no speakers; kept as one block."""
    sentences = [line.strip() for line in text.split("\n") if line.strip()]
    if not sentences:
        return []
    return [Block(text="\n".join(sentences), section=PREPARED, section_title="Prepared remarks")]
