"""integration/: the real services end to end, each test on its own library folder: real SQLite
files, the real shipped models (Whisper, the embedding model, the chat model), real audio
(espeak-ng speech, every import format, the virtual microphone), the CLI in-process
(tests/support/cli.py) and in child processes, backups, exports, search, ask, consolidation.

May use: everything in tests/conftest.py and tests/support/. Wait on observable state
(tests/support/waiting.py), never a fixed sleep. Tests that start a process, load a real model or
run real audio (or otherwise take over a second) are marked `slow`, per test or per module; the
pure parts kept here beside them are not.
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
