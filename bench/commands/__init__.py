"""`verbatim eval ...` and `verbatim bench ...`: the bench package's commands, added to the product's
CLI through the `verbatim.commands` entry point (pyproject.toml). One module per area, each with
`register(groups)` and `ORDER`, as in app/commands."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from types import ModuleType
from typing import Any

from app.commands import CommandGroups

EXIT_USAGE = 2


def _modules() -> list[ModuleType]:
    found = [importlib.import_module(f"{__name__}.{info.name}") for info in pkgutil.iter_modules(__path__)]
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 100), m.__name__))


def register_plugin(top: Any) -> None:
    """Add `eval` and `bench` with their subcommands to the `verbatim` parser's subcommands."""
    eval_parser = top.add_parser("eval", help="measure transcription, retrieval and answers on a dataset")
    eval_sub = eval_parser.add_subparsers(title="evaluations", metavar="WHAT", dest="eval_command")
    bench_parser = top.add_parser("bench", help="measure speed and memory against baselines")
    bench_sub = bench_parser.add_subparsers(title="benchmarks", metavar="WHAT", dest="bench_command")
    for group_parser in (eval_parser, bench_parser):
        group_parser.set_defaults(handler=_help_of(group_parser))
    groups = CommandGroups(top=top, eval=eval_sub, bench=bench_sub)
    for module in _modules():
        module.register(groups)


def _help_of(parser: argparse.ArgumentParser) -> Any:
    def show(args: argparse.Namespace, ctx: object) -> int:
        parser.print_help()
        return EXIT_USAGE

    return show
