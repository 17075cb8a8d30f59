"""A looked-up figure as a typed record: the value of (company, metric, period) with where it is
printed, or the gap of a target no fact states, with the reason.

The facts lookup (``agent.answer.figures``) builds these from the store's XBRL facts. The graph
state carries them in their JSON form (``to_dict``: strings, numbers, lists and dicts only), so the
Postgres checkpointer and LangGraph Studio store and show them without custom serialisers; every
reader after the lookup reads them back typed (``record_from_dict``), never by key. Pure data: no I/O.

A record's fields are declared in the order of its JSON keys (the order the lookup has always
written them); a record's place (``Provenance``) stands flat among its keys.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import date
from decimal import Decimal
from typing import Any, Literal, Self, cast

from finagent.finance.periods.period import FiscalPeriod, InPeriod

Role = Literal["target", "comparative", "input"]
"""Why a figure was looked up: an asked period, a period a comparison needs, or a year a Q4 gap may
be completed from (the year − the Q3 10-Q's nine months)."""
Source = Literal["xbrl", "derived"]
"""A fact as a filing tags it, or a quarter derived from facts (Q4 = FY − nine months)."""


class _Json:
    """A record's JSON form and its reading back: a Decimal as its exact text, a date in ISO form,
    records as their own forms; a place's keys flat among the record's, and a fiscal period as its
    label with its year and quarter beside it."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in fields(cast(Any, self)):
            value = getattr(self, f.name)
            if isinstance(value, Provenance):
                data |= value.to_dict()
            elif isinstance(value, FiscalPeriod):
                data |= _period_keys(f.name, value)
            else:
                data[_KEYS.get(f.name, f.name)] = _plain(value)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read the JSON form back; a key it lacks leaves the field's default."""
        values: dict[str, Any] = {}
        for f in fields(cast(Any, cls)):
            key = _KEYS.get(f.name, f.name)
            if f.name == "provenance":
                values[f.name] = Provenance.from_dict(data)
            elif f.type in ("FiscalPeriod", FiscalPeriod):
                values[f.name] = FiscalPeriod.parse(data[key])
            elif key in data:
                read = _READERS.get(f.name)
                values[f.name] = read(data[key]) if read is not None and data[key] is not None else data[key]
        return cls(**values)


def _period_keys(name: str, period: FiscalPeriod) -> dict[str, Any]:
    """A period's label, with its fiscal year and quarter after it (keys readers of the state use)."""
    return {name: period.label, "fiscal_year": period.fiscal_year, "fiscal_quarter": period.quarter}


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return [item.to_dict() for item in value]
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance(_Json):
    """Where a stored fact is printed: the chunk, its document and the filing ("AAPL|10-K|2024-09-28")."""

    chunk_id: int | None = None
    document_id: int | None = None
    filing: str = ""
    form: str | None = None
    source_uri: str | None = None
    title: str | None = None
    page: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CitedFact(_Json):
    """A stored fact a figure rests on (an input of a derived quarter), cited where it is printed:
    its exact value and its own period ("9M FY2023")."""

    fact_id: int
    value: Decimal
    period: str
    duration: str
    period_end: date
    display: str | None
    provenance: Provenance


@dataclass(frozen=True, slots=True, kw_only=True)
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
        cited: dict[str, Any] = {f.name: getattr(fact, f.name) for f in fields(CitedFact)}
        return cls(
            **cited,
            ticker=ticker,
            label=label,
            period_start=period_start,
            concept=concept,
            unit=unit,
            decimals=decimals,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Restatement(_Json):
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Figure(InPeriod, _Json):
    """The value of (company, metric, period) from one XBRL fact: exact, with its period's dates, its
    unit and precision, the fact and filing it comes from and, for a derived quarter, its inputs."""

    ticker: str
    metric: str
    metric_label: str
    period: FiscalPeriod
    """The period asked for (Q4 FY2023), which the fact states."""
    duration: str
    period_start: date | None = None
    period_end: date
    value: Decimal
    unit: str | None
    decimals: int | None = None
    display: str | None = None
    """The value as the filing prints it, when known ("1,010")."""
    concept: str
    fact_id: int
    source: Source
    derivation: str | None = None
    inputs: tuple[CitedFact, ...] = ()
    provenance: Provenance = Provenance()
    role: Role
    restated: tuple[Restatement, ...] = ()
    line: str = ""
    """The statement line read, named when another candidate concept states another value."""

    @property
    def derived(self) -> bool:
        return self.source == "derived"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; the line read only when it is named."""
        data = _Json.to_dict(self)
        if not self.line:
            del data["line"]
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class Gap(InPeriod, _Json):
    """A target (company, metric, period) no fact states, with the reason; a period the filings
    report only in parts carries the parts (``complete``: together they cover the whole period).

    The lookup's gap names the metric's label; the answer's gap (one per asked target, ``gaps_of``)
    carries the target period's end, by which a statement table's column is read instead."""

    ticker: str
    metric: str
    metric_label: str = ""
    period: FiscalPeriod
    period_end: date | None = None
    reason: str
    parts: tuple[Part, ...] = ()
    complete: bool = False

    @property
    def role(self) -> Role:
        return "target"  # a comparative no fact states is no gap: it is simply not compared

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: no value (said before the reason), a period's end only when known, and the
        parts only for a split period."""
        data = _Json.to_dict(self)
        if self.period_end is None:
            del data["period_end"]
        if not self.parts:
            del data["parts"], data["complete"]
        items = list(data.items())
        at = list(data).index("reason")
        no_value = {"value": None, "role": self.role, "source": "none"}
        return dict([*items[:at], *no_value.items(), *items[at:]])


FigureRecord = Figure | Gap
"""What the lookup returns for a (company, metric, period): the figure, or the gap with its reason."""

_KEYS = {"label": "part", "original_chunk_id": "chunk_id", "original_document_id": "document_id"}
"""Fields whose JSON key is another word (a part's label is its "part")."""

_READERS: dict[str, Callable[[Any], Any]] = {
    "value": Decimal,
    "original": Decimal,
    "latest": Decimal,
    "period_start": date.fromisoformat,
    "period_end": date.fromisoformat,
    "inputs": lambda items: tuple(CitedFact.from_dict(i) for i in items),
    "restated": lambda items: tuple(Restatement.from_dict(r) for r in items),
    "parts": lambda items: tuple(Part.from_dict(p) for p in items),
}
"""How a field is read back from its JSON form, by its name (the rest are JSON already)."""


def record_from_dict(data: Mapping[str, Any]) -> FigureRecord:
    """A record read back from the graph state's JSON: a gap has no value."""
    return Gap.from_dict(data) if data.get("value") is None else Figure.from_dict(data)
