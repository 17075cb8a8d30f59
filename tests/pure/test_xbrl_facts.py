"""XBRL facts from real iXBRL filings and instance documents (../shared), plus synthetic edge cases.

The real-filing checks are independent of the extractor: fact counts are recomputed from the raw
tree with XPath, and revenue / net income are read from the income statement's *table text* (the
text parser's blocks: header years or dates -> columns), never from a fact's display field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from lxml import etree
from lxml import html as lxml_html

from finagent.finance.document_records import ParsedDocument
from finagent.finance.fact_records import Fact, FiscalCalendar
from finagent.finance.read.xbrl import (
    XbrlError,
    extract_ixbrl_facts,
    filing_calendar,
    fye_month,
    instance_facts,
    ixbrl_facts,
    parse_ixbrl,
    raw_fact_count,
)
from finagent.ingest.discover import discover
from finagent.ingest.ixbrl import _dei_facts, parse_edgar_submission, parse_ixbrl_html
from finagent.ingest.xbrl_instance import discover_xbrl_instances, parse_xbrl_instance
from tests.conftest import SHARED_DATA, require_shared

MILLION = Decimal(10) ** 6

# --------------------------------------------------------------------------- cached parsing

_DOCS: dict[Path, ParsedDocument] = {}
_TREES: dict[Path, etree._Element] = {}


def _doc(path: Path) -> ParsedDocument:
    if path not in _DOCS:
        _DOCS[path] = parse_ixbrl_html(path)
    return _DOCS[path]


def _tree(path: Path) -> etree._Element:
    """The raw tree, parsed here (recovering, as a browser would) for independent counting."""
    if path not in _TREES:
        parser = etree.XMLParser(recover=True, huge_tree=True, resolve_entities=False, no_network=True)
        _TREES[path] = etree.fromstring(path.read_bytes(), parser)
    return _TREES[path]


def _filing(*parts: str) -> Path:
    return require_shared(*parts)


def _all_ixbrl() -> list[Path]:
    roots = [SHARED_DATA / "filings" / "edgar", SHARED_DATA / "edgar-more"]
    return sorted(p for r in roots if r.is_dir() for p in r.glob("*/*/*.htm*"))


_FILINGS = _all_ixbrl()
_IDS = [p.name for p in _FILINGS]


def _facts(doc: ParsedDocument, concept: str, **where: object) -> list[Fact]:
    out = [f for f in doc.facts if f.concept == concept and not f.dimensions]
    return [f for f in out if all(getattr(f, k) == v for k, v in where.items())]


# --------------------------------------------------------------------------- (a) fact counts


def _expected_fact_count(root: etree._Element) -> int:
    """Distinct (concept, context content, unit content) over every ix:nonFraction, by XPath."""
    contexts: dict[str, tuple[object, ...]] = {}
    for ctx in root.xpath("//*[local-name()='context']"):
        members = sorted(
            (m.get("dimension"), "".join(m.itertext()).strip())
            for m in ctx.xpath(".//*[local-name()='explicitMember' or local-name()='typedMember']")
        )
        period = tuple(
            (n.xpath("local-name()"), (n.text or "").strip())
            for n in ctx.xpath(".//*[local-name()='period']/*")
        )
        ident = ctx.xpath("string(.//*[local-name()='identifier'])").strip()
        contexts[ctx.get("id")] = (ident, period, tuple(members))
    units: dict[str, tuple[object, ...]] = {}
    for unit in root.xpath("//*[local-name()='unit']"):
        units[unit.get("id")] = tuple(
            (m.getparent().xpath("local-name()"), (m.text or "").strip())
            for m in unit.xpath(".//*[local-name()='measure']")
        )
    keys = {
        (el.get("name"), contexts[el.get("contextRef")], units[el.get("unitRef")])
        for el in root.xpath("//*[local-name()='nonFraction']")
    }
    return len(keys)


@pytest.mark.shared
@pytest.mark.parametrize("path", _FILINGS, ids=_IDS)
def test_fact_count_matches_raw_tree(path: Path) -> None:
    doc = _doc(path)
    root = _tree(path)
    elements = root.xpath("//*[local-name()='nonFraction']")
    assert len(elements) == raw_fact_count(path.read_bytes())  # the recovering parse lost nothing
    assert len(doc.facts) == _expected_fact_count(root)
    assert "xbrl_warnings" not in doc.metadata
    assert all(f.value is not None or f.is_nil for f in doc.facts)


# --------------------------------------------------------------------------- (b) statements

_REVENUE = (
    "us-gaap:Revenues",
    "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
    "us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax",
)
_NET_INCOME = (
    "us-gaap:NetIncomeLoss",
    "us-gaap:ProfitLoss",
    "us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic",
)
_STATEMENT_CAPTION = re.compile(
    r"statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings)|income\s+statements?", re.I
)
_STATEMENT_SECTIONS = ("item_8", "item_15", "item_16", "part1_item_1")
_REVENUE_ROW = re.compile(
    r"^(?:total\s+)?(?:net\s+)?(?:operating\s+)?(?:revenues?|sales)\b|^sales\s+to\s+customers", re.I
)
_NET_INCOME_ROW = re.compile(
    r"^(?:consolidated\s+)?net\s+(?:income|earnings|loss)\b(?!.*per\s+(?:common\s+)?share)", re.I
)
_FULL_DATE = re.compile(r"\b([A-Z][a-z]{2,8})\.?[ \t]+(\d{1,2}),[ \t]*(\d{4})")
_YEAR = re.compile(r"\b((?:19|20)\d{2})\b")
_GROUP = re.compile(r"\b(three|six|nine|twelve)\s+months|\bquarter\b|\byears?\s+ended", re.I)
_MONTHS = {m: i for i, m in enumerate(("jan feb mar apr may jun jul aug sep oct nov dec").split(), start=1)}
# Filings whose income statement is not in the document (incorporated by reference to an exhibit).
_NO_STATEMENT = {
    "ibm-10-k-2025-02-25.html": "IBM's 10-K incorporates its statements by reference to the annual report",
    "wfc-10-k-2025-02-25.html": "WFC's 10-K incorporates its statements by reference (exhibit 13)",
}


@dataclass(frozen=True)
class _Column:
    duration: str
    end: date | None  # a full date in the header
    year: int | None  # a bare year in the header (fiscal year in a 10-K, calendar year in a 10-Q)


def _number(cell: str) -> Decimal | None:
    s = cell.replace("$", "").replace(",", "").replace(" ", "")
    negative = s.startswith("(") and s.endswith(")")
    s = s.strip("()")
    if s in ("—", "–", "-"):
        return Decimal(0)
    if not re.fullmatch(r"\d+(?:\.\d+)?", s):
        return None
    return -Decimal(s) if negative else Decimal(s)


def _amounts(line: str) -> tuple[str, list[Decimal]]:
    """(row label, amounts) of a table line; percentage columns are left out."""
    cells = [c.strip() for c in line.split(" | ")]
    values = [v for c in cells[1:] if not c.endswith("%") and (v := _number(c)) is not None]
    return cells[0], values


def _statement_table(doc: ParsedDocument) -> tuple[str, str] | None:
    """(table text, surrounding text) of the income statement: caption + revenue + net income rows."""
    for sections in (_STATEMENT_SECTIONS, None):
        for i, block in enumerate(doc.blocks):
            if not block.is_table or (sections is not None and block.section not in sections):
                continue
            lines = block.text.split("\n")
            context = "\n".join(b.text for b in doc.blocks[max(0, i - 3) : i])
            if not (_STATEMENT_CAPTION.search(lines[0]) or _STATEMENT_CAPTION.search(context[-300:])):
                continue
            if any(_REVENUE_ROW.match(x) for x in lines) and any(_NET_INCOME_ROW.match(x) for x in lines):
                return block.text, context
    return None


def _columns(lines: list[str], count: int, form: str) -> list[_Column]:
    """Columns from the header lines: full dates, else years; durations from the group headers."""
    header: list[str] = []
    for line in lines[1:]:
        _, values = _amounts(line)
        if values and not all(_YEAR.fullmatch(str(v)) for v in values):
            break
        header.append(line)
    text = "\n".join(header)
    dates = [
        date(int(y), _MONTHS[m[:3].lower()], int(d))
        for m, d, y in _FULL_DATE.findall(text)
        if m[:3].lower() in _MONTHS
    ]
    groups = [g.group(0).lower() for g in _GROUP.finditer(text)]
    durations = []
    for g in groups or (["years ended"] if form == "10-K" else ["three months"]):
        durations.append(
            "year"
            if "year" in g or "twelve" in g
            else "six_months"
            if "six" in g
            else "nine_months"
            if "nine" in g
            else "quarter"
        )
    per_group = count // len(durations)
    duration_of = [durations[min(i // per_group, len(durations) - 1)] for i in range(count)]
    if len(dates) == count:
        return [_Column(duration_of[i], dates[i], None) for i in range(count)]
    years = [int(y) for y in _YEAR.findall(_FULL_DATE.sub("", text))]
    assert len(years) == count, f"cannot map {count} columns to header {text!r}"
    return [_Column(duration_of[i], None, years[i]) for i in range(count)]


def _scale(text: str) -> Decimal:
    """The first unit statement wins: "(In millions, except ... shares ... in thousands ...)"."""
    m = re.search(r"\b(thousands|millions)\b", text, re.I)
    assert m is not None, f"no units stated near the statement: {text[:200]!r}"
    return Decimal(1000) if m.group(1).lower() == "thousands" else MILLION


def _column_facts(doc: ParsedDocument, concepts: tuple[str, ...], column: _Column) -> list[Fact]:
    form = doc.kind
    out = []
    for f in doc.facts:
        if f.concept not in concepts or f.dimensions or f.duration != column.duration:
            continue
        if column.end is not None:
            if abs((f.period_end - column.end).days) > 0:
                continue
        elif form == "10-K" and f.fiscal_year != column.year:
            continue  # a 10-K names its columns by fiscal year ("Fiscal 2024" ended 2025-02-02)
        elif form != "10-K" and f.period_end.year != column.year:
            continue  # a 10-Q by the calendar year of "Three Months Ended June 30, | 2025"
        out.append(f)
    return out


@pytest.mark.shared
@pytest.mark.parametrize("path", _FILINGS, ids=_IDS)
def test_revenue_and_net_income_equal_the_income_statement(path: Path) -> None:
    if path.name in _NO_STATEMENT:
        doc = _doc(path)
        assert _statement_table(doc) is None and doc.facts  # few facts, no income statement
        pytest.skip(_NO_STATEMENT[path.name])
    doc = _doc(path)
    found = _statement_table(doc)
    assert found is not None, "no income statement table found"
    table, context = found
    lines = table.split("\n")
    scale = _scale(table + "\n" + context)
    revenue_rows = [x for x in lines if _REVENUE_ROW.match(x) and _amounts(x)[1]]
    totals = [x for x in revenue_rows if x.lower().startswith("total")]
    checks = {"revenue": ([(totals or revenue_rows)[0]], _REVENUE)}
    checks["net income"] = ([x for x in lines if _NET_INCOME_ROW.match(x) and _amounts(x)[1]], _NET_INCOME)
    for what, (rows, concepts) in checks.items():
        mismatches: list[str] = []
        for row in rows:
            label, amounts = _amounts(row)
            columns = _columns(lines, len(amounts), doc.kind)
            missing = [
                (c, printed)
                for c, printed in zip(columns, amounts, strict=True)
                if not any(f.value == printed * scale for f in _column_facts(doc, concepts, c))
            ]
            if not missing:
                break
            mismatches.append(f"{label}: {missing}")
        else:
            pytest.fail(f"{what}: no row matches the facts: {mismatches}")


# --------------------------------------------------------------------------- named facts


@pytest.mark.shared
def test_amazon_10k_net_sales_and_provenance() -> None:
    doc = _doc(_filing("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html"))
    concept = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    by_label = {f.period_label: f for f in _facts(doc, concept, duration="year")}
    assert by_label["FY2024"].value == 637_959 * MILLION
    assert by_label["FY2022"].value == 513_983 * MILLION
    fy24 = by_label["FY2024"]
    assert (fy24.period_start, fy24.period_end) == (date(2024, 1, 1), date(2024, 12, 31))
    assert (fy24.unit, fy24.decimals, fy24.scale, fy24.display) == ("USD", -6, 6, "637,959")
    assert fy24.label == "Total net sales" and not fy24.hidden and fy24.block_index is not None
    block = doc.blocks[fy24.block_index]
    assert block.is_table and "Total net sales | 513,983 | 574,785 | 637,959" in block.text
    assert doc.metadata["fiscal_year_offset"] == 0
    assert not any("_fact_ordinals" in b.metadata for b in doc.blocks)


@pytest.mark.shared
def test_apple_10q_quarter_and_nine_months() -> None:
    doc = _doc(_filing("edgar-more", "AAPL", "10-Q", "aapl-10-q-period-2024-06-29.html"))
    concept = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    by_label = {f.period_label: f for f in _facts(doc, concept)}
    assert by_label["9M FY2024"].value == 296_105 * MILLION
    assert by_label["Q3 FY2024"].value == 85_777 * MILLION
    assert by_label["Q3 FY2023"].value == 81_797 * MILLION
    assert by_label["9M FY2023"].value == 293_787 * MILLION
    q3 = by_label["Q3 FY2024"]
    assert (q3.period_start, q3.period_end, q3.duration) == (date(2024, 3, 31), date(2024, 6, 29), "quarter")
    assert (q3.fiscal_year, q3.fiscal_quarter) == (2024, 3)


@pytest.mark.shared
def test_sign_attribute_not_parentheses_sets_the_sign() -> None:
    path = _filing("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html")
    raw = _tree(path).xpath("//*[local-name()='nonFraction'][@id='f-57']")[0]
    assert raw.get("sign") == "-" and raw.text == "2,722"  # shown as $(2,722): the ( ) are outside
    fy22 = _facts(_doc(path), "us-gaap:NetIncomeLoss", period_label="FY2022")
    assert [f.value for f in fy22] == [-2_722 * MILLION]
    assert fy22[0].display == "2,722"


@pytest.mark.shared
def test_nested_facts_give_one_fact_per_element() -> None:
    path = _filing("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html")
    doc = _doc(path)
    by_id = {f.extra.get("id"): f for f in doc.facts}
    # f-285 wraps f-286 ("0.01"); f-289 > f-290 > f-291 > f-292 wrap one "no" (fixed-zero)
    outer, inner = by_id["f-285"], by_id["f-286"]
    assert outer.value == inner.value == Decimal("0.01")
    assert outer.context_id != inner.context_id and outer.display == inner.display == "0.01"
    nested = [by_id[f"f-{n}"] for n in (289, 290, 291, 292)]
    assert [f.value for f in nested] == [Decimal(0)] * 4
    assert {f.concept for f in nested} == {
        "us-gaap:PreferredStockSharesOutstanding",
        "us-gaap:PreferredStockSharesIssued",
    }
    assert all(f.display == "no" and f.block_index == nested[0].block_index for f in nested)


@pytest.mark.shared
def test_nil_fact() -> None:
    doc = _doc(_filing("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html"))
    nil = [f for f in doc.facts if f.concept == "us-gaap:CommitmentsAndContingencies"]
    assert len(nil) == 2 and all(f.is_nil and f.value is None and f.decimals is None for f in nil)
    assert {f.period_end for f in nil} == {date(2023, 12, 31), date(2024, 12, 31)}


@pytest.mark.shared
def test_typed_dimension_keeps_its_value() -> None:
    doc = _doc(_filing("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html"))
    axis = "us-gaap:RevenueRemainingPerformanceObligationExpectedTimingOfSatisfactionStartDateAxis"
    typed = [f for f in doc.facts if any(a == axis for a, _ in f.dimensions)]
    assert typed and {dict(f.dimensions)[axis] for f in typed} >= {"2025-01-01"}


@pytest.mark.shared
def test_duplicate_at_two_precisions_keeps_the_precise_visible_one() -> None:
    path = _filing("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html")
    raw = _tree(path).xpath(
        "//*[local-name()='nonFraction'][@name='us-gaap:IncomeTaxExpenseBenefit'][@id='f-1144']"
    )[0]
    # "...a tax benefit of $3.2 billion": decimals -8, scale 9, sign "-"
    assert (raw.get("decimals"), raw.get("scale"), raw.get("sign"), raw.text) == ("-8", "9", "-", "3.2")
    taxes = [
        f for f in _facts(_doc(path), "us-gaap:IncomeTaxExpenseBenefit") if f.period_end == date(2022, 12, 31)
    ]
    assert len(taxes) == 1
    tax = taxes[0]
    assert (tax.value, tax.decimals, tax.display, tax.conflict) == (-3_217 * MILLION, -6, "3,217", False)
    assert tax.block_index is not None and doc_has_table(path, tax.block_index)
    # Home Depot, 2024-01-28: "—" (f-74, decimals -6, fixed-zero) and "no" (f-815, decimals -8): one zero.
    hd = _doc(_filing("filings", "edgar", "HD", "10-K", "hd-10-k-2025-03-21.html"))
    paper = [f for f in hd.facts if f.concept == "us-gaap:CommercialPaper" and not f.dimensions]
    assert [
        (f.value, f.decimals, f.display, f.extra["id"]) for f in paper if f.period_end == date(2024, 1, 28)
    ] == [(Decimal(0), -6, "—", "f-74")]


def doc_has_table(path: Path, index: int) -> bool:
    return _doc(path).blocks[index].is_table


@pytest.mark.shared
def test_no_conflicting_duplicates_in_the_shared_filings() -> None:
    require_shared("filings", "edgar")
    for path in _FILINGS:
        assert not [f for f in _doc(path).facts if f.conflict], path.name


@pytest.mark.shared
def test_malformed_nvidia_fy2023_10k() -> None:
    path = _filing("edgar-more", "NVDA", "10-K", "nvda-10-k-period-2023-01-29.html")
    _, warnings = parse_ixbrl(path.read_bytes())
    assert warnings and "recover" in warnings[0] and len(warnings) == 1  # no fact lost to recovery
    doc = _doc(path)
    revenue = _facts(doc, "us-gaap:Revenues", period_label="FY2023")
    assert [f.value for f in revenue] == [26_974 * MILLION]
    assert revenue[0].period_end == date(2023, 1, 29) and revenue[0].block_index is not None


@pytest.mark.shared
def test_home_depot_year_ended_2025_02_02_is_fiscal_2024() -> None:
    doc = _doc(_filing("filings", "edgar", "HD", "10-K", "hd-10-k-2025-03-21.html"))
    assert doc.metadata["fiscal_year_offset"] == -1
    sales = _facts(doc, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", duration="year")
    by_end = {f.period_end: f for f in sales}
    assert by_end[date(2025, 2, 2)].period_label == "FY2024"
    assert by_end[date(2025, 2, 2)].value == 159_514 * MILLION
    assert by_end[date(2024, 1, 28)].period_label == "FY2023"


@pytest.mark.shared
def test_every_visible_fact_points_at_the_block_showing_it() -> None:
    for parts in (
        ("edgar-more", "AAPL", "10-Q", "aapl-10-q-period-2024-06-29.html"),
        ("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html"),
        ("filings", "edgar", "JNJ", "10-K", "jnj-10-k-2025-02-13.html"),
    ):
        doc = _doc(_filing(*parts))
        for f in doc.facts:
            if f.hidden:
                assert f.block_index is None and f.display is None
                continue
            assert f.block_index is not None, f
            if f.is_nil:  # nil facts show no number ("Commitments and contingencies" rows)
                assert f.display is None and f.value is None
            else:
                assert f.display is not None and f.display in doc.blocks[f.block_index].text


@pytest.mark.shared
def test_full_submission_text_block_gives_the_same_facts(tmp_path: Path) -> None:
    """sec-edgar-downloader's full-submission.txt: the primary document sits in a <TEXT><XBRL> block."""
    path = _filing("filings", "edgar", "AMZN", "10-K", "amzn-10-k-2025-02-07.html")
    html = path.read_bytes()
    header = (
        b"<SEC-DOCUMENT>0001018724-25-000004.txt : 20250207\n<SEC-HEADER>\n"
        b"ACCESSION NUMBER:\t\t0001018724-25-000004\nCONFORMED SUBMISSION TYPE:\t10-K\n"
        b"CONFORMED PERIOD OF REPORT:\t20241231\nFILED AS OF DATE:\t\t20250207\n</SEC-HEADER>\n"
    )
    document = (
        b"<DOCUMENT>\n<TYPE>10-K\n<SEQUENCE>1\n<TEXT>\n<XBRL>\n" + html + b"\n</XBRL>\n</TEXT>\n</DOCUMENT>\n"
    )
    submission = tmp_path / "AMZN" / "10-K" / "0001018724-25-000004" / "full-submission.txt"
    submission.parent.mkdir(parents=True)
    submission.write_bytes(header + document + b"</SEC-DOCUMENT>\n")
    wrapped = parse_edgar_submission(submission)
    loose = _doc(path)
    assert [(f.concept, f.value, f.period_label, f.block_index) for f in wrapped.facts] == [
        (f.concept, f.value, f.period_label, f.block_index) for f in loose.facts
    ]


