"""A screen: every company of a universe (the whole store, or a list) ranked or filtered by one
metric in each company's own period — "which company had the highest operating margin in its latest
fiscal year", "which companies grew revenue more than 10% in fiscal 2024".

The metrics a screen reads are the registry's reported lines, the computed ones (margins, free cash
flow) and the growth of a money line ("revenue_growth"); ``screen_metric`` names them, and an unknown
name is an error listing the close ones. ``read_screen`` reads the question's words into a
``ScreenAsk`` when they ask about the companies in general rather than named ones.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from finagent.finance.ask.asked_metrics import computed_in, metrics_in
from finagent.finance.computed import COMPUTED
from finagent.finance.lines import REPORTED
from finagent.finance.words import SCALE_EXPONENTS, alternation

GROWTH = "_growth"
ScreenKind = Literal["line", "margin", "diff", "growth"]
_I = re.IGNORECASE


@dataclass(frozen=True, slots=True)
class ScreenMetric:
    """What a screen ranks: a reported line, a line computed from two, or a line's year-over-year growth."""

    name: str
    label: str
    kind: ScreenKind
    inputs: tuple[str, ...]
    """Registry lines looked up (a margin's part and whole; free cash flow's two flows)."""
    percent: bool
    """A percentage (a margin, a growth rate), not an amount."""


def screen_metrics() -> dict[str, ScreenMetric]:
    """Every metric a screen can rank, by name."""
    found = {
        m.name: ScreenMetric(m.name, m.label, "line", (m.name,), False)
        for m in REPORTED.values()
        if m.reported
    }
    for c in COMPUTED.values():
        found[c.name] = ScreenMetric(c.name, c.label, c.helper, c.inputs, c.unit == "percent")
    for m in REPORTED.values():
        if m.reported and m.unit == "money" and not m.instant:
            name = f"{m.name}{GROWTH}"
            found[name] = ScreenMetric(name, f"{m.label} growth", "growth", (m.name,), True)
    return found


class UnknownMetric(ValueError):
    """A screen metric no registry line or computation names."""


def screen_metric(text: str) -> ScreenMetric:
    """The metric named ``text`` ("operating_margin", "operating margin", "revenue growth")."""
    known = screen_metrics()
    key = re.sub(r"[\s-]+", "_", text.strip().lower())
    if key in known:
        return known[key]
    close = difflib.get_close_matches(key, list(known), n=5, cutoff=0.5)
    hint = ", ".join(close) if close else ", ".join(sorted(known)[:8]) + ", ..."
    raise UnknownMetric(f"unknown metric '{text}' (close names: {hint})")


