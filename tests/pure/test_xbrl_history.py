"""XBRL instances of every EDGAR generation (../shared/data/edgar-history): company, form and period
recognised, and revenue and net income of every period each filing states equal to its own facts
(gold read by hand from the XML); pre-2019 full submissions whose XBRL is an EX-101.INS document."""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from finagent.finance.document_records import ParsedDocument
from finagent.finance.fact_records import Fact, StoredFact
from finagent.finance.line_item import LineItem
from finagent.finance.lines import REPORTED
from finagent.finance.read.lookup import PeriodWanted, select
from finagent.finance.read.xbrl.xml import namespace_family, standard_concept
from finagent.ingest.discover import discover
from finagent.ingest.ixbrl import parse_edgar_submission, parse_ixbrl_html
from finagent.ingest.sec.submission import submission_documents
from finagent.ingest.xbrl_instance import is_linkbase_or_schema, parse_xbrl_instance
from tests.conftest import require_shared
from tests.helpers import as_stored

HISTORY = ("edgar-history",)
NFLX_ACCESSION = "0001065280-10-000029"  # synthetic: the fixture is built from the instance


def history(*parts: str) -> Path:
    return require_shared(*HISTORY, *parts)


Identity = tuple[str | None, str, str, date, int, int | None, str]
"""(ticker, registrant, form, period end, fiscal year, fiscal quarter, CIK)"""

# Gold, read by hand from each instance's consolidated (no dimension) facts.
GOLD: dict[str, dict[str, Any]] = {
    "NFLX/nflx-20100930.xml": {
        "identity": ("NFLX", "NETFLIX INC", "10-Q", date(2010, 9, 30), 2010, 3, "0001065280"),
        "revenue": {  # us-gaap:Revenues, 2009 xbrl.us taxonomy
            "Q3 FY2010": 553219000,
            "Q3 FY2009": 423120000,
            "9M FY2010": 1566703000,
            "9M FY2009": 1225727000,
        },
        "net_income": {
            "Q3 FY2010": 37967000,
            "Q3 FY2009": 30141000,
            "9M FY2010": 113758000,
            "9M FY2009": 84947000,
        },
    },
    "AAPL/AAPL-Xbrl.2013.xml": {
        "identity": ("AAPL", "APPLE INC", "10-Q", date(2013, 6, 29), 2013, 3, "0000320193"),
        "revenue": {  # us-gaap:SalesRevenueNet
            "Q3 FY2013": 35323000000,
            "Q3 FY2012": 35023000000,
            "9M FY2013": 133438000000,
            "9M FY2012": 120542000000,
        },
        "net_income": {
            "Q3 FY2013": 6900000000,
            "Q3 FY2012": 8824000000,
            "9M FY2013": 29525000000,
            "9M FY2012": 33510000000,
        },
    },
    "CRR/crr.xbrl.xml": {
        "identity": ("CRR", "CARBO CERAMICS INC", "10-K", date(2017, 12, 31), 2017, None, "0001009672"),
        "revenue": {  # us-gaap:SalesRevenueNet; the 10-K also tags its unaudited quarters
            "FY2017": 188756000,
            "FY2016": 103051000,
            "FY2015": 279574000,
            "Q1 FY2017": 34670000,
            "Q2 FY2017": 43572000,
            "Q3 FY2017": 50173000,
            "Q4 FY2017": 60341000,
            "Q1 FY2016": 33102000,
            "Q2 FY2016": 20651000,
            "Q3 FY2016": 20241000,
            "Q4 FY2016": 29058000,
        },
        "net_income": {
            "FY2017": -253116000,
            "FY2016": -80127000,
            "FY2015": -109544000,
            "Q1 FY2017": -32444000,
            "Q2 FY2017": -24822000,
            "Q3 FY2017": -178465000,
            "Q4 FY2017": -17384000,
            "Q1 FY2016": -24684000,
            "Q2 FY2016": -20296000,
            "Q3 FY2016": -19950000,
            "Q4 FY2016": -15197000,
        },
    },
    "GAHC/Form10q_htm.xml": {
        # No dei:TradingSymbol: the symbol comes from SEC's list by CIK when the store has it.
        "identity": (None, "GLOBAL ARENA HOLDING, INC.", "10-Q", date(2024, 9, 30), 2024, 3, "0001138724"),
        "revenue": {
            "Q3 FY2024": 350041,
            "Q3 FY2023": 268304,
            "9M FY2024": 930354,
            "9M FY2023": 612468,
        },
        "net_income": {
            "Q3 FY2024": -422167,
            "Q3 FY2023": -169458,
            "9M FY2024": -710164,
            "9M FY2023": -994500,
            # the equity statement's quarters, tagged ProfitLoss (no NetIncomeLoss for them)
            "Q1 FY2024": -131018,
            "Q2 FY2024": -156979,
            "Q1 FY2023": -526395,
            "Q2 FY2023": -298647,
        },
    },
}


