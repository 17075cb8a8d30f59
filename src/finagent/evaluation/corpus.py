"""Benchmark corpora, each in its own database beside the user's store (same server).

FinanceBench is the open-domain setting of its paper: all 336 documents in one index, so every
question competes with near-identical filings of the same company in other years.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from finagent.errors import FinagentError
from finagent.ingest.discover import Discovery, discover


@dataclass(frozen=True, slots=True)
class CorpusSpec:
    name: str
    database: str
    sources: tuple[str, ...]  # paths relative to the shared data folder
    description: str


CORPORA = {
    "financebench": CorpusSpec(
        "financebench",
        "finagent_eval_financebench",
        ("financebench/pages.jsonl.gz",),
        "336 FinanceBench documents (10-K, 10-Q, 8-K, earnings releases), page numbers kept",
    ),
    "sec10q": CorpusSpec(
        "sec10q",
        "finagent_eval_sec10q",
        ("filings/pdf/sec10q", "transcripts/bigtech-2022-2024"),
        "20 10-Q PDFs (AAPL, AMZN, INTC, MSFT, NVDA; Jun 2022 - Oct 2023) and the 2022-2024 transcripts",
    ),
}


def corpus_spec(name: str) -> CorpusSpec:
    if name not in CORPORA:
        raise FinagentError(f"unknown corpus '{name}'; use one of: {', '.join(CORPORA)}")
    return CORPORA[name]


def discover_corpus(spec: CorpusSpec, data_dir: Path, limit: int | None = None) -> Discovery:
    """Every source item of a corpus; ``limit`` keeps the first N documents (smoke runs)."""
    found = Discovery()
    for relative in spec.sources:
        path = data_dir / relative
        if not path.exists():
            raise FinagentError(
                f"the {spec.name} corpus needs {path}; pass --data-dir pointing at the shared data folder"
            )
        part = discover(path)
        found.items += part.items
        found.skipped += part.skipped
        found.failed += part.failed
    if limit is not None:
        found.items = found.items[:limit]
    return found
