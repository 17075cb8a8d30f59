"""The format registry: every input format finagent reads, in one table, tried in order.

A reader says which files it takes (``accepts``) and turns one into source items (``read``); a
reader of a folder format (transcripts with their manifest, a folder of PDFs with its manifest, an
EDGAR download) also says which names of a folder it takes as one set (``claims``). Discovery only
walks the tree and asks the registry; adding a format is one entry here and its parser module.
Parsers are imported when a file of theirs is read, so listing a folder stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from finagent.finance.document_records import SourceItem
from finagent.ingest.hints import Hints


@dataclass(frozen=True, slots=True)
class Reader:
    """One input format: which files it takes and how it reads them."""

    name: str
    supported: str  # how the "supported: ..." list of an unsupported-file message names it
    accepts: Callable[[Path], bool]
    read: Callable[[Path, Hints], list[SourceItem]]
    claims: Callable[[Path, Sequence[str]], list[str]] | None = None  # names of a folder read as a set
    read_folder: Callable[[Path, Hints], list[SourceItem]] | None = None


def _suffix(*suffixes: str) -> Callable[[Path], bool]:
    return lambda path: path.suffix.lower() in suffixes


# -- the readers ----------------------------------------------------------------------------------------
def _edgar(path: Path, hints: Hints) -> list[SourceItem]:
    from finagent.ingest.ixbrl import discover_edgar

    return discover_edgar(path, hints)


_EDGAR_NAMES = ("full-submission.txt", "primary-document.html")


def _edgar_download(folder: Path, names: Sequence[str]) -> list[str]:
    """sec-edgar-downloader's folder of one filing: its submission and primary document."""
    return [n for n in names if n.lower() in _EDGAR_NAMES]


def _pdf(path: Path, hints: Hints) -> list[SourceItem]:
    from finagent.ingest.pdf import discover_pdfs

    return discover_pdfs(path, ticker=hints.ticker, form=hints.form, period_end=hints.period_end)


def _pdf_folder(folder: Path, names: Sequence[str]) -> list[str]:
    """A folder's PDFs are read together: its manifest.json (if any) describes them."""
    return [n for n in names if n.lower().endswith(".pdf")]


def _financebench(path: Path, hints: Hints) -> list[SourceItem]:
    from finagent.ingest.financebench import discover_financebench

    documents = path.with_name("documents.jsonl")
    return discover_financebench(path, documents if documents.exists() else None)


def _news(path: Path, hints: Hints) -> list[SourceItem]:
    from finagent.ingest.news import discover_news

    return discover_news(path, ticker=hints.ticker)


def _is_xbrl_instance(path: Path) -> bool:
    """An instance is known by its root element, whatever its name (``AAPL-Xbrl.2013.xml``,
    ``crr.xbrl``, no extension at all)."""
    from finagent.ingest.xbrl_instance import is_xbrl_instance

    return is_xbrl_instance(path)


def _xbrl_instance(path: Path, hints: Hints) -> list[SourceItem]:
    from finagent.ingest.xbrl_instance import discover_xbrl_instances

    return discover_xbrl_instances(path, hints)


def _is_transcript(path: Path) -> bool:
    return path.suffix.lower() == ".txt" and (path.parent / "manifest.json").exists()


def _transcript(path: Path, hints: Hints) -> list[SourceItem]:
    from finagent.ingest.transcripts import discover_transcripts

    return [i for i in discover_transcripts(path.parent) if Path(i.uri).name == path.name]


def _transcript_folder(folder: Path, names: Sequence[str]) -> list[str]:
    """Transcripts are text files described by the folder's manifest.json."""
    if "manifest.json" not in {n.lower() for n in names}:
        return []
    return [n for n in names if n.lower().endswith(".txt")]


def _transcripts(folder: Path, hints: Hints) -> list[SourceItem]:
    from finagent.ingest.transcripts import discover_transcripts

    return discover_transcripts(folder)


READERS: tuple[Reader, ...] = (
    Reader(
        "edgar",
        ".htm/.html filings",
        lambda p: p.suffix.lower() in (".htm", ".html") or p.name.lower() == "full-submission.txt",
        _edgar,
        _edgar_download,
        _edgar,
    ),
    Reader("pdf", ".pdf", _suffix(".pdf"), _pdf, _pdf_folder, _pdf),
    Reader(
        "financebench",
        "FinanceBench pages.jsonl.gz",
        lambda p: p.name.lower() == "pages.jsonl.gz",
        _financebench,
    ),
    Reader("news", ".csv/.jsonl news", _suffix(".csv", ".jsonl"), _news),
    Reader("xbrl-instance", "XBRL instances (any name)", _is_xbrl_instance, _xbrl_instance),
    Reader(
        "transcripts",
        "transcripts with manifest.json",
        _is_transcript,
        _transcript,
        _transcript_folder,
        _transcripts,
    ),
)
"""Tried in order: the first reader that accepts a file reads it."""

# Folder formats claim their names before single files are read: transcripts first (their .txt
# files), then PDFs (with the folder's manifest), then an EDGAR download's submission files.
FOLDER_ORDER = ("transcripts", "pdf", "edgar")


def reader_for(path: Path) -> Reader | None:
    return next((r for r in READERS if r.accepts(path)), None)


def folder_readers() -> list[Reader]:
    by_name = {r.name: r for r in READERS}
    return [by_name[name] for name in FOLDER_ORDER]


def supported_formats() -> str:
    return ", ".join(r.supported for r in READERS)
