"""Run configuration (LangGraph ``context_schema``): providers, answer mode, limits, weights."""

from __future__ import annotations

from dataclasses import dataclass, field

from finagent.settings import Settings

ANSWER_MODES = ("direct", "standard", "detailed", "deep")

DEFAULT_THRESHOLDS = {"direct": 0.70, "standard": 0.80, "detailed": 0.90, "deep": 0.95}
DEFAULT_MAX_ITERATIONS = {"direct": 2, "standard": 3, "detailed": 4, "deep": 10}


@dataclass(frozen=True, kw_only=True)
class Ablations:
    """The answer's levers, all on: the benchmarks and the evaluation harness turn each off for their
    ablation tables (``finagent eval retrieval --system finagent/no-routing``); users never need to."""

    use_calculator: bool = True
    """False is an ablation switch: the model computes ratios and changes itself and its numbers are
    not checked against calculator results (benchmarks report accuracy with and without)."""
    use_vocabulary: bool = True
    """Statement wording for metrics ("capex" -> "purchases of property and equipment")."""
    lean_to_answer: bool = True
    """Lean a narrative search's meaning vector towards the analysis's answer-shaped sentence."""
    route_statements: bool = True
    """Search the statements a metric lives in (always candidates, lifted)."""
    lift_statements: bool = True
    """Lift primary-statement chunks holding every query term."""
    narrow_kinds: bool = True
    """A period's own report (a fiscal year is its 10-K; "the latest 10-Q" is not a newer call)."""
    filter_periods: bool = True
    """Filter sub-searches on the resolved fiscal periods (off: the company's whole history)."""
    cover_missing_periods: bool = True
    """A quarter with no report of its own is searched in the annual report that covers it (off: the
    sub-search returns nothing)."""
    search_event_days: bool = True
    """A day the question dates a filing by ("the 8-K dated 1st July 2022") also searches the 8-Ks and
    releases of that week (off: only the fiscal quarter around the day)."""
    resolve_dated_documents: bool = True
    """A document the question names by its day ("the 8-K dated December 2, 2024") is the stored
    document of that day, searched alone (off: the fiscal quarter around the day)."""
    search_event_words: bool = True
    """A question about a corporate event (a new CEO, a resignation, an acquisition) also searches the
    company's 8-Ks, where such events are reported (off: only the periodic reports)."""
    search_guidance_year: bool = True
    """A question about what a year is expected to bring also searches the previous year's fourth-quarter
    release and call, where the year's guidance is first given (off: only the year's own reports)."""
    periods_without_company: bool = True
    """A question naming periods but no company searches those periods across all companies (off: the
    whole store, any period)."""
    subject_from_search: bool = True
    """A figure question naming no company is asked again about the company whose filings matched it
    best, so code reads its figures for that company's periods (off: the model writes from the
    cross-company passages)."""
    rank_undated_years: bool = True
    """"this 10-K" with no year searches every stored year of that report, ranked by content (off: the
    newest year)."""
    annual_topics_undated: bool = True
    """A question about what the annual report sets out (the business, risk factors, legal
    proceedings) that names no period searches every stored annual report, ranked by content (off:
    the newest report of any kind)."""
    subjects_undated: bool = True
    """A question asking in words about something it names beyond its companies (a person, a product,
    a case: "who is replacing Luca Maestri") that names no period searches every stored period of
    every kind, ranked by content: where the name is written dates it (off: the newest period)."""
    unroute_forecasts: bool = True
    """A question about what is expected (guidance, a forecast) is not routed to or lifted toward the
    statements, which report results, never forecasts (off: routed like a figure question)."""
    route_sections: bool = True
    """A question about a report topic (the business, legal proceedings, the cover page, liquidity, a
    segment or region, the note of an item) also searches the sections that discuss it (off: only
    the whole reports, ranked by their words)."""
    quota_per_period: bool = True
    """Evidence read in rounds over (ticker, period): each period's best passage before any second
    best (off: one global ranking, where a high-scoring quarter can crowd out the rest)."""
    read_neighbors: bool = True
    """A question answered in quotes also reads the passages right before and after its best hits
    (off: only the hits)."""
    quotes_analysed_by_code: bool = True
    """A question the passages' own sentences answer (``answer.extractive``) is analysed by code alone:
    its search phrases are its own words, and the one model call is the opening's (off: the model's
    analysis call adds its phrases and an answer-shaped sentence to lean the search towards)."""
    rerank: bool = True
    """Rerank each sub-search's hits (line-item match; a cross-encoder when one is configured)."""


