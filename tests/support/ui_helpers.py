"""Helpers for the desktop window's tests: quick test notes and waits (the `window` fixture is in
tests/ui/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

WAIT_MS = 15_000


def write_corpus(path: Path, notes: list[dict[str, Any]]) -> Path:
    """A transcript file in the corpus format (one note per line), as a user could import it."""
    path.write_text("\n".join(json.dumps(n) for n in notes) + "\n", "utf-8")
    return path


def note(
    note_id: str,
    project: str,
    spoken_at: str,
    lines: list[str],
    *,
    title: str = "",
    seconds_per_line: float = 4.0,
    speaker: str | None = None,
) -> dict[str, Any]:
    segments = []
    for i, text in enumerate(lines):
        seg: dict[str, Any] = {
            "id": f"{note_id}:{i + 1}",
            "start": i * seconds_per_line,
            "end": (i + 1) * seconds_per_line,
            "text": text,
        }
        if speaker:
            seg["speaker"] = speaker
        segments.append(seg)
    return {"id": note_id, "project": project, "title": title, "spoken_at": spoken_at, "segments": segments}


def idle(qtbot, win) -> None:  # type: ignore[no-untyped-def]
    """Wait until every queued read and change has finished and its callback ran."""
    qtbot.waitUntil(lambda: win.ops.is_idle(), timeout=WAIT_MS)


def sidebar_names(win) -> list[str]:  # type: ignore[no-untyped-def]
    return [win.projects.item(i).text() for i in range(win.projects.count())]
