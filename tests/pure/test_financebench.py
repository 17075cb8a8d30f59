"""FinanceBench page texts: 336 documents, page numbers kept, companies resolved, kinds mapped."""

from __future__ import annotations

import gzip
import json
import time
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from finagent.errors import ParseError
from finagent.finance.company_registry import lookup_builtin
from finagent.finance.document_records import ParsedDocument
from finagent.ingest.financebench import discover_financebench

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
FB = SHARED / "data" / "financebench"
DEV = SHARED / "eval" / "financebench_dev.jsonl"


@pytest.fixture(scope="module")
def loaded() -> tuple[dict[str, ParsedDocument], dict[str, str], float]:
    """Every FinanceBench document parsed once (about 15 s); also the discovery time."""
    if not (FB / "pages.jsonl.gz").exists():
        pytest.skip(f"needs the shared data set at {FB} (../shared beside the repo)")
    start = time.perf_counter()
    items = discover_financebench(FB / "pages.jsonl.gz", FB / "documents.jsonl")
    discovery = time.perf_counter() - start
    docs: dict[str, ParsedDocument] = {}
    failed: dict[str, str] = {}
    for item in items:
        name = item.uri.rsplit("#", 1)[1]
        try:
            docs[name] = item.load()
        except ParseError as exc:
            failed[name] = exc.reason
    return docs, failed, discovery


def _listed() -> list[dict[str, object]]:
    return [json.loads(line) for line in (FB / "documents.jsonl").read_text().splitlines() if line.strip()]


@pytest.mark.shared
def test_all_336_listed_documents_load(
    loaded: tuple[dict[str, ParsedDocument], dict[str, str], float],
) -> None:
    docs, failed, _ = loaded
    listed = {str(row["doc_name"]) for row in _listed()}
    assert len(listed) == 336
    assert listed <= set(docs)
    # Page groups the metadata file does not list: exact duplicates are skipped with a reason,
    # other unlisted groups load with metadata from their name and cover.
    assert all(n not in listed for n in failed)
    assert failed["AMCOR_2022_8K_2022-04-26"].startswith("duplicate of AMCOR_2022_8K_dated-2022-04-26")
    assert docs["BOSTONPROPERTIES_2015_10K"].ticker == "BXP"
    extra = docs["ADOBE_2022Q2_10Q"]  # unlisted: metadata from the doc_name and cover
    assert (extra.ticker, extra.kind, extra.fiscal_year, extra.fiscal_quarter) == ("ADBE", "10-Q", 2023, 2)
    for name in listed:
        doc = docs[name]
        assert doc.metadata == doc.metadata | {"doc_name": name, "source": "financebench"}
        assert doc.source_uri.startswith("http"), name
        assert doc.blocks and doc.fiscal_year is not None, name


@pytest.mark.shared
def test_every_company_resolves_to_a_ticker(
    loaded: tuple[dict[str, ParsedDocument], dict[str, str], float],
) -> None:
    docs, _, _ = loaded
    companies = {str(row["company"]) for row in _listed()}
    assert len(companies) == 40
    unresolved = sorted(c for c in companies if lookup_builtin(c) is None)
    assert not unresolved
    assert lookup_builtin("3M").ticker == "MMM"  # type: ignore[union-attr]
    assert lookup_builtin("Block").ticker == "SQ"  # type: ignore[union-attr]
    assert lookup_builtin("Paypal").ticker == "PYPL"  # type: ignore[union-attr]
    for row in _listed():
        assert docs[str(row["doc_name"])].ticker == lookup_builtin(str(row["company"])).ticker  # type: ignore[union-attr]


