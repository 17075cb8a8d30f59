"""`finagent doctor`: the first command to run when something is off, one line per part of the install.

It looks and asks, it does not change: the store is read (not migrated), the chat model answers one
short prompt. Every check turns its failure into a line; the command exits 1 when any check failed.
"""

from __future__ import annotations

import json
import platform
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib.metadata import distributions
from typing import Annotated, Literal

import psycopg
import typer
from rich.markup import escape

from finagent.cli.console import console, err_console
from finagent.db.database import redact_url
from finagent.db.embedded import EmbeddedPostgres
from finagent.db.health import StoreHealth, store_health
from finagent.embeddings import Embedder
from finagent.errors import failure_line, first_line
from finagent.llm.providers import make_chat_model, role_models
from finagent.resources import lock_file
from finagent.settings import Settings, get_settings
from finagent.tools.data_dirs import shared_data_dir
from finagent.version import __version__

Status = Literal["ok", "warn", "fail", "info"]
STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red", "info": "dim"}


@dataclass(frozen=True)
class Check:
    """One part of the install and what was found."""

    name: str
    status: Status
    message: str


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_versions(text: str) -> dict[str, str]:
    """name -> version of every `name==version` line of a lock (comments and hashes skipped)."""
    pins = {}
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", line.strip())
        if match:
            pins[_normalise(match.group(1))] = match.group(2)
    return pins


def installed_versions() -> dict[str, str]:
    """name -> version of every installed distribution, names normalised as in the lock."""
    return {_normalise(d.metadata["Name"]): d.version for d in distributions() if d.metadata["Name"]}


def same_release(a: str, b: str) -> bool:
    """Two versions of one release, local labels aside: torch 2.13.0+cpu is the locked 2.13.0."""
    return a.split("+", 1)[0] == b.split("+", 1)[0]


def check_versions(installed: dict[str, str], locked: dict[str, str]) -> Check:
    """The installed packages the lock names, against the lock: a difference is a warning (an install
    from ranges is allowed to differ), with the packages named so a failure elsewhere can be traced."""
    known = sorted(name for name in installed if name in locked)
    differ = [name for name in known if not same_release(installed[name], locked[name])]
    if not differ:
        return Check("versions", "ok", f"{len(known)} installed packages as in requirements.lock")
    shown = ", ".join(f"{name} {installed[name]} (locked {locked[name]})" for name in differ[:6])
    more = f" and {len(differ) - 6} more" if len(differ) > 6 else ""
    return Check(
        "versions",
        "warn",
        f"{len(differ)} of {len(known)} installed packages differ from requirements.lock: {shown}{more} "
        "(pip install -c requirements.lock ... installs the tested ones)",
    )


def _versions() -> Check:
    path = lock_file()
    if path is None:
        return Check(
            "versions", "warn", "requirements.lock is not in this installation: versions not compared"
        )
    return check_versions(installed_versions(), locked_versions(path.read_text(encoding="utf-8")))


def _store_url(settings: Settings) -> tuple[str, str, EmbeddedPostgres | None]:
    """(connection URL, where it is for the message, the embedded server to stop afterwards)."""
    if settings.database_url:
        return settings.database_url, redact_url(settings.database_url), None
    server = EmbeddedPostgres(settings.embedded_data_dir)
    return server.start(), f"embedded, {server.data_dir}", server


def describe_store(health: StoreHealth, where: str) -> Check:
    """The store's line: a newer schema or a missing pgvector fails; a store not yet migrated warns."""
    base = f"PostgreSQL {health.server_version} ({where})"
    unknown = [version for version in health.applied if version not in health.shipped]
    if unknown:
        return Check("database", "fail", f"{base}: migrated by a newer finagent (migration {unknown[-1]})")
    if not health.applied:
        return Check("database", "warn", f"{base}: empty, not yet migrated (the first ingest sets it up)")
    if health.pgvector is None:
        return Check("database", "fail", f"{base}: the pgvector extension is not installed in this database")
    if health.pending:
        return Check(
            "database",
            "warn",
            f"{base}, pgvector {health.pgvector}: {len(health.pending)} migrations pending "
            "(the next command that opens the store applies them)",
        )
    return Check(
        "database",
        "ok",
        f"{base}, pgvector {health.pgvector}: {len(health.applied)} of {len(health.shipped)} migrations "
        f"applied, {health.documents:,} documents",
    )


