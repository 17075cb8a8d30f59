"""XBRL instance documents (EDGAR EX-101.INS, ``*_htm.xml``) as documents made of facts only.

Why: an instance carries a filing's numbers without its text. It becomes a ParsedDocument with
no blocks and every numeric fact, with the same metadata rules as the iXBRL primary document
(:func:`finagent.ingest.ixbrl.filing_metadata`), so both describe a filing the same way.
The label linkbase beside it (same stem, ``_lab.xml``) names the concepts.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from lxml import etree

from finagent.errors import ParseError
from finagent.finance.documents import ParsedDocument, SourceItem, sha256_bytes
from finagent.finance.xbrl import XBRLI, XbrlError, extract_instance_facts
from finagent.ingest.hints import Hints
from finagent.ingest.sec.cover import filing_metadata

__all__ = [
    "cut_short_instance",
    "discover_xbrl_instances",
    "is_linkbase_or_schema",
    "is_xbrl_instance",
    "parse_xbrl_instance",
]

_LINKBASE_RE = re.compile(r"_(lab|pre|cal|def|ref)\.xml$", re.I)
_SNIFF_BYTES = 64 * 1024
_ROOT_CLOSE = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?xbrl\s*>")
_NUMERIC_TAG = re.compile(rb"\sunitRef\s*=")
# A whole instance yields every numeric fact its tags declare; a recovering parse of a damaged one
# loses some. Below this share the file is refused rather than stored as a partial filing.
_MIN_READ_SHARE = 0.9


def cut_short_instance(data: bytes) -> str | None:
    """Why an instance's bytes are not a whole document (root never closed), or None.

    The recovering XML parser reads the first 300 KB of an instance as a (small) instance, so the
    raw bytes are checked: the ``xbrli:xbrl`` root must close.
    """
    if _ROOT_CLOSE.search(data) is not None:
        return None
    return "the file is cut short: its <xbrli:xbrl> root element is never closed (no </xbrli:xbrl>)"


def unread_facts(data: bytes, read: int) -> str | None:
    """Why the facts read are far fewer than the numeric fact tags in the bytes, or None."""
    declared = len(_NUMERIC_TAG.findall(data))
    if declared == 0 or read >= declared * _MIN_READ_SHARE:
        return None
    return f"the file is damaged: only {read:,} of the {declared:,} numeric facts it declares could be read"


def is_linkbase_or_schema(path: Path) -> bool:
    """Files that travel with an instance but are not documents (ignored in folders)."""
    name = path.name.lower()
    return name.endswith(".xsd") or bool(_LINKBASE_RE.search(name))


def is_xbrl_instance(path: Path) -> bool:
    """Whether the file's root element is ``xbrli:xbrl`` (reads only the start of the file)."""
    try:
        with Path(path).open("rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return False
    if b"xbrl" not in head:
        return False
    try:
        for _, el in etree.iterparse(
            _Prefix(head), events=("start",), resolve_entities=False, no_network=True, huge_tree=True
        ):
            return bool(el.tag == f"{{{XBRLI}}}xbrl")
    except etree.XMLSyntaxError:
        return False
    return False


class _Prefix:
    """File-like over the first bytes of a file: the root tag is all iterparse needs to see."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def read(self, size: int = -1) -> bytes:
        end = len(self._data) if size < 0 else self._pos + size
        chunk = self._data[self._pos : end]
        self._pos += len(chunk)
        return chunk


def discover_xbrl_instances(path: Path, hints: Hints | None = None) -> list[SourceItem]:
    """XBRL instance documents at ``path`` (a file, or a folder searched recursively)."""
    path = Path(path)
    if path.is_file():
        candidates = [path]
    elif path.is_dir():
        candidates = sorted(
            p
            for p in path.rglob("*.xml")
            if p.is_file()
            and not is_linkbase_or_schema(p)
            and not any(part.startswith(".") for part in p.relative_to(path).parts)
        )
    else:
        return []
    return [
        SourceItem(uri=str(p), load=functools.partial(parse_xbrl_instance, p, hints), kind_hint="filing")
        for p in candidates
        if is_xbrl_instance(p)
    ]


def label_linkbase_path(instance: Path) -> Path:
    """``aapl-20230930_htm.xml`` -> ``aapl-20230930_lab.xml`` (same stem, ``_lab.xml``)."""
    stem = instance.name[: -len("_htm.xml")] if instance.name.lower().endswith("_htm.xml") else instance.stem
    return instance.with_name(f"{stem}_lab.xml")


def parse_xbrl_instance(path: Path, hints: Hints | None = None) -> ParsedDocument:
    """An instance document as a ParsedDocument with ``blocks=[]`` and its numeric facts; ``hints``
    (the user's options) fill what its dei facts leave out."""
    path = Path(path)
    try:
        data = path.read_bytes()
        lab_path = label_linkbase_path(path)
        labels = lab_path.read_bytes() if lab_path.is_file() and lab_path != path else None
    except OSError as exc:
        raise ParseError(str(path), f"cannot read file: {exc}") from exc
    cut = cut_short_instance(data)
    if cut is not None:
        raise ParseError(str(path), cut)
    try:
        extraction, dei = extract_instance_facts(data, labels)
    except XbrlError as exc:
        raise ParseError(str(path), str(exc)) from exc
    damaged = unread_facts(data, extraction.elements)
    if damaged is not None:
        raise ParseError(str(path), damaged)
    meta = filing_metadata(dei, path, hints)
    facts = extraction.facts
    if meta.calendar is not None and any(f.fiscal_year is None for f in facts):
        # The instance's dei did not state its calendar; the built-in company's labels the facts.
        facts = [f.in_calendar(meta.calendar) for f in facts]
    metadata: dict[str, Any] = {"form": meta.form, "format": "xbrl-instance"}
    metadata["metadata_sources"] = meta.sources
    if meta.notes:
        metadata["identity_notes"] = meta.notes
    if meta.amendment:
        metadata["amendment"] = True
    if meta.cik:
        metadata["cik"] = meta.cik
    if meta.year_offset is not None:
        metadata["fiscal_year_offset"] = meta.year_offset
    if labels is None:
        metadata["xbrl_warnings"] = [f"no label linkbase {lab_path.name} beside the instance"]
    if extraction.warnings or extraction.skipped:
        metadata.setdefault("xbrl_warnings", []).extend(
            [*extraction.warnings, *(f"skipped {where}: {why}" for where, why in extraction.skipped[:5])]
        )
    return ParsedDocument(
        kind=meta.kind,
        title=f"{meta.title} (XBRL instance)",
        source_uri=str(path.resolve()),
        content_sha256=sha256_bytes(data),
        blocks=[],
        ticker=meta.ticker,
        company_name=meta.company_name,
        fiscal_year=meta.fiscal_year,
        fiscal_quarter=meta.fiscal_quarter,
        period_end=meta.period_end,
        published_at=None,
        fiscal_year_end_month=meta.fye_month,
        metadata=metadata,
        facts=facts,
    )
