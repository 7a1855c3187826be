"""A chat model run by llama.cpp: streaming, optionally constrained to a JSON schema.

The chat template comes from the GGUF itself; files without one fall back to ChatML. Any GGUF
instruct model works without code changes: a bigger one simply answers better.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from models.errors import CancelledError, ModelError

Message = dict[str, str]


def grammar_safe(sentence: str) -> str:
    """A sentence as an enum value llama.cpp's schema-to-grammar converter keeps intact.

    llama-cpp-python 0.3.36 mis-escapes `"` and `\\` inside enum strings (the grammar then fails
    to parse, or parses into something else). Both are punctuation to the quote checker, which
    ignores punctuation, so `'` and `/` in their place change nothing it compares.
    """
    return sentence.replace("\\", "/").replace('"', "'")


@dataclass
class Completion:
    """What one call produced, with the timings the call log keeps."""

    text: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    first_token_ms: float | None = None
    total_ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


class ChatModel:
    def __init__(self, path: Path, *, n_ctx: int = 4096, n_threads: int | None = None) -> None:
        self.path = Path(path)
        self.name = self.path.name
        self._n_ctx = n_ctx
        self._n_threads = n_threads
        self._llama: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._llama is None:
            from llama_cpp import Llama

            if not self.path.is_file():
                raise ModelError(
                    f"the chat model {self.path} is missing", fix="run 'verbatim models provision'"
                )
            try:
                # Flash attention: the prompt is read ~15 % faster on CPU (measured on 2 cores,
                # docs/benchmarks.md "Ask"), and it is the prompt that the first token waits for.
                llama = Llama(
                    str(self.path),
                    n_ctx=self._n_ctx,
                    n_threads=self._n_threads,
                    flash_attn=True,
                    verbose=False,
                )
            except (ValueError, RuntimeError) as exc:
                raise ModelError(f"cannot load the chat model {self.path.name}: {exc}") from exc
            if not llama.metadata.get("tokenizer.chat_template"):
                # No template in the file (llama.cpp would fall back to llama-2): ChatML is what
                # most small instruct models were tuned on.
                llama.chat_format = "chatml"
            self._llama = llama
        return self._llama

    def load(self) -> None:
        with self._lock:
            self._load()

    def cached_tokens(self) -> list[int]:
        """The tokens the model has read and keeps (a next prompt that starts with them skips them)."""
        with self._lock:
            if self._llama is None:
                return []
            return [int(t) for t in self._llama.input_ids[: self._llama.n_tokens]]

    def count_tokens(self, text: str) -> int:
        with self._lock:
            return len(self._load().tokenize(text.encode("utf-8"), add_bos=False))

    def stream(
        self,
        messages: list[Message],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        cancelled: Callable[[], bool] | None = None,
        completion: Completion | None = None,
    ) -> Iterator[str]:
        """Yield text pieces as they are generated. Timings land in `completion` if given."""
        record = completion if completion is not None else Completion()
        with self._lock:
            llama = self._load()
            kwargs: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature, "stream": True}
            if json_schema is not None:
                kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
            started = time.perf_counter()
            try:
                for chunk in llama.create_chat_completion(messages, **kwargs):
                    if cancelled is not None and cancelled():
                        raise CancelledError("answer cancelled")
                    piece = chunk["choices"][0]["delta"].get("content") or ""
                    if not piece:
                        continue
                    if record.first_token_ms is None:
                        record.first_token_ms = (time.perf_counter() - started) * 1000
                    record.text += piece
                    record.completion_tokens += 1
                    yield piece
            except (ValueError, RuntimeError) as exc:
                raise ModelError(f"the chat model failed: {exc}") from exc
            finally:
                record.total_ms = (time.perf_counter() - started) * 1000

    def complete(self, messages: list[Message], **kwargs: Any) -> Completion:
        record = Completion()
        for _ in self.stream(messages, completion=record, **kwargs):
            pass
        return record
