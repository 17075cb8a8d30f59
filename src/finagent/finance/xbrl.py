"""Exact numeric XBRL facts from inline XBRL (iXBRL) filings and XBRL 2.1 instance documents.

Why: a figure question is answered best from the filer's own tagged number (concept, period,
dimensions, unit, exact value), not from table text. This module turns ``ix:nonFraction``
elements (and the numeric facts of an EX-101.INS instance) into :class:`Fact` records.

Pure: takes bytes or lxml trees, never touches files or the network. Document text is untrusted
data: XML is parsed without entity resolution or network access, values are only ever parsed as
numbers, and anything that does not parse is skipped with a recorded reason, never guessed.
Why plain lxml rather than an XBRL library: see docs/xbrl-libraries.md.

Trees come in two shapes and both are handled: namespaced XHTML (the XML parser; ix namespace
2013 or 2008) and un-namespaced HTML (lxml.html fallback: tags ``ix:nonfraction``, lower-case
attribute names ``contextref``).
"""

from __future__ import annotations

import calendar as calendar_module
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation, localcontext
from typing import Any

from lxml import etree

from finagent.finance.facts import Fact, FiscalCalendar, duration_class
from finagent.finance.fiscal import fiscal_period, nominal_month_end

__all__ = [
    "FACT_TAGS",
    "FactExtraction",
    "XbrlError",
    "extract_instance_facts",
    "extract_ixbrl_facts",
    "fact_elements",
    "filing_calendar",
    "fye_month",
    "instance_facts",
    "is_instance_root",
    "ixbrl_facts",
    "linkbase_labels",
    "parse_ixbrl",
    "parse_xml",
    "raw_fact_count",
]

IX_NAMESPACES = ("http://www.xbrl.org/2013/inlineXBRL", "http://www.xbrl.org/2008/inlineXBRL")
XBRLI = "http://www.xbrl.org/2003/instance"
_XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"
_XLINK = "http://www.w3.org/1999/xlink"
_DEI_NS = re.compile(r"^http://xbrl\.sec\.gov/dei/")
# Transformation registries (ixt 1-5) and the SEC's own (ixt-sec).
_TRANSFORM_NS = (
    "http://www.xbrl.org/inlineXBRL/transformation/",
    "http://www.sec.gov/inlineXBRL/transformation/",
)

# Every ix:nonFraction tag: namespaced (XML parser) or as lxml.html leaves it.
FACT_TAGS: tuple[str, ...] = (*(f"{{{ns}}}nonFraction" for ns in IX_NAMESPACES), "ix:nonfraction")
_HIDDEN_TAGS = (*(f"{{{ns}}}hidden" for ns in IX_NAMESPACES), "ix:hidden")
_RESOURCES_TAGS = (*(f"{{{ns}}}resources" for ns in IX_NAMESPACES), "ix:resources")
_RAW_FACT_RE = re.compile(rb"<[A-Za-z_][\w.-]*:nonFraction\b", re.I)
_WS_RE = re.compile(r"[\s\u200b\u200c\u200d\ufeff]+")
_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.I)
# Bounds on untrusted input: no reported number needs more (real filings: scale -4..12, < 30 chars).
_MAX_NUMBER_TEXT = 100
_MAX_SCALE = 30


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


# --------------------------------------------------------------------------- parsing bytes


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


# --------------------------------------------------------------------------- small helpers


