"""The one way the window runs app services: off the main thread, results back by signal.

After Anki's QueryOp/CollectionOp: a *query* reads, a *change* writes and then announces what it
changed so views redraw, a *task* is long work with progress and cancel. Store work runs on a
single worker thread, in the order it was asked for (the store has one connection and one writer,
so more threads would only queue on its lock); long tasks (asking a model, importing, provisioning)
get their own small pool so they never hold up a timeline page. Every callback runs on the main
thread. Errors go to the callback's `failed`, else to the one error translator (ui/error_reporting.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from models.errors import CancelledError

log = logging.getLogger(__name__)

ErrorHandler = Callable[[BaseException], None]


class Change(StrEnum):
    """What a change wrote, so that each view redraws only what it shows (`Operations.changed`)."""

    PROJECTS = "projects"
    RECORDINGS = "recordings"
    SEGMENTS = "segments"  # a transcript line edited
    SETTINGS = "settings"
    WATCHED = "watched"  # watched folders
    CONNECTIONS = "connections"
    CONSOLIDATION = "consolidation"  # facts, digest, stretches
    TRASH = "trash"  # a note deleted, restored, or deleted for good


class Progress:
    """Handed to a task's function: report progress, and ask whether the user cancelled."""

    def __init__(self, op: Op) -> None:
        self._op = op

    def __call__(self, fraction: float | None = None, message: str = "") -> None:
        try:
            self._op._relay.progressed.emit(-1.0 if fraction is None else float(fraction), message)
        except RuntimeError:  # the window is gone; the work carries on to its end or its cancel check
            self._op._cancel.set()

    def cancelled(self) -> bool:
        return self._op._cancel.is_set()

    def check(self) -> None:
        """Raise CancelledError when the user cancelled: long loops call this between steps."""
        if self._op._cancel.is_set():
            raise CancelledError()

    def emit(self, value: object) -> None:
        """Send a partial result (e.g. streamed answer text) to the task's `partial` callback."""
        try:
            self._op._relay.partial.emit(value)
        except RuntimeError:
            self._op._cancel.set()


class _Relay(QObject):
    """Lives on the main thread; signals emitted from the worker arrive here queued."""

    finished = Signal(object)
    failed = Signal(object)
    progressed = Signal(float, str)
    partial = Signal(object)


class Op(QObject):
    """A running query, change or task. `cancel()` asks a task to stop at its next check."""

    done = Signal()  # after the success or failure callback ran

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        label: str,
        wants_progress: bool,
        finished: Callable[[Any], None] | None,
        failed: ErrorHandler | None,
        progress: Callable[[float, str], None] | None,
        partial: Callable[[Any], None] | None,
        closed: threading.Event,
    ) -> None:
        super().__init__()
        self.fn = fn
        self._closed = closed  # the window closed: results are dropped, views are gone
        self.label = label
        self.wants_progress = wants_progress
        self.running = True
        self.error: BaseException | None = None
        self.fraction: float | None = None  # last reported progress, for the jobs list
        self.message = ""
        self._cancel = threading.Event()
        self._finished = finished
        self._failed = failed
        self._relay = _Relay()
        self._relay.finished.connect(self._on_relay_finished)
        self._relay.failed.connect(self._on_relay_failed)
        self._relay.progressed.connect(self._on_relay_progressed)
        if progress is not None:
            self._relay.progressed.connect(progress)
        if partial is not None:
            self._relay.partial.connect(partial)

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def run_in_worker(self) -> None:
        try:
            result = self.fn(Progress(self)) if self.wants_progress else self.fn()
        except BaseException as exc:  # everything reaches the main thread, nothing dies silently
            self._deliver(self._relay.failed, exc)
            return
        self._deliver(self._relay.finished, result)

    def _deliver(self, signal: Any, value: object) -> None:
        try:
            signal.emit(value)
        except RuntimeError:  # the window was closed while this ran: nobody is waiting for it
            log.debug("result of %r dropped: its receiver is gone", self.label)

    @Slot(float, str)
    def _on_relay_progressed(self, fraction: float, message: str) -> None:
        self.fraction = None if fraction < 0 else fraction
        if message:
            self.message = message

    @Slot(object)
    def _on_relay_finished(self, result: Any) -> None:
        self.running = False
        try:
            if self._finished is not None and not self._closed.is_set():
                self._finished(result)
        finally:
            self.done.emit()

    @Slot(object)
    def _on_relay_failed(self, exc: BaseException) -> None:
        self.running = False
        self.error = exc
        try:
            if self._failed is not None and not self._closed.is_set():
                self._failed(exc)
        finally:
            self.done.emit()


