"""`finagent eval …`: build benchmark corpora (retrieval and answer evaluation follow)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from finagent.cli.common import store
from finagent.cli.console import console, err_console
from finagent.cli.ingest_cmd import run_ingest
from finagent.db.evaluation import corpus_size
from finagent.errors import FinagentError
from finagent.evaluation.corpus import CORPORA, corpus_spec, discover_corpus
from finagent.evaluation.datasets import EvalQuestion, filter_questions, halves, load_questions

if TYPE_CHECKING:
    from langchain_core.runnables import Runnable
    from rich.progress import Progress

    from finagent.agent.context import Context

eval_app = typer.Typer(help="Benchmarks: corpora, retrieval and answer evaluation.", no_args_is_help=True)

DEFAULT_DATA_DIR = Path("../shared/data")
JUDGE_MAX_TOKENS = 300  # a verdict plus a one-sentence reason, with room to close the JSON

# The arguments and options several commands share, declared once.
CorpusArgument = Annotated[str, typer.Argument(help=f"Corpus: {', '.join(CORPORA)}.")]
DatabaseOption = Annotated[str | None, typer.Option(help="Database name (default: finagent_eval_<name>).")]
LimitOption = Annotated[int | None, typer.Option(help="First N questions.")]
IdsOption = Annotated[str | None, typer.Option(help="Comma-separated question ids.")]
QuestionTypeOption = Annotated[str | None, typer.Option(help="Only this question_type.")]
HalfOption = Annotated[
    str | None,
    typer.Option(help="Only half A (tuned on) or B (held back) of the set, dealt per question type."),
]
OutputOption = Annotated[Path | None, typer.Option(help="Results stem (default benchmarks/results/...).")]
HandcheckOption = Annotated[
    Path | None, typer.Option(help="Hand verdicts (JSONL): print the grading's agreement with them.")
]


@eval_app.command("build-corpus")
def build_corpus(
    name: CorpusArgument,
    data_dir: Annotated[Path, typer.Option(help="The shared data folder.")] = DEFAULT_DATA_DIR,
    database: DatabaseOption = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N documents (smoke runs).")] = None,
    rebuild: Annotated[
        bool, typer.Option("--rebuild", help="Drop the corpus database first (e.g. after chunking changes).")
    ] = False,
) -> None:
    """Ingest a benchmark corpus into its own database (resumable: rerun to continue)."""
    spec = corpus_spec(name)
    if limit is not None and limit < 1:
        raise FinagentError("--limit must be at least 1")
    found = discover_corpus(spec, data_dir, limit)
    target = database or spec.database
    console.print(f"building corpus [bold]{spec.name}[/] into database [bold]{target}[/]: {spec.description}")
    report = run_ingest(found, database=target, fresh=rebuild)
    with store(target) as db, db.connection() as conn:
        row = corpus_size(conn)
    if row is not None:
        console.print(f"corpus {spec.name} now holds {row[0]:,} documents and {row[1]:,} chunks")
    if report.failed:
        raise typer.Exit(1)


def select_questions(
    split: Path, ids: str | None, question_type: str | None, limit: int | None, half: str | None = None
) -> list[EvalQuestion]:
    """The question set filtered by the command's --ids / --question-type / --half / --limit."""
    questions = filter_questions(
        load_questions(split),
        ids=[i.strip() for i in ids.split(",")] if ids else None,
        question_type=question_type,
        limit=limit,
        half=half,
    )
    if not questions:
        raise FinagentError("no questions match the filters")
    return questions


