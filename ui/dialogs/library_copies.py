"""Back up or export the library from the window (the CLI's `verbatim backup` and `verbatim export`).

A backup is one checked file of the whole library (database, audio, settings) that `verbatim
restore` reads back; an export is an Obsidian vault (Markdown) or a JSON dump for other tools. Both
run as tasks: progress and Cancel in the status bar, the library usable meanwhile, and a message
that says where the copy went.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.backup.formats import EXTENSION as BACKUP_EXTENSION
from app.library import Library
from ui.operations import Op, Operations, Progress

FORMAT_NAMES = {"markdown": "Markdown (Obsidian vault)", "json": "JSON"}


@dataclass(frozen=True)
class CopyDone:
    """What the status line says when a backup or an export ended, and where it is."""

    text: str
    path: Path


def backup_file_name(day: date | None = None) -> str:
    return f"Verbatim {(day or date.today()).isoformat()}{BACKUP_EXTENSION}"


def export_folder(parent: Path, fmt: str, day: date | None = None) -> Path:
    """A new folder inside the one the user chose (an export is refused into a non-empty folder, and
    a user picks where it goes, not a folder to fill): `Verbatim export 2026-11-25`, then ` (2)`…"""
    base = f"Verbatim {'JSON ' if fmt == 'json' else ''}export {(day or date.today()).isoformat()}"
    candidate, n = parent / base, 2
    while candidate.exists():
        candidate, n = parent / f"{base} ({n})", n + 1
    return candidate


class LibraryCopies(QObject):
    finished = Signal(object)  # CopyDone
    stopped = Signal(object)  # the error (a CancelledError when the user cancelled)

    def __init__(self, ops: Operations, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library

    def back_up(self, out: Path) -> Op:
        def run(progress: Progress) -> CopyDone:
            from app.backup.create import create_backup

            def step(done: int, total: int) -> None:
                progress(
                    done / total if total else None, f"Backing up: {done / 1e6:.0f} of {total / 1e6:.0f} MB"
                )

            progress(None, "Backing up the library")
            # Replacing an existing file: the save dialog already asked the user.
            report = create_backup(self.library, out, force=True, progress=step, cancelled=progress.cancelled)
            counts = report.counts
            notes = counts.get("recordings", 0)
            return CopyDone(
                f"Backed up {notes} note{'s' if notes != 1 else ''} to {Path(report.path).name}"
                f" ({report.bytes / 1e6:.1f} MB).",
                Path(report.path),
            )

        return self.ops.task(run, label="Backing up", finished=self.finished.emit, failed=self.stopped.emit)

    def export(self, folder: Path, fmt: str) -> Op:
        def run(progress: Progress) -> CopyDone:
            from app.backup.export import export_library

            progress(None, f"Exporting as {FORMAT_NAMES[fmt]}")
            report = export_library(self.library, folder, fmt=fmt)
            return CopyDone(
                f"Exported {report.recordings} note{'s' if report.recordings != 1 else ''} of"
                f" {report.projects} project{'s' if report.projects != 1 else ''} as {FORMAT_NAMES[fmt]}"
                f" to {Path(report.path).name}.",
                Path(report.path),
            )

        return self.ops.task(run, label="Exporting", finished=self.finished.emit, failed=self.stopped.emit)
