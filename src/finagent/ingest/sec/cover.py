"""Cover pages: what a filing is (form, period, company, ticker) from dei facts, the SGML header, and
the cover text of HTML and PDF filings (one cover reader, ``parse_cover``, for both)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from finagent.finance.company_registry import Company, lookup_builtin
from finagent.finance.dates import parse_date
from finagent.finance.fact_records import FiscalCalendar
from finagent.finance.fiscal import fiscal_period, fiscal_year_of_annual, nominal_month_end, quarter_label
from finagent.finance.read.xbrl import filing_calendar, fye_month
from finagent.ingest.hints import Hints
from finagent.ingest.html_text import Unit, norm_space
from finagent.ingest.sec.submission import SubmissionHeader
from finagent.ingest.text import DATE, normalize_text, parse_long_date


@dataclass(slots=True)
class _Meta:
    kind: str
    form: str
    form_base: str
    amendment: bool
    title: str
    ticker: str | None
    company_name: str | None
    fiscal_year: int | None
    fiscal_quarter: int | None
    period_end: date | None
    fye_month: int | None
    cik: str | None
    dei_fiscal_year: int | None = None
    computed_fiscal_year: int | None = None
    calendar: FiscalCalendar | None = None  # labels the filing's facts
    year_offset: int | None = None  # fiscal-year naming offset, when the filing or a built-in states it
    sources: dict[str, str] = field(default_factory=dict)  # field -> where it was read (dei, cover, ...)
    notes: list[str] = field(default_factory=list)  # user options that disagreed with the filing


FilingMeta = _Meta


def identity_metadata(meta: FilingMeta) -> dict[str, Any]:
    """A filing document's stored metadata on who filed what: where each field was read, the options
    that disagreed with the filing, an amendment, the CIK."""
    metadata: dict[str, Any] = {"metadata_sources": meta.sources}
    if meta.notes:
        metadata["identity_notes"] = meta.notes
    if meta.amendment:
        metadata["amendment"] = True
    if meta.cik:
        metadata["cik"] = meta.cik
    return metadata


def filing_metadata(dei: dict[str, str], path: Path, hints: Hints | None = None) -> FilingMeta:
    """Document metadata from dei cover facts alone (XBRL instance documents have no cover text)."""
    return read_metadata(dei, None, [], path, hints)


_FORM_BASE = re.compile(r"^(10-K|10-Q|8-K|20-F|40-F|6-K)", re.I)


_SEC_COMMISSION = re.compile(r"securities\s+and\s+exchange\s+commission", re.I)


def _cover_text(units: list[Unit], limit: int = 20_000) -> str:
    parts: list[str] = []
    n = 0
    for u in units:
        parts.append(u.text)
        n += len(u.text)
        if n > limit:
            break
    return "\n".join(parts)


def has_cover_text(units: list[Unit]) -> bool:
    text = _cover_text(units)
    return bool(_FORM_RX.search(text) and _SEC_COMMISSION.search(text))


@dataclass(slots=True)
class _Identity:
    """Company, form and date of a filing, each with the source it was read from."""

    form: str = ""
    ticker: str | None = None
    company_name: str | None = None
    period_end: date | None = None
    sources: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def take(self, name: str, candidates: list[tuple[str, Any]]) -> None:
        """The first candidate that has a value, and where it came from."""
        for source, value in candidates:
            if value:
                setattr(self, name, value)
                self.sources[name] = source
                return

    def offer(self, name: str, option: str, value: Any) -> None:
        """A user option: it fills a missing field and wins over what was read from the text (header,
        cover, folder), but never over the filing's own dei facts; a disagreement is noted."""
        if not value:
            return
        current, source = getattr(self, name), self.sources.get(name)
        shown = value.isoformat() if isinstance(value, date) else value
        was = current.isoformat() if isinstance(current, date) else current
        if current and current != value and source == "dei":
            self.notes.append(f"{option} {shown} ignored: the filing's dei facts say {was}")
            return
        if current and current != value:
            self.notes.append(f"{option} {shown} used instead of {was} read from the {source}")
        setattr(self, name, value)
        self.sources[name] = "option"


