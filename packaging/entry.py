"""The bundle's one executable: the desktop app, or the command line when started as `verbatim`.

The bundle folder holds `verbatim-app` (this program) and a `verbatim` symlink to it, the same two
names `pip install` gives; `verbatim-app --cli ARGS` is the same as `verbatim ARGS` (the single-file
build passes its arguments through, so this is how it reaches the CLI).
"""

from __future__ import annotations

import multiprocessing
import os
import sys

CLI_NAMES = ("verbatim",)


def main() -> int:
    # Transcription runs in 'spawn' child processes: in a frozen program they re-enter here.
    multiprocessing.freeze_support()
    args = sys.argv[1:]
    invoked_as = os.path.basename(sys.argv[0])
    if args[:1] == ["--cli"] or invoked_as in CLI_NAMES:
        from app.cli import main as cli_main

        return cli_main(args[1:] if args[:1] == ["--cli"] else args)
    from ui.launch import main as app_main

    return app_main(args)


if __name__ == "__main__":
    sys.exit(main())
