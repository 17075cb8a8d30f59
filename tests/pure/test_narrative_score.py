"""The narrative benchmark: its scorer on hand-written answers, and its question set's form.

The scorer decides whether a narrative answer states the facts a right answer cannot miss and none
of the claims a wrong one makes, so it is tested on a right answer, a missed fact, a forbidden claim
and an honest "not in the store". The set is checked for form (ids, kinds, halves, rubrics), each
question's own note is checked to pass its rubric (the gold and the rubric agree), and, with ../shared
present, every source file exists and every evidence quote is printed in it (read with lxml / pymupdf,
never with finagent's readers, which are what the benchmark measures).
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter, defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from benchmarks.narrative_score import EXPECTS, REGEX_PREFIX, matches, says_not_covered, score

from tests.conftest import SHARED_DATA, require_shared

NARRATIVE = Path(__file__).resolve().parents[2] / "benchmarks" / "narrative"
QUESTIONS = NARRATIVE / "questions.jsonl"
KINDS = {
    "business",
    "customers",
    "segments",
    "geography",
    "risk_factors",
    "risk_changes",
    "legal",
    "events_8k",
    "votes",
    "executives",
    "deals",
    "guidance",
    "drivers",
    "call_remarks",
    "news",
    "securities",
    "not_covered",
}


@cache
def load_questions() -> list[dict[str, Any]]:
    return [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]


def by_id(qid: str) -> dict[str, Any]:
    return next(q for q in load_questions() if q["id"] == qid)


QUESTION: dict[str, Any] = {
    "id": "x",
    "kind": "drivers",
    "expect": "answer",
    "must": [["comparable sales", "comp sales"], ["transactions"], [r"re:\$?\s?32\.9\s?(billion|bn)"]],
    "must_not": ["marketing expense", r"re:\b(likely|probably)\b"],
}


# -- the scorer -------------------------------------------------------------------------------------


def test_a_right_answer_passes() -> None:
    answer = (
        "Walmart's revenue rose $32.9 billion (5.1%) in fiscal 2025, primarily due to strong positive "
        "Comparable Sales driven by growth in transactions and unit volumes, including eCommerce."
    )
    result = score(answer, QUESTION)
    assert result["passed"]
    assert result["missed"] == [] and result["forbidden"] == []
    assert result["found"] == ["comparable sales", "transactions", QUESTION["must"][2][0]]
    assert result["not_covered_said"] is None


def test_a_missed_fact_fails_and_names_the_group() -> None:
    answer = "Revenue rose $32.9bn on comp sales growth."
    result = score(answer, QUESTION)
    assert not result["passed"]
    assert result["missed"] == [["transactions"]]


def test_a_forbidden_claim_fails_even_with_every_fact() -> None:
    answer = (
        "Revenue grew $32.9 billion on comp sales and transactions, likely helped by lower marketing expense."
    )
    result = score(answer, QUESTION)
    assert not result["passed"]
    assert result["missed"] == []
    assert result["forbidden"] == ["marketing expense", QUESTION["must_not"][1]]


def test_alternatives_are_case_insensitive_substrings_or_regexes() -> None:
    assert matches("Comp Sales", "strong COMP SALES growth")
    assert matches(r"re:\b10\s?%", "cut to 10 % from 15%")
    assert not matches(r"re:\b10\s?%", "cut to 110%")
    assert not matches("re:unlikely", "likely")
    # An amount regex of the set does not match inside a larger number.
    seven = by_id("nar-029")["must"][2][0]
    assert matches(seven, "reversed approximately $7 billion") and matches(seven, "about $7bn")
    assert not matches(seven, "a $17 billion reserve")


def test_not_covered_needs_the_answer_to_say_so() -> None:
    question = {**QUESTION, "expect": "not_covered", "must": [["fiscal 2023", "FY2023"]], "must_not": []}
    honest = "The store holds only the fiscal 2024 10-K; the fiscal 2023 10-K is not in the store."
    assert score(honest, question)["passed"]
    assert score(honest, question)["not_covered_said"] is True
    bluff = "Compared with fiscal 2023, Home Depot added a risk factor on tariffs."
    result = score(bluff, question)
    assert not result["passed"] and result["not_covered_said"] is False


@pytest.mark.parametrize(
    "answer",
    [
        "I could not find Meta's 10-Q in the documents.",
        "No Meta 10-Q is in the store, so the change cannot be determined.",
        "The documents do not contain a January 2025 call.",
        "There are no articles from June 2023 in the news file.",
        "That filing is not available in the corpus.",
        "The news file holds nothing from June 2023.",
    ],
)
def test_the_ways_an_answer_says_the_store_does_not_hold_it(answer: str) -> None:
    assert says_not_covered(answer)


@pytest.mark.parametrize(
    "answer",
    ["Apple's risk factors did not change materially.", "Revenue grew 5% on comp sales.", ""],
)
def test_an_ordinary_answer_is_not_read_as_not_covered(answer: str) -> None:
    assert not says_not_covered(answer)


def test_an_empty_answer_never_passes() -> None:
    assert not score("", {**QUESTION, "must": [], "must_not": []})["passed"]


def test_a_no_change_question_of_the_set() -> None:
    question = by_id("nar-024")  # Apple, 10-Q for the quarter ended July 1, 2023
    assert question["expect"] == "no_change"
    right = (
        "Nothing material changed: Part II, Item 1A says there have been no material changes to Apple's "
        "risk factors since the 2022 Form 10-K."
    )
    assert score(right, question)["passed"]
    wrong = "Apple added a new risk factor on the Digital Markets Act."
    assert not score(wrong, question)["passed"]


# -- the question set -------------------------------------------------------------------------------


def test_the_questions_are_well_formed() -> None:
    questions = load_questions()
    assert len(questions) >= 60
    ids = [q["id"] for q in questions]
    assert len(set(ids)) == len(ids)
    assert ids == [f"nar-{i:03d}" for i in range(1, len(ids) + 1)]
    for q in questions:
        where = q["id"]
        assert q["kind"] in KINDS, where
        assert q["half"] in {"tune", "held"}, where
        assert q["expect"] in EXPECTS, where
        assert q["question"].strip() and q["note"].strip(), where
        assert q["tickers"] and all(t == t.upper() for t in q["tickers"]), where
        assert q["sources"], where
        for source in q["sources"]:
            assert source["file"] and not source["file"].startswith("/"), where
            assert source["part"].strip(), where
            assert len(source["evidence"]) <= 300, where
            assert source["evidence"] or q["expect"] == "not_covered", where
        assert 1 <= len(q["must"]) <= 4, where
        for group in q["must"]:
            assert group and all(isinstance(alt, str) and alt.strip() for alt in group), where
        for alt in [a for g in q["must"] for a in g] + q["must_not"]:
            assert alt.strip(), where
            if alt.startswith(REGEX_PREFIX):
                re.compile(alt[len(REGEX_PREFIX) :])


def test_every_kind_has_both_halves() -> None:
    halves: dict[str, Counter[str]] = defaultdict(Counter)
    for q in load_questions():
        halves[q["kind"]][q["half"]] += 1
    assert set(halves) == KINDS
    for kind, count in halves.items():
        assert count["tune"] + count["held"] >= 4, kind
        assert count["tune"] >= 2 and count["held"] >= 2, kind


def test_halves_alternate_within_each_kind() -> None:
    seen: dict[str, int] = defaultdict(int)
    for q in load_questions():
        assert q["half"] == ("tune" if seen[q["kind"]] % 2 == 0 else "held"), q["id"]
        seen[q["kind"]] += 1


def test_each_note_passes_its_own_rubric() -> None:
    failing = [q["id"] for q in load_questions() if not score(q["note"], q)["passed"]]
    assert failing == []


def test_the_readme_counts_match_the_set() -> None:
    readme = (NARRATIVE / "README.md").read_text()
    halves: dict[str, Counter[str]] = defaultdict(Counter)
    for q in load_questions():
        halves[q["kind"]][q["half"]] += 1
    for kind, count in halves.items():
        row = re.search(rf"^\| `{kind}` \| (\d+) \| (\d+) \|", readme, re.MULTILINE)
        assert row, kind
        assert (int(row.group(1)), int(row.group(2))) == (count["tune"], count["held"]), kind


# -- the sources (needs ../shared) ------------------------------------------------------------------


def squeezed(text: str) -> str:
    """Text without whitespace or ligatures: PDF line breaks and iXBRL spans split words anywhere."""
    return re.sub(r"\s+", "", text.replace("\ufb01", "fi").replace("\ufb02", "fl").replace("\xa0", " "))


@cache
def document_text(relative: str) -> str:
    path = SHARED_DATA / relative
    if path.suffix == ".pdf":
        import pymupdf

        with pymupdf.open(path) as doc:
            return squeezed("\n".join(page.get_text() for page in doc))
    if path.suffix in {".htm", ".html"}:
        from lxml import etree

        root = etree.parse(str(path), etree.HTMLParser(recover=True, huge_tree=True)).getroot()
        return squeezed(" ".join(root.itertext()))
    if path.suffix == ".csv":
        csv.field_size_limit(1 << 30)
        with path.open(encoding="utf-8-sig", newline="") as fh:
            return squeezed("\n".join(row.get("Text") or "" for row in csv.DictReader(fh)))
    return squeezed(path.read_text())


@pytest.mark.shared
def test_every_source_file_exists() -> None:
    require_shared("filings")
    missing = [(q["id"], s["file"]) for q in load_questions() for s in q["sources"]]
    missing = [(qid, f) for qid, f in missing if not (SHARED_DATA / f).is_file()]
    assert missing == []


@pytest.mark.shared
def test_every_evidence_quote_is_printed_in_its_source() -> None:
    require_shared("filings")
    absent = [
        (q["id"], s["file"], s["evidence"][:60])
        for q in load_questions()
        for s in q["sources"]
        if s["evidence"] and squeezed(s["evidence"]) not in document_text(s["file"])
    ]
    assert absent == []
