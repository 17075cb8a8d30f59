"""Transcript layouts: Refinitiv-style speaker lines, inline speaker labels, plain sentences → speaker
turns and blocks (prepared remarks, Q&A, participants)."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from finagent.finance.document_records import Block

PREPARED = "prepared_remarks"

QA = "qa"

PARTICIPANTS = "participants"

_HEADER_TIME = re.compile(r"^([A-Za-z]+ \d{1,2}, \d{4}) / (\d{1,2}:\d{2}\s*[AP]M) (GMT|UTC)$", re.I)


SPEAKER_LINE = re.compile(r"^(?P<who>[^\[\]\n]{2,200}?)\s+\[(?P<n>\d{1,4})\]\s*$", re.M)


_SECTION_MARKERS = {
    "presentation": PREPARED,
    "prepared remarks": PREPARED,
    "questions and answers": QA,
    "question and answer": QA,
    "question-and-answer session": QA,
    "q-and-a": QA,
    "q&a": QA,
}


_TRAILERS = {"definitions", "disclaimer"}


_PARTICIPANT_HEADINGS = {
    "corporate participants": "corporate",
    "conference call participants": "analyst",
    "conference call participiants": "analyst",
}


_SUFFIX_PARTS = {"jr.", "jr", "sr.", "sr", "ii", "iii", "iv", "phd", "ph.d."}


def _split_speaker(who: str) -> tuple[str, str | None, str | None]:
    """ "Timothy D. Cook,  Apple Inc. - CEO & Director" into (name, company, role)."""
    parts = [p.strip() for p in who.split(",")]
    name = parts[0]
    rest = parts[1:]
    while rest and rest[0].lower() in _SUFFIX_PARTS:
        name = f"{name}, {rest.pop(0)}"
    affiliation = ", ".join(p for p in rest if p).strip().rstrip("-").strip().rstrip(",").strip()
    if ";" in name:  # "Jensen Huang;Co-Founder, CEO, President & Director, -" (no company)
        name, title = (p.strip() for p in name.split(";", 1))
        role = ", ".join(p for p in (title, affiliation) if p)
        return name, None, role or None
    if not affiliation:
        return name, None, None
    if " - " in affiliation:
        org, role = affiliation.split(" - ", 1)
        return name, org.strip() or None, role.strip() or None
    return name, affiliation, None


def refinitiv_blocks(text: str) -> tuple[list[Block], dict[str, Any]]:
    """Turns introduced by "Name, Company - Role    [n]" lines; header gives participants."""
    header = _CallHeader()
    turns: list[tuple[str, dict[str, Any], list[str]]] = []  # (section, speaker meta, lines)
    section: str | None = None
    saw_marker = False
    for raw in text.split("\n"):
        line = raw.strip()
        lowered = line.lower()
        if lowered in _TRAILERS and turns:
            break
        if lowered in _SECTION_MARKERS:
            section = _SECTION_MARKERS[lowered]
            saw_marker = True
            continue
        m = SPEAKER_LINE.match(line)
        if m:
            turns.append((section or PREPARED, _speaker_meta(m.group("who"), header.participants), []))
            continue
        if turns:
            if line:
                turns[-1][2].append(line)
            continue
        if line:
            header.take(line, lowered)
    if not saw_marker:
        _mark_qa(turns)
    blocks: list[Block] = []
    if header.lines:
        blocks.append(
            Block(text="\n".join(header.lines), section=PARTICIPANTS, section_title="Call participants")
        )
    blocks += _turn_blocks(turns)
    return blocks, header.values


def _speaker_meta(who: str, participants: dict[str, str]) -> dict[str, Any]:
    """A turn's speaker, role, company and kind of participant (operator, analyst, corporate)."""
    name, org, role = _split_speaker(who)
    if name.lower() == "operator":
        participant: str | None = "operator"
    else:
        participant = participants.get(name) or ("analyst" if role and "analyst" in role.lower() else None)
    meta: dict[str, Any] = {"speaker": name, "role": role}
    if org:
        meta["affiliation"] = org
    if participant:
        meta["participant"] = participant
    return meta


@dataclass(slots=True)
class _CallHeader:
    """The lines before the first turn: the title, the call's date and time, the participant lists."""

    lines: list[str] = field(default_factory=list)
    participants: dict[str, str] = field(default_factory=dict)  # name -> the list it is under
    values: dict[str, Any] = field(default_factory=dict)  # "datetime": when the call began
    _list: str | None = None  # the participant list being read

    def take(self, line: str, lowered: str) -> None:
        self.lines.append(line)
        if lowered in _PARTICIPANT_HEADINGS:
            self._list = _PARTICIPANT_HEADINGS[lowered]
        elif line.startswith("*") and self._list:
            self.participants[line.lstrip("* ").split(";", 1)[0].strip()] = self._list
        stamp = _HEADER_TIME.match(line)
        if stamp and "datetime" not in self.values:
            with contextlib.suppress(ValueError):
                self.values["datetime"] = datetime.strptime(
                    f"{stamp.group(1)} {stamp.group(2).replace(' ', '')}", "%B %d, %Y %I:%M%p"
                ).replace(tzinfo=UTC)


def _mark_qa(turns: list[tuple[str, dict[str, Any], list[str]]]) -> None:
    """Without explicit markers, Q&A starts at the operator's first call for questions after remarks."""
    spoke = False
    for i, (_, meta, lines) in enumerate(turns):
        is_operator = meta.get("participant") == "operator" or meta["speaker"].lower() == "operator"
        if is_operator and spoke and "question" in " ".join(lines).lower():
            for j in range(i, len(turns)):
                turns[j] = (QA, turns[j][1], turns[j][2])
            return
        if not is_operator:
            spoke = True