class _Runnable(QRunnable):
    def __init__(self, op: Op) -> None:
        super().__init__()
        self.op = op
        self.setAutoDelete(True)

    def run(self) -> None:
        self.op.run_in_worker()


class Operations(QObject):
    """Owns the worker threads. `changed` tells views what a change touched (e.g. {"projects"})."""

    changed = Signal(object)  # frozenset[str]
    tasks_changed = Signal()  # a long task started, moved on or ended: the job list redraws

    def __init__(self, on_error: ErrorHandler, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._on_error = on_error
        self._store_pool = QThreadPool(self)
        self._store_pool.setMaxThreadCount(1)
        self._task_pool = QThreadPool(self)
        self._task_pool.setMaxThreadCount(2)
        self._running: set[Op] = set()
        self._closed = threading.Event()

    def report_error(self, exc: BaseException) -> None:
        """Hand an error to the window's one translator (for callers with their own `failed`)."""
        self._on_error(exc)

    # --- the three kinds of operation -----------------------------------------------------------
    def query(
        self,
        fn: Callable[[], Any],
        *,
        finished: Callable[[Any], None],
        failed: ErrorHandler | None = None,
        label: str = "",
        slow: bool = False,
    ) -> Op:
        """Read something from the library; `finished(result)` runs on the main thread.

        `slow`: it may load a model first (a search's embedder), so it runs beside the store
        queue rather than in it, and timeline pages do not wait behind it.
        """
        pool = self._task_pool if slow else self._store_pool
        return self._start(pool, fn, label=label, finished=finished, failed=failed)

    def change(
        self,
        fn: Callable[[], Any],
        *,
        changes: Iterable[Change],
        finished: Callable[[Any], None] | None = None,
        failed: ErrorHandler | None = None,
        label: str = "",
    ) -> Op:
        """Write something; on success `finished(result)` runs, then `changed` tells every view."""
        touched = frozenset(changes)

        def after(result: Any) -> None:
            if finished is not None:
                finished(result)
            self.changed.emit(touched)

        return self._start(self._store_pool, fn, label=label, finished=after, failed=failed)

    def task(
        self,
        fn: Callable[[Progress], Any],
        *,
        label: str,
        finished: Callable[[Any], None] | None = None,
        failed: ErrorHandler | None = None,
        progress: Callable[[float, str], None] | None = None,
        partial: Callable[[Any], None] | None = None,
        changes: Iterable[Change] = (),
    ) -> Op:
        """Long work: `fn(progress)` reports with `progress(fraction, message)`, checks
        `progress.cancelled()`, and may stream partial results with `progress.emit(value)`."""
        touched = frozenset(changes)

        def after(result: Any) -> None:
            if finished is not None:
                finished(result)
            if touched:
                self.changed.emit(touched)

        def after_failure(exc: BaseException) -> None:
            if touched:  # a cancelled import may still have stored some files
                self.changed.emit(touched)
            if isinstance(exc, CancelledError) and failed is None:
                return
            (failed or self._on_error)(exc)

        op = self._start(
            self._task_pool,
            fn,
            label=label,
            finished=after,
            failed=after_failure,
            progress=progress,
            partial=partial,
            wants_progress=True,
        )
        self.tasks_changed.emit()
        op.done.connect(self.tasks_changed.emit)
        op._relay.progressed.connect(lambda _f, _m: self.tasks_changed.emit())
        return op

    # --- bookkeeping -----------------------------------------------------------------------------
    def _start(
        self,
        pool: QThreadPool,
        fn: Callable[..., Any],
        *,
        label: str,
        finished: Callable[[Any], None] | None,
        failed: ErrorHandler | None,
        progress: Callable[[float, str], None] | None = None,
        partial: Callable[[Any], None] | None = None,
        wants_progress: bool = False,
    ) -> Op:
        op = Op(
            fn,
            label=label,
            wants_progress=wants_progress,
            finished=finished,
            failed=failed or self._on_error,
            progress=progress,
            partial=partial,
            closed=self._closed,
        )
        if self._closed.is_set():  # after shutdown nothing new starts
            op.running = False
            return op
        self._running.add(op)
        op.done.connect(lambda: self._running.discard(op))
        pool.start(_Runnable(op))
        return op

    def running_tasks(self) -> list[Op]:
        return [op for op in self._running if op.wants_progress and op.running]

    def is_idle(self) -> bool:
        return not self._running

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel long tasks and wait for the workers; True when everything stopped in time.

        From now on no operation starts and no callback runs: the views they would touch are closing.
        """
        self._closed.set()
        for op in list(self._running):
            op.cancel()
        stopped = self._task_pool.waitForDone(timeout_ms)
        return self._store_pool.waitForDone(timeout_ms) and stopped
