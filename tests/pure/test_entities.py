"""Company mentions, table-driven: tickers, $tickers, names, aliases, and words that only look like them."""

from __future__ import annotations

import pytest

from finagent.agent.understand.entities import find_companies, strip_legal_suffixes, unknown_ticker_mentions
from finagent.db.companies import StoredCompany
from finagent.finance.company_registry import BUILTIN_COMPANIES

COMPANIES = [
    StoredCompany(c.ticker, c.name, c.aliases, c.fiscal_year_end_month, 0) for c in BUILTIN_COMPANIES
]
HAS_3M = any(c.ticker == "MMM" for c in BUILTIN_COMPANIES)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Compare AAPL and MSFT revenue", ["AAPL", "MSFT"]),
        ("$nvda gross margin", ["NVDA"]),
        ("What did $Msft say?", ["MSFT"]),
        ("Apple's and Microsoft’s revenue", ["AAPL", "MSFT"]),
        ("What is IT spending at Amazon?", ["AMZN"]),
        ("metadata of Meta Platforms", ["META"]),
        ("Meta and Metadata", ["META"]),
        ("Home Depot same-store sales", ["HD"]),
        ("The Home Depot, Inc. and Lowe's", ["HD"]),
        ("Coca-Cola vs PepsiCo", ["KO", "PEP"]),
        ("coca cola dividends", ["KO"]),
        ("applesauce sales", []),
        ("Apple Inc. results", ["AAPL"]),
        ("apple and NVIDIA Corporation", ["AAPL", "NVDA"]),
        ("MSFT then Apple then $AAPL then msft", ["MSFT", "AAPL"]),
        ("AT&T, P&G and PG&E", ["T", "PG", "PCG"]),
        ("Johnson & Johnson", ["JNJ"]),
        ("McDonald’s margins", ["MCD"]),
        ("Amazon.com, Inc. and Google", ["AMZN", "GOOGL"]),
        ("GOOG and FB", ["GOOGL", "META"]),
        ("goog and fb lowercase are not tickers", []),
        ("ON, ALL, ARE, NOW, KEY, FAST, ANY: CEO EPS GAAP USD FY Q A", []),
        ("$ON and $KEY are tickers only when known", []),
        ("What is the target price for Apple?", ["AAPL"]),
        ("Target and Block", ["TGT", "SQ"]),
        ("a block of shares in a square", []),
        ("Non-GAAP EPS at AMD", ["AMD"]),
        ("T-Mobile", []),
        ("$T and AT&T", ["T"]),
    ],
)
def test_find_companies(question: str, expected: list[str]) -> None:
    assert [m.ticker for m in find_companies(question, COMPANIES)] == expected


@pytest.mark.skipif(not HAS_3M, reason="3M is not a built-in company")
@pytest.mark.parametrize(
    ("question", "expected"),
    [("3M litigation costs", ["MMM"]), ("$3M of revenue", []), ("1.3M units", []), ("3m in lowercase", [])],
)
def test_3m_is_a_company_not_an_amount(question: str, expected: list[str]) -> None:
    assert [m.ticker for m in find_companies(question, COMPANIES)] == expected


def test_matches_keep_text_and_offset() -> None:
    question = "How did Microsoft’s and $aapl margins compare?"
    matches = find_companies(question, COMPANIES)
    assert [(m.ticker, m.text, m.start, m.via) for m in matches] == [
        ("MSFT", "Microsoft", 8, "name"),
        ("AAPL", "$aapl", 24, "$ticker"),
    ]
    assert all(question[m.start : m.end] == m.text for m in matches)


def test_longest_name_wins() -> None:
    companies = [
        StoredCompany("HD", "The Home Depot, Inc.", ("Home Depot",), 1, 0),
        StoredCompany("DEPO", "Depot Corp", ("Depot",), 12, 0),
    ]
    matches = find_companies("Home Depot and Depot", companies)
    assert [(m.ticker, m.text) for m in matches] == [("HD", "Home Depot"), ("DEPO", "Depot")]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Compare $ZZZZ with $AAPL", ["ZZZZ"]),
        ("$zzzz and $ZZZZ and $qqq", ["ZZZZ", "QQQ"]),
        ("$5 billion and $AAPL", []),
        ("ZZZZ without a dollar", []),
    ],
)
def test_unknown_ticker_mentions(question: str, expected: list[str]) -> None:
    assert unknown_ticker_mentions(question, COMPANIES) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Apple Inc.", "Apple"),
        ("The Home Depot, Inc.", "Home Depot"),
        ("JPMorgan Chase & Co.", "JPMorgan Chase"),
        ("Best Buy Co., Inc.", "Best Buy"),
        ("PayPal Holdings, Inc.", "PayPal"),
        ("Johnson & Johnson", "Johnson & Johnson"),
    ],
)
def test_strip_legal_suffixes(name: str, expected: str) -> None:
    assert strip_legal_suffixes(name) == expected


