"""SEC company facts as a user ingests them (`finagent ingest companyfacts`): every filing's facts,
each fact's fiscal period from its own dates (never the filing's fy/fp), one document per filing,
a zip streamed member by member, the same filing as XBRL instance and company facts counted once."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from typer.testing import CliRunner

from finagent.agent.resources import close_resources
from finagent.cli.main import app
from finagent.db import Database
from finagent.db.facts import load_facts
from finagent.settings import Settings, get_settings
from tests.conftest import MODEL_CACHE, require_shared

SNOW_CIK = "CIK0001640147.json"
REVENUE = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
# Full-year revenue each fiscal year's own 10-K reports (read by hand from the JSON: form 10-K, the
# year-long fact ending on January 31 of the fiscal year's name).
SNOW_ANNUAL_REVENUE = {
    2019: Decimal(96_666_000),
    2020: Decimal(264_748_000),
    2021: Decimal(592_049_000),
    2022: Decimal(1_219_327_000),
    2023: Decimal(2_065_659_000),
    2024: Decimal(2_806_489_000),
    2025: Decimal(3_626_396_000),
}


@pytest.fixture()
def cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`finagent ...` in this process against the test store: (exit code, output on one line)."""
    monkeypatch.setenv("FINAGENT_DATABASE_URL", settings.database_url or "")
    monkeypatch.setenv("FINAGENT_HOME", str(settings.home))
    monkeypatch.setenv("FINAGENT_CACHE_DIR", str(MODEL_CACHE))
    monkeypatch.setenv("COLUMNS", "220")
    get_settings.cache_clear()
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True, raw: bool = False) -> str:
        result = runner.invoke(app, list(args))
        if ok:
            assert result.exit_code == 0, result.output
        return result.output if raw else re.sub(r"\s+", " ", result.output)

    yield invoke
    close_resources()
    get_settings.cache_clear()


def _tickers() -> str:
    return str(require_shared("sec", "company_tickers.json"))


def test_snow_annual_revenue_is_each_10k_and_periods_come_from_the_facts_own_dates(
    cli: Any, db: Database
) -> None:
    path = require_shared("edgar-history", "companyfacts", SNOW_CIK)
    out = cli("ingest", "companyfacts", str(path), "--company-list", _tickers())
    assert re.search(r"│ 19 │ 0 │ 8,163 │ 0 │ 0 │ 0 │ 0 │", out), out  # 19 filings, every fact
    assert "new documents by kind: 10-K 5, 10-Q 14" in out
    with db.connection() as conn:
        facts = load_facts(conn, "SNOW", [REVENUE])
    annual: dict[int | None, set[Decimal | None]] = {}
    for fact in facts:
        if fact.duration == "year" and not fact.derived:
            annual.setdefault(fact.fiscal_year, set()).add(fact.value)
    # Every filing's value is kept (three 10-Ks state FY2023), all of them the 10-K's figure.
    assert annual == {year: {value} for year, value in SNOW_ANNUAL_REVENUE.items()}

    # The 10-Q filed 2020-12-03 says fy 2021 fp Q3 for all its facts; its prior-year column (Aug-Oct
    # 2019) is Q3 FY2020. A Q1 10-Q the API tags "fp FY" is a first quarter all the same.
    def quarter(end: str, filed: str) -> tuple[int | None, int | None, Decimal | None]:
        fact = next(
            f
            for f in facts
            if f.duration == "quarter" and str(f.period_end) == end and str(f.filed_at) == filed
        )
        return fact.fiscal_year, fact.fiscal_quarter, fact.value

    assert quarter("2019-10-31", "2020-12-03") == (2020, 3, Decimal(73_012_000))
    assert quarter("2020-10-31", "2020-12-03") == (2021, 3, Decimal(159_624_000))
    assert quarter("2021-04-30", "2022-06-03") == (2022, 1, Decimal(228_914_000))
    raw = json.loads(path.read_text(encoding="utf-8"))["facts"]["us-gaap"][REVENUE.split(":")[1]]["units"][
        "USD"
    ]
    told = {(r["end"], r["filed"]): r["fy"] for r in raw}
    stored = {(str(f.period_end), str(f.filed_at)): f.fiscal_year for f in facts if not f.derived}
    assert sum(stored[k] != fy for k, fy in told.items()) >= 20  # comparatives: fy is the filing's

    table = cli("facts", "SNOW", "--metric", "revenue", "--periods", "FY2022", "FY2023", "FY2024", "FY2025")
    for cell in ("$1,219.3M", "$2,065.7M", "$2,806.5M", "$3,626.4M"):
        assert cell in table
    years = [f"FY{year}" for year in SNOW_ANNUAL_REVENUE]
    rows = list(
        csv.DictReader(io.StringIO(cli("facts", "SNOW", "-m", "revenue", "-p", *years, "--csv", raw=True)))
    )
    assert {int(r["fiscal_year"]): Decimal(r["value"]) for r in rows} == SNOW_ANNUAL_REVENUE
    assert all(r["form"] == "10-K" for r in rows)

    again = cli("ingest", "companyfacts", str(path))
    assert re.search(r"│ 0 │ 0 │ 0 │ 19 │ 0 │ 0 │ 0 │", again), again  # unchanged, nothing added
    documents = cli("db", "documents", "--ticker", "SNOW")
    assert "0001640147-24-000101" in documents or "000164014724000101" in documents
