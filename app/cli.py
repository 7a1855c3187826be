"""`verbatim`: everything the desktop app can do, from a terminal."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from app import __version__
from app.commands import CliContext, CommandGroups, command_modules, plugins
from app.logging_setup import setup_logging
from models.errors import VerbatimError

EXIT_ERROR = 1
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="verbatim",
        description="An offline second brain for people who think out loud.",
        epilog="Run 'verbatim COMMAND --help' for a command's options. Nothing leaves this computer.",
    )
    parser.add_argument("--version", action="version", version=f"verbatim {__version__}")
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="library folder (default: $VERBATIM_DATA_DIR or the user data folder)",
    )
    top = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    groups = CommandGroups(top=top)
    for module in command_modules():
        module.register(groups)
    for register_plugin in plugins():
        register_plugin(top)
    # `eval` and `bench` read better at the end of the list.
    top._choices_actions.sort(key=lambda a: a.dest in ("eval", "bench"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a file name that is not UTF-8 is printed, not a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_USAGE
    ctx = CliContext(data_dir_arg=args.data_dir)
    try:
        setup_logging(ctx.data_dir.logs_dir, verbose=getattr(args, "verbose", False))
        result = args.handler(args, ctx)
        return int(result or 0)
    except VerbatimError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        if exc.fix:
            print(f"  fix: {exc.fix}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        ctx.close()


if __name__ == "__main__":
    sys.exit(main())
