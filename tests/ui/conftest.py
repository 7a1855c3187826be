"""ui/: the PySide6 desktop app through pytest-qt, offscreen (QT_QPA_PLATFORM, set in tests/conftest.py):
the window, its pages, dialogs and background operations, driven as a user drives them.

May use: a real window on the test's own library (`window`, below), the library's real services,
and tests/support/ui_helpers.py (WAIT_MS, quick notes, `idle`). Wait with `qtbot.waitUntil` on
what the window shows, never a fixed sleep. A test that imports notes through the real path
(embedding model), transcribes, records or asks the chat model is marked `slow`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.ui_helpers import WAIT_MS


@pytest.fixture
def window(qtbot, library) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    """The real main window on the test's own library; closed (workers stopped) before the library."""
    from ui.window import MainWindow

    win = MainWindow(library)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ops.is_idle(), timeout=WAIT_MS)
    yield win
    win.close()
    qtbot.waitUntil(lambda: win.ops.is_idle(), timeout=WAIT_MS)
