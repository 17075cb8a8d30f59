"""`finagent facts`: reported figures per company and fiscal period, exact, from the filings' XBRL facts."""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from typer.core import TyperCommand

from finagent.cli.common import store
from finagent.cli.console import console, err_console
from finagent.errors import FinagentError
from finagent.finance.lines import REPORTED
from finagent.finance.periods import parse_time_phrases
from finagent.finance.periods.ranges import is_range
from finagent.finance.words import currency_sign

if TYPE_CHECKING:  # the report pulls in the figure writer and its model client: seconds of imports
    from finagent.reports.facts import FactRow, FactsResult

TERMINAL = "-"
"""``--plot`` with no image path: the chart is drawn in the terminal."""
_IMAGE = re.compile(r"(?i)\.(?:png|jpe?g|svg|pdf|gif|webp)$|[/\\]")


def is_period(text: str) -> bool:
    """The whole word is periods ("FY2024", "Q3 FY2023", "FY2009..FY2024"), not a company."""
    if is_range(text):
        return True
    specs = parse_time_phrases(text)
    return bool(specs) and sum(len(s.text) for s in specs) >= len(text.strip()) - 2


def is_metric(text: str) -> bool:
    """A metric name or a comma list of them ("net_income", "revenue,capex"); a word in capitals is a
    ticker ("CASH"), never a metric."""
    parts = [p.strip().lower().replace("-", "_") for p in text.split(",") if p.strip()]
    return text != text.upper() and bool(parts) and all(p in REPORTED for p in parts)


_TAKES_SEVERAL: dict[str, Any] = {"--metric": is_metric, "-m": is_metric, "--periods": is_period}
_TAKES_SEVERAL["-p"] = is_period


def spread_options(args: list[str]) -> list[str]:
    """``--metric revenue net_income`` as ``--metric revenue --metric net_income`` (and so for
    ``--periods``): the words after such an option's value that are more of its kind are its values
    too; the first other word ends them, so ``--metric revenue AAPL`` still names the company AAPL.
    ``--plot`` with no image path after it draws in the terminal."""
    out: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            return out + args[index - 1 :]
        out.append(arg)
        if arg in _TAKES_SEVERAL and index < len(args):
            out.append(args[index])
            index += 1
            while index < len(args) and not args[index].startswith("-") and _TAKES_SEVERAL[arg](args[index]):
                out += [arg, args[index]]
                index += 1
        elif arg == "--plot" and (index == len(args) or not _IMAGE.search(args[index])):
            out.append(TERMINAL)
    return out


class FactsCommand(TyperCommand):
    """``finagent facts``: options that take several values, as a user types them."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, spread_options(list(args)))


def split_items(items: list[str], periods: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Companies, periods and metrics from the positional words: "AMZN GOOGL FY2022 FY2023" (periods
    or metrics that follow a company arrive here too)."""
    companies: list[str] = []
    found = list(periods)
    metrics: list[str] = []
    for item in items:
        if is_period(item):
            found.append(item)
        elif is_metric(item):
            metrics.append(item)
        else:
            companies.append(item)
    return companies, found, metrics


def amount(row: FactRow) -> str:
    """The value as statements print it: millions for amounts, per-share values in dollars."""
    if row.value is None:
        return "—"
    unit = (row.unit or "").lower()
    money = currency_sign(row.unit or "USD")
    if "/" in unit:
        return f"{money}{row.value:,.2f}"
    if unit == "shares":
        return f"{row.value / Decimal(10**6):,.1f}M shares"
    millions = row.value / Decimal(10**6)
    text = f"{abs(millions):,.0f}" if millions == millions.to_integral_value() else f"{abs(millions):,.1f}"
    return f"{'-' if row.value < 0 else ''}{money}{text}M"


def _currencies(rows: list[FactRow]) -> str:
    """The currencies of a table's amounts ("USD", "EUR"): a filer reporting in euros is never shown
    in dollars."""
    found = {(r.unit or "USD").split("/")[0] for r in rows if r.value is not None and r.unit != "shares"}
    return ", ".join(sorted(found)) or "USD"