@pytest.mark.shared
def test_filing_calendars_from_dei() -> None:
    expected = {
        ("filings", "edgar", "AAPL", "10-K", "aapl-10-k-2024-11-01.html"): FiscalCalendar(9, 0),
        ("filings", "edgar", "HD", "10-K", "hd-10-k-2025-03-21.html"): FiscalCalendar(1, -1),
        ("filings", "edgar", "NVDA", "10-K", "nvda-10-k-2025-02-26.html"): FiscalCalendar(1, 0),
        ("filings", "edgar", "NKE", "10-K", "nke-10-k-2025-07-17.html"): FiscalCalendar(5, 0),
    }
    for parts, calendar in expected.items():
        assert filing_calendar(_dei_facts(_tree(_filing(*parts)))) == calendar, parts


def test_filing_calendar_rules() -> None:
    microsoft = {
        "DocumentType": "10-K",
        "DocumentPeriodEndDate": "June 30, 2024",
        "DocumentFiscalYearFocus": "2024",
        "CurrentFiscalYearEndDate": "--06-30",
    }
    assert filing_calendar(microsoft) == FiscalCalendar(6, 0)
    # No CurrentFiscalYearEndDate: a 10-K's period end gives the month (52/53 weeks: Feb 2 -> Jan).
    retailer = {
        "DocumentType": "10-K",
        "DocumentPeriodEndDate": "2025-02-02",
        "DocumentFiscalYearFocus": "2024",
    }
    assert filing_calendar(retailer) == FiscalCalendar(1, -1)
    assert filing_calendar({**retailer, "DocumentFiscalYearFocus": "2022"}) == FiscalCalendar(
        1, 0
    )  # mistyped
    assert filing_calendar({"DocumentType": "10-Q", "DocumentPeriodEndDate": "2025-03-31"}) is None
    assert fye_month("--09-27") == 9 and fye_month("February 2") == 1 and fye_month("0131", "mmdd") == 1


