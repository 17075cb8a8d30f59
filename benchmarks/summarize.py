"""Print the README's Benchmarks tables from benchmarks/results/*.json."""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def ingest_table(data: dict) -> list[str]:  # type: ignore[type-arg]
    lines = [
        f"Ingest throughput — {data['machine']['date']}, {data['machine']['cpus']} CPUs "
        f"({len(data['corpus'])} sources: the 20 10-Q PDFs and EDGAR iXBRL filings):",
        "",
        "| backend | documents | chunks | end-to-end chunks/s | bare embedding chunks/s | ratio |",
        "|---|---|---|---|---|---|",
    ]
    for run in data["runs"]:
        lines.append(
            f"| {run['backend']} | {run['documents']} | {run['chunks']} | {run['end_to_end_chunks_per_s']} "
            f"| {run['bare_embedding_chunks_per_s']} | {run['ratio_end_to_end_vs_bare']} |"
        )
    runs = {r["backend"]: r for r in data["runs"]}
    if {"onnx", "torch"} <= runs.keys():
        speedup = runs["onnx"]["end_to_end_chunks_per_s"] / runs["torch"]["end_to_end_chunks_per_s"]
        lines += ["", f"ONNX int8 ingests {speedup:.1f}× faster than PyTorch end to end (same run)."]
    return lines


def search_table(data: dict) -> list[str]:  # type: ignore[type-arg]
    corpus = data["corpus"]
    ours, seed = data["filtered_hybrid_subsearch"], data["seed_style_same_queries"]
    par, emb = data["parallel_32_subsearches_wall"], data["filtered_hybrid_with_query_embedding"]
    return [
        f"Search latency — {data['machine']['date']}, {corpus['chunks']:,} chunks "
        f"({corpus['real_chunks']:,} real FinanceBench + {corpus['padding_chunks']:,} padding), "
        f"pool of {data['pool_max_size']}:",
        "",
        "| measurement | p50 | p95 | target |",
        "|---|---|---|---|",
        f"| filtered hybrid sub-search (SQL) | {ours['p50_ms']} ms | {ours['p95_ms']} ms | p95 ≤ 10 ms |",
        f"| same, including query embedding | {emb['p50_ms']} ms | {emb['p95_ms']} ms | |",
        f"| 32 sub-searches in parallel (wall) | {par['p50_ms']} ms | {par['p95_ms']} ms | ≤ 150 ms |",
        f"| replaced system's query form, same queries | {seed['p50_ms']} ms | {seed['p95_ms']} ms | |",
        "",
        f"The replaced system's form (to_tsvector at query time, raw score sum) is "
        f"{data['ratio_seed_p50_over_ours_p50']}× slower at p50 and {data['ratio_seed_p95_over_ours_p95']}× "
        "at p95 in the same run.",
    ]


def agent_table(data: dict) -> list[str]:  # type: ignore[type-arg]
    lines = [
        f"Questions end to end with the offline local model — {data['machine']['date']}, "
        f"{data['machine']['cpus']} CPUs, store: ../shared/data/filings "
        f"(set-up — store, embedder, model server — {data['model_setup_s']} s, not included):",
        "",
        "| question | wall time | LLM calls | input tokens | output tokens | time in LLM | confidence |",
        "|---|---|---|---|---|---|---|",
    ]
    for run in data["runs"]:
        lines.append(
            f"| {run['name']} | {run['wall_time_s']} s | {run['llm_calls']} | {run['input_tokens']:,} "
            f"| {run['output_tokens']:,} | {run['llm_seconds']} s | {run['confidence']} |"
        )
    return lines


def figures_table(data: dict) -> list[str]:  # type: ignore[type-arg]
    """The figures benchmark side by side; ratios are each later system over the first (the baseline)."""
    systems = data["systems"]
    names = [s["name"] for s in systems]
    summary = {s["name"]: s["summary"] for s in systems}
    base = summary[names[0]]

    def ratio(new: float | None, old: float | None) -> str:
        return f"{new / old:.2f}×" if new is not None and old else "–"

    def row(label: str, cell: str, key: str) -> str:
        cells = [cell.format(**summary[n]) for n in names]
        ratios = [ratio(summary[n][key], base[key]) for n in names[1:]]
        return f"| {label} | " + " | ".join(cells + ratios) + " |"

    versions = ", ".join(f"{s['name']} = {s['version'][:12]}" for s in systems)
    lines = [
        f"Figures benchmark — {data['machine']['date']}, {data['machine']['cpus']} CPUs, provider "
        f"{data['provider']}, {data['questions']} questions with gold figures read from the filings "
        f"({versions}):",
        "",
        "| measure | " + " | ".join(names) + "".join(f" | {n} / {names[0]}" for n in names[1:]) + " |",
        "|---" * (2 * len(names)) + "|",
        row("questions with every figure exact", "{all_exact}/{questions}", "share_all_exact"),
        row("gold figures found", "{figures_found}/{figures_total}", "share_figures_found"),
        row("mean seconds per question", "{mean_seconds}", "mean_seconds"),
        row("median seconds per question", "{median_seconds}", "median_seconds"),
        row("failed (no answer or timeout)", "{failed}", "failed"),
        "",
        "| category | " + " | ".join(f"{n} exact" for n in names) + " |",
        "|---" * (1 + len(names)) + "|",
    ]
    for category in sorted(base["by_category"]):
        cells = []
        for n in names:
            part = summary[n]["by_category"].get(category)
            cells.append(f"{part['all_exact']}/{part['questions']}" if part else "–")
        lines.append(f"| {category} | " + " | ".join(cells) + " |")
    return lines


def facts_table(data: dict) -> list[str]:  # type: ignore[type-arg]
    """XBRL facts extraction next to the text ingest of the same filings."""
    facts, ingest = data["facts"], data.get("text_ingest")
    lines = [
        f"Facts extraction — {data['machine']['date']}, {data['machine']['cpus']} CPUs (best of the passes):",
        "",
        "| what | filings | facts | seconds | filings/s | facts/s |",
        "|---|---|---|---|---|---|",
        f"| iXBRL filings (parse + facts) | {facts['ixbrl_filings']} | {facts['ixbrl_facts']:,} "
        f"| {facts['ixbrl_s']} | {facts['ixbrl_filings_per_s']} | {facts['ixbrl_facts_per_s']:,} |",
        f"| XBRL instance documents | {facts['instance_documents']} | {facts['instance_facts']:,} "
        f"| {facts['instance_s']} | {facts['instance_documents'] / facts['instance_s']:.1f} "
        f"| {facts['instance_facts_per_s']:,} |",
    ]
    if ingest:
        lines.append(
            f"| text ingest of the same files (parse, chunk, embed, store, facts) | {ingest['documents']} "
            f"| {ingest['facts']:,} | {ingest['seconds']} | {ingest['documents_per_s']} "
            f"| {ingest['facts_per_s']:,} ({ingest['chunks_per_s']} chunks/s) |"
        )
        lines += [
            "",
            f"Facts extraction is {data['facts_share_of_ingest']:.1%} of the ingest time of the same files.",
        ]
    return lines


def main() -> None:
    out: list[str] = []
    renderers = (
        ("ingest_throughput", ingest_table),
        ("search_latency", search_table),
        ("agent_local", agent_table),
        ("facts_extraction", facts_table),
        ("figures", figures_table),
    )
    for name, render in renderers:
        path = RESULTS / f"{name}.json"
        if path.exists():
            out += [*render(json.loads(path.read_text())), ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
