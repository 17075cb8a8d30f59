"""Shared fixtures: a real embedded PostgreSQL for the session, a fresh database per test."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from finagent.db import Database
from finagent.db.embedded import EmbeddedPostgres
from finagent.settings import Settings

# The processes tests start (CLI runs, notebook kernels) write the bytecode of what they import, as
# Python does by default: with PYTHONDONTWRITEBYTECODE set, each one compiled every module it imports
# from source again (~9 s for the graph's), minutes over the suite.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

if os.environ.get("PYTEST_XDIST_WORKER"):
    # A test worker starts with the controller's terminal size in COLUMNS and LINES (80 x 24 without a
    # terminal). Rich fixes a console's width from COLUMNS when it is created, at import: the width a
    # test sets for the CLI's tables would never apply.
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SHARED_DATA = SHARED / "data"


def require_shared(*parts: str) -> Path:
    """Path inside ../shared/data, or skip the test with a clear message when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs the shared data set at {path} (../shared beside the repo)")
    return path


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """One embedded PostgreSQL (or FINAGENT_TEST_DATABASE_URL) for the whole test session."""
    external = os.environ.get("FINAGENT_TEST_DATABASE_URL")
    if external:
        yield external
        return
    root = Path(tempfile.mkdtemp(prefix="finagent-test-", dir="/tmp"))
    server = EmbeddedPostgres(root / "pg")
    url = server.start()
    yield url
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def create_database(server_url: str) -> str:
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_conninfo(server_url, dbname=name)


# The model cache is shared across tests (the ONNX export runs once per machine, not per test).
MODEL_CACHE = Settings().cache_dir


def make_settings(url: str, tmp: Path, **overrides: object) -> Settings:
    fields: dict[str, Any] = {"database_url": url, "home": tmp / "home", **overrides}
    return Settings(**fields).model_copy(update={"cache_dir_override": MODEL_CACHE})


@pytest.fixture()
def db_url(pg_server_url: str) -> str:
    """URL of a brand-new empty database."""
    return create_database(pg_server_url)


@pytest.fixture()
def settings(db_url: str, tmp_path: Path) -> Settings:
    return make_settings(db_url, tmp_path)


@pytest.fixture()
def db(settings: Settings) -> Iterator[Database]:
    database = Database(settings.database_url or "", settings).open()
    yield database
    database.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test is marked by the group its folder names (pure, store, model): ``pytest -m pure``."""
    for item in items:
        group = item.path.parent.name
        if group in ("pure", "store", "model"):
            item.add_marker(getattr(pytest.mark, group))