# --------------------------------------------------------------------------- instance documents


def _instance(ticker: str, name: str) -> tuple[list[Fact], dict[str, str]]:
    path = _filing("edgar-more", "xbrl-instances", ticker, name)
    lab = path.with_name(name.replace("_htm.xml", "_lab.xml"))
    return instance_facts(path.read_bytes(), lab.read_bytes())


@pytest.mark.shared
def test_apple_fy2023_instance_with_labels() -> None:
    facts, dei = _instance("AAPL", "aapl-20230930_htm.xml")
    assert (dei["DocumentType"], dei["DocumentFiscalYearFocus"], dei["TradingSymbol"]) == (
        "10-K",
        "2023",
        "AAPL",
    )
    concept = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    fy23 = [f for f in facts if f.concept == concept and not f.dimensions and f.period_label == "FY2023"]
    assert [f.value for f in fy23] == [383_285 * MILLION]
    assert fy23[0].label == "Net sales" and fy23[0].display is None and fy23[0].decimals == -6
    # The same figure, from the FY2024 10-K's iXBRL comparative column.
    ixbrl = _doc(_filing("filings", "edgar", "AAPL", "10-K", "aapl-10-k-2024-11-01.html"))
    assert [f.value for f in _facts(ixbrl, concept, period_label="FY2023")] == [383_285 * MILLION]
    unlabelled, _ = instance_facts(
        _filing("edgar-more", "xbrl-instances", "AAPL", "aapl-20230930_htm.xml").read_bytes(), None
    )
    assert len(unlabelled) == len(facts) and all(f.label is None for f in unlabelled)


