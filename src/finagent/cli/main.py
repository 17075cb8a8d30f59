"""`finagent` command: ask, ingest, search, db, runs, mcp, eval, doctor."""

from __future__ import annotations

import typer

from finagent.cli.ask_cmd import ask_command
from finagent.cli.catalog_cmd import companies_command, coverage_command
from finagent.cli.console import guarded, quiet_third_party_logs
from finagent.cli.db_cmd import db_app
from finagent.cli.doctor_cmd import doctor_command
from finagent.cli.eval_cmd import eval_app
from finagent.cli.facts_cmd import FactsCommand, facts_command
from finagent.cli.ingest_cmd import ingest_app
from finagent.cli.mcp_cmd import mcp_command
from finagent.cli.runs_cmd import runs_app
from finagent.cli.screen_cmd import screen_command
from finagent.cli.search_cmd import search_command

app = typer.Typer(
    name="finagent",
    help="Cited financial research over SEC filings, transcripts, news and market data.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(ingest_app, name="ingest")
app.add_typer(db_app, name="db")
app.add_typer(eval_app, name="eval")
app.add_typer(runs_app, name="runs")
app.command("search")(search_command)
app.command("ask")(ask_command)
app.command("companies")(companies_command)
app.command("coverage")(coverage_command)
app.command("facts", cls=FactsCommand)(facts_command)
app.command("screen")(screen_command)
app.command("mcp")(mcp_command)
app.command("doctor")(doctor_command)


def run() -> None:
    """Console-script entry point."""
    quiet_third_party_logs()
    command = typer.main.get_command(app)
    guarded(lambda: command.main(prog_name="finagent"))


if __name__ == "__main__":
    run()