def stored(facts: list[Fact], ticker: str) -> list[StoredFact]:
    """Parsed facts as the store returns them (one filing), for the lookup that answers questions."""
    return as_stored(facts, ticker, f"{ticker}|filing")


def figures(doc: ParsedDocument, metric: LineItem) -> dict[str, int]:
    """Every period the filing states the metric for, with the value the lookup answers with
    (quarters and years through ``select``; year-to-date periods by the vocabulary's order)."""
    facts = stored(doc.facts, doc.ticker or "X")
    rank = {c: i for i, c in enumerate(metric.concepts)}
    found: dict[str, tuple[int, Decimal]] = {}
    for f in facts:
        if f.concept in rank and not f.dims_key and f.value is not None and f.unit == "USD":
            best = found.get(f.period_label)
            if best is None or rank[f.concept] < best[0]:
                found[f.period_label] = (rank[f.concept], f.value)
    result: dict[str, int] = {}
    for label, (_, value) in found.items():
        if label.startswith(("Q", "FY")):
            year = int(label.rsplit("FY", 1)[1])
            quarter = int(label[1]) if label.startswith("Q") else None
            chosen = select(facts, metric, PeriodWanted(year, quarter))
            assert chosen is not None and chosen.fact.value == value, label
        result[label] = int(value)
    return result


@pytest.mark.shared
@pytest.mark.parametrize("name", sorted(GOLD))
def test_every_historic_instance_is_recognised_with_its_figures(name: str) -> None:
    doc = parse_xbrl_instance(history(*name.split("/")))
    gold = GOLD[name]
    identity: Identity = gold["identity"]
    ticker, company, form, period_end, year, quarter, cik = identity
    assert (doc.ticker, doc.company_name, doc.kind, doc.period_end) == (ticker, company, form, period_end)
    assert (doc.fiscal_year, doc.fiscal_quarter, doc.metadata["cik"]) == (year, quarter, cik)
    assert all(f.fiscal_year is not None for f in doc.facts), "every fact has its fiscal period"
    for metric in ("revenue", "net_income"):
        assert figures(doc, REPORTED[metric]) == gold[metric], metric


@pytest.mark.shared
def test_label_linkbase_through_the_schema_or_beside_the_instance() -> None:
    nflx = parse_xbrl_instance(history("NFLX", "nflx-20100930.xml"))
    gahc = parse_xbrl_instance(history("GAHC", "Form10q_htm.xml"))  # linkbase named after the schema
    aapl = parse_xbrl_instance(history("AAPL", "AAPL-Xbrl.2013.xml"))  # none shipped
    assert nflx.metadata["label_linkbase"] == "nflx-20100930_lab.xml"
    assert gahc.metadata["label_linkbase"] == "gahc-20240930_lab.xml"
    assert "label_linkbase" not in aapl.metadata and "no label linkbase" in aapl.metadata["xbrl_warnings"][0]
    labelled = {f.concept: f.label for f in gahc.facts}
    assert labelled["us-gaap:Revenues"] == "Services" and labelled["us-gaap:NetIncomeLoss"]
    assert all(f.label for f in nflx.facts if f.concept == "us-gaap:Revenues")


@pytest.mark.shared
def test_a_history_folder_holds_four_filings_and_no_companion_files(tmp_path: Path) -> None:
    found = discover(history())
    names = sorted(Path(i.uri).name for i in found.items)
    assert names == ["AAPL-Xbrl.2013.xml", "Form10q_htm.xml", "crr.xbrl.xml", "nflx-20100930.xml"]
    assert not found.failed
    assert not [p for p, _ in found.skipped if p.endswith((".xsd", ".xml"))]
    # An instance under any name is one by its content; a linkbase under any name is none.
    os.symlink(history("AAPL", "AAPL-Xbrl.2013.xml"), tmp_path / "apple-q3-2013.xbrl")
    os.symlink(history("GAHC", "gahc-20240930_lab.xml"), tmp_path / "labels.xml")
    odd = discover(tmp_path)
    assert [Path(i.uri).name for i in odd.items] == ["apple-q3-2013.xbrl"] and not odd.skipped
    assert is_linkbase_or_schema(tmp_path / "labels.xml")
    assert odd.items[0].load().ticker == "AAPL"


