"""The answer to "how have the risk factors / legal proceedings changed", computed: the same part of a
company's filings compared heading by heading (``finance.filing_changes``), each change cited to the
filing it is read from; with one filing of the kind in the store, the answer says so and what a
comparison needs. No model writes it: every sentence is the comparison's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from finagent.agent.answer.wording import counted, joined
from finagent.agent.answer.wording import name as display_name
from finagent.agent.evidence import assign_labels
from finagent.agent.understand.question import Question
from finagent.finance.compute.cover_changes import compare_titles, registered_securities
from finagent.finance.compute.filing_changes import (
    Changes,
    FilingPart,
    Heading,
    Passage,
    Period,
    QuarterRisk,
    annual_before,
    asked_quarter_filing,
    compare_headings,
    compared_filings,
    legal_matters,
    missing_filings,
    no_material_changes,
    quarter_risks,
    refers_elsewhere,
    risk_headings,
)
from finagent.finance.fiscal import quarter_label
from finagent.finance.read.filing_sections import topic_named

_MAX_LISTED = 8  # headings listed per kind of change; the rest are counted


class _Citer:
    """The labelled passages an answer cites, each labelled once, in the order cited."""

    def __init__(self, rows: Sequence[dict[str, Any]]) -> None:
        self._rows = {int(r["chunk_id"]): r for r in rows}
        self.items: list[dict[str, Any]] = []

    def cite(self, chunk_id: int) -> str:
        held = next((i for i in self.items if i["chunk_id"] == chunk_id), None)
        if held is None:
            held = assign_labels([self._rows[chunk_id]], self.items)[0]
            self.items.append(held)
        return f"[{held['label']}]"


def filing_parts(rows: Sequence[dict[str, Any]], sections: Sequence[str]) -> list[FilingPart]:
    """Each filing's part of those sections, from the stored chunks (in the filing's order)."""
    wanted = [r for r in rows if r.get("section") in sections]
    parts = []
    for document_id, chunks in groupby(wanted, key=lambda r: r["document_id"]):
        own = list(chunks)
        first = own[0]
        passages = tuple(Passage(int(r["chunk_id"]), r["text"], r["char_start"], r["char_end"]) for r in own)
        year, quarter = first.get("fiscal_year"), first.get("fiscal_quarter")
        label = f"{first['kind']} for {quarter_label(year, quarter)}"
        parts.append(
            FilingPart(
                int(document_id),
                first["kind"],
                label,
                year,
                quarter,
                first.get("period_end") or "",
                str(first["section"]),
                passages,
            )
        )
    return parts


@dataclass(frozen=True, slots=True)
class ChangesAnswer:
    """The computed answer, the passages it cites (labelled), and the asked periods it names that the
    store holds no filing of (the question's own periods, not figures of any source)."""

    text: str
    cited: list[dict[str, Any]]
    absent: list[str]


def changes_answer(
    plan: Question, rows: Sequence[dict[str, Any]], asked: Sequence[Period]
) -> ChangesAnswer | None:
    """The computed answer; None when the store holds none of the parts (a filing whose Items were
    not recognised: the passages found answer instead)."""
    citer = _Citer(rows)
    paragraphs = []
    absent: list[str] = []
    for ticker in plan.tickers:
        own = [r for r in rows if r.get("ticker") == ticker]
        company = display_name(ticker, plan.names)
        for name in plan.filing_changes:
            topic = topic_named(name)
            parts = filing_parts(own, topic.sections) if topic else []
            quarterly = asked_quarter_filing(parts, asked) if name == "risk factors" else None
            if quarterly is not None:  # a 10-Q states its own changes since the annual report
                paragraphs.append(
                    _quarter_paragraph(company, quarterly, annual_before(parts, quarterly), citer)
                )
            elif parts:
                filings = compared_filings(parts, plan.named_kinds, asked)
                missing = missing_filings(parts, plan.named_kinds, asked)
                absent += [quarter_label(year, quarter) for year, quarter in missing]
                paragraphs.append(
                    _topic_paragraph(company, name, filings, citer, missing)
                    if filings
                    else _none_of_kind(company, name, plan.named_kinds, parts)
                )
    if not paragraphs:
        return None
    return ChangesAnswer("\n\n".join(paragraphs), citer.items, list(dict.fromkeys(absent)))


def _topic_paragraph(
    company: str, topic: str, filings: list[FilingPart], citer: _Citer, missing: Sequence[Period] = ()
) -> str:
    """One company's changes of one topic between its first and last compared filings, and what its
    10-Qs say themselves ("no material changes to the risk factors"); an asked filing the store does
    not hold is said first, and the filings either side of it are compared instead."""
    later = filings[-1]
    absent = (
        _absent(company, later.kind, missing, filings, citer) if missing else ""
    )  # cited first: read first
    stated = [(f, no_material_changes(f)) for f in filings[-1:0:-1] or filings]
    said = [f"its {f.label} says: \u201c{s.text}\u201d {citer.cite(s.chunk_id)}" for f, s in stated if s]
    saying = f"Of changes to {company}'s {topic}, {joined(said)}." if said else ""
    if absent:
        if len(filings) < 2:
            return " ".join(p for p in (absent, saying) if p)
        return absent + "\n\n" + _compared(company, topic, filings, citer, saying)
    if len(filings) < 2:
        only = (
            f"The store holds only one {later.kind} of {company} with its {topic} (its {later.label}), "
            f"so what changed between filings cannot be computed: comparing needs an earlier or later "
            f"{later.kind} of {company} in the store."
        )
        return " ".join(p for p in (saying, only) if p)
    return _compared(company, topic, filings, citer, saying)


NEW_SHOWN = 2  # new sentences quoted per risk factor of a 10-Q
NEW_OF_RISKS = 4  # risk factors whose new sentences are quoted; the rest by their headings
NEW_MIN_CHARS = 60  # shorter: a mark or a fragment the sentence splitter left ("®")


def _quarter_paragraph(company: str, filing: FilingPart, annual: FilingPart | None, citer: _Citer) -> str:
    """What a 10-Q says of its risk factors: its own sentence on what changed since the annual report,
    then each risk factor it sets out (new, or updated from the annual report's heading) with the
    sentences of its discussion the annual report's lacks."""
    said = no_material_changes(filing)
    opening = f"{company}'s {filing.label} says: {_quoted(said, citer)}" if said else ""
    risks = quarter_risks(filing, annual)
    if not risks:
        cited = citer.cite(filing.passages[0].chunk_id)
        return opening or f"{company}'s {filing.label} sets out no risk factor of its own {cited}."
    since = (
        f"against its {annual.label}"
        if annual is not None
        else "(the store holds no annual report before it, so what is new in each is not computed)"
    )
    lines = [f"It sets out {_count(len(risks), 'risk factor')} {since}:"]
    lines += [
        f"- {_quarter_risk(r, i < NEW_OF_RISKS, annual, citer)}" for i, r in enumerate(risks[:_MAX_LISTED])
    ]
    if len(risks) > _MAX_LISTED:
        lines.append(f"- and {counted(len(risks) - _MAX_LISTED)} more")
    return "\n\n".join(p for p in (opening, "\n".join(lines)) if p)


def _quarter_risk(risk: QuarterRisk, with_news: bool, annual: FilingPart | None, citer: _Citer) -> str:
    """One risk factor of a 10-Q: its heading, whether it is new or updated, and what is new in it."""
    text = _quoted(risk.heading, citer)
    if annual is not None and risk.earlier is None:
        text += " (new)"
    elif annual is not None and risk.earlier is not None and risk.earlier.text != risk.heading.text:
        text += f" (its {annual.label} headed it {_quoted(risk.earlier, citer)})"
    news = (
        _most_specific([s for s in risk.new_sentences if len(s.text) >= NEW_MIN_CHARS]) if with_news else []
    )
    if news:
        text += " New in its discussion: " + " ".join(_quoted(s, citer) for s in news)
    return text


_SPECIFIC = re.compile(r"(?<!^)\b(?:[A-Z][\w’'.-]*|\w*\d\w*)")


def _most_specific(sentences: Sequence[Heading]) -> list[Heading]:
    """The ``NEW_SHOWN`` sentences naming the most (names, acronyms, dates and figures: "In January
    2024, … the Digital Markets Act"), in their order: what is new in a risk's discussion is told by
    what it names, not by its general words ("The Company expects to make further changes")."""
    named = sorted(sentences, key=lambda s: -len(set(_SPECIFIC.findall(s.text)) - {"The", "Company"}))
    kept = {id(s) for s in named[:NEW_SHOWN]}
    return [s for s in sentences if id(s) in kept]


def _none_of_kind(company: str, topic: str, kinds: Sequence[str], held: Sequence[FilingPart]) -> str:
    """The kind of filing asked is not held at all; what is held with the topic's part."""
    asked = " or ".join(kinds) or "filing"
    others = joined([f"its {label}" for label in dict.fromkeys(p.label for p in held)])
    return f"The store holds no {asked} of {company} with its {topic}; it holds {others}."


def _absent(
    company: str, kind: str, missing: Sequence[Period], nearest: Sequence[FilingPart], citer: _Citer
) -> str:
    """ "The store holds no 10-Q of Apple for Q1 FY2025; this answer reads the nearest it holds: …": what
    was asked and is not there, then the filings read instead (each cited; ``nearest`` is never empty)."""
    periods = joined([quarter_label(year, quarter) for year, quarter in missing])
    held = joined([f"its {f.label} {citer.cite(f.passages[0].chunk_id)}" for f in nearest])
    instead = f"this answer reads the nearest it holds: {held}"
    return f"The store holds no {kind} of {company} for {periods}; {instead}."


def _compared(company: str, topic: str, filings: list[FilingPart], citer: _Citer, saying: str) -> str:
    """The headings of the first and last compared filings, added, removed and reworded."""
    earlier, later = filings[0], filings[-1]
    between = f"Between {company}'s {earlier.label} and its {later.label}"
    read = _READERS[topic]
    old, new = read(earlier), read(later)
    if not old or not new:
        if saying:
            return saying
        missing = earlier if not old else later
        reference = refers_elsewhere(missing)
        if reference is not None:
            lacking = f"{topic} refer to the notes: {_quoted(reference, citer)}"
            return f"{between}, nothing could be compared: the {missing.label}'s {lacking}."
        lacking = _LACKING[topic]
        cited = citer.cite(missing.passages[0].chunk_id)
        return f"{between}, nothing could be compared: its {missing.label} has {lacking} {cited}."
    if topic == "cover page":
        body = _security_changes(compare_titles(old, new), citer)
    elif topic == "risk factors":
        body = _risk_changes(compare_headings(old, new), citer)
    else:
        body = _matter_changes(compare_headings(old, new), citer)
    return "\n\n".join(p for p in (saying, f"{between}, {company} {body}") if p)


_READERS: dict[str, Callable[[FilingPart], list[Heading]]] = {
    "risk factors": risk_headings,
    "legal proceedings": legal_matters,
    "cover page": registered_securities,
}
"""How each compared part is read: risk factors by their headings, legal matters by their titles, a
cover page by the securities it registers."""
_LACKING = {
    "risk factors": "no risk-factor headings",
    "legal proceedings": "no titled legal matters",
    "cover page": "no registered securities listed",
}


def _count(n: int, noun: str) -> str:
    return f"{counted(n)} {noun}{'' if n == 1 else 's'}"


def _quoted(heading: Heading, citer: _Citer) -> str:
    return f"\u201c{heading.text}\u201d {citer.cite(heading.chunk_id)}"


def _listed(headings: Sequence[Heading], citer: _Citer) -> str:
    shown = [_quoted(h, citer) for h in headings[:_MAX_LISTED]]
    more = len(headings) - len(shown)
    return "; ".join(shown) + (f"; and {counted(more)} more" if more > 0 else "")


def _risk_changes(changes: Changes, citer: _Citer) -> str:
    """ "added two risk factors: …; removed one: …; reworded three: …", each cited to its filing."""
    if not (changes.added or changes.removed or changes.reworded):
        return f"kept the same risk-factor headings ({counted(changes.unchanged)} of them, none reworded)."
    # cited in the order the answer reads: the added headings' filing first
    added = f"added {_count(len(changes.added), 'risk factor')}"
    added += f": {_listed(changes.added, citer)}" if changes.added else ""
    removed = f"removed {counted(len(changes.removed)) if changes.removed else 'none'}"
    removed += f": {_listed(changes.removed, citer)}" if changes.removed else ""
    pairs = [f"{_quoted(a, citer)} now reads {_quoted(b, citer)}" for a, b in changes.reworded[:_MAX_LISTED]]
    reworded = f"reworded {counted(len(changes.reworded)) if pairs else 'none'}" + (
        ": " + "; ".join(pairs) if pairs else ""
    )
    listed = [added, removed, reworded]
    unchanged = f"{counted(changes.unchanged).capitalize()} headings are unchanged"
    return "; ".join(listed) + f". {unchanged} (headings compared by their text's similarity)."


def _security_changes(changes: Changes, citer: _Citer) -> str:
    """Securities no longer listed on the cover and newly listed, by their titles."""
    if not (changes.added or changes.removed):
        return f"lists the same registered securities on its cover ({counted(changes.unchanged)})."
    gone = _change("no longer lists", _securities(len(changes.removed)), changes.removed, citer)
    new = _change("newly lists", _securities(len(changes.added)), changes.added, citer)
    return f"{gone}; {new}. {counted(changes.unchanged).capitalize()} are listed on both."


def _securities(n: int) -> str:
    return f"{counted(n)} {'security' if n == 1 else 'securities'}" if n else "none"


def _change(verb: str, count: str, headings: Sequence[Heading], citer: _Citer, why: str = "") -> str:
    """ "no longer lists one security: “…” [8K1]": what changed, how many, and each cited."""
    return f"{verb} {count}" + (f"{why}: {_listed(headings, citer)}" if headings else "")


def _matter_changes(changes: Changes, citer: _Citer) -> str:
    """New legal matters and those no longer described, by their titles."""
    if not (changes.added or changes.removed):
        return f"describes the same legal matters ({counted(changes.unchanged + len(changes.reworded))})."
    new = _change("describes", _count(len(changes.added), "new legal matter"), changes.added, citer)
    why = " (resolved or no longer material)"
    gone = _change("no longer describes", counted(len(changes.removed)), changes.removed, citer, why)
    return f"{new}; {gone}."
