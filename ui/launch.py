"""`make run` / `verbatim-app`: start the desktop window, or explain why not and show the CLI."""

from __future__ import annotations

import argparse
import os
import sys

from app.cli import build_parser


def has_display() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal", "vnc")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: list[str] | None = None) -> int:
    # The console script (`verbatim-app`) calls main() with no arguments: read them from the command
    # line then, or `--data-dir` would be ignored and the default library opened instead.
    argv = sys.argv[1:] if argv is None else argv
    if not has_display():
        print(
            "No display found (DISPLAY and WAYLAND_DISPLAY are unset), so the desktop window cannot open.\n"
            "Everything the app does is available from the command line: .venv/bin/verbatim COMMAND\n"
            "(or run under a virtual screen: xvfb-run make run)\n"
        )
        build_parser().print_help()
        return 0
    from app.instance_lock import InstanceLock, LibraryInUseError
    from app.paths import DataDir

    try:  # one desktop app per library (see app/instance_lock.py for the policy)
        lock = InstanceLock(DataDir.resolve(_data_dir_arg(argv)).root, "the Verbatim app").acquire()
    except LibraryInUseError as exc:
        print(f"error: {exc.message}\n  fix: {exc.fix}", file=sys.stderr)
        return 1
    from ui.main import run_app

    try:
        return run_app(argv)
    finally:
        lock.release()


def _data_dir_arg(argv: list[str]) -> str | None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--data-dir")
    return parser.parse_known_args(argv)[0].data_dir


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
