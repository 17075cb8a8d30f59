"""Structured LLM outputs. List bounds become ``maxItems`` so a small local model stops in time."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, create_model

Source = Literal["10-K", "10-Q", "transcript", "news", "market_data"]
Mode = Literal["direct", "standard", "detailed", "deep"]


class TickerPhrases(BaseModel):
    ticker: str
    phrases: list[str] = Field(default_factory=list, max_length=3)


class QuestionAnalysis(BaseModel):
    """The analyze role's reply: intent, sources, answer mode and keyword search phrases."""

    intent: str = Field(default="", max_length=300)
    sources: list[Source] = Field(default_factory=list, max_length=5)
    answer_mode: Mode = "standard"
    keywords: list[TickerPhrases] = Field(default_factory=list, max_length=8)
    statement: str = Field(default="", max_length=300)  # the answer as a filing would word it


def analysis_schema(tickers: list[str]) -> type[QuestionAnalysis]:
    """QuestionAnalysis whose ticker field only admits the tickers already resolved."""
    if not tickers:
        return QuestionAnalysis
    ticker_type: Any = Literal[tuple(tickers)]
    phrases = create_model(
        "TickerPhrasesFor",
        __base__=TickerPhrases,
        ticker=(ticker_type, ...),
    )
    return create_model(
        "QuestionAnalysisFor",
        __base__=QuestionAnalysis,
        keywords=(list[phrases], Field(default_factory=list, max_length=len(tickers))),  # type: ignore[valid-type]
    )


Unit = Literal[
    "USD millions", "USD billions", "USD thousands", "USD", "percent", "shares", "per share", "ratio", "other"
]


class Fact(BaseModel):
    """One figure read from the evidence, tied to the evidence item it came from."""

    ticker: str
    period: str
    metric: str = Field(max_length=80)
    value: float
    unit: Unit = "other"
    source: str


class Facts(BaseModel):
    facts: list[Fact] = Field(default_factory=list, max_length=24)


def facts_schema(
    tickers: list[str],
    periods: list[str],
    sources: list[str],
    limit: int,
    metrics: list[str] | None = None,
) -> type[Facts]:
    """Facts constrained to known tickers, period labels and evidence ids (the model cannot invent
    them), and to the given line items when a formula needs exactly those."""
    fields: dict[str, Any] = {}
    if metrics:
        fields["metric"] = (Literal[tuple(metrics)], ...)
    if tickers:
        fields["ticker"] = (Literal[tuple(tickers)], ...)
    if periods:
        fields["period"] = (Literal[tuple(periods)], ...)
    if sources:
        fields["source"] = (Literal[tuple(sources)], ...)
    fact = create_model("FactFor", __base__=Fact, **fields)
    return create_model(
        "FactsFor",
        __base__=Facts,
        facts=(list[fact], Field(default_factory=list, max_length=limit)),  # type: ignore[valid-type]
    )


class Evaluation(BaseModel):
    """The evaluate role's reply: 0-100 scores and what to search next."""

    completeness: int = Field(default=0, ge=0, le=100)
    specificity: int = Field(default=0, ge=0, le=100)
    accuracy: int = Field(default=0, ge=0, le=100)
    clarity: int = Field(default=0, ge=0, le=100)
    follow_up_keywords: list[str] = Field(default_factory=list, max_length=3)
    needs_transcript_search: bool = False
    needs_news_search: bool = False
    satisfied: bool = False
