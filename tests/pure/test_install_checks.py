"""The install checks' pure parts: the lock read as versions, drift named, and an unexpected error named
by the part of the system it came out of."""

from __future__ import annotations

import gc

import openai
import pytest

from finagent.cli.doctor_cmd import check_versions, describe_store, locked_versions
from finagent.db.health import StoreHealth
from finagent.errors import ConfigError, failing_component, failure_line
from finagent.resources import lock_file

LOCK = """# header
annotated-types==0.8.0
    # via pydantic
Jinja2==3.1.6
torch==2.13.0
openai==3.63.0 ; python_version >= "3.9"
"""


def test_locked_versions_are_read_by_normalised_name() -> None:
    assert locked_versions(LOCK) == {
        "annotated-types": "0.8.0",
        "jinja2": "3.1.6",
        "torch": "2.13.0",
        "openai": "3.63.0",
    }


def test_the_repository_lock_pins_every_sdk_the_code_relies_on() -> None:
    path = lock_file()
    assert path is not None
    pins = locked_versions(path.read_text())
    for name in (
        "openai",
        "mcp",
        "langgraph",
        "langchain-core",
        "langchain-openai",
        "psycopg",
        "transformers",
    ):
        assert name in pins, name
    assert pins["torch"] == "2.13.0"  # the CPU build the README installs first, without its +cpu label


def test_versions_as_locked_and_drifted() -> None:
    locked = locked_versions(LOCK)
    same = check_versions({"torch": "2.13.0+cpu", "openai": "3.63.0", "uv": "0.13.9"}, locked)
    assert (same.status, same.message) == ("ok", "2 installed packages as in requirements.lock")
    drifted = check_versions({"torch": "2.13.0+cpu", "openai": "3.64.0"}, locked)
    assert drifted.status == "warn"
    assert drifted.message.startswith(
        "1 of 2 installed packages differ from requirements.lock: openai 3.64.0 (locked 3.63.0)"
    )


def health(**fields: object) -> StoreHealth:
    base: dict = dict(
        server_version="18.4",
        pgvector="0.8.5",
        applied=(1, 2),
        shipped=(1, 2),
        embedding_dim=384,
        documents=3,
    )
    return StoreHealth(**(base | fields))


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({}, "ok", "PostgreSQL 18.4 (embedded), pgvector 0.8.5: 2 of 2 migrations applied, 3 documents"),
        ({"applied": (1,)}, "warn", "1 migrations pending"),
        ({"applied": ()}, "warn", "empty, not yet migrated"),
        ({"applied": (1, 2, 3)}, "fail", "migrated by a newer finagent (migration 3)"),
        ({"pgvector": None}, "fail", "the pgvector extension is not installed"),
    ],
)
def test_the_store_line(fields: dict, status: str, message: str) -> None:
    check = describe_store(health(**fields), "embedded")
    assert check.status == status and message in check.message, check


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_sdk_error_is_named_the_chat_model_call() -> None:
    """The error a fresh install met: the SDK rejected the timeout object it was handed."""
    with pytest.raises(TypeError) as caught:
        openai.AsyncOpenAI(api_key="k", base_url="http://127.0.0.1:9/v1", timeout=object())  # type: ignore[arg-type]
    line = failure_line(caught.value)
    component = failing_component(caught.value)
    del caught
    gc.collect()  # the half-built client's __del__ complains here, under this test's filter
    assert component == "the chat model call failed"
    assert line.startswith("the chat model call failed: TypeError: ")


def test_errors_of_our_own_and_of_no_known_part() -> None:
    assert failure_line(ConfigError("set OPENAI_API_KEY")) == "set OPENAI_API_KEY"
    try:
        dict[str, int]()["missing"]
    except KeyError as exc:
        assert failing_component(exc) is None
        assert failure_line(exc) == "KeyError: 'missing'"