@eval_app.command("retrieval")
def retrieval(
    name: CorpusArgument,
    split: Annotated[Path, typer.Option(help="Question set (JSONL with gold evidence).")],
    systems: Annotated[
        str,
        typer.Option(help="Comma-separated: dense, seed-hybrid, finagent, finagent/<lever> (one lever off)."),
    ] = "finagent",
    database: DatabaseOption = None,
    limit: LimitOption = None,
    ids: IdsOption = None,
    question_type: QuestionTypeOption = None,
    half: HalfOption = None,
    output: OutputOption = None,
    provider: Annotated[
        str | None,
        typer.Option(help="The analyze step's model (e.g. local); default none: the deterministic analyzer."),
    ] = None,
) -> None:
    """Retrieval only (no generation): document Hit@1/@5, page Recall@5/10/20, MRR, per system."""
    from finagent.evaluation.retrieval import markdown_table, summarise, write_results

    spec = corpus_spec(name)
    chosen = _retrieval_systems(systems)
    questions = select_questions(split, ids, question_type, limit, half)
    dealt = halves(load_questions(split))
    target = database or spec.database
    rows = _retrieve(questions, chosen, dealt, target, provider)
    summary = summarise(rows, chosen)
    table = markdown_table(summary)
    stem = output or Path("benchmarks/results") / f"eval_retrieval_{spec.name}"
    write_results(rows, summary, table, stem)
    console.print(f"{len(questions)} questions · corpus database {target} · results {stem}.jsonl\n")
    console.print(table, markup=False, highlight=False)


def _retrieval_systems(systems: str) -> list[str]:
    """The comma-separated systems, each one known, or a one-line error naming the known ones."""
    from finagent.evaluation.retrieval import LEVERS, known_system
    from finagent.evaluation.systems import SYSTEMS

    chosen = [s.strip() for s in systems.split(",") if s.strip()]
    unknown = [s for s in chosen if not known_system(s)]
    if unknown or not chosen:
        raise FinagentError(
            f"unknown system(s) {', '.join(unknown) or '(none)'}; use: {', '.join(SYSTEMS)}, "
            f"or finagent/<lever> with a lever off ({', '.join(LEVERS)})"
        )
    return chosen


def _retrieve(
    questions: list[EvalQuestion],
    systems: list[str],
    dealt: dict[str, str],
    database: str,
    provider: str | None,
) -> list[dict[str, Any]]:
    """Each system's ranked chunks for each question, with a progress bar on a terminal; without a
    provider the analyze step is the deterministic analyzer (no model is loaded)."""
    from rich.progress import Progress

    from finagent.agent.context import Context
    from finagent.agent.resources import configure_resources
    from finagent.cli.ask_cmd import PROVIDERS
    from finagent.evaluation.retrieval import run_retrieval
    from finagent.evaluation.systems import NoModel
    from finagent.settings import get_settings

    settings = get_settings()
    if provider is not None and provider not in PROVIDERS:
        raise FinagentError(f"unknown provider '{provider}'; use one of: {', '.join(PROVIDERS)}")
    no_model = None if provider else (lambda role, context: NoModel())
    resources = configure_resources(settings, chat_model_factory=no_model, database_name=database)
    context = Context(use_tools=False, provider=provider)
    try:
        with Progress(console=err_console, disable=not err_console.is_terminal) as progress:
            task = progress.add_task("questions", total=len(questions))
            return run_retrieval(
                questions,
                systems,
                resources,
                context=context,
                halves=dealt,
                on_done=lambda: progress.advance(task),
            )
    finally:
        resources.close()


