"""A built wheel carries sql/, prompts/ and the lock and finds them when installed (not only editable)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import REPO


def test_wheel_ships_sql_and_prompts_and_uses_them(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(REPO)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheel = next((tmp_path / "dist").glob("finagent-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {p.relative_to(REPO).as_posix() for p in (REPO / "sql").rglob("*.sql")}
    expected |= {p.relative_to(REPO).as_posix() for p in (REPO / "prompts").rglob("*") if p.is_file()}
    expected.add("requirements.lock")  # `finagent doctor` compares the installed versions with it
    assert {f"finagent/{name}" for name in expected} <= names

    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    probe = (
        "import finagent, finagent.resources as r, finagent.db.migrate as m;"
        "print(finagent.__file__); print(r.resource_dir('sql')); print(len(m.migration_files()));"
        "print(r.lock_file())"
    )
    env = os.environ | {"PYTHONPATH": str(target)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    module_file, sql_dir, migrations, lock = out.stdout.split()
    assert module_file.startswith(str(target)) and sql_dir.startswith(str(target))
    assert lock.startswith(str(target))
    assert int(migrations) >= 1


def test_langgraph_json_is_complete() -> None:
    """langgraph.json names the dependencies, each graph with a description and an entry that loads."""
    import importlib.util
    import json

    config = json.loads((REPO / "langgraph.json").read_text())
    assert config["dependencies"] == ["."]
    assert config["env"] == ".env" and (REPO / ".env.example").is_file()
    for name, graph in config["graphs"].items():
        path, _, attribute = graph["path"].partition(":")
        assert len(graph["description"]) > 40, name
        spec = importlib.util.spec_from_file_location(f"langgraph_entry_{name}", REPO / path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        compiled = getattr(module, attribute)
        schema = compiled.get_input_jsonschema()
        assert schema["required"] == ["question"] and "description" in schema["properties"]["question"]
