"""`finagent screen`: every company in the store ranked or filtered by one metric, each in its own
fiscal period, computed from the filings' facts (no model)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from finagent.cli.common import store
from finagent.cli.console import console


def screen_command(
    metric: Annotated[
        str,
        typer.Option(
            "--metric",
            "-m",
            help="operating_margin, net_income, revenue_growth, free_cash_flow, eps_diluted, ...",
        ),
    ],
    period: Annotated[
        str,
        typer.Option("--period", "-p", help="latest-FY (each company's own latest fiscal year), FY2024, ..."),
    ] = "latest-FY",
    top: Annotated[int | None, typer.Option("--top", help="Only the first N companies.")] = None,
    minimum: Annotated[
        str | None,
        typer.Option("--min", help="Keep companies above this: 10% for a percentage, 5B for an amount."),
    ] = None,
    maximum: Annotated[str | None, typer.Option("--max", help="Keep companies below this.")] = None,
    lowest: Annotated[bool, typer.Option("--lowest", help="Rank the lowest first.")] = False,
    tickers: Annotated[
        list[str] | None, typer.Option("--ticker", "-t", help="Screen only these companies (default: all).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Rank or filter every company in the store by one metric, each in its own fiscal period.

    finagent screen --metric operating_margin --top 10; finagent screen -m revenue_growth --min 10%
    """
    from finagent.agent.screen import request_from_options, screen

    request = request_from_options(
        metric, period, top=top, minimum=minimum, maximum=maximum, lowest=lowest, tickers=tickers or ()
    )
    with store() as db, db.connection() as conn:
        result = screen(conn, request)
    if as_json:
        console.print_json(json.dumps(result.to_dict()))
        return
    print(result.answer)
    if result.items:
        print()
        for item in result.items:
            where = item.get("title") or item.get("source_uri") or ""
            held = f"{item.get('ticker') or ''} {item.get('period_label') or ''}"
            print(f"[{item['label']}] {held} {where}".rstrip())
