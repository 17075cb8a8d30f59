"""Does confidence track correctness? Accuracy by confidence bucket of graded FinanceBench answers,
with the confidence they were recorded with and with the confidence the answer checks give them.

The rows of ``finagent eval answers`` (graded, with citations) are read again: each answer's
sentences are held to the full text of the chunks they cite (``benchmarks.faithfulness.grade``,
the rules of ``finance/support.py``), and its confidence is capped as the evaluate node caps it
today: 0 for a reply that is not an answer, below the mode's threshold when a sentence is
unsupported or a copied figure was dropped. Same answers, same verdicts: only the score differs.

    FINAGENT_HOME=~/.finagent python -m benchmarks.calibration \
        benchmarks/results/eval_answers_financebench.jsonl --database finagent_eval_financebench

Writes <results-dir>/calibration.json and calibration.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from benchmarks.faithfulness import grade
from benchmarks.figures import RESULTS, machine, read_rows

from finagent.agent.context import DEFAULT_THRESHOLDS
from finagent.agent.nodes.evaluate import WITHHELD_MARGIN
from finagent.db.chunks import cited_texts
from finagent.db.database import open_database
from finagent.finance.check.answer_shape import unanswered

BUCKETS = ((0.0, 0.5, "< 0.5"), (0.5, 0.8, "0.5–0.8"), (0.8, 0.95, "0.8–0.95"), (0.95, 1.01, "≥ 0.95"))


def checked_confidence(row: dict[str, Any], problems: list[dict[str, Any]], mode: str) -> float:
    """The recorded confidence as today's checks cap it."""
    confidence = float(row.get("confidence") or 0.0)
    if unanswered(str(row.get("answer") or "")):
        return 0.0
    dropped = any("extracted figure(s) not written" in w for w in row.get("warnings") or [])
    if problems or dropped:
        confidence = min(confidence, DEFAULT_THRESHOLDS[mode] - WITHHELD_MARGIN)
    return confidence


def buckets(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    table = []
    for low, high, label in BUCKETS:
        part = [r for r in rows if low <= r[key] < high]
        correct = sum(r["verdict"] == "correct" for r in part)
        table.append(
            {
                "bucket": label,
                "answers": len(part),
                "correct": correct,
                "accuracy": _share(correct, len(part)),
            }
        )
    return table


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def render(report: dict[str, Any]) -> str:
    lines = [
        f"Confidence calibration — {report['machine']['date']}, {report['answers']} graded answers of "
        f"`{report['source']}` (verdicts as graded there):",
        "",
        "| confidence | recorded: answers | recorded: accuracy | checked: answers | checked: accuracy |",
        "|---|---|---|---|---|",
    ]
    for old, new in zip(report["recorded"], report["checked"], strict=True):
        cells = (old["bucket"], old["answers"], old["accuracy"], new["answers"], new["accuracy"])
        lines.append("| " + " | ".join("–" if c is None else str(c) for c in cells) + " |")
    lines += [
        "",
        f"Sentences of the answers held to their citations: {report['sentences']}, supported "
        f"{report['supported_share']}.",
        f"Answers with an unsupported sentence: {report['with_unsupported']['answers']} "
        f"(accuracy {report['with_unsupported']['accuracy']}); without: "
        f"{report['without_unsupported']['answers']} (accuracy {report['without_unsupported']['accuracy']}).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("rows", type=Path, help="Graded rows of `finagent eval answers` (JSONL).")
    parser.add_argument("--database", default="finagent_eval_financebench")
    parser.add_argument("--mode", default="direct", help="The answer mode the rows were asked in.")
    parser.add_argument("--results-dir", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    rows = [r for r in read_rows(args.rows) if r.get("verdict") in ("correct", "incorrect")]
    ids = sorted({int(c["chunk_id"]) for r in rows for c in r.get("citations") or [] if c.get("chunk_id")})
    db = open_database(database=args.database)
    try:
        with db.connection() as conn:
            texts = cited_texts(conn, ids)
    finally:
        db.close()
    scored = []
    sentences = unsupported = 0
    for row in rows:
        graded = grade(row, texts, str(row.get("question") or ""))
        problems = graded["unsupported"]
        sentences += graded["sentences"]
        unsupported += len(problems)
        scored.append(
            {
                "verdict": row["verdict"],
                "recorded": float(row.get("confidence") or 0.0),
                "checked": checked_confidence(row, problems, args.mode),
                "unsupported": len(problems),
            }
        )
    flagged = [s for s in scored if s["unsupported"]]
    clean = [s for s in scored if not s["unsupported"]]
    report = {
        "machine": machine(),
        "source": str(args.rows),
        "answers": len(scored),
        "sentences": sentences,
        "supported_share": _share(sentences - unsupported, sentences),
        "recorded": buckets(scored, "recorded"),
        "checked": buckets(scored, "checked"),
        "with_unsupported": {
            "answers": len(flagged),
            "accuracy": _share(sum(s["verdict"] == "correct" for s in flagged), len(flagged)),
        },
        "without_unsupported": {
            "answers": len(clean),
            "accuracy": _share(sum(s["verdict"] == "correct" for s in clean), len(clean)),
        },
    }
    args.results_dir.mkdir(parents=True, exist_ok=True)
    (args.results_dir / "calibration.json").write_text(json.dumps(report, indent=2) + "\n")
    (args.results_dir / "calibration.md").write_text(render(report))
    print(render(report))


if __name__ == "__main__":
    main()
