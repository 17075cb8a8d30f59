"""`finagent eval …`: build benchmark corpora (retrieval and answer evaluation follow)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from finagent.cli.console import console
from finagent.cli.ingest_cmd import run_ingest
from finagent.errors import FinagentError
from finagent.evaluation.corpus import CORPORA, corpus_spec, discover_corpus

eval_app = typer.Typer(help="Benchmarks: corpora, retrieval and answer evaluation.", no_args_is_help=True)

DEFAULT_DATA_DIR = Path("../shared/data")


@eval_app.command("build-corpus")
def build_corpus(
    name: Annotated[str, typer.Argument(help=f"Corpus: {', '.join(CORPORA)}.")],
    data_dir: Annotated[Path, typer.Option(help="The shared data folder.")] = DEFAULT_DATA_DIR,
    database: Annotated[
        str | None, typer.Option(help="Database name (default: finagent_eval_<name>).")
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N documents (smoke runs).")] = None,
) -> None:
    """Ingest a benchmark corpus into its own database (resumable: rerun to continue)."""
    spec = corpus_spec(name)
    if limit is not None and limit < 1:
        raise FinagentError("--limit must be at least 1")
    found = discover_corpus(spec, data_dir, limit)
    target = database or spec.database
    console.print(f"building corpus [bold]{spec.name}[/] into database [bold]{target}[/]: {spec.description}")
    report = run_ingest(found, database=target)
    if report.failed:
        raise typer.Exit(1)