def test_legal_names_in_capitals_are_names_not_tickers() -> None:
    """Filings give registrant names in capitals ("VISA INC.", "WELLS FARGO & COMPANY/MN"): "Visa" and
    "Wells Fargo" name them; a capitalised alias written as a ticker ("GOOG") stays a ticker."""
    companies = [
        StoredCompany("V", "VISA INC.", ("VISA INC.",), 9, 1),
        StoredCompany("WFC", "WELLS FARGO & COMPANY/MN", ("WELLS FARGO & COMPANY/MN",), 12, 1),
        StoredCompany("GOOGL", "Alphabet Inc.", ("Alphabet", "GOOG"), 12, 1),
    ]
    assert [m.ticker for m in find_companies("What was Visa's net income for fiscal 2024?", companies)] == [
        "V"
    ]
    assert [m.ticker for m in find_companies("Wells Fargo's net income", companies)] == ["WFC"]
    assert [m.ticker for m in find_companies("GOOG revenue", companies)] == ["GOOGL"]
    assert find_companies("goog revenue", companies) == []
    assert find_companies("the visa rules for analysts", companies) == []


# Companies as a store learns them: the registrant's name from its filings, SEC's list title as an alias.
LEARNT = [
    StoredCompany("LOW", "LOWE’S COMPANIES, INC.", ("LOWES COMPANIES INC",), 1, 2),
    StoredCompany("MCD", "MCDONALDS CORP", ("MCDONALDS CORP",), 12, 1),
    StoredCompany("T", "AT&T INC.", ("AT&T INC.",), 12, 1),
    StoredCompany("JNJ", "JOHNSON & JOHNSON", ("JOHNSON & JOHNSON",), 12, 1),
    StoredCompany("DKS", "DICK'S SPORTING GOODS, INC.", (), 1, 1),
    StoredCompany("M", "Macy's, Inc.", ("MACY'S, INC.",), 1, 1),
    StoredCompany("COST", "COSTCO WHOLESALE CORP /NEW", (), 8, 1),
    StoredCompany("GPS", "GAP INC", ("GAP INC",), 1, 1),
    StoredCompany("TGT", "TARGET CORP", ("TARGET CORP",), 1, 1),
    StoredCompany("KEY", "KEYCORP /NEW/", (), 12, 1),
    StoredCompany("META", "Meta Platforms, Inc.", ("Meta",), 12, 1),
    StoredCompany("AAPL", "Apple Inc.", ("Apple",), 9, 1),
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was Lowe's revenue in fiscal 2024?", ["LOW"]),
        ("Lowe’s net earnings", ["LOW"]),
        ("Lowes' sales and Lowe's Companies, Inc. margins", ["LOW"]),
        ("How did McDonald's operating income change?", ["MCD"]),
        ("Mcdonalds revenue", ["MCD"]),
        ("AT&T's free cash flow and AT & T Inc. debt", ["T"]),
        ("Johnson and Johnson versus Johnson & Johnson", ["JNJ"]),
        ("Dick's Sporting Goods' net sales", ["DKS"]),
        ("How much did Macys earn?", ["M"]),
        ("Costco's gross margin", ["COST"]),
        ("KeyCorp net interest income", ["KEY"]),
        ("What was LOW's revenue?", ["LOW"]),  # a word-ticker in the possessive, its filings held
        ("$LOW and $KEY", ["LOW", "KEY"]),
        ("LOW margins and KEY risks at a low price", []),
        ("Was there a gap between Target's and the Gap's growth?", ["TGT", "GPS"]),
        ("our target margin and the gap in the market", []),
        ("Metadata at Meta", ["META"]),
        ("Costco Wholesale and Costco's peers", ["COST"]),
    ],
)
def test_names_as_the_store_learns_them(question: str, expected: list[str]) -> None:
    assert [m.ticker for m in find_companies(question, LEARNT)] == expected


def test_a_first_word_shared_by_two_companies_names_neither() -> None:
    companies = [
        StoredCompany("AAA", "Acme Widgets Corp", (), 12, 1),
        StoredCompany("BBB", "Acme Foods Inc", (), 12, 1),
    ]
    assert find_companies("Acme's revenue", companies) == []
    assert [m.ticker for m in find_companies("Acme Foods's revenue", companies)] == ["BBB"]


def test_listed_candidates_keep_a_names_own_apostrophe_s() -> None:
    from finagent.agent.understand.entities import listed_name_candidates
    from finagent.finance.company_registry import normalize_name

    _, names = listed_name_candidates("What was Lowe's revenue versus Dick's Sporting Goods?")
    assert normalize_name("LOWES COMPANIES INC") in names
    assert normalize_name("DICK'S SPORTING GOODS, INC.") in names


def test_a_name_written_with_its_words_joined_names_the_company() -> None:
    """Brands often join a registrant name's words ("ExxonMobil", "JPMorgan", "HomeDepot"): the
    joined form names the company; a word inside another word still does not."""
    companies = [
        StoredCompany("XOM", "EXXON MOBIL CORP", ("EXXON MOBIL CORP",), 12, 1),
        StoredCompany("HD", "The Home Depot, Inc.", ("Home Depot",), 1, 0),
    ]
    assert [m.ticker for m in find_companies("ExxonMobil's revenue in 2024", companies)] == ["XOM"]
    assert [m.ticker for m in find_companies("What did Exxon Mobil earn?", companies)] == ["XOM"]
    assert [m.ticker for m in find_companies("HomeDepot net sales", companies)] == ["HD"]
    assert find_companies("the homedepotting of retail", companies) == []
