"""A folder as the readers of folder formats walk it (EDGAR HTML, XBRL instances, company facts)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def files_under(folder: Path, wanted: Callable[[Path], bool]) -> list[Path]:
    """The files below ``folder`` that ``wanted`` takes, sorted; none hidden or in a hidden folder
    (a name starting with ".")."""
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts) and wanted(p)
    )
