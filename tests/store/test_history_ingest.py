"""Every EDGAR generation through the CLI: `finagent ingest path ../shared/data/edgar-history` stores each
historic instance under its company, and `finagent facts` prints their exact figures; a company whose
filing names no ticker gets one from SEC's list by its CIK; a pre-2019 full-submission.txt is one
filing whose EX-101.INS facts cite the text chunk printing them."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from finagent.agent.resources import close_resources
from finagent.cli.main import app
from finagent.settings import get_settings
from tests.conftest import MODEL_CACHE, create_database, require_shared
from tests.pure.test_xbrl_history import nflx_full_submission

pytestmark = [pytest.mark.shared, pytest.mark.slow]

Store = tuple[str, Path]


def finagent(store: Store, *args: str) -> str:
    """`finagent ...` run in this process against ``store`` (database URL, home); returns its output."""
    url, home = store
    env = {"FINAGENT_DATABASE_URL": url, "FINAGENT_HOME": str(home), "FINAGENT_CACHE_DIR": str(MODEL_CACHE)}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {**env, "COLUMNS": "200"}.items():
            patch.setenv(name, value)
        get_settings.cache_clear()
        try:
            result = CliRunner().invoke(app, list(args))
        finally:
            close_resources()
            get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def history_store(pg_server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """The historic instances ingested exactly as a user would, SEC's company list not loaded."""
    store = (create_database(pg_server_url), tmp_path_factory.mktemp("home"))
    finagent(store, "ingest", "path", str(require_shared("edgar-history")))
    with psycopg.connect(store[0]) as conn:
        rows = conn.execute("SELECT source_uri, kind, ticker, period_end::text FROM documents").fetchall()
    recognised = {
        Path(uri).name: (kind, ticker, end) for uri, kind, ticker, end in rows if uri.endswith("xml")
    }
    assert recognised == {
        "nflx-20100930.xml": ("10-Q", "NFLX", "2010-09-30"),
        "AAPL-Xbrl.2013.xml": ("10-Q", "AAPL", "2013-06-29"),
        "crr.xbrl.xml": ("10-K", "CRR", "2017-12-31"),
        "Form10q_htm.xml": ("10-Q", "CIK0001138724", "2024-09-30"),
    }
    yield store


def facts_json(store: Store, *args: str) -> dict[tuple[str, str, str], dict[str, Any]]:
    rows = json.loads(finagent(store, "facts", *args, "--json"))["rows"]
    return {(r["ticker"], r["metric"], r["period"]): r for r in rows}


def test_netflix_2010_quarter_and_its_comparative_print_exact_figures(history_store: Store) -> None:
    args = ["NFLX", "--metric", "revenue", "--metric", "net_income", "--periods", "Q3 FY2009", "Q3 FY2010"]
    rows = facts_json(history_store, *args)
    values = {key: row["value"] for key, row in rows.items()}
    assert values == {
        ("NFLX", "revenue", "Q3 FY2009"): "423120000",
        ("NFLX", "revenue", "Q3 FY2010"): "553219000",
        ("NFLX", "net_income", "Q3 FY2009"): "30141000",
        ("NFLX", "net_income", "Q3 FY2010"): "37967000",
    }
    assert {row["concept"] for row in rows.values()} == {"us-gaap:Revenues", "us-gaap:NetIncomeLoss"}
    printed = re.sub(r"\s+", " ", finagent(history_store, "facts", *args))
    for shown in ("$553.2M", "$423.1M", "$38.0M", "$30.1M"):
        assert shown in printed, printed


def test_every_historic_company_is_stored_with_its_figures(history_store: Store) -> None:
    companies = ["AAPL", "CRR", "CIK0001138724"]
    periods = ["Q3 FY2013", "FY2015", "FY2017", "Q3 FY2024"]
    rows = facts_json(history_store, *companies, "-m", "revenue", "-m", "net_income", "-p", *periods)
    values = {key: row["value"] for key, row in rows.items() if row["value"] is not None}
    assert values == {
        ("AAPL", "revenue", "Q3 FY2013"): "35323000000",  # us-gaap:SalesRevenueNet
        ("AAPL", "net_income", "Q3 FY2013"): "6900000000",
        ("CRR", "revenue", "FY2017"): "188756000",
        ("CRR", "revenue", "FY2015"): "279574000",
        ("CRR", "net_income", "FY2017"): "-253116000",
        ("CRR", "net_income", "FY2015"): "-109544000",
        # Global Arena's filing names no ticker and SEC's list is not loaded: kept under its CIK.
        ("CIK0001138724", "revenue", "Q3 FY2024"): "350041",
        ("CIK0001138724", "net_income", "Q3 FY2024"): "-422167",
    }
    assert rows[("AAPL", "revenue", "Q3 FY2013")]["concept"] == "us-gaap:SalesRevenueNet"
    url, _ = history_store
    with psycopg.connect(url) as conn:
        ciks = conn.execute("SELECT ticker, cik FROM companies WHERE cik IS NOT NULL").fetchall()
    stored: dict[str, str] = dict(ciks)
    # CARBO is delisted (not in today's list): kept under the symbol its filing gives, with its CIK.
    assert stored["CRR"] == "0001009672" and stored["NFLX"] == "0001065280"