@functools.lru_cache(maxsize=4096)
def _local(tag: Any) -> str:
    """Lower-case local name: '{ns}startDate', 'xbrli:startdate' -> 'startdate'."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def _attr(el: etree._Element, name: str) -> str | None:
    """Attribute by its XML name, or lower-cased as the HTML parser leaves it."""
    value = el.get(name)
    return value if value is not None else el.get(name.lower())


def _norm(text: str) -> str:
    return _WS_RE.sub(" ", text).strip()


def _text(el: etree._Element) -> str:
    return _norm("".join(el.itertext()))


def _is_nil(el: etree._Element) -> bool:
    value = el.get(_XSI_NIL) or el.get("xsi:nil")
    return (value or "").strip().lower() in ("true", "1")


def _date(text: str) -> date | None:
    """xs:date or xs:dateTime (the time part is ignored)."""
    m = re.match(r"\s*(\d{4})-(\d{2})-(\d{2})", text)
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _decimals(value: str | None) -> tuple[bool, int | None]:
    """(valid, decimals) with None meaning INF (or absent); absurd precisions are invalid."""
    if value is None or value.strip().upper() == "INF":
        return True, None
    try:
        decimals = int(value.strip())
    except ValueError:
        return False, None
    return abs(decimals) <= _MAX_SCALE, decimals


# --------------------------------------------------------------------------- contexts and units


@dataclass(frozen=True, slots=True)
class _Context:
    entity: str | None
    start: date | None
    end: date | None  # None: "forever" or unparseable
    dimensions: tuple[tuple[str, str], ...]


def _context(el: etree._Element) -> _Context:
    entity = None
    start = end = instant = None
    dims: dict[str, str] = {}
    for node in el.iter():
        name = _local(node.tag)
        if name == "identifier":
            entity = _norm(node.text or "") or None
        elif name == "startdate":
            start = _date(node.text or "")
        elif name == "enddate":
            end = _date(node.text or "")
        elif name == "instant":
            instant = _date(node.text or "")
        elif name == "explicitmember":
            axis = _attr(node, "dimension")
            if axis:
                dims[axis.strip()] = _norm(node.text or "")
        elif name == "typedmember":
            axis = _attr(node, "dimension")
            if axis:
                dims[axis.strip()] = _text(node)
    if instant is not None:
        return _Context(entity, None, instant, tuple(sorted(dims.items())))
    return _Context(entity, start, end, tuple(sorted(dims.items())))


def _measure(text: str) -> str:
    value = _norm(text)
    prefix, _, local = value.rpartition(":")
    return local if prefix in ("iso4217", "xbrli") else value


def _unit(el: etree._Element) -> str:
    """'USD', 'shares', 'pure', 'USD/shares'; products join with '*'."""
    numerator: list[str] = []
    denominator: list[str] = []
    plain: list[str] = []
    for node in el.iter():
        if _local(node.tag) != "measure":
            continue
        where = plain
        for anc in node.iterancestors():
            name = _local(anc.tag)
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


class _Header:
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
                name = _local(child.tag)
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


# --------------------------------------------------------------------------- value transforms

_WORDS_SMALL = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen".split()
    )
}
_WORDS_TENS = {
    w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())
}
_WORDS_SCALE = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_WORDS_ZERO = frozenset(("no", "none", "nil", "zero"))


def _words_en(text: str) -> Decimal | None:
    """English number words: 'no' / 'none' -> 0, 'twenty-one', 'one hundred and five thousand'."""
    words = [w for w in re.split(r"[\s,\-]+", text.lower()) if w and w != "and"]
    if not words:
        return None
    if len(words) == 1 and words[0] in _WORDS_ZERO:
        return Decimal(0)
    total = current = 0
    for w in words:
        if w in _WORDS_SMALL:
            current += _WORDS_SMALL[w]
        elif w in _WORDS_TENS:
            current += _WORDS_TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w in _WORDS_SCALE:
            total += max(current, 1) * _WORDS_SCALE[w]
            current = 0
        else:
            return None
    return Decimal(total + current)


_DOT_DECIMAL = re.compile(r"^(?:\d{1,3}(?:[,' ]\d{3})+|\d+)?(?:\.\d*)?$")
_COMMA_DECIMAL = re.compile(r"^(?:\d{1,3}(?:[.' ]\d{3})+|\d+)?(?:,\d*)?$")
_UNIT_DECIMAL = re.compile(r"^(\d[\d,.' ]*?)\s*[^\d\s]+[^\d]*?(\d{1,2})?\s*[^\d]*$")


def _grouped(text: str, pattern: re.Pattern[str], decimal_mark: str) -> Decimal | None:
    s = text.replace("\u00a0", " ").replace("\u202f", " ").strip()
    if not s or not any(c.isdigit() for c in s) or not pattern.match(s):
        return None
    digits = s.replace(" ", "").replace("'", "").replace("," if decimal_mark == "." else ".", "")
    if decimal_mark == ",":
        digits = digits.replace(",", ".")
    try:
        return Decimal(digits)
    except InvalidOperation:
        return None


def _unit_decimal(text: str) -> Decimal | None:
    """'5 dollars 50 cents' -> 5.50 (integer part, unit words, optional 1-2 digit fraction)."""
    m = _UNIT_DECIMAL.match(text.replace("\u00a0", " ").strip())
    if not m:
        return None
    whole = _grouped(m.group(1), _DOT_DECIMAL, ".") or _grouped(m.group(1), _COMMA_DECIMAL, ",")
    if whole is None:
        return None
    return whole + (Decimal(m.group(2)) / 100 if m.group(2) else 0)


def _plain(text: str) -> Decimal | None:
    """No format attribute: the content is an xs:decimal (or an xs:double's exponent form)."""
    s = text.strip()
    if len(s) > _MAX_NUMBER_TEXT or not re.fullmatch(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,2})?", s):
        return None
    return Decimal(s)