def _yoy(row: FactRow) -> str:
    return "" if row.yoy_pct is None else f" ({row.yoy_pct:+.1f}% YoY)"


def _cell(row: FactRow) -> str:
    mark = "*" if row.source == "derived" else ""
    return f"{amount(row)}{mark}{_yoy(row)}" if row.value is not None else f"— ({row.note})"


def print_parts(result: FactsResult) -> None:
    """By part: one table per company and metric, a row per part and the total, a column per period;
    then whether the parts add up to the total."""
    for ticker, metric in dict.fromkeys((r.ticker, r.metric) for r in result.rows):
        rows = [r for r in result.rows if r.ticker == ticker and r.metric == metric]
        periods = list(dict.fromkeys(r.period for r in rows))
        table = Table(title=escape(f"{ticker} {rows[0].metric_label} by part (USD)"))
        table.add_column("part")
        for period in periods:
            table.add_column(period, justify="right")
        for part in [*dict.fromkeys(r.part for r in rows if r.part), ""]:
            cells = [next((_cell(r) for r in rows if r.part == part and r.period == p), "—") for p in periods]
            table.add_row(escape(part or "Total"), *cells)
        console.print(table)
    for line in result.sums:
        console.print(escape(line))
    for warning in result.warnings:
        err_console.print(f"[yellow]note[/] {escape(warning)}")


def print_table(result: FactsResult) -> None:
    """One table per metric: periods down, companies across when their periods align, else long form."""
    if any(r.part for r in result.rows) or result.sums:
        print_parts(result)
        return
    for metric in dict.fromkeys(r.metric for r in result.rows):
        rows = [r for r in result.rows if r.metric == metric]
        tickers = list(dict.fromkeys(r.ticker for r in rows))
        labels = [list(dict.fromkeys(r.period for r in rows if r.ticker == t)) for t in tickers]
        aligned = all(lbl == labels[0] for lbl in labels)
        derived = "* derived: fiscal year − nine months or quarters"
        table = Table(title=escape(f"{rows[0].metric_label} ({_currencies(rows)}; {derived})"))
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
    from finagent.reports.facts import FactRow

    buffer = io.StringIO()
    fields = list(FactRow.__dataclass_fields__)
    writer = csv.DictWriter(buffer, fieldnames=fields, extrasaction="ignore")
    writer.writeheader()
    for row in result.rows:
        data = row.to_dict()
        data["restated"] = json.dumps(data["restated"]) if data["restated"] else ""
        writer.writerow(data)
    return buffer.getvalue()


def _order(row: FactRow) -> tuple[int, float]:
    """Chronological: a fiscal year after its third quarter, beside its fourth."""
    return row.fiscal_year, 4.5 if row.fiscal_quarter is None else float(row.fiscal_quarter)


def plot(result: FactsResult, path: Path) -> None:
    """A line per company and metric over the periods asked (values in millions), saved as PNG; a period
    with no figure breaks the line: a gap is drawn as a gap, never bridged."""
    import matplotlib

    from finagent.reports.facts import is_part_row

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(dict.fromkeys(r.period for r in sorted(result.rows, key=_order) if not is_part_row(r)))
    figure, axis = plt.subplots(figsize=(max(8, len(labels) * 0.5), 4.5))
    for (ticker, metric), rows in _series(result).items():
        values = {r.period: float(r.value) / 1e6 for r in rows if r.value is not None}
        if values:
            ys = [values.get(label, float("nan")) for label in labels]
            axis.plot(range(len(labels)), ys, marker="o", label=f"{ticker} {metric}")
    axis.set_xticks(range(len(labels)), labels, rotation=45, ha="right")
    axis.set_ylabel("USD millions")
    axis.set_title("Reported figures by fiscal period (a gap: no figure in the store)")
    axis.legend()
    axis.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


