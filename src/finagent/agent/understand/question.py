"""The question, read once: a frozen, typed plan every node after analyze follows.

analyze reads the question's words once (``understand.plan``) and puts the plan in the graph state
in its JSON form (``Question.to_dict``), so the Postgres checkpointer and LangGraph Studio store and
show it as plain data. Every later node reads it back typed with ``Question.of(state)`` and never
reads the question's text again, except to put it in a prompt or to search with it as a last resort.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from finagent.agent.understand.named_parts import AskedPart
from finagent.finance.ask.asks import Ask
from finagent.finance.ask.long_history import History
from finagent.finance.ask.screen_ask import ScreenAsk
from finagent.finance.compute.compare import Wanted
from finagent.finance.line_item import LineItem
from finagent.finance.lines import REPORTED
from finagent.finance.periods import TimeSpec
from finagent.finance.periods.named_documents import DatedDocument


@dataclass(frozen=True, slots=True)
class DatedGap:
    """A company with no stored document of a dated kind (news, a call's transcript) in the window the
    question asks about ("December 2023"), and the days its stored documents of the kind cover (None
    when it holds none)."""

    ticker: str
    kind: str
    window: str
    first_day: str | None = None
    last_day: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ticker": self.ticker,
            "kind": self.kind,
            "window": self.window,
            "first_day": self.first_day,
            "last_day": self.last_day,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DatedGap:
        days = (data.get("first_day"), data.get("last_day"))
        return cls(str(data["ticker"]), str(data.get("kind", "news")), str(data.get("window", "")), *days)


@dataclass(frozen=True)
class Question:
    """What the question asks, which companies and periods, and how to search for it."""

    question: str = ""
    """The question's text (cleaned): for prompts and a last-resort search phrase only."""
    tickers: tuple[str, ...] = ()
    names: dict[str, list[str]] = field(default_factory=dict)
    """Ticker -> the names and aliases a sentence may call it by."""
    period_sources: tuple[str, ...] = ()
    """The texts periods were read from: the question, then the caller's period options."""
    time_specs: tuple[TimeSpec, ...] = ()
    question_periods_only: bool = False
    mentions: dict[str, list[int]] = field(default_factory=dict)
    """Ticker -> where the question names it (periods that follow a name may belong to it)."""
    intent: str = ""
    sources: tuple[str, ...] = ()
    """Kinds of source to search: filings, transcripts, news, market data."""
    answer_mode: str = "standard"
    keywords: dict[str, list[str]] = field(default_factory=dict)
    """Ticker -> search phrases."""
    answer_sentence: str = ""
    """The model's answer-shaped sentence (no numbers): narrative searches lean to it."""
    statements: tuple[str, ...] = ()
    """Primary statements the sub-searches are routed to."""
    metrics: tuple[LineItem, ...] = ()
    """The registry's lines the question asks the figures of (the state names them)."""
    computed: tuple[str, ...] = ()
    comparisons: Wanted = field(default_factory=Wanted)
    as_reported: bool = False
    narrative: bool = False
    """A why/what question: the passages' discussion is searched and written from."""
    says: bool = False
    """What the company says about something: its own sentences answer it."""
    drivers: bool = False
    """What drove something: an answer naming no cause is no answer."""
    calendars: dict[str, dict[str, int | None]] = field(default_factory=dict)
    """Ticker -> its fiscal calendar's state form (``FiscalCalendar.state``)."""
    refusal: str = ""
    ask: Ask = field(default_factory=Ask)
    """What the question's words ask: a value, a ranking, a change, an overtake, a direction, ..."""
    breakdown: bool = False
    """About a part of the company (a segment, a region, a product line)."""
    forecast: bool = False
    """What is expected (guidance, outlook), which statements never report."""
    ahead_years: tuple[int, ...] = ()
    """Years a forecast looks ahead to from an earlier named report (its schedules)."""
    release: bool = False
    """What earnings releases report (adjusted figures, guidance)."""
    revision: bool = False
    """By how much a report revised a figure."""
    event_words: bool = False
    """A corporate event reported on an 8-K (a new CEO, an acquisition)."""
    event_days: tuple[str, ...] = ()
    """ISO days the question dates a filing or an event by."""
    dated_documents: tuple[DatedDocument, ...] = ()
    """Documents named by their day ("the 8-K dated ...")."""
    sections: tuple[str, ...] = ()
    """Report sections that discuss the question's topics."""
    topics: tuple[str, ...] = ()
    """Names of those topics: one section search each."""
    filing_changes: tuple[str, ...] = ()
    """Topics whose change across the company's filings is asked ("how have the risk factors changed"):
    computed by comparing the same part of its filings (``finance.filing_changes``)."""
    undated_kinds: tuple[str, ...] | None = None
    """ "this 10-K" with no year: the kinds of document pointed at."""
    annual_topic: bool = False
    """About what the annual report sets out (the business, risks, legal matters)."""
    named_kinds: tuple[str, ...] = ()
    """Document kinds the question names ("in its 10-Q", "on the call")."""
    granularity: str = ""
    """ "annual" or "quarter": what "latest" or no period means."""
    formulas: tuple[int, ...] = ()
    """Computed metrics the question names (indexes of the formulas table)."""
    average: bool = False
    quantities: bool = True
    """The question asks for a figure (a metric, a formula, "how much", an amount)."""
    terms: tuple[str, ...] = ()
    """The question's content words, for condensing passages."""
    sub_asks: tuple[str, ...] = ()
    """The questions a compound question asks one after the other ("What does it do, and where does
    its revenue come from?"): each answered by quotes of its own (searched as the whole question)."""
    named: tuple[str, ...] = ()
    """Names the question writes capitalised ("Google Cloud"): quotes naming them come first."""
    status: bool = False
    """Where a matter stands ("where does the talc litigation stand"): its latest developments first."""
    yes_no: bool = False
    """The question opens asking yes or no ("Is Boeing's business cyclical?"): its answer opens with one."""
    share_in_words: bool = False
    """Of one company, the share of a line that a part only words name has ("what share of its revenue
    came from the U.S. government", "customers above 10% of revenue"): the filing states it in words."""
    row_pick: str = ""
    """ "highest" or "lowest": which row of a table stands at that end under the column the question
    names ("which nominee drew the most votes against")."""
    given_names: tuple[str, ...] = ()
    """Names written inside a sentence, not acronyms: what it asks about besides its companies."""
    asked_sources: tuple[str, ...] = ()
    """Sources the question's own words ask for ("news", "transcript"), not the model's choice."""
    dated_gaps: tuple[DatedGap, ...] = ()
    """Companies with no stored news (or call) in the window a question asking for them names."""
    news_windows: tuple[tuple[str, str], ...] = ()
    """(first, last) ISO days of the windows a question asking for the news names ("in early February
    2024"): the articles of those days are searched, and no other article is quoted."""
    unmentioned: tuple[str, ...] = ()
    """Of those, the ones that are not its companies' own names and that no stored passage of its
    companies mentions ("Agentforce" in a store holding Salesforce's 2016 call): what it cannot answer."""
    value_line_words: tuple[str, ...] = ()
    """A "what was X for P" question's words a table line may be named by."""
    lines: tuple[str, ...] = ()
    """Named parts whose revenue it asks about ("Google Cloud revenue")."""
    subject_needed: bool = False
    """A figure question naming no company: asked again about the best match."""
    subject_note: str = ""
    """The sentence naming the company a question naming none was answered about."""
    long_history: History | None = None
    """A range, "since", "ever", "all": a series over many periods."""
    parts: tuple[AskedPart, ...] = ()
    """Parts of a company the question names by their XBRL member's names ("AWS", "iPhone")."""
    part_driver: str = ""
    """The kind of part ("segment", "product", "geography") asked to have driven a change."""
    part_metric: str = ""
    """The line asked of the parts when no figure of the whole is asked ("which segment drove ...")."""
    universe: tuple[str, ...] = ()
    """A screen's companies: every company the store holds, when the question asks about the companies
    in general ("which company in the store", "rank the companies") instead of named ones."""
    screen: ScreenAsk | None = None
    """What the screen of ``universe`` asks: the metric, a threshold, the top N, which end first."""
    screen_period: str = ""
    """How the screen's answer names the period asked ("fiscal 2024"; "": each one's latest year)."""

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> Question:
        """The plan in a graph state (an empty plan before analyze ran)."""
        return cls.from_dict(state.get("analysis"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Question:
        """Read the plan's JSON form back; unknown keys (an older checkpoint's) are ignored."""
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        values = {k: _typed(k, v) for k, v in data.items() if k in known and v is not None}
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form the graph state carries (lists, dicts and strings only)."""
        return {f.name: _plain(f.name, getattr(self, f.name)) for f in fields(self)}

    def with_changes(self, **changes: Any) -> Question:
        """A copy with some fields replaced (the subject chosen for a question naming none)."""
        return replace(self, **changes)

    @property
    def metric_names(self) -> tuple[str, ...]:
        """The asked lines by their registry names (how the state, tasks and cells name metrics)."""
        return tuple(m.name for m in self.metrics)

    @property
    def part_metrics(self) -> tuple[str, ...]:
        """The lines whose parts are looked up: the asked figures', else the line a part question names."""
        return self.metric_names or ((self.part_metric,) if self.part_metric else ())

    @property
    def subjects(self) -> tuple[str, ...]:
        """The names the question gives that are not its companies' own ("Agentforce" in "What did
        Salesforce say about Agentforce?"): what a passage must mention to answer it."""
        aliases = [alias.lower() for group in self.names.values() for alias in group]
        words = {w for alias in aliases for w in re.findall(r"\w+", alias)}
        squashed = {s for s in (re.sub(r"\W", "", alias) for alias in aliases) if len(s) >= 4}

        def own(name: str) -> bool:  # "Footlocker" for Foot Locker, "Pepsi" for PepsiCo
            low = name.lower()
            return low in words or any(s.startswith(low) or low.startswith(s) for s in squashed)

        return tuple(n for n in self.given_names if not own(n))

    @property
    def unheld_subject(self) -> bool:
        """Every name the question gives beyond its companies' is one no stored passage mentions: the
        store cannot answer it, whatever a search returns."""
        return bool(self.unmentioned) and set(self.unmentioned) == set(self.subjects)

    @property
    def about_an_event_filing(self) -> bool:
        """A question about what a company's 8-K reports ("the key agenda of Amcor's 8-K dated 1st July
        2022", "summarize Apple's most recent 8-K"), asking no figure."""
        return self.named_kinds == ("8-K",) and not self.quantities

    def phrases_for(self, ticker: str) -> tuple[str, ...]:
        """The search phrases of one company, else the question itself (cut) as the last resort."""
        return tuple(self.keywords.get(ticker, ())) or (self.question[:200],)


_TYPED_READERS: dict[str, Any] = {
    "ask": Ask.from_dict,
    "comparisons": lambda d: Wanted(**{k: bool(v) for k, v in d.items() if k in Wanted.__slots__}),
    "long_history": History.from_dict,
    "screen": ScreenAsk.from_dict,
    # a name no longer in the registry (an older checkpoint's) names no line
    "metrics": lambda names: tuple(REPORTED[n] for n in names if n in REPORTED),
    "time_specs": lambda items: tuple(TimeSpec.from_dict(i) for i in items),
    "dated_documents": lambda items: tuple(DatedDocument.from_dict(i) for i in items),
    "parts": lambda items: tuple(AskedPart.from_dict(i) for i in items),
    "dated_gaps": lambda items: tuple(DatedGap.from_dict(i) for i in items),
}


def _typed(name: str, value: Any) -> Any:
    reader = _TYPED_READERS.get(name)
    if reader is not None:
        return reader(value)
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, Mapping):
        return {k: list(v) if isinstance(v, list | tuple) else v for k, v in value.items()}
    return value


def _plain(name: str, value: Any) -> Any:
    if name in ("time_specs", "dated_documents", "parts", "dated_gaps"):
        return [item.to_dict() for item in value]
    if isinstance(value, Ask | Wanted | History | ScreenAsk):
        return value.to_dict()
    if name == "metrics":
        return [m.name for m in value]
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
    return value
