"""A looked-up figure as a typed record: the value of (company, metric, period) with where it is
printed, or the gap of a target no fact states, with the reason.

The facts lookup (``agent.answer.figures``) builds these from the store's XBRL facts. The graph
state carries them in their JSON form (``to_dict``: strings, numbers, lists and dicts only), so the
Postgres checkpointer and LangGraph Studio store and show them without custom serialisers; every
reader after the lookup reads them back typed (``record_from_dict``), never by key. Pure data: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import date
from decimal import Decimal
from typing import Any, Literal, cast

Role = Literal["target", "comparative", "input"]
"""Why a figure was looked up: an asked period, a period a comparison needs, or a year a Q4 gap may
be completed from (the year − the Q3 10-Q's nine months)."""
Source = Literal["xbrl", "derived"]
"""A fact as a filing tags it, or a quarter derived from facts (Q4 = FY − nine months)."""


def _day(text: Any) -> date | None:
    return date.fromisoformat(str(text)) if text else None


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a stored fact is printed: the chunk, its document and the filing ("AAPL|10-K|2024-09-28")."""

    chunk_id: int | None = None
    document_id: int | None = None
    filing: str = ""
    form: str | None = None
    source_uri: str | None = None
    title: str | None = None
    page: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "chunk_id": self.chunk_id,
            "document_id": self.document_id,
            "filing": self.filing,
            "form": self.form,
            "source_uri": self.source_uri,
            "title": self.title,
            "page": self.page,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Provenance:
        return cls(
            chunk_id=data.get("chunk_id"),
            document_id=data.get("document_id"),
            filing=str(data.get("filing") or ""),
            form=data.get("form"),
            source_uri=data.get("source_uri"),
            title=data.get("title"),
            page=data.get("page"),
        )


@dataclass(frozen=True, slots=True)
class CitedFact:
    """A stored fact a figure rests on (an input of a derived quarter), cited where it is printed:
    its exact value and its own period ("9M FY2023")."""

    fact_id: int
    value: Decimal
    period: str
    duration: str
    period_end: date
    display: str | None
    provenance: Provenance

    def to_dict(self) -> dict[str, Any]:
        return {
            "fact_id": self.fact_id,
            "value": str(self.value),
            "period": self.period,
            "duration": self.duration,
            "period_end": self.period_end.isoformat(),
            "display": self.display,
            **self.provenance.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CitedFact:
        return cls(**_cited_fields(data))


def _cited_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "fact_id": data["fact_id"],
        "value": Decimal(data["value"]),
        "period": data["period"],
        "duration": data["duration"],
        "period_end": date.fromisoformat(data["period_end"]),
        "display": data.get("display"),
        "provenance": Provenance.from_dict(data),
    }


@dataclass(frozen=True, slots=True)
class Part(CitedFact):
    """One reported part of a period the filings report only in parts (a stub before and after an
    emergence): labelled ("predecessor Jul 1–Jul 21, 2010"), never the whole period's value."""

    ticker: str
    label: str
    period_start: date | None
    concept: str
    unit: str | None
    decimals: int | None

    @classmethod
    def of(
        cls,
        fact: CitedFact,
        *,
        ticker: str,
        label: str,
        period_start: date | None,
        concept: str,
        unit: str | None,
        decimals: int | None,
    ) -> Part:
        """``fact`` as the part labelled ``label`` of a split period."""
        cited = {f.name: getattr(fact, f.name) for f in fields(CitedFact)}
        return cls(
            **cited,
            ticker=ticker,
            label=label,
            period_start=period_start,
            concept=concept,
            unit=unit,
            decimals=decimals,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            **CitedFact.to_dict(self),
            "ticker": self.ticker,
            "part": self.label,
            "period_start": _iso(self.period_start),
            "concept": self.concept,
            "unit": self.unit,
            "decimals": self.decimals,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Part:
        return cls(
            **_cited_fields(data),
            ticker=data["ticker"],
            label=data["part"],
            period_start=_day(data.get("period_start")),
            concept=data.get("concept") or "",
            unit=data.get("unit"),
            decimals=data.get("decimals"),
        )


@dataclass(frozen=True, slots=True)
class Restatement:
    """A figure's value as the earliest filing reported it and as the latest does (beyond rounding),
    each with where it is printed."""

    original: Decimal
    original_filing: str
    latest: Decimal
    latest_filing: str
    original_chunk_id: int | None = None
    original_document_id: int | None = None
    latest_chunk_id: int | None = None
    latest_document_id: int | None = None

    @property
    def original_place(self) -> Provenance:
        """Where the original value is printed: its chunk, else its filing (whose form the key names)."""
        return Provenance(
            chunk_id=self.original_chunk_id,
            document_id=self.original_document_id,
            filing=self.original_filing,
            form=(self.original_filing or "||").split("|")[1],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "original": str(self.original),
            "original_filing": self.original_filing,
            "latest": str(self.latest),
            "latest_filing": self.latest_filing,
            "chunk_id": self.original_chunk_id,
            "document_id": self.original_document_id,
            "latest_chunk_id": self.latest_chunk_id,
            "latest_document_id": self.latest_document_id,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Restatement:
        return cls(
            original=Decimal(data["original"]),
            original_filing=data["original_filing"],
            latest=Decimal(data["latest"]),
            latest_filing=data["latest_filing"],
            original_chunk_id=data.get("chunk_id"),
            original_document_id=data.get("document_id"),
            latest_chunk_id=data.get("latest_chunk_id"),
            latest_document_id=data.get("latest_document_id"),
        )


@dataclass(frozen=True, slots=True)
class Figure:
    """The value of (company, metric, period) from one XBRL fact: exact, with its period's dates, its
    unit and precision, the fact and filing it comes from and, for a derived quarter, its inputs."""

    ticker: str
    metric: str
    metric_label: str
    period: str
    """The period asked for ("Q4 FY2023"), which the fact states."""
    fiscal_year: int
    fiscal_quarter: int | None
    duration: str
    period_end: date
    value: Decimal
    unit: str | None
    concept: str
    fact_id: int
    source: Source
    role: Role
    period_start: date | None = None
    decimals: int | None = None
    display: str | None = None
    """The value as the filing prints it, when known ("1,010")."""
    derivation: str | None = None
    inputs: tuple[CitedFact, ...] = ()
    provenance: Provenance = Provenance()
    restated: tuple[Restatement, ...] = ()

    @property
    def derived(self) -> bool:
        return self.source == "derived"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form the graph state carries (the keys in the order the lookup always wrote them)."""
        return {
            "ticker": self.ticker,
            "metric": self.metric,
            "metric_label": self.metric_label,
            "period": self.period,
            "fiscal_year": self.fiscal_year,
            "fiscal_quarter": self.fiscal_quarter,
            "duration": self.duration,
            "period_start": _iso(self.period_start),
            "period_end": self.period_end.isoformat(),
            "value": str(self.value),
            "unit": self.unit,
            "decimals": self.decimals,
            "display": self.display,
            "concept": self.concept,
            "fact_id": self.fact_id,
            "source": self.source,
            "derivation": self.derivation,
            "inputs": [i.to_dict() for i in self.inputs],
            **self.provenance.to_dict(),
            "role": self.role,
            "restated": [r.to_dict() for r in self.restated],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Figure:
        return cls(
            ticker=data["ticker"],
            metric=data["metric"],
            metric_label=data.get("metric_label") or "",
            period=data["period"],
            fiscal_year=int(data["fiscal_year"]),
            fiscal_quarter=data.get("fiscal_quarter"),
            duration=data.get("duration") or "",
            period_end=date.fromisoformat(data["period_end"]),
            value=Decimal(data["value"]),
            unit=data.get("unit"),
            concept=data.get("concept") or "",
            fact_id=data["fact_id"],
            source=cast(Source, data.get("source") or "xbrl"),
            role=cast(Role, data.get("role") or "target"),
            period_start=_day(data.get("period_start")),
            decimals=data.get("decimals"),
            display=data.get("display"),
            derivation=data.get("derivation"),
            inputs=tuple(CitedFact.from_dict(i) for i in data.get("inputs") or ()),
            provenance=Provenance.from_dict(data),
            restated=tuple(Restatement.from_dict(r) for r in data.get("restated") or ()),
        )


@dataclass(frozen=True, slots=True)
class Gap:
    """A target (company, metric, period) no fact states, with the reason; a period the filings
    report only in parts carries the parts (``complete``: together they cover the whole period).

    The lookup's gap names the metric's label; the answer's gap (one per asked target, ``gaps_of``)
    carries the target period's end, by which a statement table's column is read instead."""

    ticker: str
    metric: str
    period: str
    fiscal_year: int
    fiscal_quarter: int | None
    reason: str
    metric_label: str = ""
    parts: tuple[Part, ...] = ()
    complete: bool = False
    period_end: date | None = None

    @property
    def role(self) -> Role:
        return "target"  # a comparative no fact states is no gap: it is simply not compared

    def to_dict(self) -> dict[str, Any]:
        """The JSON form the graph state carries: no value, and the parts only for a split period."""
        data: dict[str, Any] = {
            "ticker": self.ticker,
            "metric": self.metric,
            "metric_label": self.metric_label,
            "period": self.period,
            "fiscal_year": self.fiscal_year,
            "fiscal_quarter": self.fiscal_quarter,
        }
        if self.period_end is not None:
            data["period_end"] = self.period_end.isoformat()
        data |= {"value": None, "role": self.role, "source": "none", "reason": self.reason}
        if self.parts:
            data |= {"parts": [p.to_dict() for p in self.parts], "complete": self.complete}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Gap:
        return cls(
            ticker=data["ticker"],
            metric=data["metric"],
            period=data["period"],
            fiscal_year=int(data["fiscal_year"]),
            fiscal_quarter=data.get("fiscal_quarter"),
            reason=data.get("reason") or "",
            metric_label=data.get("metric_label") or "",
            parts=tuple(Part.from_dict(p) for p in data.get("parts") or ()),
            complete=bool(data.get("complete")),
            period_end=_day(data.get("period_end")),
        )


FigureRecord = Figure | Gap
"""What the lookup returns for a (company, metric, period): the figure, or the gap with its reason."""


def record_from_dict(data: Mapping[str, Any]) -> FigureRecord:
    """A record read back from the graph state's JSON: a gap has no value."""
    return Gap.from_dict(data) if data.get("value") is None else Figure.from_dict(data)
