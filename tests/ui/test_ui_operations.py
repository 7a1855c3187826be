"""The operations helper: work off the main thread, results and errors back on it, progress, cancel."""

from __future__ import annotations

import threading

import pytest

from models.errors import CancelledError, InputError
from tests.support.ui_helpers import WAIT_MS


@pytest.fixture
def ops(qapp):  # type: ignore[no-untyped-def]
    from ui.operations import Operations

    errors: list[BaseException] = []
    operations = Operations(errors.append)
    operations.errors = errors  # type: ignore[attr-defined]
    yield operations
    operations.shutdown()


def test_a_query_runs_off_the_main_thread_and_answers_on_it(qtbot, ops) -> None:  # type: ignore[no-untyped-def]
    main = threading.get_ident()
    seen: dict[str, int] = {}

    def work() -> int:
        seen["worker"] = threading.get_ident()
        return 42

    def finished(value: int) -> None:
        seen["callback"] = threading.get_ident()
        seen["value"] = value

    ops.query(work, finished=finished)
    qtbot.waitUntil(lambda: "value" in seen, timeout=WAIT_MS)
    assert seen["worker"] != main and seen["callback"] == main and seen["value"] == 42


def test_a_change_announces_what_it_changed(qtbot, ops) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(ops.changed, timeout=WAIT_MS) as signal:
        ops.change(lambda: None, changes={"projects"})
    assert signal.args == [frozenset({"projects"})]


def test_errors_reach_the_translator_or_the_callers_handler(qtbot, ops) -> None:  # type: ignore[no-untyped-def]
    def bad() -> None:
        raise InputError("a project needs a name")

    ops.query(bad, finished=lambda _r: None)
    qtbot.waitUntil(lambda: len(ops.errors) == 1, timeout=WAIT_MS)
    assert ops.errors[0].message == "a project needs a name"
    mine: list[BaseException] = []
    ops.query(bad, finished=lambda _r: None, failed=mine.append)
    qtbot.waitUntil(lambda: len(mine) == 1, timeout=WAIT_MS)
    assert len(ops.errors) == 1


def test_a_task_reports_progress_streams_partials_and_stops_when_cancelled(qtbot, ops) -> None:  # type: ignore[no-untyped-def]
    started = threading.Event()
    fractions: list[float] = []
    pieces: list[object] = []
    failures: list[BaseException] = []

    def long_work(progress) -> None:  # type: ignore[no-untyped-def]
        progress(0.5, "half way")
        progress.emit("partial text")
        started.set()
        while True:
            progress.check()
            threading.Event().wait(0.01)

    op = ops.task(
        long_work,
        label="test",
        progress=lambda f, _m: fractions.append(f),
        partial=pieces.append,
        failed=failures.append,
    )
    assert ops.running_tasks() == [op]
    assert started.wait(5)
    qtbot.waitUntil(lambda: fractions == [0.5] and pieces == ["partial text"], timeout=WAIT_MS)
    op.cancel()
    qtbot.waitUntil(lambda: bool(failures), timeout=WAIT_MS)
    assert isinstance(failures[0], CancelledError)
    assert ops.is_idle() and not ops.errors