# Local names of the numeric transforms, old (ixt 1-3) and new (ixt 4-5) spellings.
_TRANSFORMS: dict[str, Any] = {
    **dict.fromkeys(
        ("num-dot-decimal", "numdotdecimal", "numcommadot", "numspacedot"),
        lambda t: _grouped(t, _DOT_DECIMAL, "."),
    ),
    **dict.fromkeys(
        ("num-comma-decimal", "numcommadecimal", "numdotcomma", "numspacecomma"),
        lambda t: _grouped(t, _COMMA_DECIMAL, ","),
    ),
    **dict.fromkeys(("fixed-zero", "zerodash", "zero-dash", "numdash", "nocontent"), lambda t: Decimal(0)),
    **dict.fromkeys(("numwordsen", "num-word-en"), _words_en),
    **dict.fromkeys(("num-unit-decimal", "numunitdecimal"), _unit_decimal),
}


class _Formats:
    """Resolves ``format`` QNames once per distinct value (prefix -> transformation namespace)."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[Any, str | None]] = {}

    def transform(self, el: etree._Element, fmt: str) -> tuple[Any, str | None]:
        """(function, None) or (None, reason)."""
        hit = self._cache.get(fmt)
        if hit is not None:
            return hit
        prefix, _, local = fmt.strip().rpartition(":")
        namespace = el.nsmap.get(prefix) if prefix and isinstance(el.tag, str) and el.tag[0] == "{" else None
        func = _TRANSFORMS.get(local.lower())
        if namespace is not None and not namespace.startswith(_TRANSFORM_NS):
            result: tuple[Any, str | None] = (
                None,
                f"format {fmt!r} is not in a known transformation registry",
            )
        elif func is None:
            result = (None, f"unsupported format {fmt!r}")
        else:
            result = (func, None)
        self._cache[fmt] = result
        return result


def _exact(value: Decimal, scale: int, negative: bool) -> Decimal:
    """value x 10**scale, negated, exactly (integral results without an exponent)."""
    with localcontext() as ctx:
        ctx.prec = 200
        out = value.scaleb(scale)
        if out.as_tuple().exponent > 0:  # type: ignore[operator]
            out = out.quantize(Decimal(1))
        if negative and out:
            out = -out
        return out if out else abs(out)


# --------------------------------------------------------------------------- iXBRL


def fact_elements(root: etree._Element) -> list[etree._Element]:
    """Every ix:nonFraction in document order; a fact's ordinal is its index in this list."""
    return list(root.iter(*FACT_TAGS))


