"""Watched folders: notice new files, and hand them on only once they have finished arriving.

A phone sync or a browser writes a file over seconds or minutes, often under a temporary name
(`.part`, `.tmp`, a hidden name) renamed at the end. A file is ready when its size and modification
time have not changed for `settle` seconds; temporary and hidden files are never ready. Files
already in the folder when watching starts are handed on too (the importer recognises what it has
seen before, so a restart never imports the same content twice).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from models.errors import InputError

log = logging.getLogger(__name__)

IGNORED_SUFFIXES = (".part", ".tmp", ".partial", ".crdownload", ".download", ".swp", ".lock")
SETTLE_SECONDS = 2.0


def is_candidate(path: Path, *, root: Path | None = None) -> bool:
    """Not hidden (nor inside a hidden folder), not a temporary or partial download."""
    parts = path.relative_to(root).parts if root is not None and path.is_relative_to(root) else (path.name,)
    if any(part.startswith(".") for part in parts):
        return False
    name = path.name.lower()
    return not name.endswith(IGNORED_SUFFIXES) and not name.endswith("~") and not name.startswith("~$")


class SettleTracker:
    """Files seen recently, and since when their size and modification time have stayed the same."""

    def __init__(self, settle: float = SETTLE_SECONDS) -> None:
        self.settle = settle
        self._seen: dict[Path, tuple[int, int, float]] = {}

    def note(self, path: Path, now: float | None = None) -> None:
        if path not in self._seen:
            self._seen[path] = (-1, -1, now if now is not None else time.monotonic())

    def forget(self, path: Path) -> None:
        self._seen.pop(path, None)

    @property
    def pending(self) -> list[Path]:
        return sorted(self._seen)

    def ready(self, now: float | None = None) -> list[Path]:
        """Files unchanged for `settle` seconds and not empty; they are forgotten once returned."""
        now = now if now is not None else time.monotonic()
        done = []
        for path, (size, mtime, since) in list(self._seen.items()):
            try:
                stat = path.stat()
            except FileNotFoundError:
                self.forget(path)  # renamed or deleted before it settled
                continue
            current = (stat.st_size, stat.st_mtime_ns)
            if current != (size, mtime):
                self._seen[path] = (*current, now)
            elif stat.st_size > 0 and now - since >= self.settle:
                done.append(path)
                self.forget(path)
        return sorted(done)


def watch_stable_files(
    folder: Path,
    *,
    stop: threading.Event,
    settle: float = SETTLE_SECONDS,
    accept: Callable[[Path], bool] = lambda path: True,
    poll: float = 0.5,
) -> Iterator[Path]:
    """Every file in `folder` (existing or new, recursively) once it has stopped changing, until `stop`."""
    from watchfiles import Change, watch

    folder = folder.expanduser()
    if not folder.is_dir():
        raise InputError(f"cannot watch {folder}: it is not a folder", fix="create it, or check the path")
    tracker = SettleTracker(settle)

    def consider(path: Path) -> None:
        if is_candidate(path, root=folder) and accept(path) and path.is_file():
            tracker.note(path)

    for path in folder.rglob("*"):
        consider(path)
    yield from tracker.ready()
    for changes in watch(
        folder,
        watch_filter=None,
        stop_event=stop,
        rust_timeout=int(poll * 1000),
        yield_on_timeout=True,
        debounce=int(poll * 1000),
        raise_interrupt=False,
    ):
        for change, raw in changes:
            path = Path(raw)
            if change == Change.deleted:
                tracker.forget(path)
            else:
                consider(path)
        yield from tracker.ready()
        if stop.is_set():
            return
