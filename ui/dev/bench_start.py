"""The measured side of `verbatim bench app-start`: start the window in this process, report when it
is interactive, print JSON. Run by the benchmark command in a fresh process per sample.

Modes: "app" (the real window on `--data-dir`) and "bare" (an empty QMainWindow: the floor Qt
itself sets, measured in the same run as the baseline). Times are wall-clock seconds since the
epoch so the parent can subtract the moment it spawned this process.

Interactive means: the window is shown, the sidebar and the first timeline page have arrived, and
the event loop answers a zero-delay timer quickly (the UI is not blocked by start-up work that is
still running in the background).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from typing import Any

LOOP_CHECKS = 5


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def _measure_loop(app: Any, marks: dict[str, float], done: Any) -> None:
    """Post zero-delay timers and record how long the loop takes to run them."""
    from PySide6.QtCore import QTimer

    lags: list[float] = []

    def check() -> None:
        posted = time.perf_counter()

        def ran() -> None:
            lags.append((time.perf_counter() - posted) * 1000)
            if len(lags) < LOOP_CHECKS:
                QTimer.singleShot(20, check)
            else:
                marks["interactive"] = time.time()
                marks["loop_lag_ms_max"] = max(lags)
                done()

        QTimer.singleShot(0, ran)

    check()


def _run_window(
    app: Any, data_dir: str | None, marks: dict[str, float], result: dict[str, Any], finish: Any
) -> None:
    """The real window: interactive once the sidebar and the first timeline page are in."""
    from app.library import Library
    from ui.theme import apply_theme
    from ui.window import MainWindow

    marks["app_imported"] = time.time()
    apply_theme(app)
    library = Library.open(data_dir)
    main = MainWindow(library)
    main.show()
    marks["window_shown"] = time.time()
    state = {"sidebar": False, "timeline": False}

    def ready(part: str) -> None:
        if state[part]:
            return
        state[part] = True
        marks[f"{part}_loaded"] = time.time()
        if all(state.values()):
            _measure_loop(app, marks, finish)

    main.sidebar.projects_loaded.connect(lambda _p: ready("sidebar"))
    main.timeline_model.loaded.connect(lambda: ready("timeline"))
    app.exec()
    result["timeline_rows"] = main.timeline_model.rowCount()
    result["recordings_loaded"] = main.timeline_model.loaded_count
    main.close()
    library.close()


def run(mode: str, data_dir: str | None, timeout_s: float) -> dict[str, Any]:
    marks: dict[str, float] = {"process_start": time.time()}
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    marks["qt_imported"] = time.time()
    app = QApplication(sys.argv[:1])
    result: dict[str, Any] = {"mode": mode}

    def finish() -> None:
        app.quit()

    QTimer.singleShot(int(timeout_s * 1000), lambda: (result.setdefault("timed_out", True), app.quit()))
    if mode == "bare":
        window = QMainWindow()
        window.resize(1280, 800)
        window.show()
        marks["window_shown"] = time.time()
        QTimer.singleShot(0, lambda: _measure_loop(app, marks, finish))
        app.exec()
    else:
        _run_window(app, data_dir, marks, result, finish)
    result["marks"] = marks
    result["peak_rss_mb"] = round(_rss_mb(), 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.dev.bench_start")
    parser.add_argument("--mode", choices=("app", "bare"), default="app")
    parser.add_argument("--data-dir")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.mode, args.data_dir, args.timeout)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
