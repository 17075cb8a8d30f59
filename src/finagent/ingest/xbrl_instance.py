"""XBRL instance documents (EDGAR EX-101.INS, ``*_htm.xml``) as documents made of facts only.

Why: an instance carries a filing's numbers without its text. It becomes a ParsedDocument with
no blocks and every numeric fact, with the same metadata rules as the iXBRL primary document
(:func:`finagent.ingest.ixbrl.filing_metadata`), so both describe a filing the same way.
Its label linkbase names the concepts: the one its schema (``link:schemaRef``) declares through a
label ``link:linkbaseRef``, else ``<stem>_lab.xml`` beside it, else the one ``*_lab.xml`` of its folder.
Instances are recognised by their root element, whatever the file is called.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from finagent.errors import ParseError
from finagent.finance.document_records import ParsedDocument, SourceItem, sha256_bytes
from finagent.finance.read.xbrl import XBRLI, FactExtraction, XbrlError, extract_instance_facts
from finagent.finance.read.xbrl.instance import label_linkbase_refs
from finagent.finance.read.xbrl.xml import LINKBASE
from finagent.ingest.folders import files_under
from finagent.ingest.hints import Hints
from finagent.ingest.sec.cover import FilingMeta, filing_metadata, identity_metadata
from finagent.ingest.sec.submission import SubmissionDocument

__all__ = [
    "SubmissionXbrl",
    "cut_short_instance",
    "discover_xbrl_instances",
    "is_linkbase_or_schema",
    "is_xbrl_instance",
    "parse_xbrl_instance",
    "submission_xbrl",
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
    """Files that travel with an instance but are not documents (ignored in folders): by name
    (``.xsd``, ``_lab.xml``, ...) or, for other ``.xml`` names, by their root element."""
    name = path.name.lower()
    if name.endswith(".xsd") or _LINKBASE_RE.search(name):
        return True
    return name.endswith(".xml") and _root_tag(path) in _COMPANION_ROOTS


_COMPANION_ROOTS = {f"{{{LINKBASE}}}linkbase", "{http://www.w3.org/2001/XMLSchema}schema"}


def _root_tag(path: Path) -> str | None:
    """The root element's tag of an XML file (reads only the start of it), or None."""
    try:
        with Path(path).open("rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return None
    if b"<" not in head:
        return None
    try:
        for _, el in etree.iterparse(
            _Prefix(head), events=("start",), resolve_entities=False, no_network=True, huge_tree=True
        ):
            return str(el.tag)
    except etree.XMLSyntaxError:
        return None
    return None


def is_xbrl_instance(path: Path) -> bool:
    """Whether the file's root element is ``xbrli:xbrl``, whatever its name (reads only its start)."""
    return _root_tag(path) == f"{{{XBRLI}}}xbrl"


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
        candidates = files_under(path, lambda p: not is_linkbase_or_schema(p))
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


def _beside(folder: Path, href: str) -> Path | None:
    """A file an instance or schema refers to, when it is a plain name in the same folder (a URL or a
    path elsewhere is never followed)."""
    name = href.rsplit("#", 1)[0].strip()
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        return None
    found = folder / name
    return found if found.is_file() else None


def find_label_linkbase(instance: Path, schema_hrefs: list[str]) -> Path | None:
    """The instance's label linkbase: the schema's label linkbaseRef, else ``<stem>_lab.xml``, else
    the only ``*_lab.xml`` of the folder (or the one named after the schema)."""
    folder = instance.parent
    for href in schema_hrefs:
        schema = _beside(folder, href)
        if schema is None:
            continue
        try:
            refs = label_linkbase_refs(schema.read_bytes())
        except OSError:
            continue
        for ref in refs:
            if (found := _beside(folder, ref)) is not None:
                return found
    same_stem = label_linkbase_path(instance)
    if same_stem.is_file() and same_stem != instance:
        return same_stem
    labs = sorted(p for p in folder.glob("*_lab.xml") if p.is_file())
    stems = {Path(href.rsplit("#", 1)[0]).stem for href in schema_hrefs}
    named = [p for p in labs if p.name[: -len("_lab.xml")] in stems]
    if named:
        return named[0]
    return labs[0] if len(labs) == 1 else None


def parse_xbrl_instance(path: Path, hints: Hints | None = None) -> ParsedDocument:
    """An instance document as a ParsedDocument with ``blocks=[]`` and its numeric facts; ``hints``
    (the user's options) fill what its dei facts leave out."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ParseError(str(path), f"cannot read file: {exc}") from exc
    cut = cut_short_instance(data)
    if cut is not None:
        raise ParseError(str(path), cut)
    labels = _LabelLinkbase(path)
    try:
        extraction, dei = extract_instance_facts(data, find_labels=labels.read)
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
        metadata=_instance_metadata(meta, labels.used, extraction),
        facts=facts,
    )


@dataclass(slots=True)
class _LabelLinkbase:
    """Reads the label linkbase beside an instance when the extraction asks for it; ``used`` names it."""

    instance: Path
    used: Path | None = None

    def read(self, schema_hrefs: list[str]) -> bytes | None:
        found = find_label_linkbase(self.instance, schema_hrefs)
        if found is None:
            return None
        try:
            labels = found.read_bytes()
        except OSError:
            return None
        self.used = self.used or found
        return labels


def _instance_metadata(meta: FilingMeta, used: Path | None, extraction: FactExtraction) -> dict[str, Any]:
    """The instance's stored metadata: its identity, the label linkbase used and what was not read."""
    metadata: dict[str, Any] = {"form": meta.form, "format": "xbrl-instance", **identity_metadata(meta)}
    if meta.year_offset is not None:
        metadata["fiscal_year_offset"] = meta.year_offset
    if used is not None:
        metadata["label_linkbase"] = used.name
    else:
        metadata["xbrl_warnings"] = ["no label linkbase beside the instance (concepts keep their names)"]
    if extraction.warnings or extraction.skipped:
        metadata.setdefault("xbrl_warnings", []).extend(
            [*extraction.warnings, *(f"skipped {where}: {why}" for where, why in extraction.skipped[:5])]
        )
    return metadata


@dataclass(slots=True)
class SubmissionXbrl:
    """The XBRL instance inside a full submission (EX-101.INS): its facts, dei values and problems."""

    extraction: FactExtraction
    dei: dict[str, str]
    label_linkbase: str | None  # FILENAME of the label linkbase used


def submission_xbrl(documents: list[SubmissionDocument]) -> SubmissionXbrl | None:
    """Facts of the submission's EX-101.INS document (before 2019 the XBRL travels beside the HTML),
    named by its label linkbase: the one its schema (EX-101.SCH) declares, else the EX-101.LAB.
    None when the submission has no instance; raises XbrlError when it is not a whole one."""
    instance = next((d for d in documents if d.type == "EX-101.INS"), None)
    if instance is None:
        return None
    cut = cut_short_instance(instance.body)
    if cut is not None:
        raise XbrlError(f"EX-101.INS {instance.filename}: {cut}")
    by_name = {d.filename.lower(): d for d in documents if d.filename}
    used: list[str] = []

    def labels_of(schema_hrefs: list[str]) -> bytes | None:
        for href in schema_hrefs:
            schema = by_name.get(href.rsplit("/", 1)[-1].lower())
            for ref in label_linkbase_refs(schema.body) if schema is not None else []:
                if (found := by_name.get(ref.rsplit("/", 1)[-1].lower())) is not None:
                    used.append(found.filename)
                    return found.body
        lab = next((d for d in documents if d.type == "EX-101.LAB"), None)
        if lab is not None:
            used.append(lab.filename or "EX-101.LAB")
            return lab.body
        return None

    extraction, dei = extract_instance_facts(instance.body, find_labels=labels_of)
    damaged = unread_facts(instance.body, extraction.elements)
    if damaged is not None:
        raise XbrlError(f"EX-101.INS {instance.filename}: {damaged}")
    return SubmissionXbrl(extraction, dei, used[0] if used else None)
