"""Facts in the real embedded store: written with their document, cited to the chunk that prints them,
versioned with it, linked across formats of one report, derived quarters kept current."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

import psycopg

from finagent.db import Database
from finagent.db.facts import derivation_inputs, load_facts
from finagent.embeddings import get_embedder
from finagent.finance.document_records import Block, ParsedDocument
from finagent.finance.fact_records import Fact, FiscalCalendar
from finagent.ingest.pipeline import IngestPipeline, IngestReport
from finagent.settings import Settings
from tests.helpers import item

REV = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
APPLE = FiscalCalendar(9)


def fact(
    value: str,
    start: date | None,
    end: date,
    *,
    display: str | None,
    block: int | None = 0,
    label: str | None = None,
) -> Fact:
    base = Fact(REV, Decimal(value), "USD", -6, start, end, display=display, block_index=block, label=label)
    return base.in_calendar(APPLE)


def filing(
    kind: str,
    end: date,
    blocks: list[Block],
    facts: list[Fact],
    *,
    uri: str,
    sha: str,
    fiscal_quarter: int | None = None,
    form: str | None = None,
) -> ParsedDocument:
    return ParsedDocument(
        kind=kind,
        title=f"Apple Inc. {kind}",
        source_uri=uri,
        content_sha256=sha,
        blocks=blocks,
        ticker="AAPL",
        company_name="Apple Inc.",
        fiscal_year=APPLE.period_of(end)[0],
        fiscal_quarter=fiscal_quarter,
        period_end=end,
        fiscal_year_end_month=9,
        metadata={"form": form or kind, "fiscal_year_offset": 0},
        facts=facts,
    )


STATEMENT_10K = Block(
    "CONSOLIDATED STATEMENTS OF OPERATIONS (In millions)\n"
    "Years ended | September 28, 2024 | September 30, 2023\nTotal net sales | 391,035 | 383,285",
    section="item_8",
    is_table=True,
)
STATEMENT_10Q = Block(
    "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (In millions)\nThree Months Ended | Nine Months Ended\n"
    "June 29, 2024 | June 29, 2024\nTotal net sales | 85,777 | 296,105",
    section="part1_item_1",
    is_table=True,
)


def annual(
    value: str = "391035000000", *, sha: str = "k-2024", uri: str = "test://aapl-10k-2024"
) -> ParsedDocument:
    return filing(
        "10-K",
        date(2024, 9, 28),
        [Block("Apple Inc. annual report", section="cover"), STATEMENT_10K],
        [
            fact(value, date(2023, 10, 1), date(2024, 9, 28), display="391,035", block=1),
            fact("383285000000", date(2022, 9, 25), date(2023, 9, 30), display="383,285", block=1),
        ],
        uri=uri,
        sha=sha,
    )


def quarterly() -> ParsedDocument:
    return filing(
        "10-Q",
        date(2024, 6, 29),
        [STATEMENT_10Q],
        [
            fact("85777000000", date(2024, 3, 31), date(2024, 6, 29), display="85,777"),
            fact("296105000000", date(2023, 10, 1), date(2024, 6, 29), display="296,105"),
        ],
        uri="test://aapl-10q-2024q3",
        sha="q-2024q3",
        fiscal_quarter=3,
    )


def ingest(db: Database, settings: Settings, docs: Sequence[ParsedDocument]) -> IngestReport:
    return IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in docs])


def revenue(db: Database) -> dict[str, tuple[Decimal | None, bool, int | None]]:
    with db.connection() as conn:
        return {f.period_label: (f.value, f.derived, f.chunk_id) for f in load_facts(conn, "AAPL", [REV])}


def test_facts_are_stored_with_their_chunk_and_q4_is_derived(db: Database, settings: Settings) -> None:
    report = ingest(db, settings, [annual(), quarterly()])
    assert report.documents == 2 and report.facts == 4 and report.derived_facts == 1
    held = revenue(db)
    assert held["FY2024"][0] == Decimal("391035000000") and held["FY2023"][0] == Decimal("383285000000")
    assert held["Q4 FY2024"] == (Decimal("94930000000"), True, None)
    with psycopg.connect(settings.database_url or "") as conn:
        chunk = conn.execute(
            "SELECT c.text, f.statement FROM facts f JOIN chunks c ON c.id = f.chunk_id "
            "WHERE f.display = '391,035'"
        ).fetchone()
        assert chunk is not None and "391,035" in chunk[0]
        offset = conn.execute("SELECT fiscal_year_offset FROM companies WHERE ticker = 'AAPL'").fetchone()
        assert offset == (0,)
    # idempotent: a rerun adds nothing, the derived fact keeps its id
    with db.connection() as conn:
        before = {f.id for f in load_facts(conn, "AAPL", [REV]) if f.derived}
    again = ingest(db, settings, [annual(), quarterly()])
    assert again.documents == 0 and again.unchanged == 2 and again.derived_facts == 0
    with db.connection() as conn:
        assert {f.id for f in load_facts(conn, "AAPL", [REV]) if f.derived} == before


def test_a_new_version_supersedes_facts_and_old_ones_stay_resolvable(
    db: Database, settings: Settings
) -> None:
    ingest(db, settings, [annual(), quarterly()])
    with psycopg.connect(settings.database_url or "") as conn:
        old_id = conn.execute("SELECT id FROM facts WHERE value = 391035000000").fetchone()
    restated = annual("391000000000", sha="k-2024-restated")
    report = ingest(db, settings, [restated])
    assert report.replaced == 1
    held = revenue(db)
    assert held["FY2024"][0] == Decimal("391000000000")
    assert held["Q4 FY2024"][0] == Decimal("94895000000")  # recomputed from the new year
    with psycopg.connect(settings.database_url or "") as conn:
        assert old_id is not None
        row = conn.execute("SELECT superseded, value FROM facts WHERE id = %s", (old_id[0],)).fetchone()
        assert row == (True, Decimal("391035000000"))  # old citations still resolve
        stale = conn.execute("SELECT count(*) FROM facts WHERE derived AND superseded").fetchone()
        assert stale == (1,)
    # the old content comes back: its facts are current again
    ingest(db, settings, [annual()])
    assert revenue(db)["FY2024"][0] == Decimal("391035000000")


def test_an_instance_document_is_counted_once_and_cited_to_the_text_copy(
    db: Database, settings: Settings
) -> None:
    instance = filing(
        "10-K",
        date(2024, 9, 28),
        [],
        [
            fact(
                "391035000000",
                date(2023, 10, 1),
                date(2024, 9, 28),
                display=None,
                block=None,
                label="Total net sales",
            ),
            fact(
                "383285000000",
                date(2022, 9, 25),
                date(2023, 9, 30),
                display=None,
                block=None,
                label="Total net sales",
            ),
        ],
        uri="test://aapl-20240928_htm.xml",
        sha="instance-2024",
    )
    first = ingest(db, settings, [instance])
    assert first.documents == 1 and first.chunks == 0 and first.facts == 2
    assert revenue(db)["FY2024"][2] is None  # no text to cite yet
    # a text copy of the same report (a PDF without XBRL) arrives: the facts are cited to its table
    text_copy = filing(
        "10-K", date(2024, 9, 28), [STATEMENT_10K], [], uri="test://aapl-10k.pdf", sha="pdf-2024"
    )
    ingest(db, settings, [text_copy])
    held = revenue(db)
    assert held["FY2024"][2] is not None
    # the same report in another format (iXBRL) adds its own copy: still one figure per period
    ingest(db, settings, [annual()])
    with db.connection() as conn:
        fy2024 = [f for f in load_facts(conn, "AAPL", [REV]) if f.period_label == "FY2024"]
        assert len(fy2024) == 1
        assert len([f for f in derivation_inputs(conn, "AAPL") if f.period_label == "FY2024"]) == 1


def test_a_year_end_balance_held_only_by_a_later_10q_answers_the_fiscal_year(
    db: Database, settings: Settings
) -> None:
    """Oracle-like: no 10-K in the store, only the next quarter's 10-Q, whose balance sheet prints the
    fiscal year's end beside the quarter's: "total assets at the end of fiscal 2024" is that column."""
    from finagent.reports.facts import facts_table

    assets = "us-gaap:Assets"
    sheet = Block(
        "CONDENSED CONSOLIDATED BALANCE SHEETS (In millions)\n | June 29, 2024 | September 30, 2023\n"
        "Total assets | 331,612 | 352,583",
        section="part1_item_1",
        is_table=True,
    )
    balances = [
        Fact(
            assets,
            Decimal("331612000000"),
            "USD",
            -6,
            None,
            date(2024, 6, 29),
            display="331,612",
            block_index=0,
        ),
        Fact(
            assets,
            Decimal("352583000000"),
            "USD",
            -6,
            None,
            date(2023, 9, 30),
            display="352,583",
            block_index=0,
        ),
    ]
    # the quarter and its prior-year comparative: the store then holds facts of a quarter of FY2023
    sales = [
        fact("85777000000", date(2024, 3, 31), date(2024, 6, 29), display="85,777"),
        fact("81797000000", date(2023, 4, 2), date(2023, 7, 1), display="81,797"),
    ]
    doc = filing(
        "10-Q",
        date(2024, 6, 29),
        [sheet, STATEMENT_10Q],
        [*(f.in_calendar(APPLE) for f in balances), *sales],
        uri="test://aapl-10q-2024q3-bs",
        sha="q-2024q3-bs",
        fiscal_quarter=3,
    )
    ingest(db, settings, [doc])
    with db.connection() as conn:
        table = facts_table(conn, ["AAPL"], ["total_assets"], ["FY2023"], today=date(2025, 1, 15))
    (row,) = table.rows
    assert (row.period, row.value) == ("FY2023", Decimal("352583000000")), table
