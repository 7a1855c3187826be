"""Where a library's files live. One data folder holds everything a user would back up."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from models.errors import StoreError

APP_NAME = "verbatim"


def default_data_root() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@dataclass(frozen=True)
class DataDir:
    root: Path
    models_override: Path | None = None

    @classmethod
    def resolve(cls, given: str | os.PathLike[str] | None = None) -> DataDir:
        """`--data-dir`, else VERBATIM_DATA_DIR, else the platform's user data folder.

        VERBATIM_MODELS_DIR points several data folders (tests, a second library) at one set of
        provisioned models, so the large weights are not copied for each.
        """
        root = given or os.environ.get("VERBATIM_DATA_DIR") or default_data_root()
        models = os.environ.get("VERBATIM_MODELS_DIR")
        return cls(Path(root).expanduser().resolve(), Path(models).expanduser().resolve() if models else None)

    @property
    def db_path(self) -> Path:
        return self.root / "verbatim.db"

    @property
    def audio_dir(self) -> Path:
        """Finished audio, content-addressed: audio/<sha256[:2]>/<sha256>.<ext>."""
        return self.root / "audio"

    @property
    def recordings_dir(self) -> Path:
        """Recordings in progress (crash-safe block files), recovered at the next start."""
        return self.root / "recording"

    @property
    def models_dir(self) -> Path:
        return self.models_override or self.root / "models"

    @property
    def logs_dir(self) -> Path:
        return self.root / "logs"

    @property
    def backups_dir(self) -> Path:
        return self.root / "backups"

    @property
    def settings_path(self) -> Path:
        return self.root / "settings.json"

    def ensure(self) -> None:
        private_files()
        for folder in (self.root, self.audio_dir, self.recordings_dir, self.logs_dir):
            try:
                folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            except OSError as exc:
                if not self.root.is_dir():
                    raise StoreError(
                        f"cannot create the data folder {self.root}: {exc.strerror or exc}",
                        fix="choose a folder you can write to with --data-dir or VERBATIM_DATA_DIR",
                    ) from exc
                # A library on read-only media can still be read; writes say why they fail.
        try:  # a folder made by an older version, or by hand: only its owner may look inside
            if self.root.stat().st_mode & 0o077 and self.root.stat().st_uid == os.getuid():
                self.root.chmod(0o700)
        except (OSError, AttributeError):  # AttributeError: no getuid on Windows (ACLs apply there)
            pass


def private_files() -> None:
    """Everything this process creates from now on (database, audio, logs, backups) is readable by
    the user only: notes are private, whoever else shares the computer."""
    os.umask(0o077)