@pytest.mark.shared
def test_kinds_and_periods(loaded: tuple[dict[str, ParsedDocument], dict[str, str], float]) -> None:
    docs, _, _ = loaded
    listed = [str(row["doc_name"]) for row in _listed()]
    kinds = Counter(docs[n].kind for n in listed)
    assert kinds == Counter({"10-K": 247, "8-K": 30, "earnings_release": 29, "10-Q": 26, "annual_report": 4})
    pepsi = docs["PEPSICO_2023Q1_EARNINGS"]
    assert (pepsi.kind, pepsi.ticker, pepsi.fiscal_year, pepsi.fiscal_quarter) == (
        "earnings_release",
        "PEP",
        2023,
        1,
    )
    jpm = docs["JPMORGAN_2022Q2_10Q"]
    assert (jpm.kind, jpm.fiscal_year, jpm.fiscal_quarter, jpm.period_end) == (
        "10-Q",
        2022,
        2,
        date(2022, 6, 30),
    )
    apple = docs["APPLE_2023Q3_10Q"]
    assert apple.period_end == date(2023, 7, 1)  # read from the cover page
    amcor = docs["AMCOR_2022_8K_dated-2022-04-26"]
    assert (amcor.kind, amcor.period_end) == ("8-K", date(2022, 4, 26))
    mmm = docs["3M_2018_10K"]
    assert (mmm.kind, mmm.fiscal_year, mmm.fiscal_quarter, mmm.period_end) == (
        "10-K",
        2018,
        None,
        date(2018, 12, 31),
    )
    assert "item_7" in {b.section for b in mmm.blocks}


@pytest.mark.shared
def test_page_numbers_match_the_gold_evidence(
    loaded: tuple[dict[str, ParsedDocument], dict[str, str], float],
) -> None:
    docs, _, _ = loaded
    pages_by_doc: dict[str, set[int]] = {}
    with gzip.open(FB / "pages.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["text"].strip():
                pages_by_doc.setdefault(row["doc_name"], set()).add(row["page"])
    for name in ("3M_2018_10K", "PEPSICO_2023Q1_EARNINGS", "AMCOR_2023Q2_10Q"):
        assert {b.page for b in docs[name].blocks} == pages_by_doc[name]
    cash_flow = [b for b in docs["3M_2018_10K"].blocks if b.page == 59]
    assert any(
        "Net income including noncontrolling interest | $5,363 | $4,869 | $5,058" in b.text for b in cash_flow
    )
    if DEV.exists():
        checked = 0
        for line in DEV.read_text().splitlines():
            question = json.loads(line)
            for evidence in question.get("gold_evidence", []):
                doc = docs[evidence["doc_name"]]
                assert evidence["page"] in {b.page for b in doc.blocks}, evidence["doc_name"]
                checked += 1
        assert checked > 50


@pytest.mark.shared
def test_content_hash_is_stable(loaded: tuple[dict[str, ParsedDocument], dict[str, str], float]) -> None:
    docs, _, _ = loaded
    listed = [str(row["doc_name"]) for row in _listed()]
    assert len({docs[n].content_sha256 for n in listed}) == len(listed)


def _write_pages(path: Path, rows: list[dict[str, object]]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")


def test_small_synthetic_set(tmp_path: Path) -> None:
    pages = tmp_path / "pages.jsonl.gz"
    base = {"company": "Paypal", "doc_type": "10q", "doc_period": 2023}
    _write_pages(
        pages,
        [
            {
                **base,
                "doc_name": "PAYPAL_2023Q2_10Q",
                "page": 1,
                "text": "Revenue grew.\nNet revenues\n7,287\n6,806",
            },
            {
                **base,
                "doc_name": "PAYPAL_2023Q2_10Q",
                "page": 0,
                "text": "FORM 10-Q\nFor the quarterly period ended June 30, 2023",
            },
        ],
    )
    (tmp_path / "documents.jsonl").write_text(
        json.dumps({**base, "doc_name": "PAYPAL_2023Q2_10Q", "doc_link": "https://example.com/pypl.pdf"})
        + "\n"
    )
    [item] = discover_financebench(pages)  # documents.jsonl found beside the pages file
    doc = item.load()
    assert (doc.ticker, doc.kind, doc.fiscal_year, doc.fiscal_quarter) == ("PYPL", "10-Q", 2023, 2)
    assert doc.period_end == date(2023, 6, 30) and doc.source_uri == "https://example.com/pypl.pdf"
    assert [b.page for b in doc.blocks] == [0, 1]
    assert doc.blocks[-1].is_table is False  # a single row is not a table...
    assert doc.blocks[-1].text == "Revenue grew.\nNet revenues | 7,287 | 6,806"  # ...but is compacted


def test_unreadable_pages_file(tmp_path: Path) -> None:
    bad = tmp_path / "pages.jsonl.gz"
    bad.write_bytes(b"not gzip at all")
    [item] = discover_financebench(bad)
    with pytest.raises(ParseError, match="unreadable FinanceBench file"):
        item.load()
