"""Where a library's files live. One data folder holds everything a user would back up."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from memory.store.store import StoreError

APP_NAME = "verbatim"


def default_data_root() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def _choice_file() -> Path:
    # Outside any data folder on purpose: it says which data folder to open.
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "data-folder.txt"


def chosen_data_root() -> Path | None:
    """The data folder the user chose in Settings, if any (read at the next start)."""
    try:
        text = _choice_file().read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return Path(text) if text else None


def choose_data_root(folder: str | os.PathLike[str] | None) -> Path | None:
    """Use `folder` as the data folder from the next start (None: the platform's default again).

    The folder must be one this user can write to; the current library stays where it is (a
    backup restored into the new folder moves it: `verbatim backup` then `verbatim restore --into`).
    """
    choice = _choice_file()
    if folder is None:
        choice.unlink(missing_ok=True)
        return None
    root = Path(folder).expanduser().resolve()
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / ".verbatim-write-check"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise StoreError(
            f"cannot use {root} as the data folder: {exc.strerror or exc}",
            fix="choose a folder you can write to",
        ) from exc
    choice.parent.mkdir(parents=True, exist_ok=True)
    choice.write_text(f"{root}\n", "utf-8")
    return root


@dataclass(frozen=True)
class DataDir:
    root: Path
    models_override: Path | None = None

    @classmethod
    def resolve(cls, given: str | os.PathLike[str] | None = None) -> DataDir:
        """`--data-dir`, else VERBATIM_DATA_DIR, else the folder chosen in Settings, else the
        platform's user data folder.

        VERBATIM_MODELS_DIR points several data folders (tests, a second library) at one set of
        provisioned models, so the large weights are not copied for each.
        """
        root = given or os.environ.get("VERBATIM_DATA_DIR") or chosen_data_root() or default_data_root()
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
