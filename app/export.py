"""Export the library to files any tool can read: a Markdown vault or a JSON dump.

An export only reads the library. Its target is a user's folder, so it is checked first: the data
folder itself (or a folder inside it) is refused, and so is an existing folder that is not empty
unless `force` (then files of the same name are replaced, nothing else is touched).

JSON (`--format json`): see app.export_json.
Markdown (`--format markdown`): see app.export_markdown.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.library import Library
from app.projects import get_project
from models.errors import InputError

FORMATS = ("markdown", "json")


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


def export_library(
    library: Library,
    out: Path,
    *,
    fmt: str = "markdown",
    project: str | None = None,
    force: bool = False,
    audio: bool = True,
) -> ExportReport:
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r}: use markdown or json")
    target = check_target(library, out, force=force)
    project_id = get_project(library, project).id if project else None
    if fmt == "json":
        from app.export_json import export_json

        return export_json(library, target, project_id=project_id, audio=audio)
    from app.export_markdown import export_markdown

    return export_markdown(library, target, project=project, audio=audio)


def check_target(library: Library, out: Path, *, force: bool) -> Path:
    """The export folder, made if missing; refused when it is the library or a non-empty folder."""
    target = Path(out).expanduser().absolute()
    resolved, root = target.resolve(), library.data_dir.root.resolve()
    if resolved == root or resolved.is_relative_to(root):
        raise InputError(
            f"{out} is inside the library's data folder ({root})",
            fix="export to a folder outside it, e.g. ~/verbatim-export",
        )
    if resolved.exists() and not resolved.is_dir():
        raise InputError(f"{out} is a file, not a folder")
    if resolved.is_dir() and any(resolved.iterdir()) and not force:
        raise InputError(
            f"{out} is not empty",
            fix="choose a new or empty folder, or add --force to write into it"
            " (files of the same name are replaced)",
        )
    target.mkdir(parents=True, exist_ok=True)
    return target


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