@dataclass(kw_only=True)
class Context:
    """Per-run settings; every field has a default so Studio and the CLI may leave them out."""

    provider: str | None = None
    """auto | openai | cerebras | local (default: FINAGENT_LLM_PROVIDER); the rest of the auto chain
    are fallbacks."""
    analyze_model: str | None = None
    generate_model: str | None = None
    evaluate_model: str | None = None
    answer_mode: str | None = None
    """Overrides the mode the analysis picks (direct / standard / detailed / deep)."""
    hits_per_search: int = 15
    """Hits kept per sub-search (one ticker × period × phrase, quarterly or annual)."""
    max_quarters: int = 12
    max_history_periods: int = 80
    """Periods of a long-history question ("since 2010", "ever"): read from facts in one lookup."""
    max_tickers: int = 8
    max_question_chars: int = 4000
    vector_weight: float | None = None
    """Weight of the vector leg in fusion; None = FINAGENT_VECTOR_WEIGHT (default 0.7)."""
    keyword_weight: float | None = None
    """Weight of the full-text leg in fusion; None = FINAGENT_KEYWORD_WEIGHT (default 0.3)."""
    thresholds: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_THRESHOLDS))
    max_iterations: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_MAX_ITERATIONS))
    max_follow_up_searches: int = 48
    evidence_per_period: int = 3
    """Chunks per (ticker, period) shown to the model; small models read ~100 tokens/s."""
    evidence_chars: int = 900
    """Characters kept of each evidence chunk (table rows matching the question are kept first)."""
    evidence_budget_chars: int = 6000
    """Evidence characters per model call, shared by all (ticker, period) groups."""
    max_evidence_items: int = 24
    use_tools: bool = True
    use_facts: bool | None = None
    """Answer figure questions from XBRL facts and period-true tables (False: the model reads figures
    from the retrieved text); None = FINAGENT_USE_FACTS (default on)."""
    record_runs: bool = True
    """Persist each run (question, searches, prompts, replies, answer, citations) in the store's
    `runs` tables, for `finagent runs show`."""
    ablations: Ablations = field(default_factory=Ablations)
    """Levers the benchmarks and the evaluation harness turn off one at a time; all on for users."""
    narrative_answers: str = "extractive"  # one of NARRATIVE_ANSWERS
    """extractive: a question answered in words gets the passages' sentences that answer, chosen by
    code and quoted, under an opening the model writes from them (one short call); written: the model
    writes the answer from the passages, each sentence held to its passage; quoted: the quotes alone,
    with no model call. Where no sentence answers, the model writes."""
    today: str | None = None
    """ISO date treated as today (tests and reproducible runs); default: the real date."""

    def __post_init__(self) -> None:
        if isinstance(self.ablations, dict):  # a run's context from JSON (Studio, the LangGraph API)
            self.ablations = Ablations(**self.ablations)

    def fusion_weights(self, settings: Settings) -> tuple[float, float]:
        """(vector, keyword) weights: this run's when given, else the environment's."""
        vector = settings.vector_weight if self.vector_weight is None else self.vector_weight
        keyword = settings.keyword_weight if self.keyword_weight is None else self.keyword_weight
        return vector, keyword

    def threshold(self, mode: str) -> float:
        return float(self.thresholds.get(mode, DEFAULT_THRESHOLDS["standard"]))

    def iteration_limit(self, mode: str) -> int:
        return int(self.max_iterations.get(mode, DEFAULT_MAX_ITERATIONS["standard"]))