@pytest.mark.shared
def test_amazon_fy2022_instance() -> None:
    facts, dei = _instance("AMZN", "amzn-20221231_htm.xml")
    concept = "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
    years = {f.period_label: f for f in facts if f.concept == concept and not f.dimensions}
    assert years["FY2022"].value == 513_983 * MILLION and years["FY2022"].label == "Total net sales"
    net = [f for f in facts if f.concept == "us-gaap:NetIncomeLoss" and not f.dimensions]
    assert {f.period_label: f.value for f in net}["FY2022"] == -2_722 * MILLION
    assert dei["EntityCentralIndexKey"] == "0001018724"


@pytest.mark.shared
def test_netflix_10q_instances() -> None:
    for name, label, thousands in (
        ("nflx-20240331_htm.xml", "Q1 FY2024", 9_370_440),
        ("nflx-20241018_htm.xml", "Q3 FY2024", 9_824_703),
    ):
        facts, dei = _instance("NFLX", name)
        assert dei["DocumentType"] == "10-Q"
        revenue = [f for f in facts if f.concept == "us-gaap:Revenues" and not f.dimensions]
        assert {f.period_label: f.value for f in revenue}[label] == thousands * 1000
    nine = [f for f in revenue if f.period_label == "9M FY2024"]
    assert len(nine) == 1 and nine[0].duration == "nine_months"


