"""The small learned models' weights, shipped as JSON files beside the modules that use them, each
read once per process (the answerability model and sentence ranker, memory/answer; the repair-start
ranker, memory/text; the commitment detector and the supersession reader, memory/consolidate). A
missing file means that model does not ship and the product decides without it."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_read: dict[tuple[str, str], Any] = {}


def read_once(package: str, file_name: str, load: Callable[[Any], T]) -> T | None:
    """`load` of the JSON file `file_name` of `package`, read on first use; None without the file."""
    with _lock:
        if (package, file_name) not in _read:
            path = resources.files(package) / file_name
            _read[package, file_name] = load(json.loads(path.read_text())) if path.is_file() else None
        return _read[package, file_name]
