"""Evidence handling: pick the best chunks per (ticker, period), label them, condense and cite them.

Labels follow the citation scheme users see: transcripts ``[1]``, 10-K ``[10K1]``, 10-Q ``[10Q1]``,
8-K ``[8K1]``, earnings releases ``[ER1]``, news ``[N1]``, market data ``[M1]``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from finagent.db.search import SearchHit
from finagent.finance.check.reference import SCOPE_NOTE_LEAD
from finagent.finance.citations import OTHER_PREFIX
from finagent.finance.fiscal import quarter_label
from finagent.finance.periods import TimeSpec
from finagent.finance.read.written_figures import latest_day
from finagent.finance.untrusted import strip_invisible
from finagent.finance.words import split_sentences

LABEL_PREFIX = {
    "10-K": "10K",
    "10-Q": "10Q",
    "8-K": "8K",
    "earnings_release": "ER",
    "transcript": "",
    "news": "N",
}
_STOPWORDS = frozenset(
    """
    a an and are as at be by compare did do does for from how in is it its of on or over the their
    to vs was were what when which who with last most recent quarter quarters year years fiscal
    between ending ended change changed total
""".split()
)
_ATTRIBUTE_BREAK = re.compile(r'["<>\n]')
_DELIMITER = re.compile(r"<\s*/?\s*evidence\b[^<>\n]{0,300}>?", re.IGNORECASE)  # unclosed too


def hit_to_evidence(hit: SearchHit, query: str, round_: int) -> dict[str, Any]:
    """A JSON-friendly evidence record for the graph state."""
    return {
        "chunk_id": hit.chunk_id,
        "document_id": hit.document_id,
        "ticker": hit.ticker,
        "kind": hit.kind,
        "fiscal_year": hit.fiscal_year,
        "fiscal_quarter": hit.fiscal_quarter,
        "period_label": quarter_label(hit.fiscal_year, hit.fiscal_quarter),
        "period_end": hit.period_end.isoformat() if hit.period_end else None,
        "section": hit.section,
        "section_title": hit.section_title,
        "page": hit.page,
        "char_start": hit.char_start,
        "char_end": hit.char_end,
        "is_table": hit.is_table,
        "statement": hit.statement,
        "title": hit.title,
        "published_at": hit.published_at.date().isoformat() if hit.published_at else None,
        "source_uri": hit.source_uri,
        "content_sha256": hit.content_sha256,
        "text": hit.text,
        "fused_score": float(hit.fused_score),
        "vector_score": None if hit.vector_score is None else float(hit.vector_score),
        "keyword_score": None if hit.keyword_score is None else float(hit.keyword_score),
        "queries": [query],
        "round": round_,
    }


def chunk_to_evidence(row: dict[str, Any], query: str, round_: int, score: float) -> dict[str, Any]:
    """An evidence record for a chunk read by id (the chunk that displays a reported figure)."""
    end = row.get("period_end")
    return {
        "chunk_id": row["chunk_id"],
        "document_id": row["document_id"],
        "ticker": row.get("ticker"),
        "kind": row["kind"],
        "fiscal_year": row.get("fiscal_year"),
        "fiscal_quarter": row.get("fiscal_quarter"),
        "period_label": quarter_label(row.get("fiscal_year"), row.get("fiscal_quarter")),
        "period_end": end.isoformat() if end else None,
        "section": row.get("section"),
        "section_title": row.get("section_title"),
        "page": row.get("page"),
        "char_start": row["char_start"],
        "char_end": row["char_end"],
        "is_table": row["is_table"],
        "statement": row.get("statement"),
        "title": row.get("title"),
        "source_uri": row.get("source_uri"),
        "content_sha256": row.get("content_sha256"),
        "text": row["text"],
        "fused_score": score,
        "vector_score": None,
        "keyword_score": None,
        "queries": [query],
        "round": round_,
    }


def subject_companies(
    items: Sequence[dict[str, Any]],
    top: int = 3,
    periods: Sequence[tuple[int, int | None]] = (),
    held: Mapping[str, Collection[tuple[int, int | None]]] | None = None,
) -> list[str]:
    """The companies whose filings matched a question that names none, best first, so the answer can
    say which company it is about: those whose filings cover the most of the asked ``periods`` (fiscal
    year, quarter: a question about Q2 FY2024 is about a company that has reported it), in the passages
    found or among the periods the store ``held`` for them, then those of the best-scored passages."""
    filings = [i for i in items if i.get("ticker") and i.get("kind") != "news"]
    covered: dict[str, set[tuple[int, int | None]]] = {}
    for item in filings:
        found = [(item.get("fiscal_year"), item.get("fiscal_quarter")), *(held or {}).get(item["ticker"], ())]
        covered.setdefault(item["ticker"], set()).update(_covered(found, periods))
    ranked = sorted(
        filings, key=lambda i: (-len(covered.get(i["ticker"], ())), -float(i.get("fused_score") or 0.0))
    )
    return list(dict.fromkeys(i["ticker"] for i in ranked))[:top]


def best_match(
    evidence: Sequence[dict[str, Any]],
    targets: Sequence[dict[str, Any]],
    held: Mapping[str, Collection[tuple[int, int | None]]] | None = None,
) -> str | None:
    """The company a question naming none is about: the one whose filings cover both ends of the
    periods it names (a range's two ends, not every quarter between them), then the best passage's."""
    subjects = subject_companies(evidence, top=1, periods=asked_ends(targets), held=held)
    return subjects[0] if subjects else None


def also_holding(
    subject: str,
    targets: Sequence[dict[str, Any]],
    held: Mapping[str, Collection[tuple[int, int | None]]],
) -> list[str]:
    """The other companies whose stored reports cover both ends of the periods asked: a question
    naming no company could be about them too (Best Buy's cash beside Salesforce's)."""
    ends = asked_ends(targets)
    return [
        ticker
        for ticker, periods in held.items()
        if ticker != subject and ends and _covered(periods, ends) == set(ends)
    ]


def asked_ends(targets: Sequence[dict[str, Any]]) -> list[tuple[int, int | None]]:
    """The (fiscal year, quarter) of the first and last period asked (companions aside)."""
    periods = [
        (int(t["fiscal_year"]), t.get("fiscal_quarter"))
        for t in targets
        if t.get("fiscal_year") and not t.get("companion")
    ]
    return list(dict.fromkeys(periods[:1] + periods[-1:]))


def _covered(
    found: Iterable[tuple[Any, Any]], asked: Iterable[tuple[int, int | None]]
) -> set[tuple[int, int | None]]:
    """The asked periods that one of the reports ``found`` is of."""
    reports = list(found)
    return {period for period in asked if any(_covers(report, period) for report in reports)}


def _covers(found: tuple[Any, Any], period: tuple[int, int | None]) -> bool:
    """A report's (fiscal year, quarter) is of the asked period: its year, and its quarter (an annual
    report is its year's fourth quarter)."""
    (year, quarter), (asked_year, asked_quarter) = found, period
    return year == asked_year and (
        asked_quarter is None or quarter == asked_quarter or (asked_quarter == 4 and not quarter)
    )


def _listed(tickers: Sequence[str]) -> str:
    return " and ".join([", ".join(tickers[:-1]), tickers[-1]] if len(tickers) > 1 else tickers)


def subject_note(tickers: Sequence[str], also: Sequence[str] = ()) -> str:
    """One sentence naming the companies an answer to a company-less question is about, and one more
    naming the others whose reports hold the periods asked (``also``): the reader can ask for them."""
    names = _listed(tickers)
    note = (
        f"{SCOPE_NOTE_LEAD}; the filings that match it best are {names}'s, so this answer is about {names}."
    )
    if also:
        note += (
            f" {_listed(also)} also reported the periods asked: name a company to have it answered for it."
        )
    return note


def query_terms(phrases: Iterable[str]) -> list[str]:
    """Lower-case content words of the search phrases (a quarter's "q3" among them), used to keep the
    relevant lines of a chunk."""
    terms: list[str] = []
    for phrase in phrases:
        for word in re.findall(r"\bq[1-4]\b|[a-z][a-z&\-]+", phrase.lower()):
            if word not in _STOPWORDS and word not in terms:
                terms.append(word)
    return terms


def select_evidence(
    evidence: Sequence[dict[str, Any]], per_period: int, max_items: int = 40
) -> list[dict[str, Any]]:
    """Top chunks per (ticker, period), best first, so every company and period gets a voice."""
    return share_evidence(evidence, per_period, max_items)[0]


def _statements_kept(ranked: list[dict[str, Any]], statements: Sequence[str]) -> list[dict[str, Any]]:
    """The chunks a period must keep: the best chunk of each statement the question needs (a
    capital-intensity judgement reads the cash flow, income statement and balance sheet), else its
    best primary-statement chunk."""
    kept: list[dict[str, Any]] = []
    for kind in statements or (None,):
        found = next((e for e in ranked if e.get("statement") and kind in (None, e["statement"])), None)
        if found is not None and found not in kept:
            kept.append(found)
    return kept


_Key = tuple[str, str]
"""A company-period of the evidence: (ticker, period label)."""


def share_evidence(
    evidence: Sequence[dict[str, Any]],
    per_period: int,
    max_items: int = 40,
    statements: Sequence[str] = (),
    figures: bool = True,
) -> tuple[list[dict[str, Any]], list[str]]:
    """(chosen, left out): up to ``per_period`` chunks for each (ticker, period), shared out in rounds.

    Each round gives every company and period its next-best chunk, companies taking turns (each
    one's newest period first), so a budget too small for all never silently drops the last ticker
    in sort order. A period's best primary-statement chunk (the best of each of ``statements``, the
    ones the question needs, when given) always takes the last of its places: reported figures are
    read from statements, and narrative pages that repeat a figure by segment or region can outrank
    the statement itself (3M's geographic table for "net sales"). A question asking no figure
    (``figures`` false: "what production rate changes is Boeing forecasting") keeps none: its few
    places go to the passages that discuss it. ``left out`` names the company-periods that got no
    place and counts the lower-ranked chunks cut.
    """
    groups: dict[_Key, list[dict[str, Any]]] = defaultdict(list)
    for item in evidence:
        groups[(item.get("ticker") or "", item["period_label"])].append(item)
    tops = {key: _period_top(members, per_period, statements, figures) for key, members in groups.items()}
    display = sorted(tops, key=lambda k: (k[0], _period_sort_key(groups[k][0])))
    taken = _places(tops, display, max_items)
    chosen = [item for key in display for item in tops[key][: taken[key]]]
    return chosen, _left_out(tops, display, taken, max_items)


def _period_top(
    members: Sequence[dict[str, Any]], per_period: int, statements: Sequence[str], figures: bool
) -> list[dict[str, Any]]:
    """A period's best ``per_period`` chunks, its must-keep statement chunks (when the question asks a
    figure) taking the last of its places."""
    ranked = sorted(members, key=lambda e: (-e["fused_score"], e["chunk_id"]))
    top = ranked[:per_period]
    kept = _statements_kept(ranked, statements) if figures else []
    for item in kept:
        droppable = [e for e in reversed(top) if e not in kept]
        if item not in top and droppable:
            top.remove(droppable[0])
            top.append(item)
    return top


def _places(
    tops: dict[_Key, list[dict[str, Any]]], display: list[_Key], max_items: int
) -> defaultdict[_Key, int]:
    """How many of each company-period's chunks get a place: rounds of one each, companies taking
    turns (each one's newest period first), until ``max_items`` are placed."""
    by_ticker: dict[str, list[_Key]] = defaultdict(list)
    for key in reversed(display):  # newest period first within each company
        by_ticker[key[0]].append(key)
    turns = [
        queue[i]
        for i in range(max((len(q) for q in by_ticker.values()), default=0))
        for queue in by_ticker.values()
        if i < len(queue)
    ]
    taken: defaultdict[_Key, int] = defaultdict(int)
    room = max_items
    for depth in range(max((len(t) for t in tops.values()), default=0)):
        for key in turns:
            if room > 0 and depth < len(tops[key]):
                taken[key] += 1
                room -= 1
    return taken


def _left_out(
    tops: dict[_Key, list[dict[str, Any]]], display: list[_Key], taken: dict[_Key, int], max_items: int
) -> list[str]:
    """The notes on what the budget cut: company-periods with no place, and lower-ranked chunks."""
    dropped = [f"{k[0]} {k[1]}".strip() for k in display if not taken[k]]
    cut = sum(len(tops[k]) - taken[k] for k in display if taken[k])
    left_out: list[str] = []
    if dropped:
        left_out.append(
            f"no room for evidence of {', '.join(dropped)} (at most {max_items} passages per answer)"
        )
    if cut:
        left_out.append(f"{cut} lower-ranked passage(s) were left out to fit {max_items} passages per answer")
    return left_out


RANGE_KINDS = frozenset({"held", "last_quarters", "last_years", "quarter_range", "year_range", "since_year"})


def spans_periods(specs: Sequence[TimeSpec]) -> bool:
    """Whether the question asks about a range of periods ("across these quarters", "the last four
    quarters") rather than named ones (a year and the year before it, for an average)."""
    return any(spec.kind in RANGE_KINDS for spec in specs)


def interleave_groups(evidence: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Evidence in the order a multi-period answer reads it: each (ticker, period)'s best chunk, then
    each one's second best, and so on (groups by their best score), so one quarter whose statements
    score high cannot fill the list while another quarter of the range goes unread."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for item in sorted(evidence, key=lambda e: (-e["fused_score"], e["chunk_id"])):
        groups[(item.get("ticker") or "", item["period_label"])].append(item)
    ordered = list(groups.values())
    return [
        group[i]
        for i in range(max((len(g) for g in ordered), default=0))
        for group in ordered
        if i < len(group)
    ]


def _period_sort_key(item: dict[str, Any]) -> tuple[int, int]:
    return (item.get("fiscal_year") or 0, item.get("fiscal_quarter") or 5)


def assign_labels(
    items: Sequence[dict[str, Any]], after: Sequence[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """Give each item its citation label ("10Q1", "10K1", "1", "N1"), numbered per kind, after the
    labels the items ``after`` already hold (passages added to an answer's evidence keep theirs)."""
    counters: dict[str, int] = defaultdict(int)
    for held in after:
        if numbered := re.fullmatch(r"(.*?)(\d+)", str(held.get("label") or "")):
            counters[numbered[1]] = max(counters[numbered[1]], int(numbered[2]))
    labelled = []
    for item in items:
        prefix = LABEL_PREFIX.get(item["kind"], OTHER_PREFIX)
        counters[prefix] += 1
        labelled.append({**item, "label": f"{prefix}{counters[prefix]}"})
    return labelled


def condense(text: str, terms: Sequence[str], max_chars: int, recent: bool = False) -> str:
    """Keep what matters for the question within ``max_chars``.

    Tables keep their caption/header lines and every row naming a query term; prose keeps the
    sentences with the most query terms, in document order. Asked where a matter stands (``recent``),
    prose keeps first the sentences on it (sharing a term) that write the latest days: a litigation
    note tells its history in order, and its last developments are what the question asks.
    """
    text = _DELIMITER.sub(" ", strip_invisible(text))
    if len(text) <= max_chars:
        return text
    lines = [line for line in text.splitlines() if line.strip()]
    if sum("|" in line for line in lines) >= 3:
        header = lines[:3]
        rows = [line for line in lines[3:] if any(t in line.lower() for t in terms)]
        kept = "\n".join([*header, *rows]) if rows else "\n".join(lines)
        return kept[:max_chars]
    sentences = _prose_units(lines)
    shared = [sum(t in sentence.lower() for t in terms) for sentence in sentences]
    days = [latest_day(sentence) if recent and shared[i] else None for i, sentence in enumerate(sentences)]
    scored = sorted(
        range(len(sentences)),
        key=lambda i: (-(days[i] or date.min).toordinal(), -shared[i], i),
    )
    keep: set[int] = set()
    size = 0
    for index in scored:
        if size + len(sentences[index]) > max_chars and keep:
            break
        keep.add(index)
        size += len(sentences[index]) + 1
    return " ".join(sentences[i] for i in sorted(keep))[:max_chars]


_SENTENCE_END = re.compile(r"[.!?:;,)]$")
HEADING_WORDS = 6


def _prose_units(lines: list[str]) -> list[str]:
    """Sentences of wrapped prose, with a heading line ("iPhone", "Greater China") kept as a unit of
    its own ending in a colon: joined to the sentence under it, it read "iPhone iPhone net sales
    decreased", and the model copied that."""
    units: list[str] = []
    run: list[str] = []
    for number, line in enumerate(lines):
        stripped = line.strip()
        at_start = not run or bool(_SENTENCE_END.search(run[-1].strip()))
        short = len(stripped.split()) <= HEADING_WORDS and not _SENTENCE_END.search(stripped)
        if at_start and short and number < len(lines) - 1:
            units += [*_sentences(run), stripped + ":"]
            run = []
        else:
            run.append(line)
    return units + _sentences(run)


def _sentences(lines: list[str]) -> list[str]:
    """The sentences of wrapped lines of prose."""
    return split_sentences(" ".join(lines)) if lines else []


def describe(item: dict[str, Any]) -> str:
    """Where an item comes from, for the model and for people: "AAPL 10-Q Q3 FY2023, p.4"."""
    where = [item.get("ticker") or "", item["kind"], item["period_label"]]
    text = " ".join(w for w in where if w)
    if item.get("section_title"):
        text += f", {item['section_title']}"
    if item.get("page") is not None:
        text += f", p.{item['page'] + 1}"
    return text


def format_evidence(
    items: Sequence[dict[str, Any]], terms: Sequence[str], max_chars: int, recent: bool = False
) -> str:
    """Evidence as delimited data blocks, each with its source; text is condensed and stripped of
    delimiter look-alikes and invisible characters. Document text is untrusted data: the prompts
    say so, and passages addressed to AI systems never get here (finance.untrusted)."""
    blocks = [
        evidence_block(item["label"], describe(item), condense(item["text"], terms, max_chars, recent))
        for item in items
    ]
    return "\n".join(blocks) if blocks else "(no evidence found)"


def evidence_block(label: str, source: str, text: str) -> str:
    """One delimited data block of a prompt: the text without delimiter look-alikes or invisible
    characters, its source (document text too: a section title) without attribute breaks."""
    body = _DELIMITER.sub(" ", strip_invisible(text))
    return f'<evidence id="{label}" from="{_ATTRIBUTE_BREAK.sub(" ", source)}">\n{body}\n</evidence>'


def citation_record(item: dict[str, Any]) -> dict[str, Any]:
    """What a citation resolves to: ticker, source kind, fiscal period and its end, section, page and
    URI."""
    return {
        "label": item["label"],
        "ticker": item.get("ticker"),
        "kind": item["kind"],
        "period": item.get("period_label"),
        "period_end": item.get("period_end"),
        "section": item.get("section_title") or item.get("section"),
        "page": None if item.get("page") is None else item["page"] + 1,
        "source_uri": item.get("source_uri"),
        "title": item.get("title"),
        "chunk_id": item.get("chunk_id"),
        "document_id": item.get("document_id"),
        "char_start": item.get("char_start"),
        "char_end": item.get("char_end"),
        "excerpt": (item.get("text") or "")[:300],
    }