@pytest.mark.parametrize(
    ("uri", "family"),
    [
        ("http://xbrl.us/us-gaap/2009-01-31", "us-gaap"),
        ("http://fasb.org/us-gaap/2017-01-31", "us-gaap"),
        ("http://fasb.org/us-gaap/2024", "us-gaap"),
        ("http://xbrl.us/dei/2009-01-31", "dei"),
        ("http://xbrl.sec.gov/dei/2014-01-31", "dei"),
        ("http://xbrl.sec.gov/dei/2024", "dei"),
        ("http://fasb.org/srt/2024", "srt"),
        ("http://xbrl.ifrs.org/taxonomy/2023-03-23/ifrs-full", "ifrs-full"),
        ("http://xbrl.us/us-gaap/negated/2008-03-31", None),  # a label role namespace, no concepts
        ("http://xbrl.us/us-gaap-ent/2009-01-31", None),
        ("http://www.netflix.com/20100930", None),
        ("", None),
    ],
)
def test_namespace_families_of_every_year(uri: str, family: str | None) -> None:
    assert namespace_family(uri) == family


def test_a_filers_own_prefix_for_a_standard_taxonomy_reads_as_the_family() -> None:
    nsmap: dict[str | None, str] = {"gaap": "http://fasb.org/us-gaap/2015-01-31", "x": "http://x.com/2015"}
    assert standard_concept("gaap:Revenues", nsmap) == "us-gaap:Revenues"
    assert standard_concept("x:Revenues", nsmap) == "x:Revenues"
    assert standard_concept("Revenues", nsmap) == "Revenues"


@pytest.mark.shared
def test_goods_or_services_revenue_is_the_line_only_when_reported_alone() -> None:
    """CARBO sells goods: its SalesRevenueNet as a goods-only maker's SalesRevenueGoodsNet is its
    revenue; beside a services figure for the same year, neither is the whole line."""
    doc = parse_xbrl_instance(history("CRR", "crr.xbrl.xml"))
    net = "us-gaap:SalesRevenueNet"
    goods = [replace(f, concept="us-gaap:SalesRevenueGoodsNet") if f.concept == net else f for f in doc.facts]
    revenue = REPORTED["revenue"]
    fy2017 = PeriodWanted(2017)
    chosen = select(stored(goods, "CRR"), revenue, fy2017)
    assert chosen is not None and chosen.fact.value == 188756000
    year = next(f for f in goods if f.concept.endswith("GoodsNet") and f.period_label == "FY2017")
    services = replace(year, concept="us-gaap:SalesRevenueServicesNet", value=Decimal(1000))
    assert select(stored([*goods, services], "CRR"), revenue, fy2017) is None
    only_services = [
        replace(f, concept="us-gaap:SalesRevenueServicesNet") if f.concept == net else f for f in doc.facts
    ]
    chosen = select(stored(only_services, "CRR"), revenue, fy2017)
    assert chosen is not None and chosen.fact.value == 188756000


@pytest.mark.shared
def test_operating_cash_flow_of_continuing_operations() -> None:
    doc = parse_xbrl_instance(history("CRR", "crr.xbrl.xml"))
    chosen = select(stored(doc.facts, "CRR"), REPORTED["operating_cash_flow"], PeriodWanted(2015))
    assert chosen is not None and chosen.fact.value == 70577000
    assert chosen.fact.concept == "us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations"


# -- full-submission.txt with the XBRL as EX-101.INS ------------------------------------------------------
_HEADER = """<SEC-DOCUMENT>{accession}.txt : 20101022
<SEC-HEADER>{accession}.hdr.sgml : 20101022
ACCESSION NUMBER:\t\t{accession}
CONFORMED SUBMISSION TYPE:\t10-Q
PUBLIC DOCUMENT COUNT:\t\t8
CONFORMED PERIOD OF REPORT:\t20100930
FILED AS OF DATE:\t\t20101022

FILER:

\tCOMPANY DATA:
\t\tCOMPANY CONFORMED NAME:\t\t\tNETFLIX INC
\t\tCENTRAL INDEX KEY:\t\t\t0001065280
\t\tFISCAL YEAR END:\t\t\t1231
</SEC-HEADER>
"""

# The 10-Q's text as 2010 filings wrote it (no inline XBRL), printing a few of the instance's numbers.
_TEN_Q = """<HTML><BODY>
<P>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</P>
<P>FORM 10-Q</P>
<P>For the quarterly period ended September 30, 2010</P>
<P>NETFLIX, INC.</P><P>(Exact name of registrant as specified in its charter)</P>
<P>PART I. FINANCIAL INFORMATION</P>
<P>Item 1. Financial Statements</P>
<P>NETFLIX, INC. CONSOLIDATED STATEMENTS OF OPERATIONS (in thousands, except per share data)</P>
<TABLE>
<TR><TD></TD><TD>Three Months Ended September 30, 2010</TD><TD>Three Months Ended September 30, 2009</TD>
<TD>Nine Months Ended September 30, 2010</TD><TD>Nine Months Ended September 30, 2009</TD></TR>
<TR><TD>Revenues</TD><TD>$ 553,219</TD><TD>$ 423,120</TD><TD>$ 1,566,703</TD><TD>$ 1,225,727</TD></TR>
<TR><TD>Operating income</TD><TD>69,501</TD><TD>49,337</TD><TD>205,188</TD><TD>138,590</TD></TR>
<TR><TD>Net income</TD><TD>$ 37,967</TD><TD>$ 30,141</TD><TD>$ 113,758</TD><TD>$ 84,947</TD></TR>
</TABLE>
<P>Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations</P>
<P>Revenues grew with our subscriber base; streaming content costs rose faster than revenues.</P>
</BODY></HTML>
"""


