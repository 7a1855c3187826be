"""While a window is open, Python's garbage collection runs on the GUI thread only
(ui/main_thread_gc.py): a collection in a worker thread may delete a Qt object of the GUI thread,
which crashed a fresh-clone CI run ("Segmentation fault ... Garbage-collecting" in a worker)."""

from __future__ import annotations

import gc
import threading
from typing import Any

from tests.support.ui_helpers import WAIT_MS


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_collection_runs_on_the_gui_thread_while_the_window_is_open(qtbot, window: Any) -> None:  # type: ignore[no-untyped-def]
    assert gc.get_threshold()[0] == 0  # no automatic collection, whatever gc.enable() says
    threads: list[str] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            threads.append(threading.current_thread().name)

    gc.callbacks.append(seen)
    try:
        # a worker makes far more cycles than the thresholds allow: nothing is collected there
        worker = threading.Thread(target=lambda: [_Cycle() for _ in range(50_000)], name="worker")
        worker.start()
        worker.join()
        assert "worker" not in threads
        qtbot.waitUntil(lambda: bool(threads), timeout=WAIT_MS)  # the window's timer collects
        assert set(threads) == {threading.main_thread().name}
    finally:
        gc.callbacks.remove(seen)


def test_closing_the_window_gives_collection_back(qtbot, library) -> None:  # type: ignore[no-untyped-def]
    from ui.window import MainWindow

    python_s = gc.get_threshold()
    assert python_s[0] > 0
    win = MainWindow(library)
    qtbot.addWidget(win)
    assert gc.get_threshold()[0] == 0
    win.close()
    qtbot.waitUntil(lambda: win.ops.is_idle(), timeout=WAIT_MS)
    assert gc.get_threshold() == python_s