@pytest.mark.shared
def test_instance_document_loads_as_a_fact_only_document() -> None:
    path = _filing("edgar-more", "xbrl-instances", "AAPL", "aapl-20230930_htm.xml")
    doc = parse_xbrl_instance(path)
    assert (doc.kind, doc.title, doc.ticker, doc.company_name) == (
        "10-K",
        "Apple Inc. 10-K FY2023 (XBRL instance)",
        "AAPL",
        "Apple Inc.",
    )
    assert (doc.fiscal_year, doc.fiscal_quarter, doc.period_end, doc.fiscal_year_end_month) == (
        2023,
        None,
        date(2023, 9, 30),
        9,
    )
    assert doc.blocks == [] and doc.published_at is None and doc.source_uri == str(path.resolve())
    assert doc.metadata == {
        "form": "10-K",
        "cik": "0000320193",
        "format": "xbrl-instance",
        "fiscal_year_offset": 0,
        "metadata_sources": {"form": "dei", "ticker": "dei", "company_name": "dei", "period_end": "dei"},
        "label_linkbase": "aapl-20230930_lab.xml",
    }
    assert len(doc.facts) > 800
    q = parse_xbrl_instance(_filing("edgar-more", "xbrl-instances", "NFLX", "nflx-20241018_htm.xml"))
    assert (q.kind, q.fiscal_year, q.fiscal_quarter, q.title) == (
        "10-Q",
        2024,
        3,
        "Netflix, Inc. 10-Q Q3 FY2024 (XBRL instance)",
    )


