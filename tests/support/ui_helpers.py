"""Helpers for the desktop window's tests: quick test notes and waits (the `window` fixture is in
tests/ui/conftest.py)."""

from __future__ import annotations

import contextlib
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


def cut_off_labels(root) -> list[str]:  # type: ignore[no-untyped-def]
    """The visible word-wrapped labels under `root` that are shorter than their text needs at their
    width (their last lines are cut off), each as "width×height < needed: text"."""
    from PySide6.QtWidgets import QLabel

    return [
        f"{lab.width()}×{lab.height()} < {lab.heightForWidth(lab.width())}: {lab.text()[:60]}"
        for lab in root.findChildren(QLabel)
        if lab.wordWrap() and lab.isVisible() and lab.height() < lab.heightForWidth(lab.width())
    ]


def past_the_right_edge(viewport, root) -> list[str]:  # type: ignore[no-untyped-def]
    """The visible widgets under `root` whose right edge is not inside `viewport` (the panels have no
    horizontal scroll bar, so that part is cut off), each as "Type: right ≥ width: text"."""
    from PySide6.QtWidgets import QWidget

    found = []
    for widget in root.findChildren(QWidget):
        right = widget.mapTo(viewport, widget.rect().topRight()).x()
        if widget.isVisible() and right >= viewport.width():
            text = widget.text() if hasattr(widget, "text") else widget.accessibleName()
            found.append(f"{type(widget).__name__}: {right} ≥ {viewport.width()}: {str(text)[:60]}")
    return found


def assert_every_line_shown(qtbot, root) -> None:  # type: ignore[no-untyped-def]
    """Wait for the layout to settle (a citation that goes onto two lines relays its card out), then
    no wrapped label under `root` may be cut off."""
    from pytestqt.exceptions import TimeoutError as WaitTimeout

    with contextlib.suppress(WaitTimeout):  # the assertion below names the labels
        qtbot.waitUntil(lambda: not cut_off_labels(root), timeout=WAIT_MS)  # layout passes are events
    cut_off = cut_off_labels(root)
    assert not cut_off, "cut off:\n" + "\n".join(cut_off)
