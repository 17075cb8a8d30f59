"""Company-facts files to read: a ``CIK##########.json``, the ``.json`` members of a zip (SEC's
``companyfacts.zip``), or a folder of both; each opened as a stream when it is read, never extracted."""

from __future__ import annotations

import functools
import zipfile
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from finagent.ingest.folders import files_under


@dataclass(frozen=True, slots=True)
class FactsFile:
    """One company-facts file to read: a file on disk or a member of a zip, opened as a stream.

    Plain data (a path and a member name), so a worker process of another engine can open it."""

    name: str
    path: Path
    member: str | None = None
    origin: str = ""  # absolute path (and "!member"): what `finagent db remove <path>` matches

    def open(self) -> AbstractContextManager[IO[bytes]]:
        if self.member is None:
            return self.path.open("rb")
        stat = self.path.stat()
        return _archive(self.path, stat.st_mtime_ns, stat.st_size).open(self.member)


@functools.lru_cache(maxsize=4)
def _archive(path: Path, mtime_ns: int, size: int) -> zipfile.ZipFile:
    """A zip opened once per process (and version of it): its directory is read once, however many
    members are read."""
    return zipfile.ZipFile(path)


@dataclass(slots=True)
class Found:
    files: list[FactsFile] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


def _on_disk(path: Path) -> FactsFile:
    return FactsFile(str(path), path, None, str(path.resolve()))


def _zip_members(path: Path, found: Found) -> None:
    """Each ``.json`` member of a zip (opened one at a time when read, streamed, never extracted)."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        found.failed.append((str(path), f"not a readable zip file: {exc}"))
        return
    for member in archive.infolist():
        name = f"{path}!{member.filename}"
        if member.is_dir():
            continue
        if not member.filename.lower().endswith(".json"):
            found.skipped.append((name, "not a company-facts .json file"))
            continue
        origin = f"{path.resolve()}!{member.filename}"
        found.files.append(FactsFile(name, path, member.filename, origin))


def discover_company_facts(path: Path) -> Found:
    """Company-facts files at ``path``: a .json file, a .zip of them, or a folder (searched for both)."""
    found = Found()
    path = Path(path).expanduser()
    if path.is_file():
        candidates = [path]
    elif path.is_dir():
        candidates = files_under(path, lambda p: p.suffix.lower() in (".json", ".zip"))
    else:
        found.failed.append((str(path), "no such file or folder"))
        return found
    for candidate in candidates:
        if candidate.suffix.lower() == ".zip" or zipfile.is_zipfile(candidate):
            _zip_members(candidate, found)
        else:
            found.files.append(_on_disk(candidate))
    return found
