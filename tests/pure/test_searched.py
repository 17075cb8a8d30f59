"""An answer that found nothing says where it looked and shows the closest passage as context only."""

from __future__ import annotations

from finagent.agent.answer.searched import nothing_found, searched_where

NAMES = {"AAPL": ["Apple Inc.", "Apple"], "INTC": ["Intel Corporation", "Intel"]}


def _search(
    ticker: str | None, period: str, kinds: list[str], sections: list[str] | None = None
) -> dict[str, object]:
    return {"ticker": ticker, "period_label": period, "kinds": kinds, "sections": sections or []}


def test_the_searches_are_named_by_company_kind_period_and_part() -> None:
    searches = [
        _search("AAPL", "Q1 FY2024", ["10-Q"], ["part2_item_1a"]),
        _search("AAPL", "FY2023", ["10-K"], ["item_1a"]),
        _search("AAPL", "FY2023", ["10-K"]),
        _search("INTC", "undated", ["transcript"]),
    ]
    assert searched_where(searches, NAMES) == (
        "Apple's 10-Q and 10-K for Q1 FY2024 and FY2023 (Part II, Item 1A; Item 1A); Intel's transcript"
    )


def test_nothing_found_gives_the_closest_passage_as_context_never_as_the_answer() -> None:
    closest = "- Apple's 10-K for FY2023: “The Company faces intense competition.” [10K1]"
    text = nothing_found([_search("AAPL", "FY2023", ["10-K"], ["item_1a"])], NAMES, closest)
    assert text.startswith("finagent found no passage that answers this question in Apple's 10-K for FY2023")
    assert text.endswith(f"as context only, not an answer:\n{closest}")
    nothing = "finagent found no passage that answers this question: no passage was found."
    assert nothing_found([], NAMES, "") == nothing


def test_a_named_filing_the_store_lacks_is_said_even_when_the_period_is_held_in_other_kinds() -> None:
    """Asked what AMD's fiscal 2024 10-K says when the store holds only its calls of that year: the
    missing 10-K is said; a 10-Q named for a year whose 10-K is held is not missing from that year."""
    from finagent.agent.answer.searched import unheld_filings_said

    names = {"AMD": ["AMD", "Advanced Micro Devices"], "AAPL": ["AAPL", "Apple"]}
    calls = {"ticker": "AMD", "label": "FY2024", "fiscal_year": 2024, "fiscal_quarter": None}
    calls |= {"available": True, "kinds": ["transcript"]}
    assert unheld_filings_said([calls], ["10-K"], names) == (
        "The store holds no 10-K of Advanced Micro Devices for FY2024."
    )
    held = calls | {"ticker": "AAPL", "kinds": ["10-K", "facts"]}
    assert unheld_filings_said([held], ["10-K"], names) == ""
    assert unheld_filings_said([held], ["10-Q"], names) == ""  # a year is not a 10-Q's period
    quarter = held | {"label": "Q2 FY2024", "fiscal_quarter": 2, "kinds": ["transcript"]}
    assert (
        unheld_filings_said([quarter], ["10-Q"], names) == "The store holds no 10-Q of Apple for Q2 FY2024."
    )


def test_a_call_named_by_its_quarter_the_store_lacks_is_said() -> None:
    """Asked what a company said on its Q3 2023 call when the store holds none of that quarter (nor
    any call of it): said, before the answer an older call gives; a call named by its day is said by
    its day instead."""
    from finagent.agent.answer.searched import unheld_filings_said

    names = {"BA": ["BA", "Boeing"]}
    missing = {
        "ticker": "BA",
        "label": "Q3 FY2023",
        "fiscal_year": 2023,
        "fiscal_quarter": 3,
        "available": False,
    }
    older = {"ticker": "BA", "label": "Q2 FY2016", "fiscal_year": 2016, "fiscal_quarter": 2}
    older |= {"available": True, "kinds": ["transcript"]}
    assert unheld_filings_said([missing, older], ["transcript"], names) == (
        "The store holds no earnings-call transcript of Boeing for Q3 FY2023."
    )
    dated = missing | {"label": "transcript dated 2023-10-25", "document_ids": [7]}
    assert unheld_filings_said([dated], ["transcript"], names) == ""
    year = {"ticker": "BA", "label": "FY2024", "fiscal_year": 2024, "fiscal_quarter": None}
    year |= {"available": True, "kinds": ["10-K"]}  # a year's calls are its quarters', not missing here
    assert unheld_filings_said([year], ["transcript"], names) == ""