BAR_WIDTH = 40
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: Decimal, largest: Decimal, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of ``|value|`` on a scale where ``largest`` fills ``width`` cells (eighths)."""
    if largest <= 0:
        return ""
    eighths = int(abs(value) / largest * width * 8 + Decimal("0.5"))
    full, rest = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[rest] if rest else "")


def chart(result: FactsResult) -> None:
    """Each company's metric as bars down its periods, in the terminal: a period with no figure is an
    empty row saying so (never interpolated); a negative value is a red bar with its minus sign."""
    for (ticker, metric), rows in _series(result).items():
        rows = sorted(rows, key=_order)
        values = [r.value for r in rows if r.value is not None]
        if not values:
            continue
        largest = max(abs(v) for v in values)
        table = Table(title=escape(f"{ticker} {metric}"), show_header=False, box=None, pad_edge=False)
        table.add_column("period")
        table.add_column("bar", no_wrap=True)
        table.add_column("value", justify="right")
        for row in rows:
            if row.value is None:
                why = escape(row.note or "no reported figure in the store")  # the gap's own reason
                table.add_row(row.period, f"[dim]{why}[/]", "—")
                continue
            colour = "red" if row.value < 0 else "cyan"
            table.add_row(row.period, f"[{colour}]{bar(row.value, largest)}[/]", amount(row))
        console.print(table)


def _series(result: FactsResult) -> dict[tuple[str, str], list[FactRow]]:
    """Each company's metric down its periods; a split period's parts are left out of every chart."""
    from finagent.reports.facts import is_part_row

    out: dict[tuple[str, str], list[FactRow]] = {}
    for row in result.rows:
        if not is_part_row(row):
            out.setdefault((row.ticker, row.metric_label), []).append(row)
    return out


def _plot_target(plot_path: str | None) -> Path | None:
    """The PNG to write (None: none, or the terminal chart); a path that is no PNG is an error."""
    if plot_path is None or plot_path == TERMINAL:
        return None
    path = Path(plot_path)
    if path.suffix.lower() != ".png":
        raise FinagentError(f"--plot writes a PNG image: give a path ending in .png, got '{path}'")
    if not path.expanduser().resolve().parent.is_dir():
        raise FinagentError(f"--plot: the folder of '{path}' does not exist")
    return path.expanduser()


def facts_command(
    items: Annotated[
        list[str],
        typer.Argument(help="Companies (tickers or names), and optionally periods: AMZN GOOGL FY2024."),
    ],
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "--metric",
            "-m",
            help="Metric(s): --metric revenue net_income (or repeated, or comma-separated).",
        ),
    ] = None,
    periods: Annotated[
        list[str] | None,
        typer.Option(
            "--periods",
            "-p",
            help="Periods: FY2024, 'Q3 FY2023', 'last 4 quarters', 2022-2024, ranges FY2009..FY2024, "
            "'Q1 FY2022..Q3 FY2024', FY2009.. (to the latest held).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the rows as CSV.")] = False,
    as_reported: Annotated[
        bool, typer.Option("--as-reported", help="Values as first reported (default: the latest filing's).")
    ] = False,
    by: Annotated[
        str | None, typer.Option("--by", help="Each part too: segment, product or geography.")
    ] = None,
    plot_path: Annotated[
        str | None,
        typer.Option(
            "--plot",
            help="Also chart each series: in the terminal (--plot), or to a PNG file (--plot FILE.png).",
        ),
    ] = None,
) -> None:
    """Exact reported figures per company and fiscal period from the filings' XBRL facts, with YoY.

    finagent facts AAPL --metric revenue net_income --periods FY2009..FY2024 --plot"""
    from finagent.reports.facts import facts_table

    companies, wanted, named = split_items(items, list(periods or []))
    image = _plot_target(plot_path)
    with store() as db, db.connection() as conn:
        result = facts_table(
            conn, companies, [*(metric or []), *named], wanted, as_reported=as_reported, by=by
        )
    if as_json:
        console.print_json(json.dumps(result.to_dict()))
    elif as_csv:
        print(to_csv(result), end="")
    else:
        print_table(result)
    if image is not None:
        plot(result, image)
        err_console.print(f"plot written to {image}")
    elif plot_path == TERMINAL and not (as_json or as_csv):
        chart(result)
