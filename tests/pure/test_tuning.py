"""`finagent db tune`'s sizing: from the server's memory and cores and the store's chunk count."""

from __future__ import annotations

from finagent.db.tuning import GB, hnsw_build_bytes, recommend, size_text


def _values(memory_gb: int, cores: int, chunks: int) -> dict[str, str]:
    return {r.name: r.value for r in recommend(memory_gb * GB, cores, chunks)}


def test_large_server_gets_a_quarter_of_memory_as_buffers_and_the_hnsw_graph_as_build_memory() -> None:
    values = _values(64, 16, 10_000_000)
    assert values["shared_buffers"] == "16GB"
    assert values["effective_cache_size"] == "48GB"
    assert values["max_parallel_maintenance_workers"] == "8"
    assert values["max_parallel_workers_per_gather"] == "4"
    assert values["maintenance_work_mem"] == "15GB"  # the HNSW graph of 10M chunks, rounded up to GB
    assert hnsw_build_bytes(10_000_000) <= 15 * GB <= 32 * GB  # it fits, within half of memory


def test_a_store_larger_than_memory_is_capped_and_says_so() -> None:
    settings = {r.name: r for r in recommend(8 * GB, 2, 100_000_000)}
    assert settings["maintenance_work_mem"].value == "4GB"  # half of memory
    assert "does NOT fit" in settings["maintenance_work_mem"].why
    assert settings["max_parallel_maintenance_workers"].value == "1"
    assert {r.name for r in recommend(8 * GB, 2, 0) if r.scope == "server"} == {
        "shared_buffers",
        "max_worker_processes",
        "max_wal_size",
    }


def test_size_text_is_a_postgres_memory_value() -> None:
    assert size_text(4 * GB) == "4GB"
    assert size_text(1536 * 1024**2) == "1536MB"
    assert size_text(10) == "1MB"
