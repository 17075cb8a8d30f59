"""`finagent ingest companyfacts`: SEC company facts (a CIK##########.json, a folder, companyfacts.zip).

Each company file streams into the store in its own transaction (COPY into a staging table while
ijson parses it, then set-wise into documents and facts), so memory stays flat however many files a
zip holds and a file that fails half-way leaves nothing behind.

Stored as one document per filing (accession) with the facts that filing reported: the kind follows
the form, the source is the filing's EDGAR folder, so the same filing read again from a newer file is
a new version of the same document (or unchanged), and an iXBRL or XBRL-instance copy of it is
another copy of one filing (its facts count once, see ``finance.fact_records.Filing``).
"""

from __future__ import annotations

import hashlib
import logging
import time
import zipfile
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import ijson
import psycopg

from finagent.db import Database
from finagent.db.companies import listed_company
from finagent.db.company_facts import (
    KnownCopy,
    NewFiling,
    company_by_cik,
    insert_filings,
    insert_staged_facts,
    keep_as_copies,
    known_copies,
    lock_company,
    record_events,
    staging,
    supersede_older,
    upsert_company,
)
from finagent.db.documents import record_event
from finagent.finance.company_registry import StoredCompany
from finagent.finance.fact_records import Filing, FiscalCalendar
from finagent.finance.fiscal import calendar_for
from finagent.finance.read.sec_company_facts import (
    CompanyFile,
    FilingFacts,
    annual_form,
    edgar_url,
    form_kind,
    infer_calendar,
)
from finagent.ingest.companyfacts_files import FactsFile, Found
from finagent.ingest.companyfacts_reader import CompanyFactsFormatError, read_company_facts
from finagent.ingest.facts_upkeep import refresh_company_facts
from finagent.ingest.pipeline import IngestReport
from finagent.ingest.sec_companies import cik_symbol

log = logging.getLogger(__name__)

FORMAT = "companyfacts"
_DIGEST_VERSION = "companyfacts-v1"


def failure_reason(exc: BaseException) -> str:
    """One line saying why a company file could not be stored."""
    first = (str(exc).strip().splitlines() or [""])[0][:300]
    if isinstance(exc, ijson.JSONError):
        return f"malformed or cut-short JSON ({first or type(exc).__name__})"
    if isinstance(exc, CompanyFactsFormatError):
        return first
    if isinstance(exc, zipfile.BadZipFile | zlib.error | EOFError):
        return f"damaged zip member ({first or type(exc).__name__})"
    if isinstance(exc, OSError):
        return f"cannot read the file ({first})"
    if isinstance(exc, psycopg.Error):
        message = getattr(getattr(exc, "diag", None), "message_primary", None) or first
        return f"the database rejected a value ({message})"
    return f"unexpected error: {type(exc).__name__}: {first}"


@dataclass(slots=True)
class _Company:
    ticker: str
    name: str | None
    calendar: FiscalCalendar
    found_by: str


def _company(conn: psycopg.Connection[Any], read: CompanyFile) -> _Company:
    """Ticker and calendar: the stored company with this CIK, else SEC's list, else the CIK itself;
    the calendar the annual facts show, else the stored or built-in one."""
    assert read.cik is not None
    stored = company_by_cik(conn, read.cik)
    listed = listed_company(conn, read.cik, None)
    if stored is not None and stored.ticker.startswith("CIK") and listed is not None:
        stored = None  # stored under its CIK before SEC's list was loaded: now its ticker is known
    if stored is not None:
        ticker, name, found_by = stored.ticker, stored.name, "store"
    elif listed is not None:
        ticker, name, found_by = listed.ticker, listed.name, "sec company list"
    else:
        ticker, name, found_by = cik_symbol(read.cik) or f"CIK{read.cik}", None, "cik"
    calendar = infer_calendar(list(read.filings.values()))
    if calendar is None:
        known = StoredCompany(
            ticker,
            name,
            (),
            stored.fye_month if stored else None,
            0,
            stored.year_offset if stored else None,
        )
        fallback = calendar_for(known)
        calendar = FiscalCalendar(fallback.fye_month, fallback.year_offset)
    return _Company(ticker, name or read.name, calendar, found_by)


