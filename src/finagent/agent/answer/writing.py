"""What both writers (text evidence and figures) share: the evidence budget, tool lines, citations."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from finagent.agent.context import Context
from finagent.agent.evidence import (
    assign_labels,
    citation_record,
    share_evidence,
)
from finagent.finance.check.support import Passage
from finagent.finance.citations import cited_labels
from finagent.finance.words import split_sentences

MAX_SENTENCES = {"direct": 4, "standard": 8, "detailed": 14, "deep": 20}
WRITER_TOKENS = {"direct": 250}
"""Output cap of a mode's written answer, when below the writer's own (4 sentences, with citations, fit
in 250 tokens; a small model that writes on past them spends a minute on sentences it was not asked)."""
WRITER_CHARS = {"direct": 2400, "standard": 3600, "detailed": 5200, "deep": 7000}
"""Passage characters the writer reads per answer mode (~4 characters a token, ~100 tokens/s locally)."""


def budgeted_evidence(
    evidence: list[dict[str, Any]], context: Context, statements: Sequence[str] = (), figures: bool = True
) -> tuple[list[dict[str, Any]], int, list[str]]:
    """Best chunks per (ticker, period), the characters each may keep, and what was left out (named
    in warnings), within the budget the model can read in time (the local model reads ~100 tokens/s).
    The statements a question's formulas read (``statements``) keep their place in each period; a
    question asking no figure (``figures`` false) keeps no statement's."""
    groups = {(e.get("ticker"), e["period_label"]) for e in evidence}
    per_group = max(400, context.evidence_budget_chars // max(1, len(groups)))
    per_period = max(1, min(context.evidence_per_period, per_group // max(1, context.evidence_chars)))
    chars = min(context.evidence_chars, per_group // per_period)
    items, left_out = share_evidence(
        evidence, per_period, max_items=context.max_evidence_items, statements=statements, figures=figures
    )
    return assign_labels(items), chars, left_out


_WORD = re.compile(r"[a-z][a-z\-]{2,}")
_COMMON = frozenset(
    """
    the and for was were are has had have that this with from which also its their during compared
    same than primarily due company quarter year fiscal period net total million billion percent
    """.split()
)


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _COMMON}


def cite_passages(text: str, passages: list[dict[str, Any]], support: float = 0.5) -> str:
    """Each uncited sentence gets the label of the passage that carries most of its words, when that
    passage carries at least ``support`` of them: a narrative claim points at where it comes from.

    A sentence no passage supports stays uncited (the reader sees it has no source).
    """
    readable = [(p["label"], _content_words(p.get("text") or "")) for p in passages if p.get("label")]
    if not readable:
        return text
    out = []
    for sentence in split_sentences(text):
        words = _content_words(sentence)
        if cited_labels(sentence) or len(words) < 4:
            out.append(sentence)
            continue
        label, share = max(((lab, len(words & pw) / len(words)) for lab, pw in readable), key=lambda x: x[1])
        if share >= support:
            body, end = (sentence[:-1], sentence[-1]) if sentence[-1:] in ".!?" else (sentence, "")
            sentence = f"{body} [{label}]{end}"
        out.append(sentence)
    return " ".join(out)


DISCUSSION_LIFT = 1.0


def favour_discussion(evidence: list[dict[str, Any]], marker: str) -> list[dict[str, Any]]:
    """For a why/what question: prose passages found by the discussion search (``marker`` in their
    queries) rank above statement tables, which state the numbers but never why they moved."""
    return [
        {**e, "fused_score": float(e["fused_score"]) + DISCUSSION_LIFT}
        if any(marker in q for q in e.get("queries") or []) and not (e.get("is_table") or e.get("statement"))
        else e
        for e in evidence
    ]


def tool_items(tool_results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Market data and news results as citable items ([M1], [N1])."""
    items = []
    counters: dict[str, int] = defaultdict(int)
    for result in tool_results:
        if not result.get("ok"):
            continue
        prefix = "N" if result["tool"] == "company_news" else "M"
        counters[prefix] += 1
        items.append({**result, "label": f"{prefix}{counters[prefix]}"})
    return items


def format_tool_items(items: list[dict[str, Any]]) -> str:
    return "\n".join(
        f'<evidence id="{i["label"]}" from="{i["source"]}">\n{i["summary"]}\n</evidence>' for i in items
    )


def drop_unknown_citations(text: str, known: set[str]) -> tuple[str, list[str]]:
    """The text without citation labels that match no evidence item or tool result, and a warning each."""
    warnings: list[str] = []
    for label in cited_labels(text):
        if label not in known:
            text = re.sub(rf"\[\s*{re.escape(label)}\s*\]", "", text)
            text = re.sub(
                rf"(?<=[\[,;\s]){re.escape(label)}\s*[,;]\s*|\s*[,;]\s*{re.escape(label)}(?=\])", "", text
            )
            warnings.append(f"removed citation [{label}]: it matches no retrieved evidence")
    return text.strip(), warnings


def resolve_citations(
    text: str, by_label: dict[str, dict[str, Any]], tools_by_label: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """What each citation label of the text resolves to: a stored chunk, a filing, or a tool result."""
    citations = []
    for label in cited_labels(text):
        if label in by_label:
            citations.append(citation_record(by_label[label]))
        elif label in tools_by_label:
            item = tools_by_label[label]
            citations.append(
                {
                    "label": label,
                    "ticker": item.get("ticker"),
                    "kind": "market_data" if label.startswith("M") else "news",
                    "period": item.get("as_of"),
                    "section": item["tool"],
                    "page": None,
                    "source_uri": item.get("source"),
                    "title": item.get("summary", "")[:120],
                    "chunk_id": None,
                    "document_id": None,
                }
            )
    return citations


def not_available(tool_results: list[dict[str, Any]]) -> str:
    """The line naming the market data and news that could not be had ("" when nothing failed)."""
    missing = [r for r in tool_results if not r.get("ok")]
    if not missing:
        return ""
    return "Not available: " + "; ".join(
        f"{r['tool'].replace('_', ' ')} for {r.get('ticker') or 'all'} ({r.get('warning') or 'no data'})"
        for r in missing
    )


def _period(item: dict[str, Any]) -> str:
    """A filing passage's period as a sentence may name it: "FY2024 ended 2025-02-02"."""
    label, end = item.get("period_label") or "", item.get("period_end") or ""
    return f"{label} ended {end}" if end else label


def citable(items: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Passage]:
    """Every passage a sentence may cite, as the support check reads it."""
    passages = {
        i["label"]: Passage(
            i["label"],
            i.get("text") or "",
            i.get("ticker"),
            i["kind"],
            (i.get("published_at") or "")[:10] if i["kind"] == "news" else _period(i),
            i.get("title") or "",
        )
        for i in items
    }
    for tool in tools:
        kind = "news" if tool["label"].startswith("N") else "market_data"
        passages[tool["label"]] = Passage(tool["label"], tool.get("summary") or "", None, kind, "", "")
    return passages
