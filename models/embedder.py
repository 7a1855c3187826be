"""Sentence embeddings through llama.cpp (the shipped MiniLM GGUF or any GGUF embedding model)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from models.errors import CancelledError, ModelError

_MAX_CHARS_PER_TOKEN = 32


class Embedder:
    """Loads lazily; embeds one text per call (faster than batches here); thread-safe."""

    def __init__(self, path: Path, *, n_threads: int | None = None) -> None:
        self.path = Path(path)
        self.name = self.path.stem
        self._n_threads = n_threads
        self._llama: object | None = None
        self._lock = threading.Lock()
        self._dims = 0
        self._n_ctx = 512

    def _load(self) -> object:
        if self._llama is None:
            from llama_cpp import Llama  # heavy import: only when a model is really used

            if not self.path.is_file():
                raise ModelError(
                    f"the embedding model {self.path} is missing", fix="run 'verbatim models provision'"
                )
            try:
                llama = Llama(
                    str(self.path),
                    embedding=True,
                    n_ctx=0,  # the model's own context (512 for MiniLM)
                    n_threads=self._n_threads,
                    verbose=False,
                )
            except (ValueError, RuntimeError) as exc:
                raise ModelError(f"cannot load the embedding model {self.path.name}: {exc}") from exc
            self._n_ctx = llama.n_ctx()
            self._dims = llama.n_embd()
            self._llama = llama
        return self._llama

    @property
    def dims(self) -> int:
        with self._lock:
            self._load()
        return self._dims

    def _clip(self, llama: object, text: str) -> str:
        """Keep what fits the model's context: the start of a long passage carries its topic."""
        # A token is rarely more than a few characters: tokenising all of a 10 MB passage to keep
        # its first 512 tokens would take seconds.
        text = text[: self._n_ctx * _MAX_CHARS_PER_TOKEN]
        tokens = llama.tokenize(text.encode("utf-8"), add_bos=True)  # type: ignore[attr-defined]
        if len(tokens) <= self._n_ctx - 2:
            return text
        kept = tokens[1 : self._n_ctx - 2]
        return llama.detokenize(kept).decode("utf-8", errors="ignore")  # type: ignore[attr-defined]

    def embed(self, texts: Sequence[str], *, cancelled: Callable[[], bool] | None = None) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        with self._lock:
            llama = self._load()
            out = np.zeros((len(texts), self._dims), dtype=np.float32)
            for i, text in enumerate(texts):
                if cancelled is not None and cancelled():
                    raise CancelledError("embedding cancelled")
                vector = llama.embed(self._clip(llama, text or " "), normalize=True)  # type: ignore[attr-defined]
                out[i] = np.asarray(vector, dtype=np.float32)
            return out

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]
