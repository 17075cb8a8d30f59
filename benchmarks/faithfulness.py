"""Narrative faithfulness: does each sentence of an answer say what the passage it cites says?

Narrative questions of our own over ``../shared`` (drivers, risks, segments, events;
``benchmarks/faithfulness/questions.jsonl``) are asked through ``finagent ask --json`` of each
system, in the same run, against the store each system's figures benchmark built
(``python -m benchmarks.figures`` first). Each sentence of the answer's words (not its tables or
figure lists) is held to the full text of the chunks it cites by the support rules of
``finagent.finance.check.support`` (words, company, year, modality, causes, news as news); a sentence with
no citation counts as unsupported when it states something (four content words or more).

    python -m benchmarks.faithfulness --system before=/tmp/finagent-main --system after=. \
        --system quoted=. --quoted quoted --home-root /tmp/finagent-bench --store new

Writes <results-dir>/faithfulness.jsonl (system × question), faithfulness.json and faithfulness.md.
"""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path
from typing import Any

from benchmarks.figures import (
    REPO,
    System,
    checkout_version,
    load_questions,
    machine,
    parse_answer,
    read_rows,
    run_arguments,
    run_cli,
    run_setup,
    system_env,
)

from finagent.db.chunks import cited_texts
from finagent.db.database import open_database
from finagent.finance.ask.asks import read_ask
from finagent.finance.check.answer_shape import unanswered
from finagent.finance.check.support import (
    MIN_WORDS,
    Passage,
    content_words,
    is_verdict,
    support_problem,
    verdict_problem,
)
from finagent.finance.citations import cited_labels
from finagent.settings import Settings

QUESTIONS = REPO / "benchmarks" / "faithfulness" / "questions.jsonl"
_NOT_PROSE = re.compile(
    r"^\s*(?:\||Figures:|Reports read|Computed \(calculator\)|Computed from the statements:"
    r"|The question names no company)"
)
_COMPUTED = re.compile(r"^(?:Yes|No) \(computed from the figures:|\((?:computed\b|= )")
"""Code's own sentence (a yes or no decided by the figures, a ratio or ranking with its calculation),
held to the figures check, not to words."""
_CODE_NOTE = re.compile(
    r"^The language model did not return an answer|is not available: no reported figure"
    r"|is not a measure it reports, and none is computed"
    r"|^That is the whole company.s: .* is not among the figures read"
)
"""Code's own notes of what it could not find: they state nothing about a passage."""
_QUOTED_LINE = re.compile(r"^\s*- .*“.*”\s*\[[^\]]+\]\s*$")
_SENTENCE = re.compile(r"(?<=[.!?”])\s+(?=[A-Z\"“-])")


def prose_sentences(answer: str) -> list[str]:
    """The answer's written sentences: not its table, its figure list or its notes; a quoted line of the
    sources' own words ("- Apple's 10-Q for Q1 FY2023: “…” [10Q1]") is one sentence with its citation."""
    body = answer.split("\n\nFigures:")[0]
    lines = [ln for ln in body.splitlines() if ln.strip() and not _NOT_PROSE.match(ln)]
    said = [
        s.strip()
        for ln in lines
        for s in ([ln] if _QUOTED_LINE.match(ln) else _SENTENCE.split(ln))
        if s.strip()
    ]
    return [s for s in said if not _COMPUTED.search(s) and not _CODE_NOTE.search(s)]


def model_wrote(answer: dict[str, Any]) -> bool:
    """Whether a model was called for the answer (``llm_calls``: the calls of ``finagent ask --json``,
    or their count in a results row); an answer made with none is code's alone, held to the figures
    check. Unknown counts as written."""
    calls = answer.get("llm_calls")
    return calls is None or bool(calls)


def grade(answer: dict[str, Any], texts: dict[int, str], question: str = "") -> dict[str, Any]:
    """Supported and unsupported sentences of one answer, with the reason of each unsupported one. An
    opening yes or no that cites nothing is held as the answer path holds it: to the passages its
    supported sentences cite, the question's own words needing none."""
    passages: dict[str, Passage] = {}
    for cite in answer.get("citations") or []:
        text = texts.get(cite.get("chunk_id") or -1) or str(cite.get("excerpt") or "")
        passages[cite["label"]] = Passage(
            cite["label"],
            text,
            cite.get("ticker"),
            cite.get("kind") or "",
            " ".join(str(cite.get(k)) for k in ("period", "period_end") if cite.get(k)),
            cite.get("title") or "",
        )
    names = {t: [t] for t in {p.ticker for p in passages.values() if p.ticker}}
    checked, unsupported, grounds = 0, [], []
    sentences = prose_sentences(str(answer.get("answer") or "")) if model_wrote(answer) else []
    opening = sentences[0] if sentences and is_verdict(sentences[0]) else None
    for sentence in sentences:
        if sentence is opening or (
            len(content_words(sentence)) < MIN_WORDS and not re.search(r"\[[^\]]+\]", sentence)
        ):
            continue
        checked += 1
        why = support_problem(sentence, passages, names)
        if why:
            unsupported.append({"sentence": sentence[:300], "why": why})
        else:
            grounds += cited_labels(sentence)
    if opening is not None:
        checked += 1
        asked = frozenset(read_ask(question, [], {}, []).about) if question else frozenset()
        why = verdict_problem(opening, passages, names, grounds, asked)
        if why:
            unsupported.insert(0, {"sentence": opening[:300], "why": why})
    news_as_filing = sum(
        "news article to a filing" in u["why"] or "own statement" in u["why"] for u in unsupported
    )
    return {"sentences": checked, "unsupported": unsupported, "news_as_filing": news_as_filing}


