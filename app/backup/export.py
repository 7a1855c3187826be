"""Export the library to files any tool can read: a Markdown vault or a JSON dump.

An export only reads the library. Its target is a user's folder, so it is checked first: the data
folder itself (or a folder inside it) is refused, and so is an existing folder that is not empty
unless `force` (then files of the same name are replaced, nothing else is touched).

JSON (`--format json`): see app.backup.export_json.
Markdown (`--format markdown`): see app.backup.export_markdown.
"""

from __future__ import annotations

from pathlib import Path

from app.backup.export_json import export_json
from app.backup.export_markdown import export_markdown
from app.backup.formats import ExportReport
from app.library import Library
from app.project_service import get_project
from models.errors import InputError

FORMATS = ("markdown", "json")


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
        return export_json(library, target, project_id=project_id, audio=audio)
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
