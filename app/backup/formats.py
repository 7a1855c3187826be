"""What backups and exports share: the backup file's format and members, report types, and safe
file names. Every module of app/backup imports from here; none of them imports another's internals."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

FORMAT = "verbatim-backup"
FORMAT_VERSION = 1
EXTENSION = ".verbatim-backup"
MANIFEST = "manifest.json"
DATABASE = "verbatim.db"
SETTINGS = "settings.json"
FILE_FOLDERS = ("audio", "recording")  # copied whole, at their paths in the data folder
BLOCK = 1 << 20
DEFLATE_LEVEL = 1
SPARE_BYTES = 200 << 20  # left free after a backup: the library itself must keep working

Progress = Callable[[int, int], None]  # (bytes done, bytes in all)
Cancelled = Callable[[], bool]


@dataclass
class Member:
    name: str
    size: int
    sha256: str


@dataclass
class BackupReport:
    path: str
    bytes: int
    seconds: float
    counts: dict[str, int]
    schema_version: int
    members: int
    audio_included: bool = True
    missing_audio: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ExportReport:
    path: str
    format: str
    projects: int
    recordings: int
    files: int
    audio_files: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# --- safe file names -------------------------------------------------------------------------------
_FORBIDDEN = re.compile(r'[<>:"/\\|?*#^\[\]\x00-\x1f\x7f]')
_RESERVED = {
    "CON",
    "PRN",
    "AUX",
    "NUL",
    *(f"COM{n}" for n in range(1, 10)),
    *(f"LPT{n}" for n in range(1, 10)),
}
MAX_NAME_BYTES = 120


def safe_name(text: str, fallback: str = "untitled") -> str:
    """A file or folder name that is safe everywhere and inside a [[wikilink]]: no path separators,
    no `..`, no characters Windows, macOS or Obsidian reserve, no reserved device names, at most
    MAX_NAME_BYTES bytes (cut between characters)."""
    name = unicodedata.normalize("NFC", text)
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C" or ch in "\t\n")
    name = " ".join(_FORBIDDEN.sub("-", name).split())
    head, dot, tail = name.strip(" .-").partition(".")
    if head.strip().upper() in _RESERVED:  # Windows: "CON", "con.txt", "CON .md" are all the device
        head = f"{head.rstrip()}_{head[len(head.rstrip()) :]}"
    name = _cut(head + dot + tail, MAX_NAME_BYTES).strip(" .-")
    return name or fallback


def _cut(text: str, limit: int) -> str:
    encoded = text.encode("utf-8")
    if len(encoded) <= limit:
        return text
    return encoded[:limit].decode("utf-8", errors="ignore")


class NameBook:
    """Unique names per folder, case-insensitively (as on macOS and Windows): "x", "x (2)", ..."""

    def __init__(self) -> None:
        self._taken: dict[str, set[str]] = {}

    def reserve(self, folder: str, name: str) -> None:
        self._taken.setdefault(folder, set()).add(name.casefold())

    def claim(self, folder: str, stem: str, suffix: str = "") -> str:
        taken = self._taken.setdefault(folder, set())
        candidate, n = stem, 1
        while f"{candidate}{suffix}".casefold() in taken:
            n += 1
            candidate = f"{stem} ({n})"
        taken.add(f"{candidate}{suffix}".casefold())
        return f"{candidate}{suffix}"