def _digest(cik: str, company: _Company, filing: FilingFacts, digest: int) -> str:
    # The CIK names the company, not the symbol it is filed under: a company re-filed under its listed
    # ticker (``refile_listed_companies``) still finds its filings unchanged.
    text = (
        f"{_DIGEST_VERSION}|{int(cik)}|{company.calendar.fye_month}|"
        f"{company.calendar.year_offset}|{filing.accession}|{filing.form}|{filing.filed}|"
        f"{filing.facts}|{digest:032x}"
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _new_filing(
    read: CompanyFile, company: _Company, filing: FilingFacts, sha: str, key: str, origin: str
) -> NewFiling:
    assert read.cik is not None
    end = filing.period_end
    kind = form_kind(filing.form)
    year, quarter = company.calendar.period_of(end) if end else (None, None)
    if annual_form(filing.form) or kind == "annual_report":
        quarter = None
    ended = f" for the period ended {end.isoformat()}" if end else ""
    filed = filing.filed.isoformat() if filing.filed else "undated"
    url = edgar_url(read.cik, filing.accession)
    metadata: dict[str, Any] = {
        "form": filing.form,
        "format": FORMAT,
        "accession": filing.accession,
        "cik": read.cik,
        "filed": filing.filed.isoformat() if filing.filed else None,
        "edgar_url": url,
        "companyfacts_file": origin,
        "facts": filing.facts,
        "fiscal_year_end_month": company.calendar.fye_month,
        "fiscal_year_offset": company.calendar.year_offset,
        "metadata_sources": {"ticker": company.found_by, "period": "facts' own dates"},
    }
    return NewFiling(
        accession=filing.accession,
        kind=kind,
        form=filing.form,
        filed=filing.filed,
        period_end=end,
        fiscal_year=year,
        fiscal_quarter=quarter,
        title=f"{company.name or company.ticker} {filing.form}{ended} "
        f"(filed {filed}, accession {filing.accession}; SEC company facts)",
        source_uri=url,
        content_sha256=sha,
        filing_key=key,
        metadata=metadata,
    )


def _filing_key(base: str, accession: str, known: list[KnownCopy], taken: set[str]) -> str:
    """The key the filing is stored under (as ``db.documents.filing_key``): that of a stored copy with
    the same accession, else the base key unless another accession holds it, then base|accession."""
    same = next((k.filing_key for k in known if k.accession == accession and k.filing_key), None)
    if same is not None:
        return same
    others = {k.accession for k in known if k.filing_key == base and k.accession and k.accession != accession}
    return f"{base}|{accession}" if others or base in taken else base


@dataclass(slots=True)
class FileOutcome:
    ticker: str
    new: list[NewFiling]
    facts: int
    unchanged: int
    held: int
    replaced: int
    company_found_by: str


@dataclass(slots=True)
class Staged:
    """A company file parsed and its facts staged, on a connection whose transaction is still open."""

    facts_file: FactsFile
    read: CompanyFile
    digests: dict[str, int]


def stage_file(conn: psycopg.Connection[Any], facts_file: FactsFile) -> Staged:
    """Parse one company file, streaming its facts into the staging table of ``conn``'s transaction
    (opened here; ``finish_file`` commits it, or the caller rolls it back)."""
    with staging(conn) as write, facts_file.open() as stream:
        read, digests = read_company_facts(stream, write)
    return Staged(facts_file, read, digests)


def store_company_file(conn: psycopg.Connection[Any], facts_file: FactsFile) -> FileOutcome:
    """Stream one company file into the store, in one transaction (nothing stays if it fails)."""
    with conn.transaction():
        return _finish(conn, stage_file(conn, facts_file))


def finish_file(conn: psycopg.Connection[Any], staged: Staged) -> FileOutcome:
    """Store what ``stage_file`` staged and commit; on any error roll everything back and raise."""
    try:
        outcome = _finish(conn, staged)
    except BaseException:
        conn.rollback()
        raise
    conn.commit()
    return outcome


def _finish(conn: psycopg.Connection[Any], staged: Staged) -> FileOutcome:
    """Store the file's new filings and their staged facts, its company, and the events that say so."""
    read = staged.read
    assert read.cik is not None
    lock_company(conn, read.cik)
    company = _company(conn, read)
    sorted_out = _sort_filings(conn, staged, company)
    new = sorted_out.new
    ids = insert_filings(conn, company.ticker, company.name, new)
    replaced = supersede_older(conn, ids, new)
    keep_as_copies(conn, [i for f, i in zip(new, ids, strict=True) if f.accession in sorted_out.text_copies])
    written = _write_facts(conn, read, company, new, ids)
    upsert_company(
        conn,
        ticker=company.ticker,
        name=company.name,
        aliases=[read.name] if read.name else [],
        cik=read.cik,
        fye_month=company.calendar.fye_month,
        year_offset=company.calendar.year_offset,
    )
    record_events(conn, _events(staged, company, sorted_out, ids, written))
    return FileOutcome(
        company.ticker, new, written, sorted_out.unchanged, sorted_out.held, len(replaced), company.found_by
    )


@dataclass(slots=True)
class _Sorted:
    """A company file's filings against what the store holds: the new ones to write, and the rest."""

    new: list[NewFiling] = field(default_factory=list)
    unchanged: int = 0
    held: int = 0
    """Filings whose own document (iXBRL, XBRL instance) already supplies their facts."""
    text_copies: set[str] = field(default_factory=set)
    """Accessions whose text is stored as another document: these facts are that filing's."""


def _sort_filings(conn: psycopg.Connection[Any], staged: Staged, company: _Company) -> _Sorted:
    """Each filing of the file, oldest first: unchanged (the same content is stored), held by a copy of
    the filing that has its facts, or new under the filing key of its stored copies."""
    read, digests = staged.read, staged.digests
    assert read.cik is not None
    shas = {a: _digest(read.cik, company, f, digests[a]) for a, f in read.filings.items()}
    bases = {a: Filing(company.ticker, f.form, f.period_end).key for a, f in read.filings.items()}
    known = known_copies(
        conn,
        company.ticker,
        list(read.filings),
        sorted({*bases.values(), *(f"{b}|{a}" for a, b in bases.items())}),
        list(shas.values()),
    )
    stored_shas = {k.content_sha256 for k in known}
    origin = staged.facts_file.origin or staged.facts_file.name
    found = _Sorted()
    taken: set[str] = set()
    for accession, filing in sorted(read.filings.items(), key=lambda item: item[1].filed or date.min):
        if shas[accession] in stored_shas:
            found.unchanged += 1
            continue
        key = _filing_key(bases[accession], accession, known, taken)
        copies = [k for k in known if k.accession == accession or k.filing_key == key]
        if any(k.format != FORMAT and k.has_facts for k in copies):
            found.held += 1  # the filing itself (iXBRL, XBRL instance) supplies its facts: counted once
            continue
        taken.add(key)
        if any(k.format != FORMAT and k.status == "ready" for k in copies):
            found.text_copies.add(accession)  # the filing's text is its document; these are its facts
        found.new.append(_new_filing(read, company, filing, shas[accession], key, origin))
    return found


def _write_facts(
    conn: psycopg.Connection[Any], read: CompanyFile, company: _Company, new: list[NewFiling], ids: list[int]
) -> int:
    """The staged facts of the new filings, each with its fiscal period: how many were written."""
    assert read.cik is not None
    wanted_ends = {f.period_end for f in new}
    periods = {end: company.calendar.period_of(end) for end in read.period_ends | wanted_ends if end}
    return insert_staged_facts(
        conn,
        ticker=company.ticker,
        cik=read.cik,
        filings=new,
        document_ids=ids,
        fiscal_periods=periods,
        labels=read.labels,
    )


def _events(
    staged: Staged, company: _Company, sorted_out: _Sorted, ids: list[int], written: int
) -> list[dict[str, Any]]:
    """The event log's lines: one a new filing, then one for the file with its counts."""
    facts_file, read, new = staged.facts_file, staged.read, sorted_out.new
    events: list[dict[str, Any]] = [
        {
            "source_uri": f.source_uri,
            "state": "ready",
            "content_sha256": f.content_sha256,
            "document_id": i,
            "details": {"facts_file": facts_file.name, "format": FORMAT},
        }
        for f, i in zip(new, ids, strict=True)
    ]
    events.append(
        {
            "source_uri": facts_file.name,
            "state": "ready" if new else "unchanged",
            "details": {
                "format": FORMAT,
                "ticker": company.ticker,
                "filings": len(read.filings),
                "new": len(new),
                "unchanged": sorted_out.unchanged,
                "held_by_filing_copies": sorted_out.held,
                "facts_read": read.facts,
                "facts_written": written,
                "not_stored": dict(read.skipped),
            },
        }
    )
    return events


ProgressCallback = Callable[[str, int, int | None], None]


def ingest_company_facts(
    db: Database, found: Found, progress: ProgressCallback | None = None
) -> IngestReport:
    """Every company file found, one transaction each; derived quarters once per company at the end.

    Two connections take turns: while one stores a parsed file (PostgreSQL inserting its facts and
    index entries), this thread parses the next file into the other's staging table, so parsing and
    storing use both cores. Stores run one at a time, in file order.
    """
    run = start_run(found, progress)
    started = time.perf_counter()
    slots = 2 if db.settings.pool_max_size >= 2 else 1  # a pool of one connection: one file at a time
    with ExitStack() as stack, ThreadPoolExecutor(1) as storer:
        connections = [stack.enter_context(db.connection()) for _ in range(slots)]
        for conn in connections:
            conn.autocommit = False
        storing: dict[int, tuple[FactsFile, Future[FileOutcome]]] = {}
        for index, facts_file in enumerate(found.files):
            slot = index % slots
            conn = connections[slot]
            if slot in storing:
                run.collect(conn, *storing.pop(slot))
            try:
                staged = stage_file(conn, facts_file)
            except Exception as exc:  # one bad file must not stop the others
                conn.rollback()
                run.failed(conn, facts_file, exc)
                continue
            storing[slot] = (facts_file, storer.submit(finish_file, conn, staged))
        for slot in sorted(storing, key=lambda s: (s - len(found.files)) % slots):  # the earlier file first
            run.collect(connections[slot], *storing[slot])
        for conn in connections:
            conn.autocommit = True
        return run.finish(connections[0], started)


def start_run(found: Found, progress: ProgressCallback | None = None) -> Run:
    """The tally of a company-facts run (for an engine that stores the files elsewhere)."""
    return Run(
        IngestReport(skipped=list(found.skipped), failed=list(found.failed)), len(found.files), progress
    )


@dataclass(slots=True)
class Run:
    """What an ingest run adds up, file by file."""

    report: IngestReport
    files: int
    progress: ProgressCallback | None
    touched: set[str] = field(default_factory=set)
    held_files: list[str] = field(default_factory=list)
    by_cik: list[str] = field(default_factory=list)

    def failed(self, conn: psycopg.Connection[Any], facts_file: FactsFile, exc: BaseException) -> None:
        log.debug("company facts failed: %s", facts_file.name, exc_info=exc)
        self.fail(conn, facts_file.name, failure_reason(exc))

    def fail(self, conn: psycopg.Connection[Any], name: str, reason: str) -> None:
        """A file not stored (nothing of it is): its reason in the summary and the event log."""
        self.report.failed.append((name, reason))
        record_event(conn, name, "failed", reason=reason)
        if not conn.autocommit:
            conn.commit()
        self._advance()

    def collect(
        self, conn: psycopg.Connection[Any], facts_file: FactsFile, future: Future[FileOutcome]
    ) -> None:
        try:
            outcome = future.result()
        except Exception as exc:
            self.failed(conn, facts_file, exc)
            return
        self.add(facts_file.name, outcome)

    def add(self, name: str, outcome: FileOutcome) -> None:
        """Count a file stored (in its own transaction, by this process or a worker)."""
        report = self.report
        report.documents += len(outcome.new)
        report.facts += outcome.facts
        report.unchanged += outcome.unchanged + outcome.held
        report.replaced += outcome.replaced
        for filing in outcome.new:
            report.by_kind[filing.kind] = report.by_kind.get(filing.kind, 0) + 1
        if outcome.new:
            self.touched.add(outcome.ticker)
        if outcome.held:
            self.held_files.append(f"{name} ({outcome.held})")
        if outcome.company_found_by == "cik":
            self.by_cik.append(f"{name} -> {outcome.ticker}")
        self._advance()

    def finish(self, conn: psycopg.Connection[Any], started: float) -> IngestReport:
        """Derived quarters once per company touched (autocommit), run-level notes, the time taken."""
        if self.touched:
            self.report.derived_facts += refresh_company_facts(conn, sorted(self.touched))
        self.report.notes += _notes(self.held_files, self.by_cik)
        self.report.seconds = time.perf_counter() - started
        return self.report

    def _advance(self) -> None:
        if self.progress:
            self.progress("parse", 1, self.files)


def _examples(names: list[str], shown: int = 3) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def _notes(held_files: list[str], by_cik: list[str]) -> list[tuple[str, str]]:
    """Run-level notes (one line each however many files they concern)."""
    notes: list[tuple[str, str]] = []
    if held_files:
        notes.append(
            (
                _examples(held_files),
                "filings already stored from the filing itself (iXBRL or XBRL instance): their facts are "
                "kept and counted once; these company facts are not added again",
            )
        )
    if by_cik:
        notes.append(
            (
                _examples(by_cik),
                "CIK not in SEC's company list (load it with --company-list company_tickers.json): "
                "stored under the CIK as its symbol, with the name the file gives",
            )
        )
    return notes