def read_identity(
    dei: dict[str, str],
    header: SubmissionHeader | None,
    cover: CoverInfo,
    path: Path,
    hints: Hints | None = None,
) -> _Identity:
    """Company, form and date of a filing, from (in order) its dei facts, the SGML header of its
    submission, its cover page, the sec-edgar-downloader folder it sits in, then the user's options
    (which fill gaps and overrule all but dei facts; see ``_Identity.offer``)."""
    folder_ticker, folder_form = downloader_identity(path)
    found = _Identity()
    found.take(
        "form",
        [
            ("dei", (dei.get("DocumentType") or "").upper().strip()),
            ("sgml header", (header.form or "").upper().strip() if header else ""),
            ("cover", cover.form),
            ("folder", folder_form),
        ],
    )
    found.take("ticker", [("dei", dei_symbol(dei.get("TradingSymbol"))), ("cover", cover.trading_symbol)])
    found.take(
        "company_name",
        [
            ("dei", dei.get("EntityRegistrantName")),
            ("sgml header", header.company if header else None),
            ("cover", cover.company_name),
        ],
    )
    # An 8-K is dated by its event ("Date of Report"), a periodic report by the period it covers.
    cover_date = cover.event_date if found.form.startswith("8-K") else cover.period_end
    found.take(
        "period_end",
        [
            ("dei", _parse_date(dei.get("DocumentPeriodEndDate", ""))),
            ("sgml header", header.period if header else None),
            ("cover", cover_date),
        ],
    )
    if found.ticker is None:
        builtin = lookup_builtin(found.company_name) if found.company_name else None
        by_name = builtin.ticker if builtin else None
        found.take("ticker", [("company name", by_name), ("folder", folder_ticker)])
    if hints is not None:
        found.offer("form", "--form", normalize_form(hints.form))
        found.offer("ticker", "--ticker", hints.ticker.strip().upper().lstrip("$") if hints.ticker else None)
        found.offer("period_end", "--period-end", hints.period_end)
    return found


_DEI_SYMBOL = re.compile(r"[A-Z][A-Z0-9]{0,6}(?:[.\-][A-Z0-9]{1,3})?")


def dei_symbol(value: str | None) -> str | None:
    """The first trading symbol a dei:TradingSymbol states ('nflx' -> 'NFLX', 'BRK.A, BRK.B' ->
    'BRK.A'); placeholders early filers wrote ('none', 'N/A') are no symbol."""
    first = re.split(r"[\s,;]+", (value or "").strip().upper().lstrip("$"), maxsplit=1)[0]
    if not _DEI_SYMBOL.fullmatch(first) or first in ("NONE", "NA", "NULL", "TBD"):
        return None
    return first


