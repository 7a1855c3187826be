"""Watched folders: import what appears in a folder (a phone's sync folder, a recorder's card).

Each folder is watched on its own thread; a file is imported once it has stopped changing. The
seen_files table remembers each file version handled, so a restart neither re-hashes unchanged
files nor retries a damaged one until it changes; the recordings' sha256 keeps content unique.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from app.ingest.imports import ImportResult, import_files, supported
from app.library import Library
from app.settings import WatchedFolder
from capture.files import text_name
from capture.watch import SETTLE_SECONDS, watch_stable_files
from memory.store import seen_files
from models.errors import InputError, VerbatimError

log = logging.getLogger(__name__)

OnResult = Callable[[ImportResult], None]


def import_if_new(
    library: Library, path: Path, project: str, cancelled: Callable[[], bool] | None = None
) -> list[ImportResult]:
    """Import a settled file unless this exact version was handled before. Stopped (`cancelled`:
    the app is closing), the file under way is taken back and not remembered: it is imported at the
    next start."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        return []
    key = text_name(str(path.resolve()))
    if seen_files.find_seen(library.store, key, stat.st_size, stat.st_mtime_ns) is not None:
        return []
    results = import_files(library, [path], project=project, source="watch", cancelled=cancelled)
    outcomes = {r.status for r in results}
    outcome = "imported" if "imported" in outcomes else "duplicate" if "duplicate" in outcomes else "failed"
    message = next((r.message for r in results if r.status == "failed"), None)
    sha = next((r.sha256 for r in results if r.sha256), "") or ""
    seen_files.remember(library.store, key, stat.st_size, stat.st_mtime_ns, sha, outcome, message)
    return results


def watch_folder(
    library: Library,
    folder: WatchedFolder,
    *,
    stop: threading.Event,
    on_result: OnResult | None = None,
    settle: float = SETTLE_SECONDS,
) -> None:
    """Import settled files from one folder until `stop` is set."""
    for path in watch_stable_files(Path(folder.path), stop=stop, settle=settle, accept=supported):
        try:
            results = import_if_new(library, path, folder.project, cancelled=stop.is_set)
        except VerbatimError as exc:  # e.g. the store is busy: the file is retried when it changes
            log.warning("watched folder: import failed: %s", exc.message)
            continue
        for result in results:
            if on_result is not None:
                on_result(result)


class FolderWatcher:
    """Watch several folders on background threads (the desktop app runs Settings.watched_folders)."""

    def __init__(
        self,
        library: Library,
        folders: Sequence[WatchedFolder],
        *,
        on_result: OnResult | None = None,
        settle: float = SETTLE_SECONDS,
    ) -> None:
        self.library = library
        self.folders = list(folders)
        self.on_result = on_result
        self.settle = settle
        self.errors: dict[str, str] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> FolderWatcher:
        for folder in self.folders:
            thread = threading.Thread(
                target=self._run, args=(folder,), daemon=True, name=f"watch:{folder.path}"
            )
            thread.start()
            self._threads.append(thread)
        return self

    def _run(self, folder: WatchedFolder) -> None:
        try:
            watch_folder(self.library, folder, stop=self._stop, on_result=self.on_result, settle=self.settle)
        except VerbatimError as exc:
            self.errors[folder.path] = exc.message
            log.warning("cannot watch a folder: %s", exc.message)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = [t for t in self._threads if t.is_alive()]

    @property
    def running(self) -> bool:
        """A folder's thread is still at work (an import that has not noticed the stop yet)."""
        return any(t.is_alive() for t in self._threads)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until stopped (or `timeout`); True when stopped."""
        return self._stop.wait(timeout)


def add_watched_folder(library: Library, path: Path, project: str) -> WatchedFolder:
    folder = path.expanduser().resolve()
    if not folder.is_dir():
        raise InputError(f"{folder} is not a folder")
    entry = WatchedFolder(str(folder), project)
    kept = [w for w in library.settings.watched_folders if Path(w.path) != folder]
    library.settings.watched_folders = [*kept, entry]
    library.save_settings()
    return entry


def remove_watched_folder(library: Library, path: Path) -> bool:
    folder = path.expanduser().resolve()
    before = len(library.settings.watched_folders)
    library.settings.watched_folders = [w for w in library.settings.watched_folders if Path(w.path) != folder]
    library.save_settings()
    return len(library.settings.watched_folders) < before
