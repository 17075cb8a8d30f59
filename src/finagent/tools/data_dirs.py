"""Where recorded market prices and news live when the network is not used."""

from __future__ import annotations

import os
from pathlib import Path

from finagent.settings import Settings


def _repo_root() -> Path | None:
    """The checkout holding ``src/finagent`` (None for an installed wheel)."""
    here = Path(__file__).resolve()
    src = here.parents[2]
    return src.parent if src.name == "src" else None


def _shared_candidates(*parts: str) -> list[Path]:
    """../shared/data beside the working folder, then beside the checkout."""
    shared = Path("..", "shared", "data", *parts)
    found = [Path.cwd() / shared]
    root = _repo_root()
    if root is not None:
        found.append(root / shared)
    return found


def _candidates(settings: Settings, *parts: str) -> list[Path]:
    return [*_shared_candidates(*parts), settings.home.joinpath(*parts)]


def shared_data_dir() -> Path | None:
    """The shared data set's data/ folder (../shared/data), or None where it is not beside us."""
    found = [path for path in _shared_candidates() if path.is_dir()]
    return found[0].resolve() if found else None


def _first_dir(paths: list[Path]) -> Path:
    """The first existing folder; else the last candidate (HOME/...), named in "not found" warnings."""
    for path in paths:
        if path.is_dir():
            return path.resolve()
    return paths[-1]


def market_data_dir(settings: Settings) -> Path:
    """Recorded daily prices: the setting, else ../shared/data/market/prices, else HOME/market/prices."""
    if settings.market_data_dir is not None:
        return settings.market_data_dir
    return _first_dir(_candidates(settings, "market", "prices"))


def news_data_dir(settings: Settings) -> Path:
    """Recorded news CSVs: the setting, else ../shared/data/news, else HOME/news."""
    if settings.news_data_dir is not None:
        return settings.news_data_dir
    return _first_dir(_candidates(settings, "news"))


def display_path(path: Path) -> str:
    """A path as short as it can be while still unambiguous (relative to the working dir if close)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if rel.count("..") <= 2 else str(path)
