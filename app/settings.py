"""User settings of one library, kept as JSON in its data folder.

Per-project settings (language, vocabulary, transcription model) live with the project in the
store; these are the library-wide ones.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from models.errors import InputError

log = logging.getLogger(__name__)


@dataclass
class WatchedFolder:
    path: str
    project: str


@dataclass
class Settings:
    # role -> path of a user-chosen model ("transcription", "transcription_fast", "embedding", "chat");
    # a missing role uses the shipped default.
    models: dict[str, str] = field(default_factory=dict)
    watched_folders: list[WatchedFolder] = field(default_factory=list)
    # Recency: score weight e^(-lambda * days since spoken). 0.01/day halves a note's weight in ~70 days.
    recency_lambda_per_day: float = 0.01
    ask_word_budget: int = 600
    live_transcript: bool = True
    input_device: str | None = None
    # Where the import dialog opens: the folder of the last files imported through it.
    last_import_folder: str | None = None
    # Daily backups kept in the data folder's backups/ (app.backup.daily); 0 turns them off.
    daily_backups_keep: int = 7

    @classmethod
    def load(cls, path: Path) -> Settings:
        if not path.is_file():
            return cls()
        try:
            raw = json.loads(path.read_text("utf-8"))
            if not isinstance(raw, dict):
                raise ValueError("it is not a JSON object")
        except (OSError, ValueError) as exc:
            # A damaged settings file must not lock a user out of their notes: keep it, use defaults.
            backup = path.with_suffix(".damaged.json")
            os.replace(path, backup)
            log.warning("settings were unreadable (%s); kept as %s, using defaults", exc, backup.name)
            return cls()
        values = _typed(raw, cls())
        try:
            return cls(**values)
        except TypeError as exc:
            raise InputError(f"settings file {path} has an unexpected value: {exc}") from exc

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, path)


def _typed(raw: dict[str, Any], defaults: Settings) -> dict[str, Any]:
    """The values of a (hand-edited) settings file that have their setting's type; any other one
    falls back to its default with a warning, so one wrong value does not stop every command."""
    values: dict[str, Any] = {}
    for f in fields(defaults):
        if f.name not in raw:
            continue
        value, default = raw[f.name], getattr(defaults, f.name)
        if f.name == "watched_folders" and isinstance(value, list):
            value = [
                WatchedFolder(w["path"], w["project"])
                for w in value
                if isinstance(w, dict)
                and isinstance(w.get("path"), str)
                and isinstance(w.get("project"), str)
            ]
        elif f.name == "models" and isinstance(value, dict):
            value = {k: v for k, v in value.items() if isinstance(v, str)}
        elif isinstance(default, float) and isinstance(value, int | float) and not isinstance(value, bool):
            value = float(value)
        elif not (type(value) is type(default) or (default is None and isinstance(value, str))):
            log.warning("setting %s has a value of the wrong type; using the default", f.name)
            continue
        values[f.name] = value
    return values
