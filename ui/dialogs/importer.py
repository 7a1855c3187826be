"""Import by drag and drop (or Ctrl+I): audio and transcript files into the chosen project.

Runs as a cancellable task (cancel takes effect within a file too: the one under way is taken
back whole, the ones before it stay); each file's result is reported as it comes, and the summary
says what was imported, what was already there and what failed, why.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QUrl, Signal

from app.library import Library
from models.errors import CancelledError
from ui.operations import Change, Op, Operations, Progress

if TYPE_CHECKING:  # imported at the first import: it brings in the audio decoders
    from app.ingest.imports import ImportResult


def local_paths(urls: list[QUrl]) -> list[Path]:
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile()]


def importable(paths: list[Path]) -> bool:
    """Worth accepting a drop: any folder or any file of a kind Verbatim imports."""
    from app.ingest.imports import supported

    return any(p.is_dir() or supported(p) for p in paths)


def failure_lines(results: list[ImportResult]) -> list[str]:
    """Every file that could not be imported, with why."""
    return [f"{Path(r.path).name}: {r.message}" for r in results if r.status == "failed"]


def summarise(results: list[ImportResult]) -> tuple[str, str]:
    """(summary, details of failures) in words: the first three failures; `failure_lines` has all."""
    imported = [r for r in results if r.status == "imported"]
    duplicates = [r for r in results if r.status == "duplicate"]
    failed = [r for r in results if r.status == "failed"]
    parts = []
    if imported:
        parts.append(f"{len(imported)} imported")
    if duplicates:
        parts.append(f"{len(duplicates)} already in your notes")
    if failed:
        parts.append(f"{len(failed)} could not be imported")
    summary = ", ".join(parts) or "nothing to import"
    details = "; ".join(failure_lines(results)[:3])
    if len(failed) > 3:
        details += f"; and {len(failed) - 3} more"
    return summary[0].upper() + summary[1:] + ".", details


class Importer(QObject):
    finished = Signal(list, str)  # results, project
    stopped = Signal(object, str)  # the error (a CancelledError when the user cancelled), project

    def __init__(self, ops: Operations, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library

    def import_paths(self, paths: list[Path], project: str) -> Op:
        count = len(paths)

        def run(progress: Progress) -> list[ImportResult]:
            done: list[ImportResult] = []

            def each(result: ImportResult) -> None:
                done.append(result)
                progress(None, f"{len(done)} done: {Path(result.path).name}")
                if progress.cancelled():
                    raise CancelledError("import cancelled; the files already imported stay")

            from app.ingest.imports import import_files

            progress(None, f"Importing {count} item{'s' if count != 1 else ''} into {project}")
            return import_files(
                self.library, paths, project=project, on_result=each, cancelled=progress.cancelled
            )

        return self.ops.task(
            run,
            label=f"Importing into {project}",
            finished=lambda results: self.finished.emit(results, project),
            failed=lambda exc: self.stopped.emit(exc, project),
            changes={Change.RECORDINGS, Change.PROJECTS},
        )
