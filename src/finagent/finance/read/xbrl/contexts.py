"""TODO docstring."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from lxml import etree

from finagent.finance.read.xbrl.xml import element_text, norm_space, xml_attr, xml_date, xml_local


@dataclass(frozen=True, slots=True)
class _Context:
    entity: str | None
    start: date | None
    end: date | None  # None: "forever" or unparseable
    dimensions: tuple[tuple[str, str], ...]

    def fact_extra(self, ordinal: int, ident: str) -> dict[str, str]:
        """A fact's provenance beside its value: document order, element id, reporting entity."""
        extra = {"ordinal": str(ordinal)}
        if ident:
            extra["id"] = ident
        if self.entity:
            extra["entity"] = self.entity
        return extra


def _context(el: etree._Element) -> _Context:
    entity = None
    start = end = instant = None
    dims: dict[str, str] = {}
    for node in el.iter():
        name = xml_local(node.tag)
        if name == "identifier":
            entity = norm_space(node.text or "") or None
        elif name == "startdate":
            start = xml_date(node.text or "")
        elif name == "enddate":
            end = xml_date(node.text or "")
        elif name == "instant":
            instant = xml_date(node.text or "")
        elif name == "explicitmember":
            axis = xml_attr(node, "dimension")
            if axis:
                dims[axis.strip()] = norm_space(node.text or "")
        elif name == "typedmember":
            axis = xml_attr(node, "dimension")
            if axis:
                dims[axis.strip()] = element_text(node)
    if instant is not None:
        return _Context(entity, None, instant, tuple(sorted(dims.items())))
    return _Context(entity, start, end, tuple(sorted(dims.items())))


def _measure(text: str) -> str:
    value = norm_space(text)
    prefix, _, local = value.rpartition(":")
    return local if prefix in ("iso4217", "xbrli") else value


def _unit(el: etree._Element) -> str:
    """'USD', 'shares', 'pure', 'USD/shares'; products join with '*'."""
    numerator: list[str] = []
    denominator: list[str] = []
    plain: list[str] = []
    for node in el.iter():
        if xml_local(node.tag) != "measure":
            continue
        where = plain
        for anc in node.iterancestors():
            name = xml_local(anc.tag)
            if name == "unitnumerator":
                where = numerator
                break
            if name == "unitdenominator":
                where = denominator
                break
            if name == "unit":
                break
        where.append(_measure(node.text or ""))
    if numerator or denominator:
        return "*".join(numerator) + "/" + "*".join(denominator)
    return "*".join(plain)


class FactHeader:
    """Contexts and units by id, each read the first time a fact refers to it.

    Filings define many contexts only text facts use (WFC: 1,300+ for 18 numeric facts).
    """

    def __init__(self, parents: Iterable[etree._Element]) -> None:
        self._contexts: dict[str, etree._Element] = {}
        self._units: dict[str, etree._Element] = {}
        for parent in parents:
            for child in parent:
                ident = child.get("id") if isinstance(child.tag, str) else None
                if not ident:
                    continue
                name = xml_local(child.tag)
                if name == "context":
                    self._contexts.setdefault(ident, child)
                elif name == "unit":
                    self._units.setdefault(ident, child)
        self._context_cache: dict[str, _Context | None] = {}
        self._unit_cache: dict[str, str | None] = {}

    def context(self, ident: str) -> _Context | None:
        if ident not in self._context_cache:
            el = self._contexts.get(ident)
            self._context_cache[ident] = None if el is None else _context(el)
        return self._context_cache[ident]

    def unit(self, ident: str) -> str | None:
        if ident not in self._unit_cache:
            el = self._units.get(ident)
            self._unit_cache[ident] = None if el is None else _unit(el)
        return self._unit_cache[ident]
