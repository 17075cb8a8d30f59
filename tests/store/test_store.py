"""The store on a real embedded PostgreSQL: migrations, atomic idempotent ingestion, events."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from finagent.db import Database
from finagent.db.migrate import apply_migrations, migration_files
from finagent.embeddings import get_embedder
from finagent.errors import DatabaseError, ParseError
from finagent.finance.document_records import Block, SourceItem
from finagent.ingest.pipeline import IngestPipeline
from finagent.retrieval import SearchFilters, hybrid_search
from finagent.settings import Settings
from tests.helpers import item, make_doc


def _count(db: Database, table: str) -> int:
    with db.connection() as conn:
        row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()  # table names are literals here
        assert row is not None
        return int(row[0])


def _pipeline(db: Database, settings: Settings) -> IngestPipeline:
    return IngestPipeline(db, get_embedder(settings), settings)


def test_migrations_are_recorded_and_idempotent(db: Database) -> None:
    with db.connection() as conn:
        assert apply_migrations(conn) == []
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == [v for v, _ in migration_files()]


def test_builtin_companies_are_seeded(db: Database) -> None:
    with db.connection() as conn:
        row = conn.execute("SELECT fiscal_year_end_month FROM companies WHERE ticker = 'MSFT'").fetchone()
    assert row == (6,)


def test_ingest_is_idempotent_and_audited(db: Database, settings: Settings) -> None:
    doc = make_doc("AAPL", "10-Q", 2023, 3, [Block("Total net sales were 81,797 million. " * 40)])
    first = _pipeline(db, settings).run([item(doc)])
    assert first.documents == 1 and first.chunks > 1 and first.ok
    chunks = _count(db, "chunks")
    second = _pipeline(db, settings).run([item(doc)])
    assert second.documents == 0 and second.unchanged == 1
    assert _count(db, "documents") == 1 and _count(db, "chunks") == chunks
    with db.connection() as conn:
        states = [r[0] for r in conn.execute("SELECT state FROM ingest_events ORDER BY id")]
    assert states[:5] == ["discovered", "parsed", "embedded", "ready", "discovered"]
    assert states[-1] == "unchanged"


def test_changed_document_supersedes_old_version_which_stays_resolvable(
    db: Database, settings: Settings
) -> None:
    old = make_doc(
        "MSFT", "10-K", 2023, None, [Block("Revenue was 211,915 million.")], source_uri="file://msft.htm"
    )
    new = make_doc(
        "MSFT",
        "10-K",
        2023,
        None,
        [Block("Revenue was 211,915 million. Restated.")],
        source_uri="file://msft.htm",
    )
    _pipeline(db, settings).run([item(old)])
    with db.connection() as conn:
        old_chunk = conn.execute("SELECT id FROM chunks").fetchone()
    assert old_chunk is not None
    report = _pipeline(db, settings).run([item(new)])
    assert report.replaced == 1
    with db.connection() as conn:
        versions = dict(conn.execute("SELECT content_sha256, status FROM documents").fetchall())
        # the old version's chunk still resolves (an earlier run's citation), but no search finds it
        old_row = conn.execute(
            "SELECT c.text, d.content_sha256 FROM chunks c JOIN documents d ON d.id = c.document_id "
            "WHERE c.id = %s",
            (old_chunk[0],),
        ).fetchone()
        hits = hybrid_search(
            conn, "revenue", get_embedder(settings).encode_query("revenue"), SearchFilters(tickers=["MSFT"])
        )
    assert versions == {old.content_sha256: "superseded", new.content_sha256: "ready"}
    assert old_row == ("Revenue was 211,915 million.", old.content_sha256)
    assert hits and all("Restated" in h.text for h in hits)

    # going back to the old content restores that version without re-embedding
    report = _pipeline(db, settings).run([item(old)])
    assert report.documents == 0 and report.replaced == 1
    with db.connection() as conn:
        versions = dict(conn.execute("SELECT content_sha256, status FROM documents").fetchall())
        hits = hybrid_search(
            conn, "revenue", get_embedder(settings).encode_query("revenue"), SearchFilters(tickers=["MSFT"])
        )
    assert versions == {old.content_sha256: "ready", new.content_sha256: "superseded"}
    assert hits and not any("Restated" in h.text for h in hits)


def test_failed_item_is_reported_and_others_continue(db: Database, settings: Settings) -> None:
    def broken() -> object:
        raise ParseError("/data/bad.pdf", "not a PDF file")

    good = make_doc("NVDA", "10-Q", 2024, 2, [Block("Data Center revenue grew strongly.")])
    crashing = SourceItem(uri="/data/crash.html", load=lambda: 1 / 0)  # type: ignore[arg-type,return-value]
    report = _pipeline(db, settings).run([SourceItem("/data/bad.pdf", broken), crashing, item(good)])  # type: ignore[arg-type]
    assert report.documents == 1
    assert [p for p, _ in report.failed] == ["/data/bad.pdf", "/data/crash.html"]
    assert "not a PDF" in report.failed[0][1] and "ZeroDivisionError" in report.failed[1][1]
    with db.connection() as conn:
        reasons = [r[0] for r in conn.execute("SELECT reason FROM ingest_events WHERE state = 'failed'")]
    assert len(reasons) == 2


def test_nul_bytes_in_text_do_not_abort(db: Database, settings: Settings) -> None:
    doc = make_doc(
        "KO", "news", 2024, 1, [Block("Coca-Cola\x00 raised its dividend.", metadata={"caption": "K\x00O"})]
    )
    doc.metadata["note"] = ["a\x00b"]
    assert _pipeline(db, settings).run([item(doc)]).documents == 1
    with db.connection() as conn:
        row = conn.execute(
            "SELECT c.metadata->>'caption', d.metadata->'note'->>0 "
            "FROM chunks c JOIN documents d ON d.id = c.document_id"
        ).fetchone()
    assert row == ("KO", "ab")


def test_unreachable_external_database_is_a_clear_error(tmp_path: Path) -> None:
    settings = Settings(database_url="postgresql://u:secret@127.0.0.1:1/x", home=tmp_path, connect_timeout=2)
    with pytest.raises(DatabaseError) as info:
        Database(settings.database_url or "", settings).open()
    assert "cannot connect" in str(info.value) and "secret" not in str(info.value)


def test_database_without_pgvector_is_refused(pg_server_url: str, tmp_path: Path) -> None:
    # A role that may not create extensions stands in for a server without pgvector.
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS novector")
        conn.execute("CREATE DATABASE novector")
        conn.execute("DROP ROLE IF EXISTS plain_user")
        conn.execute("CREATE ROLE plain_user LOGIN")
    from psycopg.conninfo import make_conninfo

    url = make_conninfo(pg_server_url, dbname="novector", user="plain_user")
    settings = Settings(database_url=url, home=tmp_path)
    with pytest.raises(DatabaseError, match="pgvector"):
        Database(url, settings).open()


def test_company_names_aliases_and_dollar_tickers_resolve(db: Database, settings: Settings) -> None:
    from finagent.db.companies import list_companies, resolve_company

    doc = make_doc("AAPL", "10-Q", 2023, 3, [Block("iPhone net sales grew.")])
    doc.company_name = "Apple Inc."
    doc.fiscal_year_end_month = 9
    _pipeline(db, settings).run([item(doc)])
    with db.connection() as conn:
        companies = list_companies(conn)
    for text, ticker in [("Apple", "AAPL"), ("apple inc", "AAPL"), ("Microsoft Corp", "MSFT"),
                         ("$MSFT", "MSFT"), ("msft", "MSFT"), ("Alphabet", "GOOGL")]:  # fmt: skip
        company = resolve_company(companies, text)
        assert company is not None and company.ticker == ticker, text
    assert resolve_company(companies, "Nonexistent Widgets") is None
    apple = resolve_company(companies, "AAPL")
    assert apple is not None and apple.documents == 1 and apple.fiscal_year_end_month == 9