def _placement(el: etree._Element, hidden_set: set[etree._Element]) -> tuple[bool, etree._Element | None]:
    """(hidden, the <tr> the fact is displayed in) from one walk up the ancestors."""
    if el in hidden_set:
        return True, None
    row: etree._Element | None = None
    for anc in el.iterancestors():
        if not isinstance(anc.tag, str):
            continue
        style = anc.get("style")
        if style and "none" in style and _DISPLAY_NONE.search(style):
            return True, None
        if row is None and _local(anc.tag) == "tr":
            row = anc
    return False, row


_RowLabel = tuple[etree._Element | None, str | None]


def _row_label(row: etree._Element, el: etree._Element, cache: dict[etree._Element, _RowLabel]) -> str | None:
    """First non-empty cell of the row, unless that cell is the fact's own."""
    found = cache.get(row)
    if found is None:
        found = (None, None)
        for cell in row:
            if _local(cell.tag) in ("td", "th"):
                text = _text(cell)
                if text and text not in ("$", "(", ")", "%"):
                    found = (cell, text)
                    break
        cache[row] = found
    cell, label = found
    if cell is None:
        return None
    for anc in el.iterancestors():
        if anc is cell:
            return None
        if anc is row:
            break
    return label


def extract_ixbrl_facts(
    root: etree._Element,
    calendar: FiscalCalendar | None,
    elements: list[etree._Element] | None = None,
) -> FactExtraction:
    """Facts of every ix:nonFraction (see ixbrl_facts), with skip reasons and dedupe counts.

    ``elements`` may be passed when the caller already computed :func:`fact_elements`.
    """
    els = fact_elements(root) if elements is None else elements
    out = FactExtraction(elements=len(els))
    header = _Header(root.iter(*_RESOURCES_TAGS))
    hidden_set = {e for h in root.iter(*_HIDDEN_TAGS) for e in h.iter(*FACT_TAGS)}
    formats = _Formats()
    labels: dict[etree._Element, _RowLabel] = {}
    drafts: list[Fact] = []
    for ordinal, el in enumerate(els):
        ident = el.get("id") or ""
        concept = (el.get("name") or "").strip()
        where = ident or concept or f"#{ordinal}"
        ctx = header.context((_attr(el, "contextRef") or "").strip())
        if not concept:
            out.skipped.append((where, "no name"))
            continue
        if ctx is None:
            out.skipped.append((where, f"unknown context {_attr(el, 'contextRef')!r}"))
            continue
        if ctx.end is None:
            out.skipped.append((where, "context has no dated period"))
            continue
        unit_ref = (_attr(el, "unitRef") or "").strip()
        unit = header.unit(unit_ref)
        if unit is None:
            out.skipped.append((where, f"unknown unit {unit_ref!r}"))
            continue
        ok, decimals = _decimals(el.get("decimals"))
        try:
            scale = int(el.get("scale") or 0)
        except ValueError:
            ok = False
        if not ok or abs(scale) > _MAX_SCALE:
            out.skipped.append((where, f"bad decimals/scale {el.get('decimals')!r}/{el.get('scale')!r}"))
            continue
        hidden, row = _placement(el, hidden_set)
        text = _text(el)
        nil = _is_nil(el)
        value: Decimal | None = None
        if not nil and len(text) > _MAX_NUMBER_TEXT:
            out.skipped.append((where, f"{len(text)} characters of text is not a number"))
            continue
        if not nil:
            fmt = el.get("format")
            if fmt:
                func, reason = formats.transform(el, fmt)
                if func is None:
                    out.skipped.append((where, str(reason)))
                    continue
                raw = func(text)
            else:
                raw = _plain(text)
            if raw is None:
                out.skipped.append((where, f"text {text[:40]!r} is not a number for format {fmt!r}"))
                continue
            value = _exact(raw, scale, (el.get("sign") or "").strip() == "-")
        extra = {"ordinal": str(ordinal)}
        if ident:
            extra["id"] = ident
        if ctx.entity:
            extra["entity"] = ctx.entity
        drafts.append(
            Fact(
                concept=concept,
                value=value,
                unit=unit,
                decimals=decimals,
                period_start=ctx.start,
                period_end=ctx.end,
                dimensions=ctx.dimensions,
                is_nil=nil,
                hidden=hidden,
                label=_row_label(row, el, labels) if row is not None else None,
                display=None if hidden else (text or None),
                scale=scale,
                context_id=(_attr(el, "contextRef") or "").strip(),
                extra=extra,
            )
        )
    _finish(out, drafts, calendar)
    return out


