"""What an answer that found nothing says: where it looked, and the closest passage as context only.

"finagent could not answer this question" leaves a reader guessing whether the store lacks the
filing, the period, or the part of it that would answer; naming the companies, kinds, periods and
parts searched tells them what to add or ask instead, and the closest passage shows what is there
without passing it off as the answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from finagent.agent.answer.wording import day_text, joined, name, owned
from finagent.agent.understand.question import DatedGap
from finagent.finance.read.filing_parts import part_name

NOTHING_FOUND = "finagent found no passage that answers this question"


@dataclass
class _Searched:
    """One company's searches: their kinds, periods and parts, each in the order first searched."""

    kinds: dict[str, None] = field(default_factory=dict)
    periods: dict[str, None] = field(default_factory=dict)
    sections: dict[str, None] = field(default_factory=dict)

    def phrase(self, whose: str) -> str:
        kinds = joined(list(self.kinds)) or "documents"
        periods = f" for {joined(list(self.periods))}" if self.periods else ""
        sections = f" ({'; '.join(self.sections)})" if self.sections else ""
        return f"{whose} {kinds}{periods}{sections}"


def searched_where(searches: Sequence[dict[str, Any]], names: dict[str, list[str]]) -> str:
    """ "Apple's 10-K and 10-Q for FY2024 (Item 1A; Part II, Item 1A)": each company's searches, in
    the order made; empty when none was made."""
    by_company: dict[str | None, _Searched] = {}
    for search in searches:
        seen = by_company.setdefault(search.get("ticker"), _Searched())
        seen.kinds.update(dict.fromkeys(search.get("kinds") or []))
        if search.get("period_label") and search["period_label"] != "undated":
            seen.periods[search["period_label"]] = None
        seen.sections.update(dict.fromkeys(part_name(s) for s in search.get("sections") or []))
    whose = {ticker: owned(name(ticker, names)) if ticker else "the store's" for ticker in by_company}
    return "; ".join(seen.phrase(whose[ticker]) for ticker, seen in by_company.items())


def nothing_found(searches: Sequence[dict[str, Any]], names: dict[str, list[str]], closest: str) -> str:
    """The answer when no passage answers: what was searched, then the closest passage found (a
    quoted line, cited) as context, never as the answer."""
    where = searched_where(searches, names)
    text = f"{NOTHING_FOUND} in {where}." if where else f"{NOTHING_FOUND}: no passage was found."
    if closest:
        text += f"\n\nThe closest passage found, as context only, not an answer:\n{closest}"
    return text


def not_mentioned(
    unmentioned: Sequence[str],
    tickers: Sequence[str],
    kinds: Sequence[str],
    searches: Sequence[dict[str, Any]],
    names: dict[str, list[str]],
    closest: str,
) -> str:
    """The answer when no stored passage of the companies (of the kinds the question names) mentions
    what the question names: said first, then what was searched, then the closest passage found as
    context, never as the answer."""
    whose = joined([name(t, names) for t in tickers])
    documents = " or ".join(kinds) or "document"
    text = f"No {documents} of {whose} in the store mentions {joined([f'“{n}”' for n in unmentioned])}"
    where = searched_where(searches, names)
    text += f"; finagent searched {where}." if where else "."
    if closest:
        text += f"\n\nThe closest passage found, as context only, not an answer:\n{closest}"
    return text


_DATED_NOUNS = {"news": ("news article", "news"), "transcript": ("earnings-call transcript", "calls")}


def dated_gaps_said(gaps: Sequence[DatedGap], names: dict[str, list[str]]) -> str:
    """ "The store holds no news article on Apple from December 2023 (its stored news runs from …)":
    said before an answer the question asked of the news (or of a call), which other documents may
    still give."""
    sentences = []
    for gap in gaps:
        company = name(gap.ticker, names)
        one, many = _DATED_NOUNS.get(gap.kind, (gap.kind, gap.kind))
        runs = "runs" if gap.kind == "news" else "run"
        held = (
            f"its stored {many} {runs} from {day_text(date.fromisoformat(gap.first_day))} to "
            f"{day_text(date.fromisoformat(gap.last_day))}"
            if gap.first_day and gap.last_day
            else f"it holds no {many} of {company}"
        )
        on = "on" if gap.kind == "news" else "of"
        sentences.append(f"The store holds no {one} {on} {company} from {gap.window} ({held}).")
    return " ".join(dict.fromkeys(sentences))


PERIODIC_KINDS = ("10-K", "10-Q", "annual_report", "earnings_release", "transcript")
"""Kinds a fiscal period identifies ("its Q3 2023 earnings call"); an article is named by its day."""
_NOUNS = {"transcript": "earnings-call transcript", "earnings_release": "earnings release"}


def _reports(target: Mapping[str, Any]) -> set[str]:
    """The periodic kinds that may report a target period: a year's annual reports, a quarter's 10-Q
    (the fourth quarter's in the 10-K) and call, and either's earnings release (a year's calls are
    its quarters'); none without a fiscal year, nor for a document named by its day (its absence is
    said by the day)."""
    if target.get("fiscal_year") is None or target.get("document_ids"):
        return set()
    quarter = target.get("fiscal_quarter")
    if quarter is None:
        return {"10-K", "annual_report", "earnings_release"}
    quarterly = {"10-Q", "earnings_release", "transcript"}
    return quarterly | ({"10-K", "annual_report"} if quarter == 4 else set())


def unheld_filings_said(
    targets: Sequence[Mapping[str, Any]], named_kinds: Sequence[str], names: dict[str, list[str]]
) -> str:
    """ "The store holds no 10-Q of Apple for Q1 FY2025.": the periods of a document kind the question
    names that the store holds none of, said before the answer its other documents give (a period
    held only in other kinds too: AMD's calls of fiscal 2024, asked what its 10-K says)."""
    named_kinds = [k for k in named_kinds if k in PERIODIC_KINDS]
    if not named_kinds:
        return ""
    sentences = []
    for target in targets:  # a period not stored has no kinds of its own: the named ones are missing
        held = set(target.get("kinds") or ()) if target.get("available") else set()
        if held & set(named_kinds) or not _reports(target) & set(named_kinds):
            continue
        company = name(str(target.get("ticker") or ""), names)
        kinds = " or ".join(_NOUNS.get(kind, kind) for kind in named_kinds)
        sentences.append(f"The store holds no {kinds} of {company} for {target['label']}.")
    return " ".join(dict.fromkeys(sentences))