@eval_app.command("answers")
def answers(
    name: CorpusArgument,
    split: Annotated[Path, typer.Option(help="Question set (JSONL with reference answers).")],
    database: DatabaseOption = None,
    provider: Annotated[str | None, typer.Option(help="auto | openai | cerebras | local.")] = None,
    judge_provider: Annotated[
        str | None, typer.Option(help="Judge model provider (default: --provider).")
    ] = None,
    flagged: Annotated[
        Path | None, typer.Option(help="Reviewed items whose alternative answers count.")
    ] = None,
    limit: LimitOption = None,
    ids: IdsOption = None,
    question_type: QuestionTypeOption = None,
    half: HalfOption = None,
    mode: Annotated[str, typer.Option(help="Answer mode for every question.")] = "direct",
    no_calculator: Annotated[
        bool,
        typer.Option("--no-calculator", help="Ablation: the model computes ratios and changes itself."),
    ] = False,
    output: OutputOption = None,
    handcheck: HandcheckOption = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Keep the answers already in the results file; ask the rest.")
    ] = False,
) -> None:
    """Full graph per question, graded: the reference's yes/no and figures (within 1%) must be in the
    answer, then a figure (or yes/no-with-figures) reference is decided and any other goes to an LLM
    judge (verdicts stored)."""
    from finagent.agent.context import Ablations, Context
    from finagent.agent.resources import configure_resources
    from finagent.evaluation.answers import load_flagged, load_handcheck
    from finagent.llm.providers import chat_model_for_role
    from finagent.settings import get_settings

    spec = corpus_spec(name)
    questions = select_questions(split, ids, question_type, limit, half)
    if handcheck is not None:
        load_handcheck(handcheck)  # a bad file fails now, not after hours of answering
    settings = get_settings()
    resources = configure_resources(settings, database_name=database or spec.database)
    judge = chat_model_for_role(
        "judge", settings, provider=judge_provider or provider, max_tokens=JUDGE_MAX_TOKENS
    )
    alternatives = load_flagged(flagged or split.with_name("financebench_flagged.jsonl"))
    context = Context(
        provider=provider, answer_mode=mode, ablations=Ablations(use_calculator=not no_calculator)
    )
    stem = output or Path("benchmarks/results") / f"eval_answers_{spec.name}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    rows = kept_rows(stem.with_suffix(".jsonl"), {q.id for q in questions}) if resume else []
    try:
        _answer_rest(questions, rows, _Grading(judge, context, alternatives), stem, resume)
    finally:
        resources.close()
    write_summary(rows, stem, handcheck)
    _print_results(f"{len(rows)} questions", stem)


@dataclass(frozen=True)
class _Grading:
    """What every question of an answers run is asked and graded with."""

    judge: Runnable[Any, Any]
    context: Context
    alternatives: dict[str, list[str]]
    """Other accepted answers by question id (the flagged items' reviewed alternatives)."""


def _answer_rest(
    questions: list[EvalQuestion], rows: list[dict[str, Any]], grading: _Grading, stem: Path, resume: bool
) -> None:
    """Ask and grade each question not already in ``rows``, adding its row there. Rows are written as
    they finish, so a long run can be watched and an interruption loses only the question in progress."""
    import asyncio

    from rich.progress import Progress

    done = {row["id"] for row in rows}
    rest = [q for q in questions if q.id not in done]
    with (
        stem.with_suffix(".jsonl").open("a" if resume else "w", encoding="utf-8") as out,
        Progress(console=err_console, disable=not err_console.is_terminal) as progress,
    ):
        asyncio.run(_answer_all(rest, rows, grading, out, progress))


async def _answer_all(
    questions: list[EvalQuestion],
    rows: list[dict[str, Any]],
    grading: _Grading,
    out: TextIO,
    progress: Progress,
) -> None:
    """One event loop for the whole run: model clients (graph and judge) keep their connections."""
    import json

    from finagent.evaluation.answers import answer_question

    task = progress.add_task("questions", total=len(questions))
    for number, question in enumerate(questions, 1):
        references = [question.answer, *grading.alternatives.get(question.id, [])]
        row = await answer_question(question, references, grading.judge, grading.context)
        rows.append(row)
        out.write(json.dumps(row, default=str) + "\n")
        out.flush()
        progress.advance(task)
        if not err_console.is_terminal:
            done = f"{number}/{len(questions)} {question.id}: {row['verdict']}"
            err_console.print(f"{done} ({row['seconds']:.0f} s)", markup=False, highlight=False)


def _print_results(counted: str, stem: Path) -> None:
    """The run's count and results file, then its Markdown tables as written."""
    console.print(f"{counted} · results {stem}.jsonl\n")
    console.print(stem.with_suffix(".md").read_text(), markup=False, highlight=False, soft_wrap=True)


def kept_rows(path: Path, ids: set[str]) -> list[dict[str, Any]]:
    """Rows of an interrupted run that belong to this question set, so a resumed run asks only the rest."""
    import json

    if not path.exists():
        return []
    kept = [row for row in read_answer_rows(path) if row.get("id") in ids]
    path.write_text("".join(json.dumps(row, default=str) + "\n" for row in kept), encoding="utf-8")
    return kept


