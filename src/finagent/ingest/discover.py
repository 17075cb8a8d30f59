"""Find ingestible sources under a path and hand each to the reader of its format (``formats``)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from finagent.errors import FinagentError
from finagent.finance.document_records import SourceItem
from finagent.ingest.formats import Hints, folder_readers, reader_for, supported_formats

# Files that accompany data sets but are not documents: ignored silently.
_IGNORED_NAMES = {"manifest.json", "documents.jsonl", ".ds_store", "thumbs.db"}
_IGNORED_PREFIXES = ("license", "readme", "notice", ".")


@dataclass(slots=True)
class Discovery:
    items: list[SourceItem] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): not a document
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): asked for, unusable
    company_lists: list[Path] = field(default_factory=list)  # SEC's company_tickers.json files
    company_facts: list[Path] = field(default_factory=list)  # SEC company facts (CIK##########.json)


def discover(
    path: Path,
    *,
    ticker: str | None = None,
    form: str | None = None,
    period_end: date | None = None,
) -> Discovery:
    """Everything ingestible under ``path`` (a file or a directory tree), each read by its format's
    reader (``formats.READERS``)."""
    if not path.exists():
        raise FinagentError(f"no such file or directory: {path}")
    # Absolute paths make citations resolvable from anywhere and give one identity per file, so a
    # changed file replaces its old version whichever relative path it was ingested by.
    path = path.resolve()
    hints = Hints(ticker=ticker, form=form, period_end=period_end)
    if path.is_file():
        return _discover_file(path, hints, explicit=True)
    found = Discovery()
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        here = Path(dirpath)
        names = sorted(filenames)
        for reader in folder_readers():
            assert reader.claims is not None and reader.read_folder is not None
            claimed = reader.claims(here, names)
            if claimed:
                found.items += reader.read_folder(here, hints)
                names = [n for n in names if n not in claimed]
        for name in names:
            sub = _discover_file(here / name, hints, explicit=False)
            found.items += sub.items
            found.skipped += sub.skipped
            found.company_lists += sub.company_lists
            found.company_facts += sub.company_facts
    if not found.items and not found.skipped and not found.company_lists and not found.company_facts:
        raise FinagentError(f"no filings, transcripts or news files found under {path}")
    return found


def _discover_file(path: Path, hints: Hints, *, explicit: bool) -> Discovery:
    from finagent.ingest.xbrl_instance import is_linkbase_or_schema

    name = path.name.lower()
    result = Discovery()
    if not explicit and (name in _IGNORED_NAMES or name.startswith(_IGNORED_PREFIXES)):
        return result
    if name == "company_tickers.json":  # SEC's list of listed companies, not a document
        result.company_lists.append(path)
        return result
    if is_linkbase_or_schema(path):
        # An instance's label/presentation/... linkbases and schema travel with it: not documents.
        if explicit:
            result.failed.append(
                (str(path), "an XBRL linkbase or schema, not a document (give its *_htm.xml)")
            )
        return result
    if re.fullmatch(r"cik\d{10}\.json", name):  # SEC company facts: read by their own streamed ingest
        result.company_facts.append(path)
        return result
    reader = reader_for(path)
    if reader is not None:
        result.items += reader.read(path, hints)
        return result
    reason = f"unsupported file type '{path.suffix.lower() or path.name}'"
    if explicit:
        result.failed.append((str(path), f"{reason} (supported: {supported_formats()})"))
    else:
        result.skipped.append((str(path), reason))
    return result
