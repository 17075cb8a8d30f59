"""Companies whose XBRL tags mislead, written to the test store: a candidate concept of a line holding
something else (an acquired in-process R&D charge), per-share figures stated per share class, and
EPS of continuing operations beside the total. Each 10-K prints an income statement (its facts carry
the statement's provenance) and, where a fact sits in a note, a note table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from finagent.finance.document_records import Block, ParsedDocument
from finagent.finance.fact_records import Fact, FiscalCalendar

G = "us-gaap:"
RD = G + "ResearchAndDevelopmentExpense"
RD_OWN = G + "ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost"
EPS_D, EPS_B = G + "EarningsPerShareDiluted", G + "EarningsPerShareBasic"
CONT_D = G + "IncomeLossFromContinuingOperationsPerDilutedShare"
CONT_B = G + "IncomeLossFromContinuingOperationsPerBasicShare"
CLASS = G + "StatementClassOfStockAxis"
REV = G + "Revenues"


@dataclass(frozen=True)
class Row:
    """One tagged number of FY2024 (and FY2023): its concept, the row it is printed on, where
    ("statement", "note" or None: in no stored text) and its share class, if any."""

    concept: str
    label: str
    values: tuple[str, str]  # FY2024, FY2023: millions, or dollars per share
    where: str | None = "statement"
    share_class: str | None = None

    @property
    def per_share(self) -> bool:
        return (
            "PerShare" in self.concept
            or "PerDilutedShare" in self.concept
            or self.concept.endswith("PerBasicShare")
        )


TAIL = (
    Row(G + "OperatingIncomeLoss", "Income from operations", ("2,012", "1,870")),
    Row(G + "NetIncomeLoss", "Net income", ("1,531", "1,420")),
)
"""Rows every income statement here closes with."""


def _fact(row: Row, value: str, start: date, end: date, block: int | None) -> Fact:
    scale = Decimal(1) if row.per_share else Decimal(1_000_000)
    dims = ((CLASS, f"us-gaap:{row.share_class}Member"),) if row.share_class else ()
    return Fact(
        row.concept,
        Decimal(value.replace(",", "")) * scale,
        "USD/shares" if row.per_share else "USD",
        2 if row.per_share else -6,
        start,
        end,
        dimensions=dims,
        label=row.label,
        display=value,
        block_index=block,
    ).in_calendar(FiscalCalendar(12))


def ten_k(ticker: str, name: str, rows: Sequence[Row]) -> ParsedDocument:
    """The FY2024 10-K of ``ticker`` (year ends in December): its income statement prints the
    statement rows, a note table the note rows; other rows are tagged in no stored text."""
    header = "Year Ended December 31, | 2024 | 2023"
    rows = [*rows, *TAIL]
    shown = [r for r in rows if r.where == "statement"]
    noted = [r for r in rows if r.where == "note"]
    statement = Block(
        "CONSOLIDATED STATEMENTS OF OPERATIONS (In millions, except per share amounts)\n"
        + "\n".join([header, *(f"{r.label} | {r.values[0]} | {r.values[1]}" for r in shown)]),
        section="item_8",
        page=60,
        is_table=True,
    )
    note = Block(
        "Note 4. Collaborations and acquisitions (In millions)\n"
        + "\n".join([header, *(f"{r.label} | {r.values[0]} | {r.values[1]}" for r in noted)]),
        section="item_8",
        page=80,
        is_table=True,
    )
    years = ((date(2024, 1, 1), date(2024, 12, 31)), (date(2023, 1, 1), date(2023, 12, 31)))
    blocks = {"statement": 1, "note": 2}
    facts = [
        _fact(r, r.values[i], start, end, blocks.get(r.where or ""))
        for r in rows
        for i, (start, end) in enumerate(years)
    ]
    return ParsedDocument(
        kind="10-K",
        title=f"{name} 10-K",
        source_uri=f"test://{ticker.lower()}-10-k-2024",
        content_sha256=f"{ticker}-10-K-2024-tags",
        blocks=[Block(f"{name} 10-K", section="cover"), statement, note],
        ticker=ticker,
        company_name=name,
        fiscal_year=2024,
        period_end=date(2024, 12, 31),
        fiscal_year_end_month=12,
        metadata={"form": "10-K", "fiscal_year_offset": 0},
        facts=facts,
    )


def misleading_companies() -> list[ParsedDocument]:
    revenue = Row(REV, "Total revenues", ("11,020", "9,869"))
    return [
        # The acquired in-process R&D charge is tagged with the R&D concept on its own statement row.
        ten_k(
            "VRTX",
            "Vertex Pharmaceuticals Incorporated",
            [
                revenue,
                Row(RD_OWN, "Research and development expenses", ("3,630", "3,162")),
                Row(RD, "Acquired in-process research and development expenses", ("4,628", "527")),
            ],
        ),
        # The charge is tagged with the R&D concept in a note only.
        ten_k(
            "INCY",
            "Incyte Corporation",
            [
                revenue,
                Row(RD_OWN, "Research and development", ("1,600", "1,627")),
                Row(RD, "In-process research and development charge", ("50", "45"), where="note"),
            ],
        ),
        # Neither printed in stored text (facts alone): the charge is implausibly small beside the line.
        ten_k(
            "EXEL",
            "Exelixis, Inc.",
            [
                revenue,
                Row(RD, "Research and development", ("20", "15"), where=None),
                Row(RD_OWN, "Research and development", ("900", "1,044"), where=None),
            ],
        ),
        # EPS per share class only, one value for every class.
        ten_k(
            "GOOGL",
            "Alphabet Inc.",
            [
                revenue,
                *(
                    Row(EPS_D, "Diluted", ("8.04", "5.80"), share_class=c)
                    for c in ("CommonClassA", "CommonClassB")
                ),
                *(
                    Row(EPS_B, "Basic", ("8.13", "5.84"), share_class=c)
                    for c in ("CommonClassA", "CommonClassB")
                ),
            ],
        ),
        # EPS per share class only, a different value per class.
        ten_k(
            "GEF",
            "Greif, Inc.",
            [
                revenue,
                Row(EPS_D, "Class A Common Stock diluted", ("4.41", "6.43"), share_class="CommonClassA"),
                Row(EPS_D, "Class B Common Stock diluted", ("6.60", "9.63"), share_class="CommonClassB"),
                Row(EPS_B, "Class A Common Stock basic", ("4.44", "6.49"), share_class="CommonClassA"),
                Row(EPS_B, "Class B Common Stock basic", ("6.60", "9.63"), share_class="CommonClassB"),
            ],
        ),
        # Consolidated EPS beside per-class facts: the consolidated line.
        ten_k(
            "CMCSA",
            "Comcast Corporation",
            [
                revenue,
                Row(EPS_D, "Diluted earnings per common share", ("4.14", "3.71")),
                Row(EPS_D, "Diluted", ("4.90", "4.02"), share_class="CommonClassB", where="note"),
            ],
        ),
        # EPS from continuing operations beside the total.
        ten_k(
            "DHR",
            "Danaher Corporation",
            [
                revenue,
                Row(CONT_B, "Basic earnings per share from continuing operations", ("5.35", "6.44")),
                Row(EPS_B, "Basic net earnings per share", ("5.35", "6.47")),
                Row(CONT_D, "Diluted earnings per share from continuing operations", ("5.29", "6.35")),
                Row(EPS_D, "Diluted net earnings per share", ("5.29", "6.38")),
            ],
        ),
    ]