def ixbrl_facts(root: etree._Element, calendar: FiscalCalendar | None) -> list[Fact]:
    """Every ix:nonFraction of an iXBRL tree as an exact, deduplicated, fiscally labelled Fact.

    Each fact carries ``extra["ordinal"]``: the index of its element in :func:`fact_elements`
    (document order), so a parser walking the same tree can map it to the block showing it.
    Facts that cannot be read exactly (unknown format, unknown context) are left out; use
    :func:`extract_ixbrl_facts` to see why.
    """
    return extract_ixbrl_facts(root, calendar).facts


# --------------------------------------------------------------------------- dedupe and labels


def _precision(fact: Fact) -> float:
    return float("inf") if fact.decimals is None else float(fact.decimals)


def _half_ulp(decimals: int | None) -> Decimal:
    return Decimal(0) if decimals is None else Decimal(5).scaleb(-decimals - 1)


def _consistent(a: Fact, b: Fact) -> bool:
    """XBRL duplicates are consistent when their rounding intervals overlap."""
    if a.value is None or b.value is None:
        return a.value is None and b.value is None
    return abs(a.value - b.value) <= _half_ulp(a.decimals) + _half_ulp(b.decimals)


def _finish(out: FactExtraction, drafts: list[Fact], calendar: FiscalCalendar | None) -> None:
    """Fold duplicates (same concept, entity, period, dimensions, unit) and label fiscal periods."""
    groups: dict[tuple[Any, ...], list[Fact]] = {}
    for f in drafts:
        key = (f.concept, f.extra.get("entity"), f.period_start, f.period_end, f.dimensions, f.unit)
        groups.setdefault(key, []).append(f)
    kept: list[Fact] = []
    for group in groups.values():
        best = group[0]
        if len(group) > 1:
            # Reported values beat nil, then precision, then a visible occurrence, then document order.
            best = min(
                group,
                key=lambda f: (f.value is None, -_precision(f), f.hidden, int(f.extra["ordinal"])),
            )
            others = sorted({str(f.value) for f in group if not _consistent(f, best)})
            out.duplicates += len(group) - 1
            if others:
                out.conflicts += 1
                best = replace(
                    best, conflict=True, extra={**best.extra, "conflicting_values": ",".join(others)}
                )
        kept.append(best)
    kept.sort(key=lambda f: int(f.extra["ordinal"]))
    for f in kept:
        if calendar is not None:
            out.facts.append(f.in_calendar(calendar))
        else:
            out.facts.append(replace(f, duration=duration_class(f.period_start, f.period_end)))


# --------------------------------------------------------------------------- fiscal calendar

_MONTHS = {
    **{name.lower(): i for i, name in enumerate(calendar_module.month_name) if name},
    **{name.lower(): i for i, name in enumerate(calendar_module.month_abbr) if name},
    "sept": 9,
}