def _document(doc_type: str, sequence: int, filename: str, body: bytes, xbrl: bool = False) -> bytes:
    head = f"<DOCUMENT>\n<TYPE>{doc_type}\n<SEQUENCE>{sequence}\n<FILENAME>{filename}\n<TEXT>\n".encode()
    inner = b"<XBRL>\n" + body + b"\n</XBRL>" if xbrl else body
    return head + inner + b"\n</TEXT>\n</DOCUMENT>\n"


def nflx_full_submission(root: Path, *, with_xbrl: bool = True) -> Path:
    """sec-edgar-downloader's layout for Netflix's Q3 2010 10-Q: the HTML text and (before 2019) the
    XBRL as separate documents, built from the historic instance, schema and label linkbase."""
    folder = root / "sec-edgar-filings" / "NFLX" / "10-Q" / NFLX_ACCESSION
    folder.mkdir(parents=True)
    parts = [
        _HEADER.format(accession=NFLX_ACCESSION).encode(),
        _document("10-Q", 1, "nflx10q.htm", _TEN_Q.encode()),
    ]
    if with_xbrl:
        parts += [
            _document(
                "EX-101.INS", 2, "nflx-20100930.xml", history("NFLX", "nflx-20100930.xml").read_bytes(), True
            ),
            _document(
                "EX-101.SCH", 3, "nflx-20100930.xsd", history("NFLX", "nflx-20100930.xsd").read_bytes(), True
            ),
            _document(
                "EX-101.LAB",
                4,
                "nflx-20100930_lab.xml",
                history("NFLX", "nflx-20100930_lab.xml").read_bytes(),
                True,
            ),
        ]
    path = folder / "full-submission.txt"
    path.write_bytes(b"".join(parts) + b"</SEC-DOCUMENT>\n")
    return path


@pytest.mark.shared
def test_a_full_submission_with_an_ex101_instance_is_one_filing_with_text_and_facts(tmp_path: Path) -> None:
    path = nflx_full_submission(tmp_path)
    kinds = [d.type for d in submission_documents(path.read_bytes())]
    assert kinds == ["10-Q", "EX-101.INS", "EX-101.SCH", "EX-101.LAB"]
    found = discover(tmp_path)
    assert [Path(i.uri).name for i in found.items] == ["full-submission.txt"]
    doc = found.items[0].load()
    assert (doc.kind, doc.ticker, doc.period_end, doc.fiscal_year, doc.fiscal_quarter) == (
        "10-Q",
        "NFLX",
        date(2010, 9, 30),
        2010,
        3,
    )
    assert doc.metadata["accession"] == NFLX_ACCESSION and doc.metadata["xbrl_source"] == "EX-101.INS"
    assert doc.metadata["label_linkbase"] == "nflx-20100930_lab.xml"
    assert any("553,219" in b.text for b in doc.blocks)
    revenue = {
        f.period_label: f.value for f in doc.facts if f.concept == "us-gaap:Revenues" and not f.dimensions
    }
    assert revenue == {
        "Q3 FY2010": 553219000,
        "Q3 FY2009": 423120000,
        "9M FY2010": 1566703000,
        "9M FY2009": 1225727000,
    }
    assert len(doc.facts) == len(parse_xbrl_instance(history("NFLX", "nflx-20100930.xml")).facts)


@pytest.mark.shared
def test_a_primary_document_beside_its_submission_takes_the_submissions_instance(tmp_path: Path) -> None:
    submission = nflx_full_submission(tmp_path)
    primary = submission.with_name("primary-document.html")
    primary.write_text(_TEN_Q)
    doc = parse_ixbrl_html(primary)
    assert doc.ticker == "NFLX" and doc.metadata["xbrl_source"] == "EX-101.INS" and len(doc.facts) > 250


@pytest.mark.shared
def test_a_damaged_instance_keeps_the_filings_text_and_says_why(tmp_path: Path) -> None:
    path = nflx_full_submission(tmp_path)
    raw = path.read_bytes()
    cut = raw.replace(b"</xbrl>", b"", 1)  # the instance's root never closes
    path.write_bytes(cut)
    doc = parse_edgar_submission(path)
    assert doc.facts == [] and doc.blocks and "cut short" in doc.metadata["xbrl_warnings"][0]
    assert (doc.ticker, doc.kind, doc.period_end) == ("NFLX", "10-Q", date(2010, 9, 30))
