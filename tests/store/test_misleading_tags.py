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


def opening_of(settings: Settings, question: str) -> str:
    return answer(settings, question)[0]


def test_the_statement_row_decides_which_concept_is_read(store: Database, settings: Settings) -> None:
    # The R&D concept holds an acquired in-process charge on its own row: the "Research and
    # development" row's concept is read, and the answer names it.
    opening = opening_of(settings, "What did Vertex spend on research and development in fiscal 2024?")
    assert (
        "Vertex Pharmaceuticals' research and development in FY2024 (the year ended December 31, 2024) was "
        '$3,630 million [10K1], read from the income statement\'s "Research and development expenses" line '
        "(us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost), not "
        "us-gaap:ResearchAndDevelopmentExpense."
    ) in opening
    assert "4,628" not in opening
    # The charge only in a note.
    opening = opening_of(settings, "Incyte R&D expense 2024")
    assert opening.startswith(
        "Incyte's research and development in FY2024 (the year ended December 31, 2024) was $1,600 million"
    )
    assert '"Research and development" line' in opening
    # No stored text prints either: the implausibly small one is not the line.
    opening = opening_of(settings, "What was the research and development expense of Exelixis in 2024?")
    assert opening.startswith(
        "Exelixis' research and development in FY2024 (the year ended December 31, 2024) was $900 million"
    )
    assert "read from us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost" in opening


def test_per_share_figures_by_class(store: Database, settings: Settings) -> None:
    opening = opening_of(settings, "Alphabet's diluted EPS for 2023")
    assert opening == (
        "Alphabet's diluted EPS in FY2023 (the year ended December 31, 2023) was $5.8 per share [10K1], "
        "for Class A and Class B shares alike."
    )
    opening = opening_of(settings, "Greif diluted earnings per share 2024")
    assert opening == (
        "Greif's diluted EPS in FY2024 (the year ended December 31, 2024) was $4.41 per share [10K1], "
        "for Class A shares (Class B shares report another figure)."
    )
    # The consolidated line wins over a class's figure.
    opening = opening_of(settings, "Comcast diluted EPS 2023")
    assert (
        opening
        == "Comcast's diluted EPS in FY2023 (the year ended December 31, 2023) was $3.71 per share [10K1]."
    )


def test_eps_from_continuing_operations_only_when_asked(store: Database, settings: Settings) -> None:
    opening = opening_of(settings, "What was Danaher's diluted EPS from continuing operations in 2023?")
    assert opening == (
        "Danaher's diluted EPS from continuing operations in FY2023 (the year ended December 31, 2023) "
        "was $6.35 per share [10K1]."
    )
    opening = opening_of(settings, "Danaher's basic earnings per share from continuing operations for 2023")
    assert "basic EPS from continuing operations in FY2023" in opening and "$6.44 per share" in opening
    opening = opening_of(settings, "Danaher EPS 2023")
    assert (
        opening
        == "Danaher's diluted EPS in FY2023 (the year ended December 31, 2023) was $6.38 per share [10K1]."
    )
