"""Tags that mislead, through the graph (scripted model, real store): the statement line the question
names decides which concept is read, and the answer names the line when another candidate disagreed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from finagent.db import Database
from finagent.settings import Settings
from tests.store.tags_store import misleading_companies
from tests.store.test_spans_graph import _ingest, answer


@pytest.fixture()
def store(db: Database, settings: Settings) -> Iterator[Database]:
    yield from _ingest(db, settings, misleading_companies())


QUESTIONS = (
    "What did Vertex spend on research and development in fiscal 2024?",
    "Alphabet's diluted EPS for 2023",
    "What was Danaher's diluted EPS from continuing operations in 2023?",
    "What was Greif's basic EPS in fiscal 2023?",
    "Danaher EPS 2023",
    "Incyte R&D expense 2024",
    "How much did Vertex invest in R&D in 2023?",
    "What were Alphabet's basic earnings per share in 2024?",
    "Danaher's basic earnings per share from continuing operations for 2023",
    "Greif diluted earnings per share 2024",
    "Comcast diluted EPS 2023",
    "What was the research and development expense of Exelixis in 2024?",
)


def test_explore(store: Database, settings: Settings) -> None:
    for q in QUESTIONS:
        opening, table, out = answer(settings, q)
        print("Q:", q)
        print("A:", opening)
        print()


def test_debug(store: Database, settings: Settings) -> None:
    with store.connection() as conn:
        for r in conn.execute("SELECT ticker, concept, label, statement, chunk_id, dims_key FROM facts WHERE ticker in ('VRTX','INCY') AND fiscal_year=2024").fetchall():
            print(r)
        for r in conn.execute("SELECT id, statement, left(text, 80) FROM chunks").fetchall():
            print(r)