@pytest.mark.shared
def test_discover_instance_folder() -> None:
    folder = _filing("edgar-more", "xbrl-instances")
    found = discover(folder)
    assert len(found.items) == 7 and found.skipped == [] and found.failed == []
    assert all(item.uri.endswith("_htm.xml") for item in found.items)
    assert len(discover_xbrl_instances(folder)) == 7
    lab = discover(folder / "AAPL" / "aapl-20230930_lab.xml")
    assert not lab.items and "linkbase" in lab.failed[0][1]
    assert len(discover(folder / "AAPL" / "aapl-20230930_htm.xml").items) == 1


def test_other_xml_is_unsupported(tmp_path: Path) -> None:
    (tmp_path / "notes.xml").write_text("<notes><n>hello</n></notes>")
    (tmp_path / "x-20240101.xsd").write_text("<schema/>")
    (tmp_path / "x-20240101_pre.xml").write_text("<linkbase/>")
    found = discover(tmp_path)
    assert found.items == [] and [Path(p).name for p, _ in found.skipped] == ["notes.xml"]
    assert "unsupported file type '.xml'" in found.skipped[0][1]
    with pytest.raises(XbrlError):
        instance_facts(b"<notes/>", None)


# --------------------------------------------------------------------------- synthetic iXBRL

_HEAD = """<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="{ix}"
  xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12"
  xmlns:ixt-sec="http://www.sec.gov/inlineXBRL/transformation/2015-08-31"
  xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi"
  xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:us-gaap="http://fasb.org/us-gaap/2024"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:acme="http://acme.example/2024">
<head><title>t</title></head><body>
<div style="display:none"><ix:header><ix:hidden>{hidden}</ix:hidden><ix:resources>
<xbrli:context id="fy"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>
</xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate>
</xbrli:period></xbrli:context>
<xbrli:context id="fy_seg"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>
<xbrli:segment><xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">
acme:CloudMember</xbrldi:explicitMember><xbrldi:typedMember dimension="acme:TrancheAxis">
<acme:TrancheDomain>A-1</acme:TrancheDomain></xbrldi:typedMember>
</xbrli:segment></xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate>
<xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="end"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>
</xbrli:entity><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="pure"><xbrli:measure>xbrli:pure</xbrli:measure></xbrli:unit>
<xbrli:unit id="usd_per_share"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure>
</xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator>
</xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>
"""
_TAIL = "</body></html>"
_NF = (
    '<ix:nonFraction name="{name}" contextRef="{ctx}" unitRef="{unit}" decimals="{dec}" '
    'scale="{scale}"{more}>{text}</ix:nonFraction>'
)


