"""faults/: what goes wrong on a user's machine: kill -9 at the worst moments, full disks,
read-only and odd data folders, a second app on the same library, and hostile input (damaged
audio, lying files, hostile names, queries and options; hypothesis properties of every parser).
Each fault ends with the library checked whole (`assert_consistent`) or the store unchanged.

May use: real child processes killed with SIGKILL, tmpfs and bind mounts (they skip without root
and mount) from tests/support/fault_helpers.py, hostile inputs from tests/support/hostile_files.py,
everything in tests/conftest.py. Wait on observable state (tests/support/waiting.py); a child that
must be killed mid-way parks itself, it is never raced with a sleep. Tests that start a process,
load a real model or run real audio (or otherwise take over a second) are marked `slow`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _no_leftover_transcription_workers() -> Iterator[None]:
    """No transcription worker process outlives its test (an idle one would serve the next)."""
    yield
    from app.ingest import transcription

    transcription.shutdown_workers()
