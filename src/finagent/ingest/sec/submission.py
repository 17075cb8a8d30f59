"""EDGAR full-submission files (sec-edgar-downloader's full-submission.txt): the SGML header and the
primary document inside its <TEXT> block."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path


@dataclass(slots=True)
class SubmissionHeader:
    """The fields of an EDGAR SGML header we use as metadata fallbacks."""

    form: str | None = None
    period: date | None = None
    filed: date | None = None
    company: str | None = None
    cik: str | None = None
    fiscal_year_end: str | None = None  # "MMDD"
    accession: str | None = None


_HEADER_FIELDS = {
    "CONFORMED SUBMISSION TYPE": "form",
    "CONFORMED PERIOD OF REPORT": "period",
    "FILED AS OF DATE": "filed",
    "COMPANY CONFORMED NAME": "company",
    "CENTRAL INDEX KEY": "cik",
    "FISCAL YEAR END": "fiscal_year_end",
    "ACCESSION NUMBER": "accession",
}


_HEADER_LINE = re.compile(r"^[ \t]*([A-Z][A-Z \-]+?):[ \t]*(.*?)[ \t]*$", re.M)


def read_header_only(path: Path) -> SubmissionHeader | None:
    """Read just the SGML header of a (possibly huge) submission file."""
    try:
        with Path(path).open("rb") as fh:
            head = fh.read(256 * 1024)
    except OSError:
        return None
    return parse_sgml_header(head.decode("utf-8", errors="replace"))


def parse_sgml_header(text: str) -> SubmissionHeader | None:
    end = text.find("</SEC-HEADER>")
    if end == -1:
        end = text.find("<DOCUMENT>")
    if end == -1 or ("<SEC-HEADER>" not in text[:end] and "<SEC-DOCUMENT>" not in text[:end]):
        return None
    header = SubmissionHeader()
    for m in _HEADER_LINE.finditer(text, 0, end):
        attr = _HEADER_FIELDS.get(m.group(1).strip())
        if attr is None or getattr(header, attr) is not None or not m.group(2):
            continue  # first occurrence wins (the filer comes before e.g. a filed-by section)
        value = m.group(2)
        if attr in ("period", "filed"):
            setattr(header, attr, _yyyymmdd(value))
        else:
            setattr(header, attr, value)
    return header


def _yyyymmdd(value: str) -> date | None:
    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", value.strip())
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


_DOC_RE = re.compile(rb"<DOCUMENT>(.*?)</DOCUMENT>", re.S)


_DOC_OPEN = re.compile(rb"<DOCUMENT>")
_DOC_CLOSE = re.compile(rb"</DOCUMENT>")


def unclosed_document(raw: bytes) -> str | None:
    """Why a submission is not whole (a <DOCUMENT> never closed: the file was cut short), or None.

    Documents that are closed would still be found, so a cut-off submission would otherwise be
    read as a filing that silently lacks its last documents.
    """
    opened, closed = len(_DOC_OPEN.findall(raw)), len(_DOC_CLOSE.findall(raw))
    if opened <= closed:
        return None
    return (
        f"the submission is cut short: <DOCUMENT> {closed + 1} of {opened} is never closed (no </DOCUMENT>)"
    )


_TYPE_RE = re.compile(rb"<TYPE>[ \t]*([^\s<]+)")


_TEXT_RE = re.compile(rb"<TEXT>(.*?)</TEXT>", re.S)


@dataclass(frozen=True, slots=True)
class SubmissionDocument:
    """One <DOCUMENT> of a submission: its TYPE (10-Q, EX-101.INS, ...), FILENAME and <TEXT> bytes."""

    type: str
    filename: str
    body: bytes


_FILENAME_RE = re.compile(rb"<FILENAME>[ \t]*([^\s<]+)")


def submission_documents(raw: bytes) -> list[SubmissionDocument]:
    """Every <DOCUMENT> with a <TEXT> section, in order; an XBRL part loses its <XBRL>/<XML> wrapper.

    Works on bytes so each document keeps its own declared encoding.
    """
    found: list[SubmissionDocument] = []
    for m in _DOC_RE.finditer(raw):
        body = m.group(1)
        tm = _TEXT_RE.search(body)
        if tm is None:
            continue
        inner = tm.group(1).strip()
        for wrapper in (b"XBRL", b"XML"):
            if inner.startswith(b"<" + wrapper + b">"):
                inner = inner[len(wrapper) + 2 :]
                closing = inner.rfind(b"</" + wrapper + b">")
                if closing != -1:
                    inner = inner[:closing]
                inner = inner.strip()
        head = body[: tm.start()]
        type_m = _TYPE_RE.search(head)
        name_m = _FILENAME_RE.search(head)
        found.append(
            SubmissionDocument(
                type=type_m.group(1).decode("ascii", "replace").upper() if type_m else "",
                filename=name_m.group(1).decode("utf-8", "replace") if name_m else "",
                body=inner,
            )
        )
    return found


def primary_document(raw: bytes, form: str | None) -> bytes | None:
    """Bytes of the document whose TYPE is the form (else the first document) of a submission."""
    documents = submission_documents(raw)
    wanted = form.upper() if form else None
    chosen = next((d for d in documents if wanted and d.type == wanted), None)
    if chosen is None and documents:
        chosen = documents[0]
    return None if chosen is None else chosen.body