def read_texts(home: Path, rows: list[dict[str, Any]]) -> dict[int, str]:
    """Full text of every cited chunk, read from the system's store once its questions are done (a
    store an older checkout wrote too)."""
    ids = sorted({int(c["chunk_id"]) for r in rows for c in r.get("citations") or [] if c.get("chunk_id")})
    if not ids:
        return {}
    db = open_database(Settings(home=home))
    try:
        with db.connection() as conn:
            return cited_texts(conn, ids)
    finally:
        db.close()


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    sentences = sum(r["sentences"] for r in rows)
    unsupported = sum(len(r["unsupported"]) for r in rows)
    return {
        "questions": len(rows),
        "sentences": sentences,
        "supported_share": round(1 - unsupported / sentences, 3) if sentences else None,
        "unsupported": unsupported,
        "news_as_filing": sum(r["news_as_filing"] for r in rows),
        "not_an_answer": sum(bool(r["not_an_answer"]) for r in rows),
        "median_seconds": round(statistics.median(r["seconds"] for r in rows), 1) if rows else None,
        "median_confidence": round(statistics.median(r["confidence"] or 0 for r in rows), 2)
        if rows
        else None,
    }


def render_markdown(report: dict[str, Any]) -> str:
    names = [s["name"] for s in report["systems"]]
    lines = [
        f"Narrative faithfulness — {report['machine']['date']}, {report['machine']['cpus']} CPUs, "
        f"{report['questions']} questions (`benchmarks/faithfulness/questions.jsonl`):",
        "",
        "| measure | "
        + " | ".join(f"{n} ({s['version'][:7]})" for n, s in zip(names, report["systems"], strict=True))
        + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for label, key in (
        ("sentences checked", "sentences"),
        ("share supported by their citation", "supported_share"),
        ("unsupported sentences", "unsupported"),
        ("news stated as the company's or a filing's", "news_as_filing"),
        ("answers that are not an answer (empty, citations only, cut off)", "not_an_answer"),
        ("median confidence", "median_confidence"),
        ("median seconds", "median_seconds"),
    ):
        lines.append(f"| {label} | " + " | ".join(str(s["summary"][key]) for s in report["systems"]) + " |")
    lines += ["", "Unsupported sentences (first 40):", ""]
    shown = 0
    for row in report["rows"]:
        for item in row["unsupported"]:
            if shown < 40:
                lines.append(f"- {row['system']} {row['id']}: “{item['sentence'][:160]}” — {item['why']}")
                shown += 1
    return "\n".join(lines) + "\n"


def answer_row(
    system: str, question: dict[str, Any], answer: dict[str, Any], texts: dict[int, str]
) -> dict[str, Any]:
    """One graded row: the answer, its confidence and time, and its sentences held to their citations."""
    return {
        "system": system,
        "id": question["id"],
        "category": question["category"],
        "question": question["question"],
        "answer": answer.get("answer") or "",
        "confidence": answer.get("confidence"),
        "seconds": answer["seconds"],
        "not_an_answer": unanswered(str(answer.get("answer") or "")),
        **grade(answer, texts, question["question"]),
    }


def main(argv: list[str] | None = None) -> None:
    parser = run_arguments(__doc__, QUESTIONS)
    parser.add_argument("--resume", action="store_true", help="Keep rows already in faithfulness.jsonl.")
    parser.add_argument("--store", help="One store (a home under --home-root) for every system.")
    parser.add_argument("--quoted", action="append", default=[], help="A system asked with --quoted.")
    args = parser.parse_args(argv)
    systems, home_root, cache_dir = run_setup(args)
    ids = [i.strip() for i in args.ids.split(",") if i.strip()] if args.ids else None
    questions = load_questions(args.questions, ids, args.limit)
    rows_path = args.results_dir / "faithfulness.jsonl"
    rows = read_rows(rows_path) if args.resume else []
    infos = []
    for system in systems:
        store = System(args.store or system.name, system.path)
        env = system_env(store, home_root, cache_dir)
        home = home_root / store.name
        done = {r["id"] for r in rows if r["system"] == system.name}
        for number, question in enumerate(questions, 1):
            if question["id"] in done:
                continue
            command = ["-m", "finagent.cli.main", "ask", question["question"], "--json"]
            command += ["--quoted"] if system.name in args.quoted else []
            result = run_cli([*command, "--provider", args.provider], env, home, args.timeout)
            answer = parse_answer(result.stdout) or {"answer": ""}
            answer["seconds"] = round(result.seconds, 1)
            rows.append(answer_row(system.name, question, answer, read_texts(home, [answer])))
            # each row is kept as it is graded, so --resume continues an interrupted run
            rows_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
            print(
                f"[{system.name}] {number}/{len(questions)} {question['id']}: {result.seconds:.0f} s",
                flush=True,
            )
        infos.append({"name": system.name, "version": checkout_version(system.path)})
    rows_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    for info in infos:
        info["summary"] = summarize([r for r in rows if r["system"] == info["name"]])
    report = {"machine": machine(), "questions": len(questions), "systems": infos, "rows": rows}
    (args.results_dir / "faithfulness.json").write_text(
        json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=2) + "\n"
    )
    (args.results_dir / "faithfulness.md").write_text(render_markdown(report))
    print(render_markdown(report))


if __name__ == "__main__":
    main()
