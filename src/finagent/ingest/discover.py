"""Find ingestible sources under a path and hand each to the parser that understands it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from finagent.errors import FinagentError
from finagent.finance.documents import SourceItem

# Files that accompany data sets but are not documents: ignored silently.
_IGNORED_NAMES = {"manifest.json", "documents.jsonl", ".ds_store", "thumbs.db"}
_IGNORED_PREFIXES = ("license", "readme", "notice", ".")
_FILING_SUFFIXES = {".htm", ".html"}


@dataclass(slots=True)
class Discovery:
    items: list[SourceItem] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): not a document
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, reason): asked for, unusable
    company_lists: list[Path] = field(default_factory=list)  # SEC's company_tickers.json files


def discover(
    path: Path,
    *,
    ticker: str | None = None,
    form: str | None = None,
    period_end: date | None = None,
) -> Discovery:
    """Everything ingestible under ``path`` (a file or a directory tree)."""
    from finagent.ingest.financebench import discover_financebench
    from finagent.ingest.ixbrl import discover_edgar
    from finagent.ingest.pdf import discover_pdfs
    from finagent.ingest.transcripts import discover_transcripts

    if not path.exists():
        raise FinagentError(f"no such file or directory: {path}")
    # Absolute paths make citations resolvable from anywhere and give one identity per file, so a
    # changed file replaces its old version whichever relative path it was ingested by.
    path = path.resolve()
    found = Discovery()
    if path.is_file():
        return _discover_file(path, ticker=ticker, form=form, period_end=period_end, explicit=True)
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        here = Path(dirpath)
        names = sorted(filenames)
        lowered = {n.lower() for n in names}
        if "manifest.json" in lowered and any(n.lower().endswith(".txt") for n in names):
            found.items += discover_transcripts(here)
            names = [n for n in names if not n.lower().endswith(".txt")]
        if any(n.lower().endswith(".pdf") for n in names):
            found.items += discover_pdfs(here, ticker=ticker, form=form, period_end=period_end)
            names = [n for n in names if not n.lower().endswith(".pdf")]
        if "full-submission.txt" in lowered or "primary-document.html" in lowered:
            found.items += discover_edgar(here)
            names = [n for n in names if n.lower() not in ("full-submission.txt", "primary-document.html")]
        for name in names:
            if name.lower() == "pages.jsonl.gz":
                docs = here / "documents.jsonl"
                found.items += discover_financebench(here / name, docs if docs.exists() else None)
                continue
            sub = _discover_file(here / name, ticker=ticker, form=form, period_end=period_end, explicit=False)
            found.items += sub.items
            found.skipped += sub.skipped
            found.company_lists += sub.company_lists
    if not found.items and not found.skipped and not found.company_lists:
        raise FinagentError(f"no filings, transcripts or news files found under {path}")
    return found


def _discover_file(
    path: Path, *, ticker: str | None, form: str | None, period_end: date | None, explicit: bool
) -> Discovery:
    from finagent.ingest.financebench import discover_financebench
    from finagent.ingest.ixbrl import discover_edgar
    from finagent.ingest.news import discover_news
    from finagent.ingest.pdf import discover_pdfs
    from finagent.ingest.xbrl_instance import discover_xbrl_instances, is_linkbase_or_schema, is_xbrl_instance

    name = path.name.lower()
    suffix = path.suffix.lower()
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
    if suffix in _FILING_SUFFIXES or name == "full-submission.txt":
        result.items += discover_edgar(path)
    elif suffix == ".pdf":
        result.items += discover_pdfs(path, ticker=ticker, form=form, period_end=period_end)
    elif name == "pages.jsonl.gz":
        docs = path.with_name("documents.jsonl")
        result.items += discover_financebench(path, docs if docs.exists() else None)
    elif suffix in {".csv", ".jsonl"}:
        result.items += discover_news(path, ticker=ticker)
    elif suffix == ".xml" and is_xbrl_instance(path):
        result.items += discover_xbrl_instances(path)
    elif suffix == ".txt" and (path.parent / "manifest.json").exists():
        from finagent.ingest.transcripts import discover_transcripts

        result.items += [i for i in discover_transcripts(path.parent) if Path(i.uri).name == path.name]
    else:
        reason = f"unsupported file type '{suffix or path.name}'"
        if explicit:
            reason += (
                " (supported: .htm/.html filings, XBRL instance .xml, .pdf, .csv/.jsonl news,"
                " transcripts with manifest.json)"
            )
            result.failed.append((str(path), reason))
        else:
            result.skipped.append((str(path), reason))
    return result