def read_metadata(
    dei: dict[str, str],
    header: SubmissionHeader | None,
    units: list[Unit],
    path: Path,
    hints: Hints | None = None,
) -> _Meta:
    """Combine dei facts, the SGML header, the cover page, the folder, the user's options and the
    built-in companies into document metadata."""
    identity = read_identity(dei, header, parse_cover(_cover_text(units)), path, hints)
    form = identity.form
    base_m = _FORM_BASE.match(form)
    form_base = base_m.group(1).upper() if base_m else form
    amendment = form.endswith("/A") or dei.get("AmendmentFlag", "").strip().lower() == "true"
    kind = form_base if form_base in ("10-K", "10-Q", "8-K") else "other"
    ticker, period_end = identity.ticker, identity.period_end
    company_name, builtin = _company(identity)
    fye = _fye_month(dei, header, kind, period_end, builtin)
    dated = _FiscalPeriod.read(dei, kind, period_end, fye, builtin)
    title = _title(
        company_name or ticker or Path(path).stem, form or kind, kind, dated.year, dated.quarter, period_end
    )
    cik = dei.get("EntityCentralIndexKey") or (header.cik if header else None)
    # The calendar that labels each fact: the filing's own statement of it, else the built-in one.
    calendar = filing_calendar(dei)
    if calendar is None and fye is not None:
        calendar = FiscalCalendar(fye, builtin.fiscal_year_offset if builtin is not None else 0)
    offset_known = (dated.dei_year is not None and period_end is not None) or builtin is not None
    return _Meta(
        kind=kind,
        form=form or kind,
        form_base=form_base,
        amendment=amendment,
        title=title,
        ticker=ticker,
        company_name=company_name,
        fiscal_year=dated.year,
        fiscal_quarter=dated.quarter,
        period_end=period_end,
        fye_month=fye,
        cik=cik.strip() if cik else None,
        dei_fiscal_year=dated.dei_year,
        computed_fiscal_year=dated.computed_year,
        calendar=calendar,
        year_offset=calendar.year_offset if calendar is not None and offset_known else None,
        sources=identity.sources,
        notes=identity.notes,
    )


def _company(identity: _Identity) -> tuple[str | None, Company | None]:
    """The company's name and its built-in entry: the name the text gives unless the user named
    another company by ticker, else the built-in name of the ticker."""
    company_name, ticker = identity.company_name, identity.ticker
    builtin = lookup_builtin(ticker) if ticker else None
    if builtin is None and company_name:
        builtin = lookup_builtin(company_name)
    named = lookup_builtin(company_name) if company_name else None
    if identity.sources.get("ticker") == "option" and named is not None and named.ticker != ticker:
        company_name = None  # the user's company, not the one the text names
    if company_name is None and builtin is not None and builtin.ticker == ticker:
        company_name = builtin.name
    return company_name, builtin


def _fye_month(
    dei: dict[str, str],
    header: SubmissionHeader | None,
    kind: str,
    period_end: date | None,
    builtin: Company | None,
) -> int | None:
    """The fiscal year's last month: the dei fact, a 10-K's own period end, the built-in company's,
    else the SGML header's."""
    fye_fact = dei.get("CurrentFiscalYearEndDate", "")
    fye = fye_month(fye_fact, dei.get("CurrentFiscalYearEndDate@format"))
    if fye is None and kind == "10-K" and period_end is not None:
        fye = nominal_month_end(period_end)[1]
    if fye is None and builtin is not None:
        fye = builtin.fiscal_year_end_month
    if fye is None and header is not None and header.fiscal_year_end:
        fye = fye_month(header.fiscal_year_end, "mmdd")
    return fye


@dataclass(frozen=True, slots=True)
class _FiscalPeriod:
    """The filing's fiscal year and quarter, and the two years they were chosen from."""

    year: int | None
    quarter: int | None
    dei_year: int | None
    computed_year: int | None

    @classmethod
    def read(
        cls, dei: dict[str, str], kind: str, period_end: date | None, fye: int | None, builtin: Company | None
    ) -> _FiscalPeriod:
        """The dei focus year and quarter unless the calendar's differ by more than a mistyped year."""
        dei_year = _int(dei.get("DocumentFiscalYearFocus"))
        focus = (dei.get("DocumentFiscalPeriodFocus") or "").strip().upper()
        computed_year: int | None = None
        computed_quarter: int | None = None
        if period_end is not None and fye is not None:
            offset = builtin.fiscal_year_offset if builtin is not None else 0
            if kind == "10-Q":
                computed_year, computed_quarter = fiscal_period(period_end, fye, offset)
            elif kind == "8-K":  # the event's quarter, as for PDF 8-Ks (mid-month: no 52/53-week spill-over)
                computed_year, computed_quarter = fiscal_period(period_end.replace(day=15), fye, offset)
            else:
                computed_year = fiscal_year_of_annual(period_end, fye, offset)
        fiscal_year = dei_year if dei_year is not None else computed_year
        if dei_year is not None and computed_year is not None and abs(dei_year - computed_year) > 1:
            fiscal_year = computed_year  # a mistyped cover fact; the calendar is more trustworthy
        quarter: int | None = None
        if kind == "10-Q":
            quarter = int(focus[1]) if focus in ("Q1", "Q2", "Q3", "Q4") else computed_quarter
        elif kind == "8-K":
            quarter = computed_quarter
        return cls(fiscal_year, quarter, dei_year, computed_year)


