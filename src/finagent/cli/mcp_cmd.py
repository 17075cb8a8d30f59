"""`finagent mcp`: serve finagent's tools to other agents over MCP (stdio, or streamable HTTP)."""

from __future__ import annotations

from typing import Annotated

import typer

from finagent.cli.console import err_console
from finagent.errors import ConfigError
from finagent.settings import get_settings

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def mcp_command(
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.")
    ] = False,
    host: Annotated[str, typer.Option(help="Interface for --http.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port for --http.")] = 8765,
) -> None:
    """Run the MCP server (tools: ask_financial_question, search_filings, list_companies, coverage,
    get_financial_facts, screen, get_market_data). With --http, FINAGENT_MCP_TOKEN (when set) is
    required as a bearer token."""
    from finagent.interfaces.mcp_server import serve_http, serve_stdio

    if not http:
        serve_stdio()
        return
    secret = get_settings().mcp_token
    token = secret.get_secret_value() if secret else None
    if token is not None and not token.strip():
        raise ConfigError("FINAGENT_MCP_TOKEN is set but empty; set a token or unset it")
    if host not in LOOPBACK and not token:
        raise ConfigError(
            f"refusing to serve on {host} without a token: set FINAGENT_MCP_TOKEN, or use --host 127.0.0.1"
        )
    auth = "bearer token required" if token else "no token (set FINAGENT_MCP_TOKEN to require one)"
    err_console.print(f"finagent MCP server on http://{host}:{port}/mcp · {auth} · Ctrl-C stops it")
    serve_http(host, port, token)
