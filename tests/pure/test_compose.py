"""docker-compose.yml (the production database) is well-formed; Docker itself is not run here."""

from __future__ import annotations

import yaml

from tests.conftest import REPO


def test_compose_defines_pgvector_with_volume_and_healthcheck() -> None:
    spec = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    postgres = spec["services"]["postgres"]
    assert postgres["image"] == "pgvector/pgvector:pg17"
    volume = postgres["volumes"][0].split(":")[0]
    assert volume in spec["volumes"]
    assert postgres["volumes"][0].endswith(":/var/lib/postgresql/data")
    check = postgres["healthcheck"]
    assert "pg_isready" in " ".join(check["test"]) and check["retries"] > 0
    assert all(port.startswith("127.0.0.1:") for port in postgres["ports"])


def test_production_profile_passes_the_settings_db_tune_recommends() -> None:
    """`docker compose --profile production` starts a server with what `finagent db tune --memory-gb 64
    --cores 16` recommends for a store of 10M chunks (each overridable by a PG_* variable)."""
    from finagent.db.tuning import GB, recommend

    spec = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    production = spec["services"]["postgres-production"]
    assert production["profiles"] == ["production"]
    assert production["volumes"][0].split(":")[0] in spec["volumes"]
    assert all(port.startswith("127.0.0.1:") for port in production["ports"])
    passed = {}
    for arg in production["command"][1:]:
        if arg != "-c":
            name, value = arg.split("=", 1)
            passed[name] = value.split(":-")[-1].rstrip("}")  # ${PG_X:-default} -> default
    wanted = {r.name: r.value for r in recommend(64 * GB, 16, 10_000_000)}
    assert passed == wanted
    assert production["shm_size"].endswith("16gb}")  # parallel HNSW builds share memory via /dev/shm