def write_summary(rows: list[dict[str, Any]], stem: Path, handcheck: Path | None) -> None:
    """The results' .json summary and .md tables, with agreement with hand verdicts when given."""
    import json

    from finagent.evaluation.answers import (
        agreement,
        agreement_lines,
        answer_summary,
        answers_table,
        load_handcheck,
    )

    summary: dict[str, Any] = dict(answer_summary(rows))
    table = answers_table(rows)
    if handcheck is not None:
        hand = load_handcheck(handcheck)
        agree, checked = agreement(rows, hand)
        summary["handcheck"] = {"checked": checked, "agree": agree}
        before, recorded = agreement(rows, hand, "recorded_verdict")
        if recorded:
            summary["handcheck"] |= {"recorded_checked": recorded, "recorded_agree": before}
        table += f"\n\nAgreement with the hand verdicts of {handcheck.name}:\n\n" + agreement_lines(
            rows, hand
        )
    stem.with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")
    stem.with_suffix(".md").write_text(table + "\n")


@eval_app.command("regrade")
def regrade(
    results: Annotated[Path, typer.Argument(help="An answers results file (.jsonl) to grade again.")],
    judge_provider: Annotated[
        str | None, typer.Option(help="Judge model provider: auto | openai | cerebras | local.")
    ] = None,
    output: Annotated[Path | None, typer.Option(help="Results stem (default: overwrite RESULTS).")] = None,
    handcheck: HandcheckOption = None,
) -> None:
    """Grade stored answers again (another judge, newer rules) without running the graph; each row
    keeps the verdict it was first recorded with (recorded_verdict)."""
    import asyncio
    import json

    from finagent.evaluation.answers import grade, load_handcheck
    from finagent.llm.providers import chat_model_for_role
    from finagent.settings import get_settings

    rows = read_answer_rows(results)
    if handcheck is not None:
        load_handcheck(handcheck)
    judge = chat_model_for_role("judge", get_settings(), provider=judge_provider, max_tokens=JUDGE_MAX_TOKENS)

    async def grade_all() -> None:  # one event loop: the judge's HTTP client lives in it
        for number, row in enumerate(rows, 1):
            references = [row["reference"], *row.get("alternatives", [])]
            verdict = await grade(row.get("question", ""), row["answer"], references, judge)
            row.setdefault("recorded_verdict", row.get("verdict"))
            row.pop("judge_calls", None)
            row.update(verdict)
            if not err_console.is_terminal:
                done = f"{number}/{len(rows)} {row['id']}: {row['verdict']} ({row['method']})"
                err_console.print(done, markup=False, highlight=False)

    asyncio.run(grade_all())
    stem = (output or results).with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".jsonl").write_text("".join(json.dumps(r, default=str) + "\n" for r in rows))
    write_summary(rows, stem, handcheck)
    _print_results(f"{len(rows)} answers graded again", stem)


@eval_app.command("summary")
def summary(
    results: Annotated[Path, typer.Argument(help="An answers results file (.jsonl).")],
    handcheck: Annotated[
        Path | None, typer.Option(help="Hand verdicts (JSONL): the grading's agreement with them.")
    ] = None,
) -> None:
    """Tables of stored answer results (no model call): accuracy by question type and, with
    --handcheck, how often the grading (and the recorded grading) agrees with verdicts read by hand."""
    rows = read_answer_rows(results)
    stem = results.with_suffix("")
    write_summary(rows, stem, handcheck)
    _print_results(f"{len(rows)} answers", stem)


def read_answer_rows(results: Path) -> list[dict[str, Any]]:
    """The rows of an answers results file, or a one-line error."""
    import json

    try:
        rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError) as exc:
        raise FinagentError(f"cannot read answer results {results}: {exc}") from exc
    if not rows or not all(isinstance(r, dict) and {"id", "answer", "reference"} <= r.keys() for r in rows):
        raise FinagentError(f"{results} holds no answer results (rows need id, answer and reference)")
    return rows
