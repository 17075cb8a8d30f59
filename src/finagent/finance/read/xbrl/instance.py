"""XBRL 2.1 instance documents (EDGAR EX-101.INS) of every generation: numeric facts, dei cover
values, and the files an instance points to (its schema, the schema's label linkbase)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from lxml import etree

from finagent.finance.fact_records import Fact
from finagent.finance.read.xbrl.calendar import filing_calendar
from finagent.finance.read.xbrl.contexts import FactHeader
from finagent.finance.read.xbrl.ixbrl_facts import finish_facts
from finagent.finance.read.xbrl.ixt_formats import plain_number
from finagent.finance.read.xbrl.xml import (
    XBRLI,
    XLINK,
    FactExtraction,
    XbrlError,
    element_text,
    is_nil,
    namespace_family,
    parse_decimals,
    parse_xml,
    xml_local,
)

_LABEL_LINKBASE_ROLE = "http://www.xbrl.org/2003/role/labelLinkbaseRef"


def is_instance_root(root: etree._Element) -> bool:
    return root.tag == f"{{{XBRLI}}}xbrl"


def linkbase_labels(data: bytes) -> dict[str, str]:
    """concept QName ('us-gaap:Revenues') -> terse label, else standard label, of a *_lab.xml."""
    root, _ = parse_xml(data)
    locs: dict[str, str] = {}
    resources: dict[str, list[tuple[str, str]]] = {}
    arcs: list[tuple[str, str]] = []
    xl_label, xl_role = f"{{{XLINK}}}label", f"{{{XLINK}}}role"
    for el in root.iter():
        name = xml_local(el.tag)
        if name == "loc":
            href = el.get(f"{{{XLINK}}}href") or ""
            fragment = href.rpartition("#")[2]
            prefix, sep, local = fragment.partition("_")
            if sep and el.get(xl_label):
                locs[el.get(xl_label) or ""] = f"{prefix}:{local}"
        elif name == "label" and el.get(xl_label):
            resources.setdefault(el.get(xl_label) or "", []).append((el.get(xl_role) or "", element_text(el)))
        elif name == "labelarc":
            arcs.append((el.get(f"{{{XLINK}}}from") or "", el.get(f"{{{XLINK}}}to") or ""))
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


def schema_refs(root: etree._Element) -> list[str]:
    """The ``xlink:href`` of each ``link:schemaRef`` of an instance (its filer schema, usually one)."""
    return [
        href.strip()
        for el in root
        if isinstance(el.tag, str) and xml_local(el.tag) == "schemaref"
        for href in [el.get(f"{{{XLINK}}}href") or ""]
        if href.strip()
    ]


def label_linkbase_refs(schema_xml: bytes) -> list[str]:
    """The ``xlink:href`` of each label ``link:linkbaseRef`` of a filer schema (.xsd)."""
    try:
        root, _ = parse_xml(schema_xml)
    except XbrlError:
        return []
    return [
        (el.get(f"{{{XLINK}}}href") or "").strip()
        for el in root.iter()
        if isinstance(el.tag, str)
        and xml_local(el.tag) == "linkbaseref"
        and (el.get(f"{{{XLINK}}}role") or "").strip() == _LABEL_LINKBASE_ROLE
        and (el.get(f"{{{XLINK}}}href") or "").strip()
    ]


def _qname(el: etree._Element, root: etree._Element) -> str:
    """'us-gaap:Revenues': a standard taxonomy's concept by its family (any year, any prefix the
    filer chose), a filer's own concept by the prefix the document gives it."""
    local = etree.QName(el).localname
    family = namespace_family(etree.QName(el).namespace)
    if family:
        return f"{family}:{local}"
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


def _concept_labels(
    root: etree._Element,
    label_linkbase_xml: bytes | None,
    find_labels: Callable[[list[str]], bytes | None] | None,
) -> tuple[dict[str, str], list[str]]:
    """The concepts' labels from the label linkbase (given, or found by the instance's schemaRefs), and
    why there are none when it cannot be read: the numbers do not need their names, they are read."""
    if label_linkbase_xml is None and find_labels is not None:
        label_linkbase_xml = find_labels(schema_refs(root))
    if not label_linkbase_xml:
        return {}, []
    try:
        return linkbase_labels(label_linkbase_xml), []
    except XbrlError as exc:
        return {}, [f"label linkbase unreadable ({exc})"]


def extract_instance_facts(
    instance_xml: bytes,
    label_linkbase_xml: bytes | None = None,
    find_labels: Callable[[list[str]], bytes | None] | None = None,
) -> tuple[FactExtraction, dict[str, str]]:
    """Numeric facts of an XBRL 2.1 instance (with skip reasons) and its dei cover values.

    Without ``label_linkbase_xml``, ``find_labels`` (given the instance's schemaRef hrefs) may
    fetch the label linkbase: the caller knows where the files of the filing are."""
    root, warnings = parse_xml(instance_xml)
    if not is_instance_root(root):
        raise XbrlError(f"not an XBRL instance (root element {root.tag!r})")
    labels, unread = _concept_labels(root, label_linkbase_xml, find_labels)
    header = FactHeader([root])
    dei: dict[str, str] = {}
    out = FactExtraction(warnings=[*warnings, *unread])
    drafts: list[Fact] = []
    for el in _instance_items(root):
        local = etree.QName(el).localname
        if namespace_family(etree.QName(el).namespace) == "dei":
            dei.setdefault(local, element_text(el))
        unit_ref = el.get("unitRef")
        if unit_ref is None:
            continue  # text, dates, text blocks: not a number
        ordinal = out.elements
        out.elements += 1
        concept = _qname(el, root)
        ctx = header.context(el.get("contextRef") or "")
        unit = header.unit(unit_ref)
        where = el.get("id") or concept
        ok, decimals = parse_decimals(el.get("decimals"))
        if ctx is None or ctx.end is None or unit is None or not ok:
            out.skipped.append((where, "unknown context or unit, undated context or bad decimals"))
            continue
        nil = is_nil(el)
        value = None if nil else plain_number(el.text or "")
        if not nil and value is None:
            out.skipped.append((where, f"value {(el.text or '')[:40]!r} is not a number"))
            continue
        extra = ctx.fact_extra(ordinal, el.get("id") or "")
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
    finish_facts(out, drafts, filing_calendar(dei))
    return out, dei


def instance_facts(instance_xml: bytes, label_linkbase: bytes | None) -> tuple[list[Fact], dict[str, str]]:
    """Facts of an EDGAR XBRL instance (EX-101.INS) and its dei values (DocumentType, ...).

    Numeric facts only; labels from the label linkbase (terse, else standard) when given;
    fiscal labels through the calendar the instance's own dei facts state. Raises XbrlError
    when the bytes are not an XBRL instance.
    """
    extraction, dei = extract_instance_facts(instance_xml, label_linkbase)
    return extraction.facts, dei