def _database(settings: Settings) -> tuple[Check, StoreHealth | None]:
    url, where, server = _store_url(settings)
    try:
        timeout = max(1, int(settings.connect_timeout))
        with psycopg.connect(url, connect_timeout=timeout, autocommit=True) as conn:
            health = store_health(conn)
    except psycopg.Error as exc:
        return Check("database", "fail", f"cannot reach the database ({where}): {first_line(exc)}"), None
    finally:
        if server is not None:
            server.stop()
    return describe_store(health, where), health


def _embeddings(settings: Settings, health: StoreHealth | None) -> Check:
    embedder = Embedder(settings)
    dim = int(embedder.encode_query("revenue growth").shape[-1])
    stored = health.embedding_dim if health is not None else None
    model = f"all-MiniLM-L6-v2 ({embedder.backend}) gives {dim}-d vectors"
    if stored is None:
        return Check("embeddings", "ok", f"{model}; no stored vectors to compare with")
    if stored != dim:
        return Check(
            "embeddings",
            "fail",
            f"{model} but the store holds {stored}-d ones: it was built with another model "
            "(ingest again into a new store, e.g. another FINAGENT_HOME)",
        )
    return Check("embeddings", "ok", f"{model}, as the store holds")


def _chat(settings: Settings, provider: str | None) -> Check:
    name, model_name = role_models("generate", settings, provider=provider)[0]
    model = make_chat_model(name, settings, model=model_name, max_tokens=4)
    started = time.monotonic()
    reply = model.invoke("Reply with the single word: ready")
    seconds = time.monotonic() - started
    label = getattr(model, "model_name", None) or getattr(model, "model", None) or name
    if not str(reply.content).strip():
        return Check("chat model", "fail", f"{name} {label} gave an empty reply in {seconds:.1f} s")
    return Check("chat model", "ok", f"{name} {label} answered in {seconds:.1f} s")


def _shared() -> Check:
    found = shared_data_dir()
    if found is None:
        return Check(
            "shared data", "info", "../shared/data not found: the benchmarks and tests needing it skip"
        )
    return Check("shared data", "ok", f"found at {found}")


def _guarded(name: str, check: Callable[[], Check]) -> Check:
    """A check that raised becomes its failure line: the doctor itself never ends in a traceback."""
    try:
        return check()
    except Exception as exc:
        return Check(name, "fail", failure_line(exc))


def run_checks(settings: Settings, *, chat: bool, provider: str | None) -> list[Check]:
    """Every check, in the order a failure is best traced: store, embeddings, chat model, versions."""
    health: StoreHealth | None = None

    def database() -> Check:
        nonlocal health
        check, health = _database(settings)
        return check

    checks = [_guarded("database", database), _guarded("embeddings", lambda: _embeddings(settings, health))]
    if chat:
        checks.append(_guarded("chat model", lambda: _chat(settings, provider)))
    else:
        checks.append(Check("chat model", "info", "not asked (--no-chat)"))
    checks += [_guarded("versions", _versions), _guarded("shared data", _shared)]
    return checks


def doctor_command(
    chat: Annotated[
        bool, typer.Option("--chat/--no-chat", help="Ask the chat model a one-line prompt (loads it).")
    ] = True,
    provider: Annotated[
        str | None, typer.Option("--provider", help="Check this chat provider instead of the configured one.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the checks as JSON.")] = False,
) -> None:
    """Check the install: store, embedding model, chat model, package versions, shared data."""
    settings = get_settings()
    with err_console.status("checking…"):
        checks = run_checks(settings, chat=chat, provider=provider)
    if as_json:
        console.print_json(json.dumps([asdict(check) for check in checks]))
    else:
        console.print(f"finagent {__version__}, Python {platform.python_version()}", highlight=False)
        for check in checks:
            style = STYLE[check.status]
            console.print(
                f"[{style}]{check.status:<4}[/] {check.name:<11} {escape(check.message)}",
                highlight=False,
                soft_wrap=True,
            )
    if any(check.status == "fail" for check in checks):
        raise typer.Exit(1)
