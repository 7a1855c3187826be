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
    # Daily backups kept in the data folder's backups/ (app.backup_daily); 0 turns them off.
    daily_backups_keep: int = 7

    @classmethod
    def load(cls, path: Path) -> Settings:
        if not path.is_file():
            return cls()
        try:
            raw = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            # A damaged settings file must not lock a user out of their notes: keep it, use defaults.
            backup = path.with_suffix(".damaged.json")
            os.replace(path, backup)
            log.warning("settings were unreadable (%s); kept as %s, using defaults", exc, backup.name)
            return cls()
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {k: v for k, v in raw.items() if k in known}
        values["watched_folders"] = [WatchedFolder(**w) for w in values.get("watched_folders", [])]
        try:
            return cls(**values)
        except TypeError as exc:
            raise InputError(f"settings file {path} has an unexpected value: {exc}") from exc

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, path)
