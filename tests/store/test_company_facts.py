"""SEC company facts as a user ingests them (`finagent ingest companyfacts`): every filing's facts,
each fact's fiscal period from its own dates (never the filing's fy/fp), one document per filing,
a zip streamed member by member, the same filing as XBRL instance and company facts counted once."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
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


def _as_company(data: bytes, cik: int) -> bytes:
    """The SNOW file as another filer's: another CIK and name (accession numbers stay: co-registrants
    share them)."""
    text = re.sub(rb'"cik":\s*1640147', f'"cik": {cik}'.encode(), data, count=1)
    return re.sub(
        rb'"entityName":\s*"SNOWFLAKE INC."', f'"entityName": "Filer {cik} Inc."'.encode(), text, count=1
    )


def test_a_zip_streams_every_member_and_reports_a_truncated_one_by_name(
    cli: Any, db: Database, tmp_path: Path
) -> None:
    data = require_shared("edgar-history", "companyfacts", SNOW_CIK).read_bytes()
    archive = tmp_path / "companyfacts.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for cik in (9000001, 9000002, 9000003):
            zf.writestr(f"CIK{cik:010d}.json", _as_company(data, cik))
        zf.writestr("CIK0009000004.json", _as_company(data, 9000004)[: len(data) // 2])
        zf.writestr("README.txt", "not company facts")
    out = cli("ingest", "companyfacts", str(archive), ok=False)
    assert re.search(r"│ 57 │ 0 │ 24,489 │ 0 │ 0 │ 1 │ 1 │", out), out  # 3 x (19 filings, 8,163 facts)
    assert f"failed {archive}!CIK0009000004.json: malformed or cut-short JSON" in out
    assert "CIK not in SEC's company list" in out
    status = cli("db", "status")
    for ticker in ("CIK0009000001", "CIK0009000002", "CIK0009000003"):
        assert ticker in status
    assert "CIK0009000004" not in status  # nothing half-written
    with db.connection() as conn:
        held = conn.execute("SELECT count(*) FROM facts WHERE NOT derived GROUP BY ticker").fetchall()
    assert [r[0] for r in held] == [8163, 8163, 8163]


def test_a_malformed_file_is_reported_and_the_others_are_stored(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FINAGENT_POOL_MAX_SIZE", "1")  # one connection: files stored one after another
    data = require_shared("edgar-history", "companyfacts", SNOW_CIK).read_bytes()
    (tmp_path / "CIK0009000001.json").write_bytes(_as_company(data, 9000001))
    (tmp_path / "CIK0009000002.json").write_bytes(b'{"cik": 9000002, "facts": {"us-gaap": {"Revenues": [}}}')
    (tmp_path / "notes.json").write_text('{"hello": "world"}', encoding="utf-8")
    out = cli("ingest", "companyfacts", str(tmp_path), ok=False)
    assert f"failed {tmp_path / 'CIK0009000002.json'}: malformed or cut-short JSON" in out
    assert f"failed {tmp_path / 'notes.json'}: no 'cik': not an SEC company-facts file" in out
    assert re.search(r"│ 19 │ 0 │ 8,163 │", out), out


# A synthetic company-facts file of Apple: its FY2023 10-K (stored also as an XBRL instance, from
# ../shared) and a later 10-Q. Figures as the 10-K and the Q1 FY2024 10-Q report them.
_AAPL_10K = {"accn": "0000320193-23-000106", "fy": 2023, "fp": "FY", "form": "10-K", "filed": "2023-11-03"}
_AAPL_10Q = {"accn": "0000320193-24-000006", "fy": 2024, "fp": "Q1", "form": "10-Q", "filed": "2024-02-02"}


def _aapl_company_facts(path: Path) -> Path:
    revenue = [
        {"start": "2020-09-27", "end": "2021-09-25", "val": 365817000000, **_AAPL_10K},
        {"start": "2021-09-26", "end": "2022-09-24", "val": 394328000000, **_AAPL_10K},
        {"start": "2022-09-25", "end": "2023-09-30", "val": 383285000000, **_AAPL_10K},
        {"start": "2022-09-25", "end": "2022-12-31", "val": 117154000000, **_AAPL_10Q},
        {"start": "2023-10-01", "end": "2023-12-30", "val": 119575000000, **_AAPL_10Q},
    ]
    data = {
        "cik": 320193,
        "entityName": "Apple Inc.",
        "facts": {"us-gaap": {REVENUE.split(":")[1]: {"label": "Revenue", "units": {"USD": revenue}}}},
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _current_fy2023_revenue(db: Database) -> list[tuple[Any, ...]]:
    with db.connection() as conn:
        return conn.execute(
            "SELECT f.value, d.metadata->>'format' FROM facts f JOIN documents d ON d.id = f.document_id "
            "WHERE f.ticker = 'AAPL' AND f.concept = %s AND f.period_end = '2023-09-30' "
            "AND f.duration = 'year' AND f.dims_key = '' AND NOT f.superseded",
            (REVENUE,),
        ).fetchall()


@pytest.mark.parametrize("instance_first", [True, False])
def test_the_same_filing_as_xbrl_instance_and_company_facts_counts_once(
    cli: Any, db: Database, tmp_path: Path, instance_first: bool
) -> None:
    folder = require_shared("edgar-more", "xbrl-instances", "AAPL")
    instance = tmp_path / "instance"
    instance.mkdir()
    for name in ("aapl-20230930_htm.xml", "aapl-20230930_lab.xml"):
        (instance / name).write_bytes((folder / name).read_bytes())
    facts_file = _aapl_company_facts(tmp_path / "CIK0000320193.json")
    steps = [("path", str(instance)), ("companyfacts", str(facts_file), "--company-list", _tickers())]
    outputs = [cli("ingest", *step) for step in (steps if instance_first else steps[::-1])]

    assert [r[0] for r in _current_fy2023_revenue(db)] == [Decimal(383285000000)]  # once
    assert _current_fy2023_revenue(db)[0][1] == "xbrl-instance"  # the filing's own facts win
    if instance_first:
        assert "already stored from the filing itself" in outputs[1]
    documents = cli("db", "documents", "--ticker", "AAPL")
    assert documents.count("2023-09-30") == 1  # one 10-K document for the filing
    assert "10-Q" in documents  # the 10-Q only company facts hold
    table = cli("facts", "AAPL", "--metric", "revenue", "--periods", "FY2023", "Q1 FY2024", "--csv", raw=True)
    values = {r["period"]: r["value"] for r in csv.DictReader(io.StringIO(table))}
    assert values == {"FY2023": "383285000000", "Q1 FY2024": "119575000000"}


_AAPL_10K_TEXT = """<html><body>
<p>Apple Inc. Annual Report on Form 10-K for the fiscal year ended September 30, 2023.</p>
<p>CONSOLIDATED STATEMENTS OF OPERATIONS (In millions)</p>
<table>
<tr><td></td><td>2023</td><td>2022</td><td>2021</td></tr>
<tr><td>Total net sales</td><td>383,285</td><td>394,328</td><td>365,817</td></tr>
<tr><td>Net income</td><td>96,995</td><td>99,803</td><td>94,680</td></tr>
</table>
</body></html>"""


def test_company_facts_cite_the_filing_on_edgar_and_the_chunk_of_its_stored_text(
    cli: Any, db: Database, tmp_path: Path
) -> None:
    text = tmp_path / "aapl-10k-2023.htm"
    text.write_text(_AAPL_10K_TEXT, encoding="utf-8")
    cli("ingest", "path", str(text), "--ticker", "AAPL", "--form", "10-K", "--period-end", "2023-09-30")
    facts_file = _aapl_company_facts(tmp_path / "CIK0000320193.json")
    cli("ingest", "companyfacts", str(facts_file), "--company-list", _tickers())

    printed = cli(
        "facts", "AAPL", "--metric", "revenue", "--periods", "FY2023", "Q1 FY2024", "--csv", raw=True
    )
    rows = {r["period"]: r for r in csv.DictReader(io.StringIO(printed))}
    year, quarter = rows["FY2023"], rows["Q1 FY2024"]
    assert year["value"] == "383285000000" and year["form"] == "10-K"
    assert year["source_uri"] == "https://www.sec.gov/Archives/edgar/data/320193/000032019323000106/"
    with db.connection() as conn:
        shown = conn.execute("SELECT text FROM chunks WHERE id = %s", (int(year["chunk_id"]),)).fetchone()
        title = conn.execute(
            "SELECT title FROM documents WHERE source_uri = %s", (year["source_uri"],)
        ).fetchone()
    assert shown is not None and "383,285" in shown[0]  # the stored text of the same filing
    assert title is not None and "filed 2023-11-03, accession 0000320193-23-000106" in title[0]
    assert quarter["value"] == "119575000000" and not quarter["chunk_id"]  # no text of that 10-Q
    documents = cli("db", "documents", "--ticker", "AAPL")
    assert str(text) in documents and "facts of copy" in documents  # one document for the 10-K
    assert documents.count("2023-09-30") == 1

    removed = cli("db", "remove", str(facts_file))  # the filings read from that file
    assert "removed 2 documents" in removed
    documents = cli("db", "documents", "--ticker", "AAPL")
    assert "10-Q" not in documents and str(text) in documents  # the 10-K's text stays


def test_a_newer_file_adds_new_filings_and_replaces_a_changed_one(
    cli: Any, db: Database, tmp_path: Path
) -> None:
    path = require_shared("edgar-history", "companyfacts", SNOW_CIK)
    data = json.loads(path.read_text(encoding="utf-8"))
    latest_10q, fy2024_10k = "0001640147-25-000110", "0001640147-24-000101"
    for taxonomy in data["facts"].values():  # the older file: before the latest 10-Q ...
        for concept in taxonomy.values():
            for unit, rows in concept["units"].items():
                concept["units"][unit] = [r for r in rows if r["accn"] != latest_10q]
    rows = data["facts"]["us-gaap"][REVENUE.split(":")[1]]["units"]["USD"]
    wrong = next(r for r in rows if r["accn"] == fy2024_10k and r["end"] == "2024-01-31")
    wrong["val"] += 1000  # ... and with one figure of the FY2024 10-K that the newer file corrects
    older = tmp_path / "older" / SNOW_CIK
    older.parent.mkdir()
    older.write_text(json.dumps(data), encoding="utf-8")
    cli("ingest", "companyfacts", str(older), "--company-list", _tickers())

    out = cli("ingest", "companyfacts", str(path))
    assert re.search(r"│ 2 │ 0 │ [\d,]+ │ 17 │ 1 │ 0 │ 0 │", out), out  # new 10-Q, new 10-K version
    printed = cli("facts", "SNOW", "-m", "revenue", "-p", "FY2024", "Q1 FY2026", "--csv", raw=True)
    values = {r["period"]: r["value"] for r in csv.DictReader(io.StringIO(printed))}
    assert values == {"FY2024": "2806489000", "Q1 FY2026": "1042074000"}
    with db.connection() as conn:
        versions = conn.execute(
            "SELECT status FROM documents WHERE metadata->>'accession' = %s ORDER BY id", (fy2024_10k,)
        ).fetchall()
    assert [v[0] for v in versions] == ["superseded", "ready"]  # the first reading kept for old citations
