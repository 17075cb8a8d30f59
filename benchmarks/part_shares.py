"""How much of each FinanceBench document's text carries a part, by kind, and how an earnings
release's text divides among its parts (no store, no embedding: the page reader only).

    python -m benchmarks.part_shares [--pages ../shared/data/financebench/pages.jsonl.gz]

Releases are dealt into two halves by name (every other one, sorted): the release headings were
written looking at the first ("tune") only; the second ("held") was read once, after.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from finagent.ingest.financebench import KIND_BY_DOC_TYPE, PART_FORMS
from finagent.ingest.pdf import page_text_blocks

PAGES = Path(__file__).resolve().parents[2] / "shared" / "data" / "financebench" / "pages.jsonl.gz"


def _documents(path: Path) -> dict[str, tuple[str, list[tuple[int, str]]]]:
    docs: dict[str, tuple[str, list[tuple[int, str]]]] = {}
    with gzip.open(path, "rt") as handle:
        for line in handle:
            row = json.loads(line)
            kind = KIND_BY_DOC_TYPE.get((row["doc_type"] or "").lower(), "other")
            docs.setdefault(row["doc_name"], (kind, []))[1].append((row["page"], row["text"]))
    return docs


def _shares(pages: list[tuple[int, str]], kind: str) -> Counter[str]:
    chars: Counter[str] = Counter()
    for block in page_text_blocks(sorted(pages), PART_FORMS.get(kind)):
        chars[block.section or ""] += len(block.text)
    return chars


def measure(path: Path) -> dict[str, Any]:
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    releases: dict[str, Counter[str]] = {"tune": Counter(), "held": Counter()}
    docs = _documents(path)
    for index, name in enumerate(sorted(n for n, (k, _) in docs.items() if k == "earnings_release")):
        releases["tune" if index % 2 == 0 else "held"].update(_shares(docs[name][1], "earnings_release"))
    for kind, pages in docs.values():
        chars = _shares(pages, kind)
        by_kind[kind]["with a part"] += sum(n for part, n in chars.items() if part)
        by_kind[kind]["all"] += sum(chars.values())
        by_kind[kind]["documents"] += 1
    return {
        "with_a_part": {
            kind: {"documents": c["documents"], "share": round(c["with a part"] / max(c["all"], 1), 3)}
            for kind, c in sorted(by_kind.items())
        },
        "release_parts": {
            half: {part or "(none)": round(n / max(sum(c.values()), 1), 3) for part, n in c.most_common()}
            for half, c in releases.items()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=Path, default=PAGES)
    parser.add_argument("--output", type=Path, default=Path("benchmarks/results/part_shares.json"))
    args = parser.parse_args()
    if not args.pages.exists():
        raise SystemExit(f"no FinanceBench pages at {args.pages} (../shared/data is needed)")
    result = measure(args.pages)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