def _title(
    name: str,
    form_label: str,
    kind: str,
    fiscal_year: int | None,
    quarter: int | None,
    period_end: date | None,
) -> str:
    """'Apple Inc. 10-Q Q3 FY2023': the company, the form and the fiscal period (else the period end)."""
    period_label = quarter_label(fiscal_year, quarter) if kind in ("10-K", "10-Q") else None
    if period_label is None or period_label == "undated":
        period_label = period_end.isoformat() if period_end else ""
    return " ".join(p for p in (name, form_label, period_label) if p)


_ACCESSION = re.compile(r"^\d{10}-\d{2}-\d{6}$")
_FOLDER_TICKER = re.compile(r"^[A-Z][A-Z0-9.\-]{0,9}$")
_FOLDER_FORM = re.compile(r"^(?:10-K|10-Q|8-K|20-F|40-F|6-K)(?:/A)?$", re.I)


def downloader_identity(path: Path) -> tuple[str | None, str | None]:
    """(ticker, form) of sec-edgar-downloader's ``<TICKER>/<FORM>/<accession>/<file>`` layout, or of a
    ``<TICKER>/<FORM>/<file>`` folder; (None, None) for any other place."""
    parts = Path(path).resolve().parts[:-1]
    if parts and _ACCESSION.match(parts[-1]):
        parts = parts[:-1]
    if len(parts) >= 2 and _FOLDER_FORM.match(parts[-1]) and _FOLDER_TICKER.match(parts[-2]):
        return parts[-2], parts[-1].upper()
    return None, None


def _int(value: str | None) -> int | None:
    if not value:
        return None
    m = re.search(r"\d{4}", value)
    return int(m.group(0)) if m else None


def _parse_date(text: str) -> date | None:
    """Parse cover-page dates: 'June 28, 2025', 'June\xa028, 2025', '2025-06-28', '06/28/2025'."""
    return parse_date(norm_space(text))


@dataclass(slots=True)
class CoverInfo:
    """What a filing's cover page says about itself (any field may be missing)."""

    form: str | None = None
    period_end: date | None = None  # quarter / fiscal year end (10-Q, 10-K)
    event_date: date | None = None  # date of report (8-K)
    company_name: str | None = None
    trading_symbol: str | None = None
    fye_date: date | None = None  # a "fiscal year ended <date>" seen in the text


_FORM_RX = re.compile(r"\bFORM\s+(10-?K|10-?Q|8-?K|20-F|40-F|6-K)\b", re.I)


# "For the quarterly period ended ..." as the cover prints it (capital F), not a mid-sentence
# "... for the quarter ended June 26, 2022 include ..." comparison.
_PERIOD_RX = re.compile(
    r"\b(?:For|FOR)\s+(?i:the\s+(quarterly\s+period|fiscal\s+quarter|quarter|fiscal\s+year|year|period)"
    r"\s+ended\s*:?\s*(" + DATE + "))"
)


# ... or at the start of a cover line in lower case ("for the quarterly period ended June 29, 2025").
_PERIOD_LINE_RX = re.compile(
    r"^\W*for\s+the\s+(quarterly\s+period|fiscal\s+quarter|quarter|fiscal\s+year|year|period)"
    r"\s+ended\s*:?\s*(" + DATE + ")",
    re.I | re.M,
)


_EVENT_RX = re.compile(
    r"(" + DATE + r")\s*\(?\s*Date\s+of\s+Report|Date\s+of\s+Report[^)]{0,60}\)?\s*:?\s*(" + DATE + ")",
    re.I,
)


