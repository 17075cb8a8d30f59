"""Retrieval evaluation: every system on every question in one run, scored and summarised."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from finagent.agent.context import Context
from finagent.agent.resources import AgentResources
from finagent.db.evaluation import document_names
from finagent.evaluation.datasets import EvalQuestion
from finagent.evaluation.metrics import RankedChunk, aggregate, retrieval_scores
from finagent.evaluation.systems import SYSTEMS, Ranked, dense, finagent_system, seed_hybrid

K = 20


# "finagent/no-routing" is finagent with one retrieval lever off (the ablation table).
LEVERS = {
    "no-vocabulary": "use_vocabulary",
    "no-answer-lean": "lean_to_answer",
    "no-routing": "route_statements",
    "no-statement-lift": "lift_statements",
    "no-kind-priors": "narrow_kinds",
    "no-period-filter": "filter_periods",
    "no-rerank": "rerank",
    "no-period-quota": "quota_per_period",
    "no-covering-report": "cover_missing_periods",
    "no-event-days": "search_event_days",
    "no-event-words": "search_event_words",
    "no-guidance-year": "search_guidance_year",
    "no-unnamed-periods": "periods_without_company",
    "no-undated-years": "rank_undated_years",
    "no-annual-topics": "annual_topics_undated",
    "no-item-routing": "route_sections",
    "no-forecast-unrouted": "unroute_forecasts",
    "no-neighbors": "read_neighbors",
}


def known_system(name: str) -> bool:
    base, _, lever = name.partition("/")
    return base in SYSTEMS and (not lever or (base == "finagent" and lever in LEVERS))


def lever_off(context: Context, lever: str) -> Context:
    """The run's context with one lever of the ablation table off ("no-routing")."""
    return replace(context, ablations=replace(context.ablations, **{LEVERS[lever]: False}))


def system_runners(
    names: Sequence[str], context: Context
) -> dict[str, Callable[[AgentResources, str, int], Ranked]]:
    runners: dict[str, Callable[[AgentResources, str, int], Ranked]] = {}
    for name in names:
        base, _, lever = name.partition("/")
        if base == "finagent":
            runners[name] = finagent_system(lever_off(context, lever) if lever else context)
        else:
            runners[name] = {"dense": dense, "seed-hybrid": seed_hybrid}[base]
    return runners


def run_retrieval(
    questions: Sequence[EvalQuestion],
    systems: Sequence[str],
    resources: AgentResources,
    *,
    context: Context | None = None,
    halves: dict[str, str] | None = None,
    on_done: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """One result row per (question, system): ranked chunks, their documents and pages, scores, time
    (and the question's half of the set, from ``halves``, when given)."""
    runners = system_runners(systems, context or Context(use_tools=False))
    rows: list[dict[str, Any]] = []
    for question in questions:
        for name, runner in runners.items():
            started = time.perf_counter()
            ranked = runner(resources, question.question, K)
            seconds = time.perf_counter() - started
            with resources.database().connection() as conn:
                names = document_names(conn, sorted({d for _, d, _ in ranked}))
            chunks = [RankedChunk(names.get(d, "?"), page) for _, d, page in ranked]
            rows.append(
                {
                    "id": question.id,
                    "system": name,
                    "question_type": question.question_type,
                    **({"half": halves[question.id]} if halves and question.id in halves else {}),
                    "chunk_ids": [c for c, _, _ in ranked],
                    "pages": [[c.doc, c.page] for c in chunks],
                    "gold_docs": list(question.gold_docs),
                    "gold_pages": [list(p) for p in question.gold_pages],
                    "scores": retrieval_scores(chunks, question.gold_docs, question.gold_pages),
                    "seconds": round(seconds, 3),
                }
            )
        if on_done:
            on_done()
    return rows


def summarise(
    rows: Sequence[dict[str, Any]], systems: Sequence[str]
) -> dict[str, dict[str, dict[str, float]]]:
    summary = {name: _grouped([r for r in rows if r["system"] == name]) for name in systems}
    for name in systems:
        times = sorted(r["seconds"] * 1000 for r in rows if r["system"] == name)
        if times:
            summary[name]["all"]["latency_ms_p50"] = round(_percentile(times, 50), 1)
            summary[name]["all"]["latency_ms_p95"] = round(_percentile(times, 95), 1)
    return summary


def _grouped(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Scores overall, per question type and, when rows carry their half of the set, per half and
    per half and type ("half B / novel-generated")."""
    groups = aggregate([(r["question_type"], r["scores"]) for r in rows])
    halved = [r for r in rows if "half" in r]
    for label in (lambda r: f"half {r['half']}", lambda r: f"half {r['half']} / {r['question_type']}"):
        groups |= {
            group: scores
            for group, scores in aggregate([(label(r), r["scores"]) for r in halved]).items()
            if group != "all"
        }
    return groups


def _percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile of sorted values."""
    position = (len(values) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def markdown_table(summary: dict[str, dict[str, dict[str, float]]], baseline: str = "dense") -> str:
    """Systems side by side (overall), with each metric's ratio to the baseline."""
    systems = list(summary)
    metrics = [m for m in next(iter(summary.values()))["all"] if m != "n"]
    compared = [s for s in systems if s != baseline] if baseline in summary else []
    header = ["metric", *systems, *(f"{s} / {baseline}" for s in compared)]
    lines = [_row(header), _row(["---"] * len(header))]
    for metric in metrics:
        cells = [metric, *(f"{summary[s]['all'][metric]:.3f}" for s in systems)]
        if compared:
            base = summary[baseline]["all"][metric]
            cells += [f"{summary[s]['all'][metric] / base:.2f}×" if base else "n/a" for s in compared]
        lines.append(_row(cells))
    by_type = []
    for system in systems:
        for group, scores in sorted(summary[system].items(), key=lambda g: (g[0].startswith("half"), g[0])):
            if group != "all":
                recall = scores.get("page_recall@10", scores.get("doc_recall", 0.0))
                hit = scores.get("doc_hit@1", 0.0)
                by_type.append(f"| {system} | {group} | {int(scores['n'])} | {hit:.3f} | {recall:.3f} |")
    if by_type:
        lines += [
            "",
            "| system | question type (half of the set) | n | doc hit@1 "
            "| page recall@10 (doc recall without pages) |",
            "|---|---|---|---|---|",
            *by_type,
        ]
    return "\n".join(lines)


def write_results(rows: Sequence[dict[str, Any]], summary: dict[str, Any], table: str, stem: Path) -> None:
    stem.parent.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    stem.with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")
    stem.with_suffix(".md").write_text(table + "\n")