def _turn_blocks(turns: list[tuple[str, dict[str, Any], list[str]]]) -> list[Block]:
    blocks: list[Block] = []
    for turn_no, (section, meta, lines) in enumerate(turns):
        body = "\n\n".join(lines).strip()
        if not body:
            continue
        blocks.append(
            Block(
                text=body,
                section=section,
                section_title=meta["speaker"],
                metadata={**meta, "turn": turn_no},
            )
        )
    return blocks


# "...Please go ahead.Dave Fildes: Hello" or "...Co.Justin Post - Bank of America: Great" -- a
# capitalised name (optionally " - affiliation") right after a sentence end, then a colon.
INLINE_SPEAKER = re.compile(
    r"(?:(?<=[.?!\]\)\"'’”])|^)\s*"
    r"(?P<name>[A-Z][\w'’\-]*\.?(?:\s+(?:[A-Z][\w'’\-]*\.?|de|van|von|la|del)){0,4})"
    r"(?:\s+-\s+(?P<aff>[^:]{2,80}?))?:\s"
)


_HEADER_LABEL = re.compile(
    r"(Executives|Company Representatives|Company Participants|Corporate Participants|Analysts|"
    r"Conference Call Participants|Participants)\s*:"
)


_HEADER_KINDS = {"Analysts": "analyst", "Conference Call Participants": "analyst", "Participants": None}


def inline_blocks(text: str) -> tuple[list[Block], dict[str, Any]]:
    """Turns glued inline ("...ahead.Dave Fildes: Hello..."), validated against the text."""
    flat = re.sub(r"\s*\n\s*", " ", text).strip()
    header, body = "", flat
    if _HEADER_LABEL.match(flat):
        # "Executives: ... Analysts: ...Operator: Good day" -- the call starts with the operator.
        op = flat.find("Operator:")
        if op > 0:
            header, body = flat[:op], flat[op:]
    segments: list[tuple[str, str]] = []  # (participant kind, header text listing those people)
    labels = list(_HEADER_LABEL.finditer(header))
    for i, m in enumerate(labels):
        kind = _HEADER_KINDS.get(m.group(1), "corporate")
        if kind:
            segments.append((kind, header[m.end() : labels[i + 1].start() if i + 1 < len(labels) else None]))

    candidates = list(INLINE_SPEAKER.finditer(body))
    roles: dict[str, str] = {}
    for m in candidates:
        for kind, segment in segments:
            if f"{m.group('name')} -" in segment:
                roles.setdefault(m.group("name"), kind)
    seen: dict[str, int] = {}
    for m in candidates:
        seen[m.group("name")] = seen.get(m.group("name"), 0) + 1

    def plausible(name: str) -> bool:
        if name == "Operator" or name in roles or name in header or seen.get(name, 0) >= 2:
            return True
        return len(name.split()) >= 2 and flat.count(name) >= 2

    turns_at = [m for m in candidates if plausible(m.group("name"))]
    turns: list[tuple[str, dict[str, Any], list[str]]] = []
    for i, m in enumerate(turns_at):
        end = turns_at[i + 1].start() if i + 1 < len(turns_at) else len(body)
        name = m.group("name")
        meta: dict[str, Any] = {"speaker": name, "role": None}
        if m.group("aff"):
            meta["affiliation"] = m.group("aff").strip()
        participant = "operator" if name == "Operator" else roles.get(name)
        if participant:
            meta["participant"] = participant
        turns.append((PREPARED, meta, [body[m.end() : end].strip()]))
    _mark_qa(turns)
    _infer_participants(turns)
    blocks: list[Block] = []
    preamble = (header + body[: turns_at[0].start()] if turns_at else flat).strip()
    if preamble and turns:
        blocks.append(Block(text=preamble, section=PARTICIPANTS, section_title="Call participants"))
    elif preamble:
        blocks.append(Block(text=preamble, section=PREPARED, section_title="Prepared remarks"))
    blocks += _turn_blocks(turns)
    return blocks, {}


def _infer_participants(turns: list[tuple[str, dict[str, Any], list[str]]]) -> None:
    """Fill missing participant kinds: remarks speakers are corporate, people the operator
    introduces in Q&A are analysts, and whoever answers them is corporate."""
    corporate = {m["speaker"] for s, m, _ in turns if s == PREPARED and m["speaker"] != "Operator"}
    corporate |= {m["speaker"] for _, m, _ in turns if m.get("participant") == "corporate"}
    analysts = {m["speaker"] for _, m, _ in turns if m.get("participant") == "analyst"}
    last_operator_text = ""
    asking: str | None = None  # the analyst whose question is being answered
    for section, meta, lines in turns:
        name = meta["speaker"]
        if meta.get("participant") == "operator" or name == "Operator":
            last_operator_text, asking = " ".join(lines), None
            continue
        if section == QA and asking is None and name not in corporate:
            introduced = name in last_operator_text or name.split()[-1] in last_operator_text
            if introduced or name in analysts:
                asking = name
        if meta.get("participant"):
            continue
        if name in corporate:
            meta["participant"] = "corporate"
        elif name == asking or name in analysts:
            meta["participant"] = "analyst"
        elif section == QA and asking is not None:
            meta["participant"] = "corporate"  # answering the analyst's question


def sentence_blocks(text: str) -> list[Block]:
    """MAEC prepared remarks: one sentence per line, no speakers; kept as one block."""
    sentences = [line.strip() for line in text.split("\n") if line.strip()]
    if not sentences:
        return []
    return [Block(text="\n".join(sentences), section=PREPARED, section_title="Prepared remarks")]
