"""`finagent doctor` with the real offline model: it answers, and a model that cannot be served is one
clear failing line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.store.test_cli import finagent
from tests.store.test_doctor import assert_one_clear_failure, lines_of

pytest.importorskip("xllamacpp")


def test_doctor_asks_the_offline_model(db_url: str, tmp_path: Path) -> None:
    finagent(["companies"], db_url, tmp_path)
    result = finagent(["doctor"], db_url, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert lines_of(result)["chat model"].startswith(
        "ok   chat model  local qwen2.5-coder-1.5b-instruct answered"
    )


def test_doctor_names_a_model_server_that_cannot_start(db_url: str, tmp_path: Path) -> None:
    finagent(["companies"], db_url, tmp_path)
    not_a_model = tmp_path / "model.gguf"
    not_a_model.write_text("this is not a GGUF file")
    result = finagent(["doctor"], db_url, tmp_path, settings={"FINAGENT_LOCAL_MODEL_PATH": str(not_a_model)})
    assert_one_clear_failure(result, "chat model", "the local model server did not start")
