"""One recording app per library: an exclusive advisory lock on `verbatim.lock` in the data folder.

Policy: the desktop app and `verbatim record` hold the lock while they run; a second one refuses
with a message naming the process that holds it. Every other command (search, ask, import,
transcript, jobs, doctor) needs no lock: SQLite in WAL mode lets readers run beside a writer, and
the store's busy timeout queues writers one after the other. The kernel drops the lock of a
process that dies (even by kill -9), so a crash never leaves the library locked.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import IO

from models.errors import VerbatimError

LOCK_NAME = "verbatim.lock"
WINDOWS_LOCK_OFFSET = 1 << 16  # Windows locks byte ranges: lock one beyond the note


class LibraryInUseError(VerbatimError):
    """Another Verbatim holds this library's lock."""


def _try_lock(handle: IO[str]) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:  # one byte far past the holder's note, so others can still read who holds it
            handle.seek(WINDOWS_LOCK_OFFSET)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        finally:
            handle.seek(0)
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _holder(path: Path) -> str:
    try:
        found = json.loads(path.read_text("utf-8"))
        return f"{found['what']} (process {found['pid']}, since {found['since']})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another Verbatim"


class InstanceLock:
    """Held from `acquire()` until `release()` (or the process ends)."""

    def __init__(self, root: Path, what: str) -> None:
        self.path = root / LOCK_NAME
        self.what = what
        self._handle: IO[str] | None = None

    def acquire(self) -> InstanceLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise LibraryInUseError(
                f"cannot lock the library at {self.path.parent}: {exc.strerror or exc}",
                fix="check the data folder's permissions",
            ) from exc
        handle = os.fdopen(fd, "r+", encoding="utf-8")
        if not _try_lock(handle):
            handle.close()
            raise LibraryInUseError(
                f"this library is already open in {_holder(self.path)}",
                fix="close the other Verbatim first, or use another --data-dir",
            )
        # Who holds it, for the message the next one shows. Written after the lock: never torn.
        handle.truncate(0)
        handle.seek(0)
        since = datetime.now().replace(microsecond=0).isoformat()
        handle.write(json.dumps({"pid": os.getpid(), "what": self.what, "since": since}) + "\n")
        handle.flush()
        self._handle = handle
        return self

    def release(self) -> None:
        if self._handle is not None:
            self._handle.close()  # closing the file drops the lock
            self._handle = None

    def __enter__(self) -> InstanceLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