@dataclass(frozen=True, slots=True)
class ScreenAsk:
    """What a screen asks: the metric, a threshold, how many, and which end first."""

    metric: str
    minimum: str | None = None
    """Keep companies above this (exact decimal text: percent for a percentage, else units)."""
    maximum: str | None = None
    top: int | None = None
    highest_first: bool = True
    sector: str = ""
    """An industry the question limits the companies to ("technology companies"): the store holds
    no industry of its companies, so the answer says every company was screened."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScreenAsk:
        return cls(**{k: v for k, v in data.items() if k in cls.__slots__})

    @property
    def lower(self) -> Decimal | None:
        return Decimal(self.minimum) if self.minimum is not None else None

    @property
    def upper(self) -> Decimal | None:
        return Decimal(self.maximum) if self.maximum is not None else None


_UNIVERSE = re.compile(
    r"\b(?:which|what)\s+(?:(?:one|ones)\s+of\s+the\s+)?(?:compan(?:y|ies)|firms?|businesses|issuers?|filers?)\b"
    r"|\b(?:every|each|all(?:\s+(?:of\s+)?the)?|any)\s+(?:stored\s+)?(?:compan(?:y|ies)|firms?|issuers?|filers?)\b"
    r"|\bacross\s+(?:the\s+)?(?:store|companies|(?:all\s+)?(?:the\s+)?companies)\b"
    r"|\b(?:compan(?:y|ies)|firms?)\s+(?:in|of)\s+the\s+(?:store|database|data\s*set)\b"
    r"|\bin\s+the\s+store\b"
    r"|\bamong\s+(?:all\s+)?(?:the\s+)?(?:stored\s+)?(?:companies|firms)\b"
    r"|\b(?:rank|sort|order|list|screen)\s+(?:all\s+)?(?:the\s+)?(?:stored\s+)?(?:companies|firms)\b",
    _I,
)
_SECTOR = re.compile(
    r"\b(?P<sector>tech(?:nology)?|software|semiconductor|chip|bank(?:ing)?|financial|insurance|energy|oil"
    r"|retail|consumer|industrial|health[- ]?care|pharmaceutical|pharma|biotech|utility|telecom|media"
    r"|airline|railroad|automotive|real\s+estate|mining|defen[cs]e)s?\s+(?:compan(?:y|ies)|firms?|stocks?"
    r"|names|sector|industry|businesses)\b"
    r"|\bin\s+the\s+(?P<named>[a-z]+(?:\s+[a-z]+)?)\s+(?:sector|industry)\b",
    _I,
)
_GROWTH_WORDS = re.compile(r"\bgr[eo]w(?:th|n|s|ing)?\b|\bincreas\w*\b|\brevenue\s+growth\b", _I)
_NUMBER = r"(?P<num>-?\d[\d,]*(?:\.\d+)?)"
_SCALE = rf"(?:\s*(?P<scale>{alternation(SCALE_EXPONENTS)}))?"
_AMOUNT = rf"(?P<dollar>\$\s?)?{_NUMBER}\s*(?P<percent>%|percent\b|per\s*cent\b)?{_SCALE}(?!\w)"
_ABOVE = re.compile(
    rf"\b(?:more\s+than|over|above|at\s+least|greater\s+than|exceed(?:ed|ing|s)?|higher\s+than|beyond)\s+(?:by\s+)?{_AMOUNT}",
    _I,
)
_BELOW = re.compile(
    rf"\b(?:less\s+than|under|below|at\s+most|lower\s+than|no\s+more\s+than|smaller\s+than)\s+(?:by\s+)?{_AMOUNT}",
    _I,
)
_NUMBER_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())}
_TOP = re.compile(
    rf"\b(?:top|first|best|bottom)\s+(?P<n>\d+|{'|'.join(_NUMBER_WORDS)})\b"
    rf"|\b(?P<m>\d+|{'|'.join(_NUMBER_WORDS)})\s+(?:(?:companies|firms)\b|(?:highest|largest|biggest|lowest|smallest|most|least)\b)",
    _I,
)
_LOWEST = re.compile(r"\b(?:lowest|smallest|least|bottom|weakest|worst|slowest|ascending)\b", _I)


def asks_universe(text: str) -> bool:
    """The words ask about the companies in general ("which company", "every company in the store")."""
    return bool(_UNIVERSE.search(text))


def _amount(match: re.Match[str], percent: bool) -> str | None:
    """The threshold's exact decimal text: percent points for a percentage, else units (scaled)."""
    try:
        value = Decimal(match.group("num").replace(",", ""))
    except InvalidOperation:
        return None
    scale = (match.group("scale") or "").lower()
    if not percent and scale:
        value = value.scaleb(SCALE_EXPONENTS.get(scale, 0))
    return format(value.normalize(), "f")


def read_screen(text: str) -> ScreenAsk | None:
    """The screen a question asks for, or None when it asks about no metric of the companies in general.

    The metric is the first computed one named (a margin), else a named line's growth when growth
    words precede the threshold or the ranking ("grew revenue more than 10%"), else the first line."""
    if not asks_universe(text):
        return None
    computed = computed_in(text)
    lines = [m for m in metrics_in(text) if REPORTED[m].reported]
    if computed:
        metric = computed[0]
    elif lines:
        line = lines[0]
        growable = REPORTED[line].unit == "money" and not REPORTED[line].instant
        metric = f"{line}{GROWTH}" if growable and _GROWTH_WORDS.search(text) else line
    else:
        return None
    chosen = screen_metrics()[metric]
    above, below = _ABOVE.search(text), _BELOW.search(text)
    top = _TOP.search(text)
    count = (top.group("n") or top.group("m")).lower() if top else None
    sector = _SECTOR.search(text)
    return ScreenAsk(
        sector=(sector.group("sector") or sector.group("named")).lower() if sector else "",
        metric=metric,
        minimum=_amount(above, chosen.percent) if above else None,
        maximum=_amount(below, chosen.percent) if below else None,
        top=(int(count) if count.isdigit() else _NUMBER_WORDS[count]) if count else None,
        highest_first=not _LOWEST.search(text),
    )


def parse_threshold(text: str, percent: bool) -> str:
    """A --min/--max value ("10%", "10", "$5 billion", "5B") as exact decimal text; an error otherwise."""
    match = re.fullmatch(rf"\s*{_AMOUNT}\s*", text, _I)
    amount = _amount(match, percent) if match else None
    if amount is None:
        raise ValueError(f"cannot read the threshold {text!r} (try 10%, 0.5, $5 billion, 5B)")
    return amount
