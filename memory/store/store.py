"""One SQLite database per library, opened through apsw so sqlite-vec loads on every platform.

The store is the one writer: every change runs in a transaction under its lock and is rolled back
on error. It opens in WAL mode with foreign keys on, refuses a schema newer than this code knows,
and copies the database before it migrates.
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
import urllib.parse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

import apsw
import sqlite_vec

from models.errors import InputError, VerbatimError

log = logging.getLogger(__name__)

Params = Sequence[Any] | dict[str, Any] | None
BUSY_TIMEOUT_MS = 10_000
MMAP_BYTES = 2**31 - 2**16  # SQLite's own ceiling (SQLITE_MAX_MMAP_SIZE); the OS maps lazily


class StoreError(VerbatimError):
    """The database cannot be opened, migrated or written."""


def now_iso() -> str:
    """Local wall-clock time, to the second, in the store's time format."""
    return datetime.now().replace(microsecond=0).isoformat()


def migration_files() -> list[tuple[int, str, str]]:
    """(number, name, sql) for every migration shipped with this code, in order."""
    found = []
    for entry in resources.files("memory.store.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name.removesuffix(".sql"), entry.read_text("utf-8")))
    return sorted(found)


class Store:
    """A connection to the library database with transactions, migrations and helpers."""

    def __init__(self, path: Path | str, *, migrate: bool = True) -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        self._depth = 0
        self.read_only = False
        self._reader: Store | None = None
        self._reader_failed = False
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.conn = apsw.Connection(self.path)
        except (apsw.Error, OSError) as exc:
            raise StoreError(f"cannot open the library database at {self.path}: {exc}") from exc
        self.conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        self._load_vector_extension()
        try:
            self._configure()
        except StoreError:
            if not _on_read_only_media(self.path):
                raise
            self._open_read_only()
        if migrate and not self.read_only:
            self.migrate()

    def _open_read_only(self) -> None:
        """A library on read-only media (a mounted backup, a locked folder) can still be read.

        WAL needs to create its index file next to the database, which read-only media refuse;
        opened as immutable, SQLite reads the file as it is (nobody can be writing it there).
        Every write then fails with the read-only message of `_translate`.
        """
        self.conn.close()
        wal = Path(self.path + "-wal")
        if wal.is_file() and wal.stat().st_size > 0:  # immutable readers would not see these changes
            raise StoreError(
                f"the library at {self.path} is read-only and its latest changes are still in"
                f" {wal.name}, which SQLite can only read where it may write",
                fix="copy the whole data folder to a writable place and open it there",
            )
        uri = "file:" + urllib.parse.quote(str(Path(self.path).resolve())) + "?immutable=1"
        try:
            self.conn = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
            self._load_vector_extension()
            self.conn.execute("PRAGMA foreign_keys=ON")
            self._map_for_reading()
            applied = [row[0] for row in self.conn.execute("SELECT id FROM migrations")]
        except apsw.Error as exc:
            raise StoreError(
                f"the library at {self.path} is read-only and cannot be opened: {exc}",
                fix="check the data folder's permissions",
            ) from exc
        if {number for number, _, _ in migration_files()} - set(applied):
            raise StoreError(
                f"the library at {self.path} is read-only and was made by an older Verbatim",
                fix="copy it to a writable folder once, so that it can be upgraded",
            )
        self.read_only = True
        log.info("opened the read-only library %s for reading", self.path)

    # --- set-up -------------------------------------------------------------------------------
    def _load_vector_extension(self) -> None:
        try:
            self.conn.enable_load_extension(True)
            self.conn.load_extension(sqlite_vec.loadable_path())
        except apsw.Error as exc:
            raise StoreError(f"cannot load sqlite-vec: {exc}", fix="reinstall with 'make install'") from exc
        finally:
            self.conn.enable_load_extension(False)

    def _configure(self) -> None:
        try:
            if self.path != ":memory:":
                mode = self.scalar("PRAGMA journal_mode=WAL")
                if str(mode).lower() != "wal":
                    log.warning("WAL mode unavailable (%s); continuing with %s", self.path, mode)
            self.conn.execute("PRAGMA foreign_keys=ON")
            # FULL: a committed segment survives a power cut, not just a crash.
            self.conn.execute("PRAGMA synchronous=FULL")
            self._map_for_reading()
        except apsw.ReadOnlyError as exc:
            raise StoreError(
                f"the library at {self.path} is read-only", fix="check the data folder's permissions"
            ) from exc
        except apsw.Error as exc:
            raise _open_error(exc, self.path) from exc

    def _map_for_reading(self) -> None:
        """Reads through a memory map instead of a read() per page: a search's few hundred
        scattered page reads (vectors, segments, chunks) cost half as much at 100,000 passages.
        Writes still go through the journal; only reads use the map (SQLite's default)."""
        self.conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")

    def applied_migrations(self) -> list[int]:
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TEXT NOT NULL)"
        )
        return [row[0] for row in self.conn.execute("SELECT id FROM migrations ORDER BY id")]

    def migrate(self) -> list[str]:
        """Apply pending migrations, each committed together with its record. Returns their names."""
        with self._lock:
            try:
                applied = self.applied_migrations()
            except apsw.ReadOnlyError as exc:
                raise StoreError(
                    f"the library at {self.path} is read-only", fix="check the data folder's permissions"
                ) from exc
            known = migration_files()
            newest = known[-1][0] if known else 0
            if applied and max(applied) > newest:
                raise StoreError(
                    f"this library was written by a newer Verbatim (schema {max(applied)}, this version"
                    f" knows up to {newest})",
                    fix="update Verbatim; the library was not changed",
                )
            pending = [m for m in known if m[0] not in applied]
            if pending and applied:
                self.backup_copy(f"before-{pending[0][1]}")
            for number, name, sql in pending:
                log.info("applying migration %s", name)
                with self.transaction():
                    self.conn.execute(sql)
                    self.conn.execute(
                        "INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, ?)",
                        (number, name, now_iso()),
                    )
            return [name for _, name, _ in pending]

    def backup_copy(self, label: str) -> Path | None:
        """Copy the database (online, consistent) next to itself; returns the copy's path."""
        if self.path == ":memory:":
            return None
        target = Path(self.path).with_name(f"{Path(self.path).stem}.{label}.db")
        partial = target.with_name(target.name + ".partial")
        destination = apsw.Connection(str(partial))
        try:
            with destination.backup("main", self.conn, "main") as backup:
                while not backup.done:
                    backup.step(1024)
        finally:
            destination.close()
        os.replace(partial, target)
        log.info("copied the library to %s", target.name)
        return target

    # --- transactions and queries -------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[apsw.Connection]:
        """A write transaction (nested calls become savepoints); rolled back on any error."""
        with self._lock:
            outer = self._depth == 0
            savepoint = f"sp{self._depth}"
            self.conn.execute("BEGIN IMMEDIATE" if outer else f"SAVEPOINT {savepoint}")
            self._depth += 1
            try:
                yield self.conn
            except BaseException as exc:
                self._depth -= 1
                # SQLite may have rolled back already (a full disk, an I/O error): nothing to undo.
                if outer and self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                elif not outer and self.conn.in_transaction:
                    self.conn.execute(f"ROLLBACK TO {savepoint}; RELEASE {savepoint}")
                if isinstance(exc, apsw.Error):
                    raise _translate(exc, self.path) from exc
                raise
            self._depth -= 1
            try:
                self.conn.execute("COMMIT" if outer else f"RELEASE {savepoint}")
            except apsw.Error as exc:
                if outer and self.conn.in_transaction:  # a failed COMMIT on a full disk rolls back itself
                    self.conn.execute("ROLLBACK")
                raise _translate(exc, self.path) from exc

    def _run(self, sql: str, params: Params) -> apsw.Cursor:
        try:
            return self.conn.execute(sql, params)
        except OverflowError as exc:  # an id or a limit typed past SQLite's 64-bit integers
            raise InputError(f"a number is too large (at most {2**63 - 1:,})") from exc

    def execute(self, sql: str, params: Params = None) -> int:
        """Run one write statement; returns the last inserted rowid."""
        with self._lock:
            try:
                self._run(sql, params)
            except apsw.Error as exc:
                raise _translate(exc, self.path) from exc
            return self.conn.last_insert_rowid()

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]] | Sequence[dict[str, Any]]) -> None:
        with self._lock:
            try:
                self.conn.executemany(sql, rows)
            except apsw.Error as exc:
                raise _translate(exc, self.path) from exc

    def rows(self, sql: str, params: Params = None) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._run(sql, params))

    def all(self, sql: str, params: Params = None) -> list[dict[str, Any]]:
        """Rows as dicts keyed by column name."""
        with self._lock:
            cursor = self._run(sql, params)
            try:
                names = [d[0] for d in cursor.get_description()]
            except apsw.ExecutionCompleteError:
                return []
            return [dict(zip(names, row, strict=True)) for row in cursor]

    def one(self, sql: str, params: Params = None) -> dict[str, Any] | None:
        found = self.all(sql, params)
        return found[0] if found else None

    def scalar(self, sql: str, params: Params = None) -> Any:
        with self._lock:
            for row in self._run(sql, params):
                return row[0]
            return None

    def integrity_check(self) -> str:
        return str(self.scalar("PRAGMA integrity_check"))

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database file (so the file alone is the library)."""
        self.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def optimize(self) -> None:
        """Let SQLite refresh its query-planner statistics after a large bulk write."""
        self.execute("PRAGMA optimize")

    def reader(self) -> Store | None:
        """A second connection to the same file, for a read that runs beside this connection's
        (in another thread: each connection runs one statement at a time). It sees what is
        committed, not this connection's open transaction. None for an in-memory or read-only
        library, or when it cannot be opened (the caller reads here instead)."""
        if self.path == ":memory:" or self.read_only or self._depth or self._reader_failed:
            return None
        with self._lock:
            if self._reader is None:
                try:
                    self._reader = Store(self.path, migrate=False)
                except StoreError as exc:
                    log.warning("no second reader for %s: %s", self.path, exc)
                    self._reader_failed = True
                    return None
            return self._reader

    def close(self) -> None:
        with self._lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _on_read_only_media(path: str) -> bool:
    folder = Path(path).parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
    except (OSError, AttributeError):  # AttributeError: no statvfs on Windows
        pass
    return Path(path).is_file() and not os.access(folder, os.W_OK)


def _open_error(exc: apsw.Error, path: str) -> StoreError:
    """Opening needs a little space (WAL index): on a full disk say so, not "disk I/O error"."""
    try:
        full = isinstance(exc, apsw.FullError) or shutil.disk_usage(Path(path).parent).free < 1 << 20
    except OSError:
        full = False
    if full:
        return StoreError(f"the disk is full: cannot open the library at {path}", fix="free some disk space")
    return StoreError(f"cannot open the library database at {path}: {exc}")


def _translate(exc: apsw.Error, path: str) -> StoreError:
    if isinstance(exc, apsw.FullError):
        return StoreError("the disk is full: the change was not saved", fix="free some disk space")
    if isinstance(exc, apsw.ReadOnlyError):
        return StoreError(f"the library at {path} is read-only", fix="check the data folder's permissions")
    if isinstance(exc, apsw.BusyError):
        return StoreError("the library is busy in another Verbatim", fix="close the other window and retry")
    return StoreError(f"database error: {exc}")