def fye_month(text: str, fmt: str | None = None) -> int | None:
    """Nominal fiscal-year-end month from '--09-27', 'September 28', '11/29', '0927' (fmt 'mmdd').

    52/53-week years ending in the first days of a month nominally end the previous month
    (NVIDIA's '--01-26' is January, Home Depot's 'February 2' is January).
    """
    s = _norm(text)
    if not s:
        return None
    month = day = None
    if m := re.fullmatch(r"--(\d{2})-(\d{2})", s) or (
        re.fullmatch(r"(\d{2})(\d{2})", s) if fmt == "mmdd" else None
    ):
        month, day = int(m.group(1)), int(m.group(2))
    elif m := re.fullmatch(r"(\d{1,2})[/-](\d{1,2})", s):
        month, day = int(m.group(1)), int(m.group(2))
        if fmt and "day-month" in fmt:
            month, day = day, month
    elif (m := re.match(r"([A-Za-z]{3,9})\.?\s+(\d{1,2})", s)) and m.group(1).lower() in _MONTHS:
        month, day = _MONTHS[m.group(1).lower()], int(m.group(2))
    elif (m := re.match(r"(\d{1,2})\s+([A-Za-z]{3,9})", s)) and m.group(2).lower() in _MONTHS:
        month, day = _MONTHS[m.group(2).lower()], int(m.group(1))
    if month is None or day is None:
        return None
    try:
        return nominal_month_end(date(2000, month, day))[1]  # 2000: a leap year, so --02-29 works
    except ValueError:
        return None


def _dei_date(text: str) -> date | None:
    """dei:DocumentPeriodEndDate as instances ('2023-09-30') and covers ('September 30, 2023') write it."""
    s = _norm(text)
    if d := _date(s):
        return d
    m = re.fullmatch(r"([A-Za-z]{3,9})\.?\s+(\d{1,2})\s*,?\s*(\d{4})", s)
    if m and m.group(1).lower() in _MONTHS:
        month, day, year = _MONTHS[m.group(1).lower()], int(m.group(2)), int(m.group(3))
    elif m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", s):
        month, day, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
    else:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def filing_calendar(dei: dict[str, str]) -> FiscalCalendar | None:
    """The company's fiscal calendar as its own filing states it (dei cover facts).

    Month: ``CurrentFiscalYearEndDate``, else the period end of an annual report. Offset:
    ``DocumentFiscalYearFocus`` minus the year the plain end-year rule gives for
    ``DocumentPeriodEndDate`` (Home Depot's year ended 2025-02-02 is "fiscal 2024": -1); only
    -1, 0 and +1 are believed (anything else is a mistyped cover fact, and 0 is used).
    """
    period_end = _dei_date(dei.get("DocumentPeriodEndDate", ""))
    month = fye_month(dei.get("CurrentFiscalYearEndDate", ""), dei.get("CurrentFiscalYearEndDate@format"))
    form = (dei.get("DocumentType") or "").strip().upper()
    if month is None and period_end is not None and form.startswith(("10-K", "20-F", "40-F")):
        month = nominal_month_end(period_end)[1]
    if month is None:
        return None
    offset = 0
    focus = re.search(r"\d{4}", dei.get("DocumentFiscalYearFocus", ""))
    if focus and period_end is not None:
        diff = int(focus.group(0)) - fiscal_period(period_end, month, 0)[0]
        if diff in (-1, 0, 1):
            offset = diff
    return FiscalCalendar(month, offset)


# --------------------------------------------------------------------------- instance documents


def is_instance_root(root: etree._Element) -> bool:
    return root.tag == f"{{{XBRLI}}}xbrl"


def linkbase_labels(data: bytes) -> dict[str, str]:
    """concept QName ('us-gaap:Revenues') -> terse label, else standard label, of a *_lab.xml."""
    root, _ = parse_xml(data)
    locs: dict[str, str] = {}
    resources: dict[str, list[tuple[str, str]]] = {}
    arcs: list[tuple[str, str]] = []
    xl_label, xl_role = f"{{{_XLINK}}}label", f"{{{_XLINK}}}role"
    for el in root.iter():
        name = _local(el.tag)
        if name == "loc":
            href = el.get(f"{{{_XLINK}}}href") or ""
            fragment = href.rpartition("#")[2]
            prefix, sep, local = fragment.partition("_")
            if sep and el.get(xl_label):
                locs[el.get(xl_label) or ""] = f"{prefix}:{local}"
        elif name == "label" and el.get(xl_label):
            resources.setdefault(el.get(xl_label) or "", []).append((el.get(xl_role) or "", _text(el)))
        elif name == "labelarc":
            arcs.append((el.get(f"{{{_XLINK}}}from") or "", el.get(f"{{{_XLINK}}}to") or ""))
    ranked: dict[str, tuple[int, str]] = {}
    rank = {"http://www.xbrl.org/2003/role/terseLabel": 0, "http://www.xbrl.org/2003/role/label": 1}
    for source, target in arcs:
        concept = locs.get(source)
        if concept is None:
            continue
        for role, text in resources.get(target, ()):
            r = rank.get(role)
            if r is not None and text and (concept not in ranked or r < ranked[concept][0]):
                ranked[concept] = (r, text)
    return {concept: text for concept, (_, text) in ranked.items()}


