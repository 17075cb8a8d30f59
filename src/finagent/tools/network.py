"""Is the market-data service reachable? One quick, cached probe instead of a timeout per tool call.

Without it, every tool call on a machine with no internet would wait the full tool timeout before
falling back to recorded data; with it, the first call pays at most ~1.5 s and the rest are instant.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from finagent.settings import Settings

PROBE_HOST = "query1.finance.yahoo.com"
PROBE_PORT = 443
PROBE_TIMEOUT = 1.5
CACHE_SECONDS = 300.0

T = TypeVar("T")

_lock = threading.Lock()
_cached: tuple[bool, float, str] | None = None  # (online, checked at (monotonic), reason)


def _probe(
    host: str = PROBE_HOST, port: int = PROBE_PORT, timeout: float = PROBE_TIMEOUT
) -> tuple[bool, str]:
    """TCP connect to the service; DNS failure or any socket error means offline."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True, f"{host}:{port} reachable"
    except socket.gaierror as exc:
        return False, f"cannot resolve {host} ({exc.strerror or exc})"
    except OSError as exc:
        return False, f"cannot connect to {host}:{port} ({exc.strerror or type(exc).__name__})"


def run_with_timeout(func: Callable[[], T], timeout: float, name: str = "finagent-tool") -> T:
    """Run ``func`` in a daemon thread and stop waiting after ``timeout`` seconds.

    A daemon thread (not a ThreadPoolExecutor) so that a call stuck in the network never delays the
    interpreter's exit. Raises TimeoutError when the call did not finish, else returns or re-raises.
    """
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = func()
        except BaseException as exc:  # handed to the caller, whatever it is
            box["error"] = exc

    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    thread.join(max(0.0, timeout))
    if thread.is_alive():
        raise TimeoutError(f"no answer within {timeout:g} s")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def _probe_bounded() -> tuple[bool, str]:
    """The probe, bounded as a whole: getaddrinfo ignores socket timeouts and can hang for long."""
    try:
        return run_with_timeout(_probe, PROBE_TIMEOUT + 0.5, name="finagent-netprobe")
    except TimeoutError:
        return False, f"{PROBE_HOST} did not answer within {PROBE_TIMEOUT:g} s"


def network_status(settings: Settings) -> tuple[bool, str]:
    """(online, reason) — the reason is shown to the user when a tool falls back to recorded data."""
    global _cached
    if settings.offline:
        return False, "offline mode (FINAGENT_OFFLINE=1)"
    with _lock:
        now = time.monotonic()
        if _cached is not None and now - _cached[1] < CACHE_SECONDS:
            return _cached[0], _cached[2]
        online, reason = _probe_bounded()
        _cached = (online, time.monotonic(), reason)
        return online, reason


def is_online(settings: Settings) -> bool:
    """False in offline mode; otherwise whether Yahoo Finance answers (checked at most every 5 min)."""
    return network_status(settings)[0]


def mark_unreachable(reason: str) -> None:
    """Remember that a live call just timed out, so the next calls fall back at once, not after a wait."""
    global _cached
    with _lock:
        _cached = (False, time.monotonic(), reason)


def reset_cache() -> None:
    """Forget the last probe (tests, or after the network configuration changed)."""
    global _cached
    with _lock:
        _cached = None