FYE_RX = re.compile(r"\bfiscal\s+year\s+ended\s*:?\s*(" + DATE + ")", re.I)


_REGISTRANT_RX = re.compile(r"\(\s*exact\s+name\s+of\s+registrant", re.I)


_FILE_NUMBER_RX = re.compile(r"commission\s+file\s+(?:number|no\.?)", re.I)


_SYMBOL_HEADER_RX = re.compile(r"trading\s*symbol", re.I)


_SYMBOL_RX = re.compile(r"^[A-Z]{1,5}(?:[.-][A-Z])?$")


_NOT_SYMBOLS = {"NYSE", "NASDAQ", "LLC", "INC", "NONE", "NA", "USD", "II", "III", "IV", "OR", "AND"}


def normalize_form(form: str | None) -> str | None:
    """ "10Q", "10-q", "FORM 10-Q" -> "10-Q"; other values are upper-cased as given."""
    if not form:
        return None
    compact = re.sub(r"[^0-9A-Z]", "", form.upper().replace("FORM", ""))
    mapping = {"10K": "10-K", "10Q": "10-Q", "8K": "8-K", "10K405": "10-K", "10KT": "10-K", "10QT": "10-Q"}
    return mapping.get(compact, form.strip().upper())


def parse_cover(text: str) -> CoverInfo:
    """Read form, period, registrant and trading symbol from the first pages of a filing."""
    info = CoverInfo()
    text = normalize_text(text)
    flat = re.sub(r"\s+", " ", text)
    m = _FORM_RX.search(flat)
    if m:
        info.form = normalize_form(m.group(1))
    m = _PERIOD_RX.search(flat) or _PERIOD_LINE_RX.search(text)
    if m:
        info.period_end = parse_long_date(m.group(2))
    m = _EVENT_RX.search(flat)
    if m:
        info.event_date = parse_long_date(m.group(1) or m.group(2))
    m = FYE_RX.search(flat)
    if m:
        info.fye_date = parse_long_date(m.group(1))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    info.company_name = _registrant_name(lines)
    info.trading_symbol = _trading_symbol(lines)
    return info


def _registrant_name(lines: list[str]) -> str | None:
    for i, line in enumerate(lines):
        if _REGISTRANT_RX.search(line):
            before = _REGISTRANT_RX.split(line)[0].strip()
            if before:
                return before
            if i > 0:
                return lines[i - 1]
    for i, line in enumerate(lines):
        if _FILE_NUMBER_RX.search(line) and i + 1 < len(lines):
            candidate = lines[i + 1]
            if re.search(r"[A-Za-z]{2}", candidate) and not re.match(r"^[\d\-\s]+$", candidate):
                return candidate
    return None


def _trading_symbol(lines: list[str]) -> str | None:
    for i, line in enumerate(lines):
        header = line
        if line.lower() == "trading" and i + 1 < len(lines):
            header = f"{line} {lines[i + 1]}"
        if not _SYMBOL_HEADER_RX.search(header):
            continue
        if " | " in line:  # the cover's table as rows of cells: the symbol column of the rows below
            return _symbol_in_column(lines[i + 1 : i + 16], _column_of(line, _SYMBOL_HEADER_RX))
        for candidate in lines[i + 1 : i + 16]:
            token = candidate.strip()
            if _is_symbol(token):
                return token
        return None
    return None


def _column_of(row: str, header: re.Pattern[str]) -> int:
    return next((i for i, cell in enumerate(row.split(" | ")) if header.search(cell)), 0)


def _symbol_in_column(rows: list[str], column: int) -> str | None:
    for row in rows:
        cells = [cell.strip() for cell in row.split(" | ")]
        if column < len(cells) and _is_symbol(cells[column]):
            return cells[column]
    return None


def _is_symbol(token: str) -> bool:
    return bool(_SYMBOL_RX.match(token)) and token not in _NOT_SYMBOLS
