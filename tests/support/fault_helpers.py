"""Fault injection for the reliability tests: real processes killed with SIGKILL, full disks,
read-only folders, and the consistency check every fault test ends with.

A fault test runs the real CLI (or a few lines of Python driving the real services) in a child
process on its own data folder, injects the fault, then "restarts" (a new process, or a fresh
Library in the test) and proves nothing was lost with `assert_consistent`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import apsw
import pytest

from app.consistency import library_problems
from app.library import Library
from tests.conftest import REPO


def child_env(data: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "VERBATIM_DATA_DIR": str(data), "PYTHONUNBUFFERED": "1", **extra}


def start_cli(data: Path, *args: str, **popen: Any) -> subprocess.Popen[str]:
    """`verbatim ARGS` in a child process on `data`, stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", *args],
        cwd=REPO,
        env=popen.pop("env", None) or child_env(data),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


def run_cli(data: Path, *args: str, timeout: float = 120, **popen: Any) -> subprocess.CompletedProcess[str]:
    process = start_cli(data, *args, **popen)
    out, err = process.communicate(timeout=timeout)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def start_driver(data: Path, code: str, *, args: Sequence[str] = (), **popen: Any) -> subprocess.Popen[str]:
    """A few lines of Python driving the real services, in a child process on `data`."""
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        env=popen.pop("env", None) or child_env(data),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


def kill_9(process: subprocess.Popen[str]) -> None:
    """SIGKILL: no cleanup, no atexit, no flush; exactly what a crash or a power-off looks like."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)
    assert process.returncode == -signal.SIGKILL
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


def count(data: Path, sql: str, params: tuple[Any, ...] = ()) -> int:
    """One number from the library database, read through a separate read-only connection (as a
    second process would) while the child writes; 0 while the database or table does not exist."""
    path = data / "verbatim.db"
    if not path.exists():
        return 0
    conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        conn.set_busy_timeout(5000)
        return int(next(iter(conn.execute(sql, params)))[0] or 0)
    except apsw.SQLError:
        return 0
    finally:
        conn.close()


def assert_consistent(data: Path) -> Library:
    """After a fault and a restart: the whole library checks out (audio decoded). Returns it open."""
    library = Library.open(data)
    problems = library_problems(library, deep=True)
    assert problems == [], problems
    return library


@contextlib.contextmanager
def small_disk(path: Path, size_kb: int) -> Iterator[Path]:
    """A tmpfs of `size_kb` at `path` (needs root and mount); skips when it cannot be mounted."""
    path.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0700", "tmpfs", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root and mount): {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill_disk(folder: Path, leave_bytes: int) -> Path:
    """Fill the file system of `folder` until `leave_bytes` are free; returns the filler file."""
    filler = folder / "filler.bin"
    free = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
    with filler.open("wb") as handle:
        handle.write(b"\0" * max(0, free - leave_bytes))
    return filler


@contextlib.contextmanager
def read_only_mount(folder: Path) -> Iterator[Path]:
    """`folder` bind-mounted read-only over itself: even root cannot write (unlike chmod, which
    root ignores). Skips when bind mounts are not allowed here."""
    bind = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True, text=True)
    if bind.returncode != 0:
        pytest.skip(f"cannot bind-mount here (needs root and mount): {bind.stderr.strip()}")
    try:
        remount = subprocess.run(
            ["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True, text=True, check=False
        )
        if remount.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {remount.stderr.strip()}")
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