def _nf(
    name: str,
    text: str,
    *,
    ctx: str = "fy",
    unit: str = "usd",
    dec: str = "-6",
    scale: str = "6",
    more: str = "",
) -> str:
    fmt = "" if "format=" in more else ' format="ixt:num-dot-decimal"'
    return _NF.format(name=name, ctx=ctx, unit=unit, dec=dec, scale=scale, more=more + fmt, text=text)


def _synthetic(body: str, hidden: str = "", ix: str = "http://www.xbrl.org/2013/inlineXBRL") -> bytes:
    return (_HEAD.format(ix=ix, hidden=hidden) + body + _TAIL).encode()


_DECEMBER = FiscalCalendar(12, 0)


def _extract(data: bytes, calendar: FiscalCalendar | None = _DECEMBER) -> list[Fact]:
    root, warnings = parse_ixbrl(data)
    assert warnings == []
    return ixbrl_facts(root, calendar)


def test_synthetic_values_units_dimensions_and_labels() -> None:
    body = (
        "<table><tr><td>Revenue</td><td>$</td><td>" + _nf("us-gaap:Revenues", "1,234.5") + "</td></tr>"
        "<tr><td>Net loss</td><td>$(" + _nf("us-gaap:NetIncomeLoss", "12", more=' sign="-"') + ")</td></tr>"
        "<tr><td>Cloud</td><td>" + _nf("us-gaap:Revenues", "7", ctx="fy_seg") + "</td></tr>"
        "<tr><td>EPS</td><td>"
        + _nf("us-gaap:EarningsPerShareBasic", "1.50", unit="usd_per_share", dec="2", scale="0")
        + "</td></tr>"
        "<tr><td>Tax rate</td><td>"
        + _nf("us-gaap:EffectiveIncomeTaxRate", "21.5", unit="pure", dec="3", scale="-2")
        + "%</td></tr>"
        "</table>"
        "<p>We had "
        + _nf("acme:Plants", "three", unit="pure", dec="INF", scale="0", more=' format="ixt-sec:numwordsen"')
        + " plants"
        " and "
        + _nf("acme:Debt", "—", ctx="end", dec="INF", more=' format="ixt:fixed-zero"')
        + " debt and "
        + _nf("acme:Pending", "", ctx="end", more=' xsi:nil="true"').replace(' decimals="-6"', "")
        + "</p>"
    )
    facts = {(f.concept, f.dimensions): f for f in _extract(_synthetic(body))}
    revenue = facts[("us-gaap:Revenues", ())]
    assert revenue.value == Decimal("1234500000") and str(revenue.value) == "1234500000"
    assert (revenue.label, revenue.display, revenue.period_label, revenue.unit) == (
        "Revenue",
        "1,234.5",
        "FY2024",
        "USD",
    )
    assert facts[("us-gaap:NetIncomeLoss", ())].value == -12 * MILLION
    seg = facts[
        (
            "us-gaap:Revenues",
            (("acme:TrancheAxis", "A-1"), ("us-gaap:StatementBusinessSegmentsAxis", "acme:CloudMember")),
        )
    ]
    assert seg.value == 7 * MILLION
    eps = facts[("us-gaap:EarningsPerShareBasic", ())]
    assert (eps.value, eps.unit, eps.decimals) == (Decimal("1.50"), "USD/shares", 2)
    assert facts[("us-gaap:EffectiveIncomeTaxRate", ())].value == Decimal("0.215")
    assert facts[("us-gaap:EffectiveIncomeTaxRate", ())].unit == "pure"
    plants = facts[("acme:Plants", ())]
    assert (plants.value, plants.decimals, plants.label) == (Decimal(3), None, None)
    debt = facts[("acme:Debt", ())]
    assert (debt.value, debt.duration, debt.period_label) == (Decimal(0), "instant", "FY2024 end")
    pending = facts[("acme:Pending", ())]
    assert pending.is_nil and pending.value is None
    assert all(isinstance(f.value, Decimal) or f.value is None for f in facts.values())


def test_synthetic_duplicates_precision_conflicts_and_visibility() -> None:
    hidden = _nf("acme:Backlog", "94,930", scale="6")  # hidden, precise
    body = (
        "<p>Backlog was $" + _nf("acme:Backlog", "94.9", dec="-8", scale="9") + " billion.</p>"
        "<table><tr><td>Backlog</td><td>" + _nf("acme:Backlog", "94,930") + "</td></tr>"
        "<tr><td>Orders</td><td>" + _nf("acme:Orders", "100", dec="0", scale="0") + "</td></tr>"
        "<tr><td>Orders again</td><td>" + _nf("acme:Orders", "105", dec="0", scale="0") + "</td></tr>"
        "<tr><td>Units</td><td>" + _nf("acme:Units", "5", dec="INF", scale="0") + "</td></tr></table>"
        "<p>" + _nf("acme:Units", "5", dec="INF", scale="0") + " units</p>"
    )
    root, _ = parse_ixbrl(_synthetic(body, hidden=hidden))
    extraction = extract_ixbrl_facts(root, None)
    facts = {f.concept: f for f in extraction.facts}
    backlog = facts["acme:Backlog"]
    # The precise value wins over "94.9 billion"; of the two precise ones, the visible table cell.
    assert (backlog.value, backlog.decimals, backlog.hidden, backlog.label, backlog.conflict) == (
        94_930 * MILLION,
        -6,
        False,
        "Backlog",
        False,
    )
    orders = facts["acme:Orders"]
    assert orders.conflict and orders.value == 100 and orders.extra["conflicting_values"] == "105"
    assert facts["acme:Units"].label == "Units"  # the first displayed occurrence
    assert (extraction.duplicates, extraction.conflicts) == (4, 1)
    assert facts["acme:Orders"].fiscal_year is None and facts["acme:Orders"].duration == "year"


