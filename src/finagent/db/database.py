"""Connection management: embedded or external Postgres, pooled, migrated on open."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from finagent.db.chunks import rescan_flags
from finagent.db.embedded import EmbeddedPostgres
from finagent.db.migrate import apply_migrations
from finagent.errors import DatabaseError, first_line
from finagent.finance.company_registry import BUILTIN_COMPANIES
from finagent.resources import read_sql
from finagent.settings import Settings, get_settings

log = logging.getLogger(__name__)
UNTRUSTED_MIGRATION = "004_untrusted_text.sql"  # adds chunks.flagged_reason


def redact_url(url: str) -> str:
    """Hide the password of a connection URL before it is shown to anyone."""
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", url)


class Database:
    """A migrated, pooled connection to the finagent store."""

    def __init__(self, url: str, settings: Settings, embedded: EmbeddedPostgres | None = None) -> None:
        self.url = url
        self.settings = settings
        self.embedded = embedded
        self.pool: ConnectionPool | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def open(self) -> Database:
        self._check_reachable()
        self.pool = ConnectionPool(
            self.url,
            min_size=self.settings.pool_min_size,
            max_size=self.settings.pool_max_size,
            kwargs={"connect_timeout": max(1, int(self.settings.connect_timeout))},
            configure=self._configure,
            check=self._check_connection,
            open=False,
            name="finagent",
        )
        self.pool.open()
        try:
            self.pool.wait(timeout=self.settings.connect_timeout)
        except PoolTimeout as exc:
            self.close()
            raise DatabaseError(f"cannot open a connection pool to {redact_url(self.url)}") from exc
        return self

    def _check_reachable(self) -> None:
        """Connect once without the pool: a clear error beats a pool retrying forever."""
        try:
            with psycopg.connect(
                self.url, connect_timeout=max(1, int(self.settings.connect_timeout)), autocommit=True
            ) as conn:
                try:
                    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
                except psycopg.Error as exc:
                    raise DatabaseError(
                        f"the database at {redact_url(self.url)} has no pgvector extension "
                        "(install pgvector there, or unset FINAGENT_DATABASE_URL): "
                        f"{exc.diag.message_primary}"
                    ) from exc
                applied = apply_migrations(conn)
                if applied:
                    log.info("applied migrations: %s", ", ".join(applied))
                if UNTRUSTED_MIGRATION in applied:
                    # Chunks stored before flags existed are assessed once (text only, no re-embedding).
                    flagged = rescan_flags(conn)
                    log.info("assessed stored passages as untrusted text: %d flagged", flagged)
                self._seed_companies(conn)
        except psycopg.OperationalError as exc:
            raise DatabaseError(
                f"cannot connect to the database at {redact_url(self.url)}: {first_line(exc)}"
            ) from exc

    @staticmethod
    def _seed_companies(conn: psycopg.Connection) -> None:
        with conn.cursor() as cur:
            cur.executemany(
                read_sql("queries/seed_company.sql"),
                [(c.ticker, c.name, list(c.aliases), c.fiscal_year_end_month) for c in BUILTIN_COMPANIES],
            )

    def _check_connection(self, conn: psycopg.Connection) -> None:
        """Hand out live connections only. After a server restart every idle connection is dead:
        the first dead one found has the whole pool checked and refilled in the background, so the
        caller gets a fresh connection on its next try instead of meeting the dead ones one by one."""
        try:
            ConnectionPool.check_connection(conn)
        except psycopg.OperationalError:
            pool = self.pool
            if pool is not None:
                threading.Thread(target=_recheck, args=(pool,), name="finagent-pool-check").start()
            raise

    def _configure(self, conn: psycopg.Connection) -> None:
        register_vector(conn)
        # Session defaults for the ANN path (cross-company searches; a company's search ranks exactly):
        # iterative scans keep filtered HNSW queries complete, up to max_scan_tuples index tuples.
        # Set once per pooled connection rather than per query (SET LOCAL): one round trip less.
        conn.execute("SET hnsw.iterative_scan = 'relaxed_order'")
        conn.execute(f"SET hnsw.ef_search = {int(self.settings.hnsw_ef_search)}")
        conn.execute(f"SET hnsw.max_scan_tuples = {int(self.settings.hnsw_max_scan_tuples)}")
        # Chunks and facts are partitioned by company (sql/012): a search filtered by `ticker = ANY(...)`
        # reads one partition only when planned with its tickers. A generic plan (a statement psycopg
        # prepares after 5 runs) cannot prune by an array parameter and would scan all 16.
        conn.execute("SET plan_cache_mode = force_custom_plan")
        conn.commit()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None
        if self.embedded is not None:
            self.embedded.stop()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- use -------------------------------------------------------------------------------
    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        if self.pool is None:
            raise DatabaseError("the database is closed")
        try:
            with self.pool.connection(timeout=self.settings.connect_timeout) as conn:
                yield conn
        except PoolTimeout as exc:
            raise DatabaseError(
                f"no database connection within {self.settings.connect_timeout:g} s: the database at "
                f"{redact_url(self.url)} is down or every pooled connection is busy"
            ) from exc


def _recheck(pool: ConnectionPool) -> None:
    try:
        pool.check()
    except Exception:  # the pool closed meanwhile, or the server is still down: callers will see it
        log.debug("pool check failed", exc_info=True)


_DATABASE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def ensure_named_database(server_url: str, name: str, *, fresh: bool = False) -> str:
    """URL of database ``name`` on the server of ``server_url``, created when missing.

    Evaluation corpora live in their own databases beside the user's store, on the same server.
    ``fresh`` drops an existing one first (a rebuild after chunking changes).
    """
    if not _DATABASE_NAME.match(name):
        raise DatabaseError(f"'{name}' is not a usable database name (lower-case letters, digits, _)")
    try:
        with psycopg.connect(server_url, autocommit=True) as conn:
            current = conn.execute("SELECT current_database()").fetchone()
            if fresh and current is not None and current[0] == name:
                raise DatabaseError(f"refusing to drop '{name}': it is the store itself")
            if fresh:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.OperationalError as exc:
        raise DatabaseError(f"cannot reach the database server at {redact_url(server_url)}: {exc}") from exc
    return make_conninfo(server_url, dbname=name)


def open_database(
    settings: Settings | None = None, *, database: str | None = None, fresh: bool = False
) -> Database:
    """Open the configured store: FINAGENT_DATABASE_URL if set, else the embedded server.

    ``database`` names another database on the same server (created on first use; emptied first
    when ``fresh``).
    """
    settings = settings or get_settings()
    if settings.database_url:
        url = settings.database_url
        if database:
            url = ensure_named_database(url, database, fresh=fresh)
        return Database(url, settings).open()
    embedded = EmbeddedPostgres(settings.embedded_data_dir)
    url = embedded.start()
    try:
        if database:
            url = ensure_named_database(url, database, fresh=fresh)
        return Database(url, settings, embedded).open()
    except Exception:
        embedded.stop()
        raise
