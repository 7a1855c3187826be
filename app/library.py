"""An opened library: its data folder, settings, store and models. Services take one of these."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from app.models_registry import ModelRegistry
from app.paths import DataDir
from app.settings import Settings
from memory.store.store import Store

log = logging.getLogger(__name__)


class Library:
    def __init__(self, data_dir: DataDir, *, create: bool = True) -> None:
        self.data_dir = data_dir
        if create:
            data_dir.ensure()
        self.settings = Settings.load(data_dir.settings_path)
        self.models = ModelRegistry(data_dir, self.settings)
        self._store: Store | None = None
        self._lock = threading.Lock()

    @classmethod
    def open(cls, data_dir: str | Path | None = None) -> Library:
        return cls(DataDir.resolve(data_dir))

    @property
    def store(self) -> Store:
        with self._lock:
            if self._store is None:
                self._store = Store(self.data_dir.db_path)
            return self._store

    def save_settings(self) -> None:
        self.settings.save(self.data_dir.settings_path)

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
