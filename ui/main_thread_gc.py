"""Python's garbage collection on the GUI thread only, while a window is open.

Python collects reference cycles in whatever thread happens to allocate when a threshold trips. In
a worker thread (a search, an import, consolidation) that collection may be the one that frees a
cycle holding a Qt object of the GUI thread, and Qt then deletes it from the wrong thread: a
segmentation fault ("Fatal Python error: Segmentation fault ... Garbage-collecting" in a worker,
seen once in the UI tests of a fresh-clone CI run). So, while a window is open, automatic collection
is off and a timer on the GUI thread collects instead, generation by generation as the thresholds
say (the approach of pyqtgraph's GarbageCollector). Closing the last window, or its deletion,
gives collection back to Python. Off means a first threshold of 0, not `gc.disable()`: spaCy's
msgpack reader (srsly) calls `gc.disable()` and then `gc.enable()` around every load, in whatever
thread loads a model.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500  # the longest a cycle waits for the GUI thread to free it


class _Hold:
    """One window's hold on automatic collection (a plain object: it may be released while its
    window is being deleted)."""

    open_holds = 0  # automatic collection is off while any hold is
    saved = gc.get_threshold()  # Python's thresholds, given back when the last hold goes

    def __init__(self) -> None:
        self.held = False

    def take(self) -> None:
        if self.held:
            return
        if _Hold.open_holds == 0:
            _Hold.saved = gc.get_threshold()
            gc.set_threshold(0, *_Hold.saved[1:])  # a first threshold of 0: no automatic collection
        _Hold.open_holds += 1
        self.held = True

    def release(self, *_: object) -> None:
        if not self.held:
            return
        self.held = False
        _Hold.open_holds -= 1
        if _Hold.open_holds == 0:
            gc.set_threshold(*_Hold.saved)


class MainThreadCollector(QObject):
    """Collects on the GUI thread for `parent` (a window) while it is open."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._hold = _Hold()
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect)
        parent.destroyed.connect(self._hold.release)

    def start(self) -> None:
        self._hold.take()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._hold.release()

    def collect(self) -> None:
        """Collect what the thresholds would have, here on the GUI thread."""
        threshold = _Hold.saved
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > threshold[generation]:
                gc.collect(generation)
                return