def _qname(el: etree._Element, root: etree._Element) -> str:
    local = etree.QName(el).localname
    if el.prefix:
        return f"{el.prefix}:{local}"
    ns = etree.QName(el).namespace
    prefix = next((p for p, u in root.nsmap.items() if u == ns and p), None)
    return f"{prefix}:{local}" if prefix else local


def _instance_items(root: etree._Element) -> Iterator[etree._Element]:
    """Fact elements of an instance (top level, and inside tuples), in document order."""
    for el in root.iter():
        if isinstance(el.tag, str) and el.get("contextRef") is not None:
            yield el


def extract_instance_facts(
    instance_xml: bytes, label_linkbase_xml: bytes | None = None
) -> tuple[FactExtraction, dict[str, str]]:
    """Numeric facts of an XBRL 2.1 instance (with skip reasons) and its dei cover values."""
    root, warnings = parse_xml(instance_xml)
    if not is_instance_root(root):
        raise XbrlError(f"not an XBRL instance (root element {root.tag!r})")
    labels = linkbase_labels(label_linkbase_xml) if label_linkbase_xml else {}
    header = _Header([root])
    dei: dict[str, str] = {}
    out = FactExtraction(warnings=warnings)
    drafts: list[Fact] = []
    for el in _instance_items(root):
        namespace = etree.QName(el).namespace or ""
        local = etree.QName(el).localname
        if _DEI_NS.match(namespace):
            dei.setdefault(local, _text(el))
        unit_ref = el.get("unitRef")
        if unit_ref is None:
            continue  # text, dates, text blocks: not a number
        ordinal = out.elements
        out.elements += 1
        concept = _qname(el, root)
        ctx = header.context(el.get("contextRef") or "")
        unit = header.unit(unit_ref)
        where = el.get("id") or concept
        ok, decimals = _decimals(el.get("decimals"))
        if ctx is None or ctx.end is None or unit is None or not ok:
            out.skipped.append((where, "unknown context or unit, undated context or bad decimals"))
            continue
        nil = _is_nil(el)
        value = None if nil else _plain(el.text or "")
        if not nil and value is None:
            out.skipped.append((where, f"value {(el.text or '')[:40]!r} is not a number"))
            continue
        extra = {"ordinal": str(ordinal)}
        if el.get("id"):
            extra["id"] = el.get("id") or ""
        if ctx.entity:
            extra["entity"] = ctx.entity
        drafts.append(
            Fact(
                concept=concept,
                value=value,
                unit=unit,
                decimals=decimals,
                period_start=ctx.start,
                period_end=ctx.end,
                dimensions=ctx.dimensions,
                is_nil=nil,
                label=labels.get(concept),
                context_id=el.get("contextRef"),
                extra=extra,
            )
        )
    _finish(out, drafts, filing_calendar(dei))
    return out, dei


def instance_facts(instance_xml: bytes, label_linkbase: bytes | None) -> tuple[list[Fact], dict[str, str]]:
    """Facts of an EDGAR XBRL instance (EX-101.INS) and its dei values (DocumentType, ...).

    Numeric facts only; labels from the label linkbase (terse, else standard) when given;
    fiscal labels through the calendar the instance's own dei facts state. Raises XbrlError
    when the bytes are not an XBRL instance.
    """
    extraction, dei = extract_instance_facts(instance_xml, label_linkbase)
    return extraction.facts, dei
