"""TODO docstring."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lxml import etree

from finagent.finance.fact_records import Fact

IX_NAMESPACES = ("http://www.xbrl.org/2013/inlineXBRL", "http://www.xbrl.org/2008/inlineXBRL")


XBRLI = "http://www.xbrl.org/2003/instance"


_XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"


XLINK = "http://www.w3.org/1999/xlink"


LINKBASE = "http://www.xbrl.org/2003/linkbase"


# Standard taxonomies by family, whatever their year: the 2009-2011 xbrl.us releases, SEC's dei since
# 2011, the FASB's us-gaap and srt (dated "2017-01-31" until 2019, plain years since), IFRS. The
# negated-label and "-ent"/"-types" side namespaces of those years are not concept namespaces.
_FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dei", re.compile(r"^https?://xbrl\.(?:sec\.gov|us)/dei/\d{4}(?:-\d\d-\d\d)?/?$")),
    ("us-gaap", re.compile(r"^https?://(?:fasb\.org|xbrl\.us)/us-gaap/\d{4}(?:-\d\d-\d\d)?/?$")),
    ("srt", re.compile(r"^https?://fasb\.org/srt/\d{4}(?:-\d\d-\d\d)?/?$")),
    ("ifrs-full", re.compile(r"^https?://xbrl\.ifrs\.org/taxonomy/\d{4}-\d\d-\d\d/ifrs-full/?$")),
)


DEI_NS = _FAMILIES[0][1]


@functools.lru_cache(maxsize=256)
def namespace_family(uri: str | None) -> str | None:
    """The standard prefix ('dei', 'us-gaap', 'srt', 'ifrs-full') of a taxonomy namespace of any
    year, or None for a filer's own (or any other) namespace."""
    if not uri:
        return None
    uri = uri.strip()
    return next((prefix for prefix, pattern in _FAMILIES if pattern.match(uri)), None)


def standard_concept(name: str, nsmap: dict[str | None, str]) -> str:
    """'gaap:Revenues' (a filer's own prefix for us-gaap) -> 'us-gaap:Revenues': concepts of the
    standard taxonomies are named by family, so every year and every prefix reads the same."""
    prefix, sep, local = name.partition(":")
    if not sep:
        return name
    family = namespace_family(nsmap.get(prefix))
    return f"{family}:{local}" if family and family != prefix else name


# Transformation registries (ixt 1-5) and the SEC's own (ixt-sec).
TRANSFORM_NS = (
    "http://www.xbrl.org/inlineXBRL/transformation/",
    "http://www.sec.gov/inlineXBRL/transformation/",
)


# Every ix:nonFraction tag: namespaced (XML parser) or as lxml.html leaves it.
FACT_TAGS: tuple[str, ...] = (*(f"{{{ns}}}nonFraction" for ns in IX_NAMESPACES), "ix:nonfraction")


HIDDEN_TAGS = (*(f"{{{ns}}}hidden" for ns in IX_NAMESPACES), "ix:hidden")


RESOURCES_TAGS = (*(f"{{{ns}}}resources" for ns in IX_NAMESPACES), "ix:resources")


_RAW_FACT_RE = re.compile(rb"<[A-Za-z_][\w.-]*:nonFraction\b", re.I)


_WS_RE = re.compile(r"[\s\u200b\u200c\u200d\ufeff]+")


DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.I)


# Bounds on untrusted input: no reported number needs more (real filings: scale -4..12, < 30 chars).
MAX_NUMBER_TEXT = 100


MAX_SCALE = 30


class XbrlError(ValueError):
    """The bytes are not a usable XBRL document (the ingest layer turns this into ParseError)."""


@dataclass(slots=True)
class FactExtraction:
    """Facts of one document plus what was dropped and why, so callers can report it."""

    facts: list[Fact] = field(default_factory=list)
    elements: int = 0  # fact elements seen (ix:nonFraction, or numeric facts of an instance)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (fact id or concept, reason)
    duplicates: int = 0  # elements folded into another fact
    conflicts: int = 0  # kept facts whose duplicates disagreed beyond rounding
    warnings: list[str] = field(default_factory=list)


def _parser(recover: bool) -> etree.XMLParser:
    return etree.XMLParser(
        recover=recover, huge_tree=True, resolve_entities=False, no_network=True, remove_comments=True
    )


def parse_xml(data: bytes) -> tuple[etree._Element, list[str]]:
    """Parse XML strictly; if that fails, in recover mode with a warning saying so.

    Raises XbrlError when even the recovering parser finds no document.
    """
    try:
        return etree.fromstring(data, _parser(False)), []
    except etree.XMLSyntaxError as exc:
        strict_error = str(exc)
    try:
        root = etree.fromstring(data, _parser(True))
    except etree.XMLSyntaxError as exc:
        raise XbrlError(f"not XML: {exc}") from exc
    if root is None:
        raise XbrlError(f"not XML: {strict_error}")
    return root, [f"malformed XML, parsed in recover mode ({strict_error})"]


def raw_fact_count(data: bytes) -> int:
    """``<ix:nonFraction`` start tags in the raw bytes: what a lossless parse must find."""
    return len(_RAW_FACT_RE.findall(data))


def parse_ixbrl(data: bytes) -> tuple[etree._Element, list[str]]:
    """Parse iXBRL bytes (strict, else recover) and check no fact was lost to recovery.

    Mismatches are reported, not raised: the returned warnings say how many ``ix:nonFraction``
    start tags the bytes hold and how many elements the tree has, so the caller can decide.
    """
    root, warnings = parse_xml(data)
    if warnings:
        found = len(fact_elements(root))
        expected = raw_fact_count(data)
        if found != expected:
            warnings.append(f"recovered tree has {found} ix:nonFraction elements, the bytes have {expected}")
    return root, warnings


@functools.lru_cache(maxsize=4096)
def xml_local(tag: Any) -> str:
    """Lower-case local name: '{ns}startDate', 'xbrli:startdate' -> 'startdate'."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def xml_attr(el: etree._Element, name: str) -> str | None:
    """Attribute by its XML name, or lower-cased as the HTML parser leaves it."""
    value = el.get(name)
    return value if value is not None else el.get(name.lower())


def norm_space(text: str) -> str:
    return _WS_RE.sub(" ", text).strip()


def element_text(el: etree._Element) -> str:
    return norm_space("".join(el.itertext()))


def is_nil(el: etree._Element) -> bool:
    value = el.get(_XSI_NIL) or el.get("xsi:nil")
    return (value or "").strip().lower() in ("true", "1")


def xml_date(text: str) -> date | None:
    """xs:date or xs:dateTime (the time part is ignored)."""
    m = re.match(r"\s*(\d{4})-(\d{2})-(\d{2})", text)
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def parse_decimals(value: str | None) -> tuple[bool, int | None]:
    """(valid, decimals) with None meaning INF (or absent); absurd precisions are invalid."""
    if value is None or value.strip().upper() == "INF":
        return True, None
    try:
        decimals = int(value.strip())
    except ValueError:
        return False, None
    return abs(decimals) <= MAX_SCALE, decimals


def fact_elements(root: etree._Element) -> list[etree._Element]:
    """Every ix:nonFraction in document order; a fact's ordinal is its index in this list."""
    return list(root.iter(*FACT_TAGS))
