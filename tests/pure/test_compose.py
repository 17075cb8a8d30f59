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
