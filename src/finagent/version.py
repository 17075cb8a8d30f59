"""The installed distribution's version (one source: pyproject.toml, read through package metadata)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("finagent")
except PackageNotFoundError:  # a source tree on PYTHONPATH without an install
    __version__ = "0+unknown"
