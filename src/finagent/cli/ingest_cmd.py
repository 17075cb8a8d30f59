"""`finagent ingest …`: filings from EDGAR or disk, PDFs, transcripts, news, FinanceBench pages."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from finagent.cli.common import parse_date_option, store
from finagent.cli.console import console, err_console
from finagent.db import Database
from finagent.db.companies import load_listed_companies, refile_listed_companies
from finagent.embeddings import get_embedder
from finagent.errors import ParseError
from finagent.ingest.discover import Discovery, discover
from finagent.ingest.pipeline import IngestPipeline, IngestReport
from finagent.ingest.sec_companies import read_company_list
from finagent.settings import get_settings

ingest_app = typer.Typer(help="Add documents to the store (idempotent and resumable).", no_args_is_help=True)

Engine = Literal["local", "ray"]
EngineOption = Annotated[
    str,
    typer.Option(
        "--engine",
        help="local: this process (the default, best for small jobs); ray: a Ray Data pipeline on a local "
        "Ray or the cluster at FINAGENT_RAY_ADDRESS (needs the ray extra). Both store the same result.",
    ),
]


def _engine(value: str) -> Engine:
    if value not in ("local", "ray"):
        raise typer.BadParameter(f"unknown engine {value!r}: choose local or ray", param_hint="--engine")
    if value == "ray":
        from finagent.ingest.ray_engine import require_ray

        require_ray()  # a missing extra is named before anything is read or stored
        return "ray"
    return "local"


def run_ingest(
    found: Discovery, database: str | None = None, *, fresh: bool = False, engine: Engine = "local"
) -> IngestReport:
    """Run discovered items through the pipeline with progress bars; print and return the summary.

    ``fresh`` empties the named ``database`` first (corpus rebuilds); ``engine`` "ray" runs the same
    pipeline on Ray Data.
    """
    settings = get_settings()
    listing = IngestReport()
    with store(database, fresh=fresh) as db:
        # SEC's list first: a filing that names no ticker is identified by its CIK or name in it.
        listed = _load_company_lists(db, found.company_lists, listing)
        embedder = get_embedder(settings)
        with _stage_progress() as progress:
            tasks = {
                "parse": progress.add_task("parse", total=len(found.items)),
                "embed": progress.add_task("embed chunks", total=None),
                "store": progress.add_task("store docs", total=None),
            }

            def on_progress(stage: str, done: int, total: int | None) -> None:
                progress.advance(tasks[stage], done)

            failed = found.failed + listing.failed
            if engine == "ray":
                from finagent.ingest.ray_engine import run_ray_ingest

                report = run_ray_ingest(
                    db,
                    settings,
                    found.items,
                    skipped=found.skipped,
                    failed=failed,
                    progress=on_progress,
                    embedder=embedder,
                )
            else:
                report = IngestPipeline(db, embedder, settings, progress=on_progress).run(
                    found.items, skipped=found.skipped, failed=failed
                )
        if found.company_facts:  # after the filings: company facts then cite their stored text
            report.merge(_company_facts(db, found.company_facts, engine))
    report.notes[:0] = listing.notes
    print_report(report)
    if listed:
        console.print(f"listed companies known (SEC list): {listed:,}")
    return report


def _load_company_lists(db: Database, paths: list[Path], report: IngestReport) -> int:
    """SEC's company lists found among the inputs: who exists beyond the store (a failure is reported)."""
    loaded = 0
    for path in paths:
        try:
            companies = read_company_list(path)
        except ParseError as exc:
            report.failed.append((str(path), exc.reason))
            continue
        with db.connection() as conn:
            loaded += load_listed_companies(conn, companies)
            for symbol, ticker, name in refile_listed_companies(conn):
                moved = f"SEC's list names it {ticker} ({name}): its filings and facts are now under {ticker}"
                report.notes.append((symbol, moved))
    return loaded


