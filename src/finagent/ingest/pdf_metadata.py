"""Where a PDF filing's metadata comes from besides its cover: a ``manifest.json`` beside it and a
structured file name (``AAPL_2023Q1_10Q.pdf``, whose year and quarter are fiscal). Dataset names such
as ``2023 Q1 AAPL.pdf`` are deliberately not parsed: their quarter labels are not fiscal quarters."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from finagent.finance.company_registry import lookup_builtin
from finagent.ingest.sec.cover import normalize_form

log = logging.getLogger(__name__)


@dataclass(slots=True)
class PdfHints:
    """Metadata offered by one source (overrides, manifest, file name or cover)."""

    source: str
    ticker: str | None = None
    form: str | None = None
    period_end: date | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None


_NAME_WHO = r"(?P<who>[A-Za-z0-9&.\-]+?)"
_FILENAME_PATTERNS = (
    (re.compile(rf"^{_NAME_WHO}_(?P<fy>\d{{4}})Q(?P<q>[1-4])_10-?Q$", re.I), "10-Q"),
    (re.compile(rf"^{_NAME_WHO}_(?P<fy>\d{{4}})_10-?K$", re.I), "10-K"),
    (re.compile(rf"^{_NAME_WHO}_(?P<date>\d{{4}}-\d{{2}}-\d{{2}})_8-?K$", re.I), "8-K"),
)


def _resolve_who(who: str) -> str | None:
    company = lookup_builtin(who)
    if company:
        return company.ticker
    if re.fullmatch(r"[A-Z]{1,5}", who):
        return who
    return None


def hints_from_filename(path: Path) -> PdfHints | None:
    """``AAPL_2023Q1_10Q`` / ``AAPL_2023_10K`` / ``AAPL_2023-05-04_8K`` (year/quarter are fiscal)."""
    for rx, form in _FILENAME_PATTERNS:
        m = rx.match(path.stem)
        if not m:
            continue
        hints = PdfHints(source="filename", ticker=_resolve_who(m.group("who")), form=form)
        groups = m.groupdict()
        if groups.get("fy"):
            hints.fiscal_year = int(groups["fy"])
        if groups.get("q"):
            hints.fiscal_quarter = int(groups["q"])
        if groups.get("date"):
            try:
                hints.period_end = date.fromisoformat(groups["date"])
            except ValueError:
                return None
        return hints
    return None


def coerce_date(value: Any) -> date | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value).strip()[:10])


def read_manifest(directory: Path) -> tuple[dict[str, PdfHints], str | None]:
    """Manifest entries keyed by file name; a broken manifest is reported, not fatal."""
    path = directory / "manifest.json"
    if not path.is_file():
        return {}, None
    try:
        entries = json.loads(path.read_text(encoding="utf-8-sig"))
        if not isinstance(entries, list):
            raise ValueError("expected a JSON list of entries")
        out: dict[str, PdfHints] = {}
        for entry in entries:
            if not isinstance(entry, dict) or not entry.get("file"):
                continue
            for name in ("file", "ticker", "form"):
                if entry.get(name) is not None and not isinstance(entry[name], str):
                    raise ValueError(f"entry {entry['file']!r}: '{name}' must be text")
            out[str(entry["file"])] = PdfHints(
                source="manifest",
                ticker=(str(entry["ticker"]).strip().upper() if entry.get("ticker") else None),
                form=normalize_form(entry.get("form")),
                period_end=coerce_date(entry.get("period_end")),
                fiscal_year=int(entry["fiscal_year"]) if entry.get("fiscal_year") else None,
                fiscal_quarter=int(entry["fiscal_quarter"]) if entry.get("fiscal_quarter") else None,
            )
        return out, None
    except (OSError, ValueError, TypeError) as exc:
        log.warning("ignoring unreadable manifest %s: %s", path, exc)
        return {}, f"{path}: {exc}"
