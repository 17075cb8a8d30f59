"""Hybrid search on a real embedded PostgreSQL with synthetic documents."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from finagent.db import Database
from finagent.db.search import SearchHit
from finagent.embeddings import get_embedder
from finagent.errors import SearchInputError
from finagent.finance.document_records import Block
from finagent.ingest.pipeline import IngestPipeline
from finagent.retrieval import SearchFilters, hybrid_search
from finagent.settings import Settings
from tests.helpers import item, make_doc


@pytest.fixture()
def corpus(db: Database, settings: Settings) -> Database:
    docs = [
        make_doc(
            "AAPL",
            "10-Q",
            2023,
            3,
            [
                Block(
                    "Total net sales | 81,797 | 82,959\nCost of sales | 45,384 | 46,387",
                    section="part1_item_1",
                    is_table=True,
                ),
                Block(
                    "iPhone demand remained strong in emerging markets during the quarter.",
                    section="part1_item_2",
                ),
            ],
        ),
        make_doc(
            "AAPL",
            "10-Q",
            2023,
            2,
            [
                Block("Total net sales | 94,836 | 97,278", section="part1_item_1", is_table=True),
            ],
        ),
        make_doc(
            "MSFT",
            "10-Q",
            2023,
            1,
            [
                Block(
                    "Revenue was $50.1 billion and increased 11%. Adjusted EBITDA rose.",
                    section="part1_item_2",
                ),
            ],
        ),
        make_doc(
            "MSFT",
            "10-K",
            2023,
            None,
            [
                Block(
                    "We filed our annual report on Form 10-K. Capital expenditures were $28.1B.",
                    section="item_7",
                ),
            ],
        ),
        make_doc("NVDA", "transcript", 2024, 2, [Block("Data center demand is exceptional, said Jensen.")]),
    ]
    report = IngestPipeline(db, get_embedder(settings), settings).run([item(d) for d in docs])
    assert report.documents == len(docs)
    return db


def _search(db: Database, settings: Settings, query: str, **kw: Any) -> list[SearchHit]:
    vector = get_embedder(settings).encode_query(query)
    with db.connection() as conn:
        return hybrid_search(conn, query, vector, **kw)


def test_filters_restrict_ticker_period_and_kind(corpus: Database, settings: Settings) -> None:
    hits = _search(
        corpus, settings, "total net sales", filters=SearchFilters(tickers=["aapl"], fiscal_quarters=[3])
    )
    assert hits and all(h.ticker == "AAPL" and h.fiscal_quarter == 3 for h in hits)
    assert hits[0].is_table and "81,797" in hits[0].text
    assert hits[0].citation().startswith("AAPL 10-Q Q3 FY2023")
    kinds = {h.kind for h in _search(corpus, settings, "demand", filters=SearchFilters(kinds=["Transcript"]))}
    assert kinds == {"transcript"}


def test_scores_are_normalised_and_fused(corpus: Database, settings: Settings) -> None:
    hits = _search(corpus, settings, "total net sales", k=10)
    assert hits[0].fused_score <= 1.0 + 1e-9
    assert [h.fused_score for h in hits] == sorted((h.fused_score for h in hits), reverse=True)
    assert all(h.vector_score is not None or h.keyword_score is not None for h in hits)


@pytest.mark.parametrize("term", ["EBITDA", "$50.1 billion", "10-K", "$28.1B", "81,797", "81797"])
def test_exact_terms_match_in_keyword_leg(corpus: Database, settings: Settings, term: str) -> None:
    hits = _search(corpus, settings, term, k=3)
    assert any(h.keyword_score for h in hits), f"{term!r} found no keyword match"
    assert hits[0].keyword_score is not None


def test_keyword_only_hit_is_not_sunk(corpus: Database, settings: Settings) -> None:
    # With a random query vector the vector leg is noise; the keyword match still gets the full keyword
    # weight after normalisation (a raw ts_rank of ~0.1 added to cosine would contribute ~0.03).
    rng = np.random.default_rng(0)
    vector = rng.normal(size=384).astype(np.float32)
    vector /= np.linalg.norm(vector)
    with corpus.connection() as conn:
        hits = hybrid_search(conn, "EBITDA", vector, k=10)
        keyword_first = hybrid_search(conn, "EBITDA", vector, k=3, vector_weight=0.2, keyword_weight=0.8)
    match = next(h for h in hits if "EBITDA" in h.text)
    assert match.fused_score >= 0.3
    assert "EBITDA" in keyword_first[0].text


def test_rrf_fusion_and_ann_path(corpus: Database, settings: Settings) -> None:
    rrf = _search(corpus, settings, "capital expenditures", fusion="rrf", k=3)
    ann = _search(corpus, settings, "capital expenditures", exact=False, k=3)
    exact = _search(corpus, settings, "capital expenditures", exact=True, k=3)
    assert "Capital expenditures" in rrf[0].text
    assert [h.chunk_id for h in ann] == [h.chunk_id for h in exact]


def test_sql_looking_input_is_data(corpus: Database, settings: Settings) -> None:
    evil = "'; DROP TABLE chunks; --"
    assert isinstance(_search(corpus, settings, evil), list)
    with pytest.raises(SearchInputError):
        SearchFilters(tickers=[evil])
    with pytest.raises(SearchInputError):
        SearchFilters(kinds=[evil])
    hits = _search(corpus, settings, "sales", filters=SearchFilters(sections=[evil]))
    assert hits == []
    with corpus.connection() as conn:
        assert conn.execute("SELECT count(*) FROM chunks").fetchone()[0] > 0  # type: ignore[index]


@pytest.mark.parametrize(
    ("query", "filters", "message"),
    [
        ("", {}, "empty"),
        ("   \n\t ", {}, "empty"),
        ("x" * 20_000, {}, "20,000 characters"),
        ("sales", {"fiscal_quarters": [7]}, "quarter 7"),
        ("sales", {"fiscal_years": [1850]}, "1850"),
        ("sales", {"kinds": ["10-Z"]}, "unknown document kind"),
    ],
)
def test_bad_input_is_refused_clearly(
    corpus: Database, settings: Settings, query: str, filters: dict[str, object], message: str
) -> None:
    with pytest.raises(SearchInputError, match=message):
        _search(corpus, settings, query, filters=SearchFilters(**filters))  # type: ignore[arg-type]


def test_unknown_ticker_returns_nothing(corpus: Database, settings: Settings) -> None:
    assert _search(corpus, settings, "sales", filters=SearchFilters(tickers=["ZZZZ"])) == []


def test_statement_routing_lifts_the_routed_statement(db: Database, settings: Settings) -> None:
    # Six narrative chunks (one per note) that match the query better than the statement does.
    narrative = [
        Block(
            f"The capital expenditure amount in region {i} was discussed by management.", section=f"note_{i}"
        )
        for i in range(6)
    ]
    statement = Block(
        "Consolidated Statement of Cash Flows (Millions)\nNet income | 5,363 | 4,869\n"
        "Depreciation and amortization | 1,488 | 1,544\n"
        "Net cash provided by operating activities | 6,439 | 6,240\n"
        "Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373)\n"
        "Net cash used in investing activities | (222) | (3,086)",
        section="item_8",
        is_table=True,
    )
    doc = make_doc("MMM", "10-K", 2018, None, [*narrative, statement])
    IngestPipeline(db, get_embedder(settings), settings).run([item(doc)])
    query = "management discussed the capital expenditure amount in each region"
    mmm = SearchFilters(tickers=["MMM"])
    plain = {h.chunk_id: h for h in _search(db, settings, query, filters=mmm, k=7)}
    routed = {
        h.chunk_id: h for h in _search(db, settings, query, filters=mmm, k=7, statements=["cash_flow", "x"])
    }
    (statement_id,) = [i for i, h in routed.items() if h.statement == "cash_flow"]
    assert "(1,577)" in routed[statement_id].text
    lift = routed[statement_id].fused_score - plain[statement_id].fused_score
    assert lift == pytest.approx(settings.route_boost)
    assert all(
        routed[i].fused_score == pytest.approx(plain[i].fused_score) for i in plain if i != statement_id
    )


def test_an_8ks_own_item_is_a_candidate_and_lifted_over_the_exhibits_filed_with_it(
    db: Database, settings: Settings
) -> None:
    """PepsiCo's 8-K of May 2023 files a 140-page credit agreement under Item 9.01; the page that
    says what happened (Item 1.01) must reach the answer however many exhibit pages match better."""
    exhibits = [
        Block(
            f"Section 2.{i:02d}. Within the limits of each Lender's Revolving Credit Commitment, each "
            "Borrower may borrow under this revolving credit agreement the total amount of the commitments.",
            section="item_9_01",
        )
        for i in range(30)
    ]
    event = Block(
        "Item 1.01 Entry into a Material Definitive Agreement. On May 26, 2023, the company entered into "
        "a five-year facility of $4,200,000,000 and a 364-day facility of $4,200,000,000.",
        section="item_1_01",
    )
    IngestPipeline(db, get_embedder(settings), settings).run(
        [item(make_doc("PEP", "8-K", 2023, None, [event, *exhibits]))]
    )
    query = "total amount PepsiCo may borrow under its unsecured revolving credit agreements"
    pep = SearchFilters(tickers=["PEP"])
    few = {"k": 5, "candidates": 3}  # the exhibits fill every leg's candidates

    def sections(**kw: Any) -> list[str | None]:
        return [h.section for h in _search(db, settings, query, **(few | kw))]

    assert "item_1_01" not in sections(filters=pep)
    lifted = _search(db, settings, query, filters=pep, event_boost=1.0, **few)
    assert lifted[0].section == "item_1_01" and "$4,200,000,000" in lifted[0].text
    # with no company named, no scan of every 8-K's Items is added to the candidates
    assert "item_1_01" not in sections(event_boost=1.0)


def test_the_press_release_an_8k_item_points_to_is_lifted_with_the_item(
    db: Database, settings: Settings
) -> None:
    """J&J's 8-K of August 30, 2023 says in Item 2.02 only that it "issued the attached press release
    (Exhibit 99.1)"; the release's first page (the ~$20 billion gain) is the filing's account of the
    event, and must outrank the reconciliation tables of Exhibit 99.2 filed under the same Item 9.01."""
    tables = [
        Block(
            f"Reconciliation of Non-GAAP Financial Measures, table {i}: the gain on the separation of the "
            "Consumer Health business, separation costs and the amount of other gains by segment.",
            section="item_9_01",
        )
        for i in range(30)
    ]
    event = Block(
        "Item 2.02 Results of Operations and Financial Condition. On August 30, 2023, the company issued "
        "the attached press release (Exhibit 99.1) providing updated financials.",
        section="item_2_02",
    )
    release = Block(
        "Exhibit 99.1\nCompany Announces Updated Financials Following Completion of the Separation\n"
        "The company will present its Consumer Health business as discontinued operations, including a "
        "gain of approximately $20 billion in the third quarter of 2023.",
        section="item_9_01",
    )
    IngestPipeline(db, get_embedder(settings), settings).run(
        [item(make_doc("JNJ", "8-K", 2023, None, [event, release, *tables]))]
    )
    query = "amount of the gain accruing from the separation of the Consumer Health business"
    every = {"k": 40, "candidates": 40, "filters": SearchFilters(tickers=["JNJ"])}
    plain = {h.chunk_id: h for h in _search(db, settings, query, **every)}
    ranked = _search(db, settings, query, event_boost=1.0, **every)
    lifted = {h.chunk_id: h for h in ranked}
    lift = {plain[i].text.split()[0]: lifted[i].fused_score - plain[i].fused_score for i in plain}
    assert lift["Exhibit"] == pytest.approx(1.0) and lift["Item"] == pytest.approx(1.0)
    assert lift["Reconciliation"] == pytest.approx(0.0)
    assert any("$20 billion" in h.text for h in ranked[:2])  # beside the Item, above every table


def test_the_passages_beside_a_hit_are_read_in_their_documents_order(
    db: Database, settings: Settings
) -> None:
    """What answers often begins in the passage before a hit ("… the court dismissed the case (the
    Northern dismissal)" before "After the Northern dismissal, …"): the passages right before and
    after each hit in its own document, never another document's, never the hit itself."""
    from finagent.db.search import neighbor_passages, run_search

    filler = " The Company believes it has meritorious defenses and will continue to defend itself." * 11

    def passage(text: str) -> Block:  # a chunk of its own: a passage fills one
        return Block(text + filler, section="part1_item_1")

    said = [
        "Matters concerning widgets. Claims allege the widgets were defective.",
        "On March 3, 2025, the Northern Court dismissed the case (the Northern dismissal).",
        "After the Northern dismissal, the Company returned to the courts to litigate.",
        "Bellwether trials are scheduled for 2026.",
    ]
    other = [passage("After the Northern dismissal, the peer settled its own claims.")]
    pipeline = IngestPipeline(db, get_embedder(settings), settings)
    pipeline.run(
        [
            item(make_doc("CTSO", "10-Q", 2025, 2, [passage(t) for t in said])),
            item(make_doc("FBK", "10-Q", 2025, 2, other)),
        ]
    )
    query = "after the Northern dismissal company returned"
    hits = _search(db, settings, query, filters=SearchFilters(tickers=["CTSO"]))
    hit = next(h for h in hits if "After the Northern dismissal, the Company" in h.text)
    with db.connection() as conn:
        beside = run_search(conn, neighbor_passages([hit.chunk_id]))
    assert len(beside) == 2 and hit.chunk_id not in {h.chunk_id for h in beside}
    assert {h.ticker for h in beside} == {"CTSO"} and {h.document_id for h in beside} == {hit.document_id}
    before, after = sorted(beside, key=lambda h: h.char_start)
    assert before.char_start < hit.char_start < after.char_start
    assert before.char_end >= hit.char_start - settings.chunk_size and after.char_start <= hit.char_end
    with db.connection() as conn:  # a passage announcing what follows: only the one after it
        (following,) = run_search(conn, neighbor_passages([], leads=[hit.chunk_id]))
    assert following.chunk_id == after.chunk_id
    with db.connection() as conn:  # a passage opening on what the one before names: only that one
        (preceding,) = run_search(conn, neighbor_passages([], backs=[hit.chunk_id]))
    assert preceding.chunk_id == before.chunk_id
