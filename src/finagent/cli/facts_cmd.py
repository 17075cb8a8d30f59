"""`finagent facts`: reported figures per company and fiscal period, exact, from the filings' XBRL facts."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from finagent.cli.common import store
from finagent.cli.console import console, err_console
from finagent.errors import FinagentError
from finagent.finance.periods import parse_time_phrases
from finagent.reports.facts import FactRow, FactsResult, facts_table


def split_items(items: list[str], periods: list[str]) -> tuple[list[str], list[str]]:
    """Companies and periods from the positional words: "AMZN GOOGL FY2022 FY2023" (options cannot take
    several values, so periods after ``--periods FY2022`` arrive here too)."""
    companies: list[str] = []
    found = list(periods)
    for item in items:
        specs = parse_time_phrases(item)
        if specs and sum(len(s.text) for s in specs) >= len(item.strip()) - 2:
            found.append(item)
        else:
            companies.append(item)
    return companies, found


def amount(row: FactRow) -> str:
    """The value as statements print it: millions for amounts, per-share values in dollars."""
    if row.value is None:
        return "—"
    unit = (row.unit or "").lower()
    if "/" in unit:
        return f"${row.value:,.2f}"
    if unit == "shares":
        return f"{row.value / Decimal(10**6):,.1f}M shares"
    millions = row.value / Decimal(10**6)
    text = f"{abs(millions):,.0f}" if millions == millions.to_integral_value() else f"{abs(millions):,.1f}"
    return f"{'-' if row.value < 0 else ''}${text}M"


def _yoy(row: FactRow) -> str:
    return "" if row.yoy_pct is None else f" ({row.yoy_pct:+.1f}% YoY)"


def _cell(row: FactRow) -> str:
    mark = "*" if row.source == "derived" else ""
    return f"{amount(row)}{mark}{_yoy(row)}" if row.value is not None else f"— ({row.note})"


def print_table(result: FactsResult) -> None:
    """One table per metric: periods down, companies across when their periods align, else long form."""
    for metric in dict.fromkeys(r.metric for r in result.rows):
        rows = [r for r in result.rows if r.metric == metric]
        tickers = list(dict.fromkeys(r.ticker for r in rows))
        labels = [list(dict.fromkeys(r.period for r in rows if r.ticker == t)) for t in tickers]
        aligned = all(lbl == labels[0] for lbl in labels)
        table = Table(
            title=escape(f"{rows[0].metric_label} (USD; * derived: fiscal year − nine months or quarters)")
        )
        if aligned:
            table.add_column("period")
            for ticker in tickers:
                table.add_column(ticker, justify="right")
            for label in labels[0]:
                cells = [
                    next((_cell(r) for r in rows if r.ticker == t and r.period == label), "—")
                    for t in tickers
                ]
                table.add_row(label, *cells)
        else:
            for column in ("company", "period", "period end", "value", "source"):
                table.add_column(column, justify="right" if column == "value" else "left")
            for row in rows:
                table.add_row(
                    row.ticker,
                    row.period,
                    row.period_end.isoformat() if row.period_end else "—",
                    _cell(row),
                    escape(f"{row.form or ''} {row.concept or ''}".strip() or row.note),
                )
        console.print(table)
    for warning in result.warnings:
        err_console.print(f"[yellow]note[/] {escape(warning)}")


def to_csv(result: FactsResult) -> str:
    buffer = io.StringIO()
    fields = list(FactRow.__dataclass_fields__)
    writer = csv.DictWriter(buffer, fieldnames=fields, extrasaction="ignore")
    writer.writeheader()
    for row in result.rows:
        data = row.to_dict()
        data["restated"] = json.dumps(data["restated"]) if data["restated"] else ""
        writer.writerow(data)
    return buffer.getvalue()


def plot(result: FactsResult, path: Path) -> None:
    """A line per company and metric over its periods (values in millions), saved as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(8, 4.5))
    for (ticker, metric), rows in _series(result).items():
        points = [
            (r.period_end, float(r.value) / 1e6)
            for r in rows
            if r.value is not None and r.period_end and not r.note.startswith("part of")  # stubs: no point
        ]
        if points:
            xs, ys = zip(*sorted(points), strict=True)
            axis.plot(xs, ys, marker="o", label=f"{ticker} {metric}")
    axis.set_ylabel("USD millions")
    axis.set_title("Reported figures by period end")
    axis.legend()
    axis.grid(alpha=0.3)
    figure.autofmt_xdate()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _series(result: FactsResult) -> dict[tuple[str, str], list[FactRow]]:
    out: dict[tuple[str, str], list[FactRow]] = {}
    for row in result.rows:
        out.setdefault((row.ticker, row.metric_label), []).append(row)
    return out


def facts_command(
    items: Annotated[
        list[str],
        typer.Argument(help="Companies (tickers or names), and optionally periods: AMZN GOOGL FY2024."),
    ],
    metric: Annotated[
        list[str],
        typer.Option(
            "--metric",
            "-m",
            help="Metric(s): revenue, net_income, eps_diluted, ... (repeat or comma-separate).",
        ),
    ],
    periods: Annotated[
        list[str] | None,
        typer.Option("--periods", "-p", help="Periods: FY2024, 'Q3 FY2023', 'last 4 quarters', 2022-2024."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the rows as CSV.")] = False,
    as_reported: Annotated[
        bool, typer.Option("--as-reported", help="Values as first reported (default: the latest filing's).")
    ] = False,
    plot_path: Annotated[
        Path | None, typer.Option("--plot", help="Also draw the figures to this PNG file.")
    ] = None,
) -> None:
    """Exact reported figures per company and fiscal period from the filings' XBRL facts, with YoY."""
    companies, wanted = split_items(items, list(periods or []))
    if plot_path is not None and plot_path.suffix.lower() != ".png":
        raise FinagentError(f"--plot writes a PNG image: give a path ending in .png, got '{plot_path}'")
    if plot_path is not None and not plot_path.expanduser().resolve().parent.is_dir():
        raise FinagentError(f"--plot: the folder of '{plot_path}' does not exist")
    with store() as db, db.connection() as conn:
        result = facts_table(conn, companies, metric, wanted, as_reported=as_reported)
    if as_json:
        console.print_json(json.dumps(result.to_dict()))
    elif as_csv:
        print(to_csv(result), end="")
    else:
        print_table(result)
    if plot_path is not None:
        plot(result, plot_path.expanduser())
        err_console.print(f"plot written to {plot_path}")
