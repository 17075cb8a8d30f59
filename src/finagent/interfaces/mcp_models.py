"""The MCP tools' result models (JSON schemas other agents read)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

SNIPPET_CHARS = 1200


class Citation(BaseModel):
    """Where a figure in the answer comes from."""

    label: str = Field(description="The marker used in the answer text, e.g. 10Q1 for [10Q1].")
    ticker: str | None = None
    kind: str = Field(description="10-K, 10-Q, 8-K, earnings_release, transcript, news or market.")
    fiscal_period: str | None = Field(default=None, description='e.g. "Q3 FY2023" or "FY2022".')
    section: str | None = None
    page: int | None = None
    source: str | None = Field(default=None, description="The stored document's file or URL.")
    chunk_id: int | None = Field(
        default=None, description="Stored chunk id (search_filings returns them too)."
    )


class AskResult(BaseModel):
    answer: str = Field(description="The answer; [labels] refer to citations.")
    citations: list[Citation]
    confidence: float = Field(description="0-1, from the evaluator and the coverage of the asked periods.")
    iterations: int
    periods_covered: list[str]
    warnings: list[str] = Field(description="What is missing or uncertain (missing periods, offline data…).")
    figures_check: str | None = Field(
        default=None, description="verified | needs review | unsupported figures (numeric verification)."
    )
    numbers_verified: int | None = None
    numbers_total: int | None = None
    unverified_figures: list[str] = Field(default_factory=list)
    run_id: str | None = Field(default=None, description="Audit trail id (`finagent runs show RUN_ID`).")
    seconds: float


class FilingHit(BaseModel):
    rank: int
    chunk_id: int
    score: float = Field(description="Fused hybrid score (vector + keyword).")
    vector_score: float | None
    keyword_score: float | None
    ticker: str | None
    kind: str
    fiscal_period: str | None
    period_end: str | None
    section: str | None
    page: int | None
    source: str
    citation: str = Field(description='Human-readable location, e.g. "AAPL 10-Q Q3 FY2023, item_1, p.4".')
    text: str = Field(description=f"The passage (first {SNIPPET_CHARS} characters).")


class SearchResult(BaseModel):
    query: str
    hits: list[FilingHit]


class CompanyEntry(BaseModel):
    ticker: str
    name: str | None
    fiscal_year_end_month: int | None
    documents: int
    chunks: int
    kinds: list[str]
    first_fiscal_year: int | None
    last_fiscal_year: int | None
    last_period_end: str | None


class CompaniesResult(BaseModel):
    companies: list[CompanyEntry]


class PeriodEntry(BaseModel):
    period: str
    fiscal_year: int | None
    fiscal_quarter: int | None
    kind: str
    period_end: str | None
    documents: int
    chunks: int
    sources: list[str]


class FactPeriodEntry(BaseModel):
    period: str = Field(description='e.g. "Q3 FY2023", "9M FY2023", "FY2024", "FY2024 end" (a balance).')
    duration: str
    period_end: str | None
    reported: int = Field(description="Facts reported by filings for this period (consolidated).")
    derived: int = Field(description="Facts derived from others (e.g. Q4 = fiscal year - nine months).")
    concepts: int


class CoverageResult(BaseModel):
    ticker: str
    name: str | None
    fiscal_year_end_month: int | None
    periods: list[PeriodEntry]
    facts: list[FactPeriodEntry] = Field(
        default_factory=list, description="XBRL facts held per fiscal period."
    )


class FactEntry(BaseModel):
    """One company's reported metric for one fiscal period, exact, with where it is printed."""

    ticker: str
    metric: str = Field(description="Metric name, e.g. revenue or net_income.")
    metric_label: str
    period: str = Field(
        description='Fiscal period in the company\'s own calendar, e.g. "Q3 FY2023", "FY2024".'
    )
    fiscal_year: int
    fiscal_quarter: int | None
    period_start: str | None
    period_end: str | None
    value: str | None = Field(description="Exact value in base units (dollars, dollars per share, shares).")
    unit: str | None = Field(description="USD, USD/shares, shares ...")
    source: str = Field(description="xbrl (a reported fact), derived (e.g. Q4 = FY - nine months) or none.")
    concept: str | None = Field(description="The XBRL concept, e.g. us-gaap:Revenues.")
    form: str | None
    filing: str | None = Field(description="ticker|form|filing period end of the report.")
    source_uri: str | None
    chunk_id: int | None = Field(description="The stored chunk that prints the number (cite it).")
    page: int | None
    derivation: str | None
    yoy_pct: float | None = Field(
        description="Change from the same fiscal period a year earlier, in percent."
    )
    yoy_from: str | None
    yoy_expression: str | None = Field(description="The calculator expression of the YoY change.")
    restated: list[dict[str, str]] = Field(description="Other values other filings reported for it.")
    note: str
    part: str = Field(default="", description='The part of a row by part ("iPhone"); "" for the total.')
    member: str = Field(default="", description='Its XBRL axis member ("aapl:IPhoneMember").')


class FactsResult(BaseModel):
    rows: list[FactEntry]
    periods: dict[str, list[str]] = Field(description="The fiscal periods resolved per company.")
    warnings: list[str]
    sums: list[str] = Field(
        default_factory=list, description="By part: whether the parts add up to the total."
    )


class MarketDataResult(BaseModel):
    ticker: str | None
    tool: str
    ok: bool = Field(description="False when no data could be produced; see warning.")
    summary: str = Field(description="One quotable line with the provenance.")
    data: dict[str, Any]
    source: str
    offline: bool = Field(description="True when the figures are recorded, not live.")
    as_of: str | None
    warning: str | None


class ScreenRow(BaseModel):
    """One company's value of the screened metric in its own fiscal period."""

    rank: int | None = Field(description="Its place in the ranking (None: another currency, not ranked).")
    ticker: str
    period: str = Field(description='Its own fiscal period, e.g. "FY2024".')
    period_end: str | None
    value: str = Field(description="Exact value: percent for a margin or growth, else base units.")
    unit: str = Field(description="percent, USD, EUR, USD/shares ...")
    expression: str = Field(description="The calculator expression of a computed value.")
    kept: bool = Field(description="Past the threshold and within the top N.")
    filings: list[str]


class ScreenLacking(BaseModel):
    ticker: str
    period: str | None
    reason: str


class ScreenResult(BaseModel):
    metric: str
    answer: str = Field(description="The computed answer: its sentence and the cited table (Markdown).")
    rows: list[ScreenRow]
    other_currency: list[ScreenRow]
    lacking: list[ScreenLacking] = Field(description="Companies without the figure, with why.")
    universe: list[str]
    warnings: list[str]