def _stage_progress() -> Progress:
    """The ingest's progress bars (one per stage, kept on screen), on stderr and only on a terminal."""
    return Progress(
        TextColumn("[bold]{task.description:<7}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=False,
        disable=not err_console.is_terminal,
    )


def _company_facts(db: Database, paths: list[Path], engine: Engine = "local") -> IngestReport:
    """SEC company-facts files, folders and zips, streamed into the store with a progress bar."""
    from finagent.ingest.companyfacts import ingest_company_facts
    from finagent.ingest.companyfacts_files import Found, discover_company_facts

    found = Found()
    for path in paths:
        sub = discover_company_facts(path)
        found.files += sub.files
        found.skipped += sub.skipped
        found.failed += sub.failed
    with _stage_progress() as progress:
        task = progress.add_task("company facts", total=len(found.files))

        def advance(stage: str, done: int, total: int | None) -> None:
            progress.advance(task, done)

        if engine == "ray":
            from finagent.ingest.ray_engine import run_ray_company_facts

            return run_ray_company_facts(db, db.settings, found, advance)
        return ingest_company_facts(db, found, advance)


def print_report(report: IngestReport) -> None:
    table = Table(title="ingest summary")
    for col in ("documents", "chunks", "facts", "unchanged", "replaced", "skipped", "failed", "time"):
        table.add_column(col, justify="right")
    table.add_row(
        str(report.documents),
        str(report.chunks),
        f"{report.facts:,}",
        str(report.unchanged),
        str(report.replaced),
        str(len(report.skipped)),
        str(len(report.failed)),
        f"{report.seconds:.1f}s",
    )
    console.print(table)
    if report.derived_facts:
        console.print(
            f"derived facts added (Q4 = fiscal year − nine months, year-to-date differences): "
            f"{report.derived_facts:,}"
        )
    if report.flagged:
        console.print(
            f"[yellow]flagged[/] {report.flagged:,} passage(s) address AI systems or hide text: stored, "
            "never used as evidence (list them: finagent db flagged)"
        )
    if report.by_kind:
        console.print(
            "new documents by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(report.by_kind.items()))
        )
    if report.updated:
        console.print(f"metadata updated: {report.updated}")
        for title, changes in report.changes[:10]:
            changed = ", ".join(
                f"{name} {_shown(old)} → {_shown(new)}" for name, (old, new) in changes.items()
            )
            console.print(f"  {escape(title)}: {escape(changed)}", soft_wrap=True)
    for path, note in report.notes:
        console.print(f"[yellow]note[/]    {escape(path)}: {escape(note)}", soft_wrap=True)
    _print_grouped("[yellow]skipped[/]", report.skipped)
    for path, reason in report.failed:
        console.print(f"[red]failed[/]  {path}: {reason}", soft_wrap=True)  # one line per file, unbroken


def _shown(value: object) -> str:
    """A stored or new field value as the summary prints it (dates as days, nothing as a dash)."""
    if value is None:
        return "—"
    if isinstance(value, datetime):
        return value.date().isoformat()
    return value.isoformat() if isinstance(value, date) else str(value)


def _print_grouped(label: str, entries: list[tuple[str, str]], detail: int = 10) -> None:
    """A few entries are listed; many are summarised by reason (761 placeholder rows are one line)."""
    if len(entries) <= detail:
        for path, reason in entries:
            console.print(f"{label} {path}: {reason}", soft_wrap=True)
        return
    by_reason: dict[str, list[str]] = {}
    for path, reason in entries:
        by_reason.setdefault(reason.split(" (", 1)[0], []).append(path)
    for reason, paths in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        example = paths[0] if len(paths) == 1 else f"{paths[0]} and {len(paths) - 1} more"
        console.print(f"{label} {len(paths)} × {reason}: {example}")


def _finish(report: IngestReport) -> None:
    if not report.ok:
        raise typer.Exit(code=1)


@ingest_app.command("path")
def ingest_path(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders: filings, PDFs, transcripts, news.")],
    ticker: Annotated[
        str | None, typer.Option(help="Ticker of the files (filings of any format, news).")
    ] = None,
    form: Annotated[str | None, typer.Option(help="Form of the filings (10-K, 10-Q, 8-K).")] = None,
    period_end: Annotated[
        str | None, typer.Option(help="Period end of a filing, an 8-K's event date (YYYY-MM-DD).")
    ] = None,
    engine: EngineOption = "local",
) -> None:
    """Ingest already-downloaded documents (iXBRL HTML, EDGAR folders, PDFs, transcripts, news, SEC
    company facts).

    --ticker/--form/--period-end fill what a filing does not say and overrule what is read from its
    text (SGML header, cover page, folder), but not its XBRL dei facts; a disagreement is printed as a
    note. Ingesting a stored file again with new options updates its metadata in place."""
    chosen = _engine(engine)
    found = Discovery()
    period = parse_date_option(period_end, "--period-end")
    for path in paths:
        sub = discover(path.expanduser(), ticker=ticker, form=form, period_end=period)
        found.items += sub.items
        found.skipped += sub.skipped
        found.failed += sub.failed
        found.company_lists += sub.company_lists
        found.company_facts += sub.company_facts
    _finish(run_ingest(found, engine=chosen))


@ingest_app.command("edgar")
def ingest_edgar(
    tickers: Annotated[list[str], typer.Argument(help="Tickers to download, e.g. AAPL MSFT.")],
    forms: Annotated[
        list[str] | None, typer.Option("--forms", help="Forms: --forms 10-K 10-Q (default both).")
    ] = None,
    after: Annotated[str | None, typer.Option(help="Filed on/after (YYYY-MM-DD).")] = None,
    before: Annotated[str | None, typer.Option(help="Filed on/before (YYYY-MM-DD).")] = None,
    limit: Annotated[int | None, typer.Option(help="At most this many filings per ticker and form.")] = None,
    engine: EngineOption = "local",
) -> None:
    """Download filings from SEC EDGAR (sec-edgar-downloader) into the cache, then ingest them."""
    from finagent.ingest.edgar import download_filings

    chosen = _engine(engine)
    since, until = parse_date_option(after, "--after"), parse_date_option(before, "--before")
    with Progress(
        TextColumn("[bold]download[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err_console,
        disable=not err_console.is_terminal,
    ) as progress:
        task = progress.add_task("", total=None)

        def on_download(label: str, total: int) -> None:
            progress.update(task, description=label, total=total)
            progress.advance(task)

        folder = download_filings(
            tickers, forms or [], after=since, before=until, limit=limit, on_progress=on_download
        )
    _finish(run_ingest(discover(folder), engine=chosen))


@ingest_app.command("companyfacts")
def ingest_companyfacts(
    paths: Annotated[
        list[Path], typer.Argument(help="SEC company facts: CIK##########.json files, folders, zips.")
    ],
    company_list: Annotated[
        Path | None,
        typer.Option(help="SEC's company_tickers.json, loaded first: a company's ticker by its CIK."),
    ] = None,
    engine: EngineOption = "local",
) -> None:
    """Ingest SEC XBRL company facts, streamed: every fact of every filing, each fact's fiscal period
    from its own dates (never the filing's fy/fp), one document per filing (accession)."""
    chosen = _engine(engine)
    listing = IngestReport()
    with store() as db:
        listed = _load_company_lists(db, [company_list] if company_list else [], listing)
        report = _company_facts(db, paths, chosen)
        report.failed[:0] = listing.failed
        report.notes[:0] = listing.notes
    print_report(report)
    if listed:
        console.print(f"listed companies known (SEC list): {listed:,}")
    _finish(report)
