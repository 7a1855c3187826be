"""CLI commands, one module per area. Each module defines `register(groups)` and, optionally,
`ORDER` (position in `verbatim --help`). Modules are discovered, so adding a command never
means editing a central list.

Tools beside the product add commands through the `verbatim.commands` entry point group (the
bench package adds `verbatim eval ...` and `verbatim bench ...`); the product never imports them,
and an install without them (the desktop bundle) simply has no such commands."""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import pkgutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TextIO

from app.library import Library
from app.paths import DataDir


@dataclass
class CommandGroups:
    top: Any  # argparse subparsers of `verbatim`
    eval: Any = None  # subparsers of `verbatim eval` (made by the bench package)
    bench: Any = None  # subparsers of `verbatim bench` (made by the bench package)


@dataclass
class CliContext:
    """What a command handler gets besides its arguments."""

    data_dir_arg: str | None
    out: TextIO = field(default_factory=lambda: sys.stdout)
    _library: Library | None = None

    @property
    def data_dir(self) -> DataDir:
        return DataDir.resolve(self.data_dir_arg)

    @property
    def library(self) -> Library:
        if self._library is None:
            self._library = Library(self.data_dir)
        return self._library

    def print(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def print_json(self, value: Any) -> None:
        json.dump(value, self.out, indent=2, ensure_ascii=False, default=str)
        self.out.write("\n")
        self.out.flush()

    def report(self, value: Any, json_output: bool, lines: Callable[[Any], list[str]]) -> int:
        """An eval's or bench's report: as JSON, or as the lines `lines` makes of it."""
        if json_output:
            self.print_json(value)
        else:
            for line in lines(value):
                self.print(line)
        return 0

    def close(self) -> None:
        if self._library is not None:
            self._library.close()


Handler = Callable[[argparse.Namespace, CliContext], int | None]


def progress_line(verb: str, enabled: bool) -> Callable[[float], None]:
    """A progress callback that redraws one line on stderr ("asking 42%"), or does nothing."""

    def show(fraction: float) -> None:
        if enabled:
            print(f"\r{verb} {fraction:4.0%}", end="" if fraction < 1 else "\n", file=sys.stderr, flush=True)

    return show


def command_modules() -> list[ModuleType]:
    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "register"):
            found.append(module)
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 100), m.__name__))


PLUGIN_GROUP = "verbatim.commands"


def plugins() -> list[Callable[[Any], None]]:
    """`register_plugin(top)` of every installed package that adds commands (entry points)."""
    return [entry.load() for entry in importlib.metadata.entry_points(group=PLUGIN_GROUP)]