def test_synthetic_hidden_unknown_format_and_bad_context() -> None:
    hidden = _nf("acme:Share", "50", unit="pure", dec="INF", scale="-2")
    body = (
        "<p>" + _nf("acme:Odd", "12", more=' format="ixt:num-roman"') + "</p>"
        "<p>" + _nf("acme:Lost", "12", ctx="nope") + "</p>"
        "<p>"
        + _nf("acme:Words", "lots", unit="pure", dec="INF", scale="0", more=' format="ixt-sec:numwordsen"')
        + "</p>"
    )
    root, _ = parse_ixbrl(_synthetic(body, hidden=hidden))
    extraction = extract_ixbrl_facts(root, FiscalCalendar(12))
    assert [(f.concept, f.hidden, f.display, f.value) for f in extraction.facts] == [
        ("acme:Share", True, None, Decimal("0.50"))
    ]
    reasons = [reason for _, reason in extraction.skipped]
    assert len(reasons) == 3
    assert "unsupported format 'ixt:num-roman'" in reasons[0]
    assert "unknown context 'nope'" in reasons[1]
    assert "not a number" in reasons[2]


def test_synthetic_transforms_old_and_new_names() -> None:
    cases = [
        ("ixt:num-dot-decimal", "1,234.56", Decimal("1234.56")),
        ("ixt:numdotdecimal", "1 234.56", Decimal("1234.56")),
        ("ixt:num-comma-decimal", "1.234,56", Decimal("1234.56")),
        ("ixt:numcommadecimal", "1 234,5", Decimal("1234.5")),
        ("ixt:zerodash", "-", Decimal(0)),
        ("ixt:fixed-zero", "none", Decimal(0)),
        ("ixt-sec:numwordsen", "twenty-one", Decimal(21)),
        ("ixt:num-word-en", "one hundred and five thousand", Decimal(105000)),
        ("ixt-sec:numwordsen", "No", Decimal(0)),
        ("ixt:num-unit-decimal", "5 dollars 50 cents", Decimal("5.50")),
    ]
    body = "".join(
        "<p>" + _nf(f"acme:C{i}", text, unit="pure", dec="INF", scale="0", more=f' format="{fmt}"') + "</p>"
        for i, (fmt, text, _) in enumerate(cases)
    )
    facts = {f.concept: f.value for f in _extract(_synthetic(body))}
    assert [facts[f"acme:C{i}"] for i in range(len(cases))] == [v for _, _, v in cases]


def test_html_parsed_and_2008_namespace_trees_give_the_same_facts() -> None:
    body = "<table><tr><td>Revenue</td><td>" + _nf("us-gaap:Revenues", "1,234") + "</td></tr></table>"
    xml_facts = _extract(_synthetic(body))
    html_root = lxml_html.document_fromstring(_synthetic(body))
    html_facts = ixbrl_facts(html_root, FiscalCalendar(12, 0))
    old_facts = _extract(_synthetic(body, ix="http://www.xbrl.org/2008/inlineXBRL"))

    def key(f: Fact) -> tuple[object, ...]:
        return (f.concept, f.value, f.unit, f.period_end, f.dimensions, f.label, f.period_label)

    assert [key(f) for f in html_facts] == [key(f) for f in xml_facts] == [key(f) for f in old_facts]
    assert xml_facts[0].value == 1_234 * MILLION


def test_hostile_values_are_skipped_not_raised() -> None:
    body = (
        "<p>" + _nf("acme:Huge", "5", scale="999999999") + "</p>"
        "<p>" + _nf("acme:Coarse", "5", dec="-999999999") + _nf("acme:Coarse", "5") + "</p>"
        "<p>" + _nf("acme:Long", "1" * 5000) + "</p>"
        "<p>"
        + _nf(
            "acme:Units",
            "1 " + "a " * 3000 + "x",
            unit="pure",
            dec="INF",
            scale="0",
            more=' format="ixt:num-unit-decimal"',
        )
        + "</p>"
        "<p>" + _nf("acme:Script", "<![CDATA[12]]>&amp;", dec="INF", scale="0") + "</p>"
    )
    root, _ = parse_ixbrl(_synthetic(body))
    extraction = extract_ixbrl_facts(root, None)
    assert [f.concept for f in extraction.facts] == ["acme:Coarse"] and len(extraction.skipped) == 5


def test_recovered_parse_reports_lost_facts() -> None:
    broken = _synthetic("<p>" + _nf("us-gaap:Revenues", "1") + "</p><div><span></div>")
    root, warnings = parse_ixbrl(broken)
    assert warnings and "recover mode" in warnings[0]
    assert len(ixbrl_facts(root, None)) == 1
