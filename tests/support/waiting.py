"""Waiting in tests: on something observable (a row, a file, a process, a callback), never for a
fixed time. A test that needs time itself to pass (a sync interval, a settle time, a simulated slow
step) sleeps where it does so, with a comment saying why."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from typing import Any

import pytest

POLL_SECONDS = 0.05


def wait_until(
    condition: Callable[[], object],
    what: str,
    *,
    timeout: float = 60,
    process: subprocess.Popen[Any] | None = None,
    detail: Callable[[], object] | None = None,
) -> None:
    """Poll `condition` every 50 ms until it is true; fail naming `what` on timeout, or at once if
    `process` (a child the condition depends on) exits first, with its stderr. `detail`, when given,
    is called on failure and its value added to the message (what was seen instead)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if process is not None and process.poll() is not None:
            err = process.stderr.read() if process.stderr else ""
            if isinstance(err, bytes):
                err = err.decode(errors="replace")
            pytest.fail(f"the child exited ({process.returncode}) before {what}: {err[-2000:]}")
        if time.monotonic() > deadline:
            seen = f"; saw {detail()!r}" if detail is not None else ""
            pytest.fail(f"timed out after {timeout:g} s waiting for {what}{seen}")
        time.sleep(POLL_SECONDS)