def test_sec_company_list_names_a_filing_that_states_no_ticker(pg_server_url: str, tmp_path: Path) -> None:
    store = (create_database(pg_server_url), tmp_path)
    folder = tmp_path / "gahc"
    folder.mkdir()
    for name in ("Form10q_htm.xml", "gahc-20240930.xsd", "gahc-20240930_lab.xml"):
        os.symlink(require_shared("edgar-history", "GAHC", name), folder / name)
    finagent(store, "ingest", "path", str(folder))  # first without the list: under its CIK
    assert facts_json(store, "CIK0001138724", "-m", "revenue", "-p", "Q3 FY2024")
    printed = finagent(
        store, "ingest", "path", str(folder), str(require_shared("sec", "company_tickers.json"))
    )
    said = re.sub(r"\s+", " ", printed)
    assert "CIK0001138724: SEC's list names it GAHC" in said, printed  # moved, not stored twice
    rows = facts_json(store, "GAHC", "-m", "revenue", "-p", "Q3 FY2024", "Q3 FY2023")
    assert rows[("GAHC", "revenue", "Q3 FY2024")]["value"] == "350041"
    assert rows[("GAHC", "revenue", "Q3 FY2023")]["value"] == "268304"
    with psycopg.connect(store[0]) as conn:
        held = conn.execute("SELECT DISTINCT ticker FROM facts WHERE NOT superseded").fetchall()
    assert held == [("GAHC",)]


def test_company_facts_found_by_ingest_path_move_to_their_ticker_when_the_list_arrives(
    pg_server_url: str, tmp_path: Path
) -> None:
    store = (create_database(pg_server_url), tmp_path)
    first = re.sub(
        r"\s+", " ", finagent(store, "ingest", "path", str(require_shared("edgar-history", "companyfacts")))
    )
    assert "CIK0001640147" in first and "10-K 5, 10-Q 14" in first, first  # read, under its CIK
    by_name = facts_json(store, "Snowflake", "-m", "revenue", "-p", "FY2024")  # its name finds it
    assert by_name[("CIK0001640147", "revenue", "FY2024")]["value"] == "2806489000"
    listed = re.sub(r"\s+", " ", finagent(store, "ingest", "path", str(require_shared("sec"))))
    assert "CIK0001640147: SEC's list names it SNOW (Snowflake Inc.)" in listed, listed
    again = finagent(store, "ingest", "path", str(require_shared("edgar-history", "companyfacts")))
    assert re.search(r"│\s+0 │\s+0 │\s+0 │\s+19 │", again), again  # the same filings, unchanged
    rows = facts_json(store, "SNOW", "-m", "revenue", "-p", "FY2020..FY2025")
    assert {p: r["value"] for (_, _, p), r in rows.items()} == {
        "FY2020": "264748000",
        "FY2021": "592049000",
        "FY2022": "1219327000",
        "FY2023": "2065659000",
        "FY2024": "2806489000",
        "FY2025": "3626396000",
    }
    with psycopg.connect(store[0]) as conn:
        held = conn.execute("SELECT ticker, name FROM companies WHERE cik LIKE '%1640147'").fetchall()
    assert held == [("SNOW", "Snowflake Inc.")]  # one company, named as SEC's list names it


def test_a_full_submission_is_one_filing_whose_facts_cite_its_text(
    pg_server_url: str, tmp_path: Path
) -> None:
    nflx_full_submission(tmp_path / "download")
    store = (create_database(pg_server_url), tmp_path)
    finagent(store, "ingest", "path", str(tmp_path / "download"))
    with psycopg.connect(store[0]) as conn:
        documents = conn.execute("SELECT kind, ticker, fiscal_year, fiscal_quarter FROM documents").fetchall()
        assert documents == [("10-Q", "NFLX", 2010, 3)]
        chunks = conn.execute("SELECT count(*) FROM chunks").fetchone()
        assert chunks is not None and chunks[0] > 0
    rows = facts_json(store, "NFLX", "-m", "revenue", "-m", "net_income", "-p", "Q3 FY2010")
    revenue, net_income = rows[("NFLX", "revenue", "Q3 FY2010")], rows[("NFLX", "net_income", "Q3 FY2010")]
    assert (revenue["value"], net_income["value"]) == ("553219000", "37967000")
    with psycopg.connect(store[0]) as conn:
        cited = conn.execute("SELECT text FROM chunks WHERE id = %s", (revenue["chunk_id"],)).fetchone()
    assert cited is not None and "553,219" in cited[0] and "37,967" in cited[0]
