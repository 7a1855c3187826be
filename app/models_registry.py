"""Which model file serves each role, and loaded instances shared by the whole app.

Shipped defaults come from the catalogue; a user may register any CTranslate2 Whisper folder or
GGUF for a role (`verbatim models add`). Models load lazily, on first use, once.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from app.paths import DataDir
from app.settings import Settings
from models.catalogue import SHIPPED, Format, Role, detect_format, shipped_path
from models.errors import ModelError

if TYPE_CHECKING:
    from models.chat import ChatModel
    from models.embedder import Embedder
    from models.whisper import WhisperTranscriber

_EXPECTED_FORMAT = {
    Role.TRANSCRIPTION: Format.CT2_WHISPER,
    Role.TRANSCRIPTION_FAST: Format.CT2_WHISPER,
    Role.EMBEDDING: Format.GGUF,
    Role.CHAT: Format.GGUF,
}


class ModelRegistry:
    def __init__(self, data_dir: DataDir, settings: Settings) -> None:
        self.data_dir = data_dir
        self.settings = settings
        self._lock = threading.Lock()
        self._embedder: Embedder | None = None
        self._chat: dict[Path, ChatModel] = {}

    def path_for(self, role: Role) -> Path:
        chosen = self.settings.models.get(role.value)
        if chosen:
            return Path(chosen)
        return shipped_path(SHIPPED[role], self.data_dir.models_dir)

    def is_user_model(self, role: Role) -> bool:
        return bool(self.settings.models.get(role.value))

    def name_for(self, role: Role) -> str:
        return self.path_for(role).name if self.is_user_model(role) else SHIPPED[role].name

    def register(self, role: Role, path: Path) -> Path:
        """Use `path` for `role` from now on (checked for format, not copied)."""
        path = path.expanduser().resolve()
        fmt = detect_format(path)
        needed = _EXPECTED_FORMAT[role]
        if fmt is not needed:
            raise ModelError(f"{path.name} is a {fmt.value} model; {role.value} needs {needed.value}")
        self.settings.models[role.value] = str(path)
        self.settings.save(self.data_dir.settings_path)
        with self._lock:
            self._embedder = None
        return path

    def reset(self, role: Role) -> None:
        self.settings.models.pop(role.value, None)
        self.settings.save(self.data_dir.settings_path)

    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                from models.embedder import Embedder

                self._embedder = Embedder(self.path_for(Role.EMBEDDING))
            return self._embedder

    def embedding_model_name(self) -> str:
        return self.name_for(Role.EMBEDDING)

    def chat(self, path: Path | None = None) -> ChatModel:
        """The chat model for answers; `path` overrides the configured one (e.g. `--model`)."""
        target = (path or self.path_for(Role.CHAT)).expanduser().resolve()
        with self._lock:
            if target not in self._chat:
                from models.chat import ChatModel

                if path is not None:
                    detect_format(target)
                self._chat[target] = ChatModel(target)
            return self._chat[target]

    def whisper(self, role: Role = Role.TRANSCRIPTION, *, path: Path | None = None) -> WhisperTranscriber:
        """A new Whisper instance (each worker owns its own)."""
        from models.whisper import WhisperTranscriber

        return WhisperTranscriber(path or self.path_for(role))
