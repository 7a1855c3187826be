"""The audit trail of every language-model call: prompt, response, model, timings and purpose.

Each call is one row written in its own transaction, including calls that failed or were
cancelled (with the error), so a user can always see what a model was shown and what it said.
Prompt and response text stay in the store; they are never written to log files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from memory.store.store import Store, now_iso
from models.chat import ChatModel, Completion
from models.errors import CancelledError, ModelError


@dataclass(frozen=True)
class LlmCall:
    id: int
    created_at: str
    purpose: str
    model: str
    prompt: str
    response: str | None
    error: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    first_token_ms: float | None
    total_ms: float | None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def prompt_text(messages: list[dict[str, str]], json_schema: dict[str, Any] | None = None) -> str:
    """What was sent, as one reproducible text: the messages and the schema that constrained them."""
    return json.dumps({"messages": messages, "json_schema": json_schema}, ensure_ascii=False)


def log_call(
    store: Store,
    *,
    purpose: str,
    model: str,
    prompt: str,
    response: str | None,
    error: str | None = None,
    prompt_tokens: int | None = None,
    completion_tokens: int | None = None,
    first_token_ms: float | None = None,
    total_ms: float | None = None,
) -> int:
    if store.read_only:  # reading a library on read-only media: answers still work, unlogged
        return 0
    with store.transaction():
        return store.execute(
            "INSERT INTO llm_calls (created_at, purpose, model, prompt, response, error, prompt_tokens,"
            " completion_tokens, first_token_ms, total_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                now_iso(),
                purpose,
                model,
                prompt,
                response,
                error,
                prompt_tokens,
                completion_tokens,
                first_token_ms,
                total_ms,
            ),
        )


def list_calls(store: Store, *, purpose: str | None = None, limit: int = 50) -> list[LlmCall]:
    """Newest first."""
    where = "WHERE purpose = ?" if purpose else ""
    params: list[object] = [purpose] if purpose else []
    rows = store.all(f"SELECT * FROM llm_calls {where} ORDER BY id DESC LIMIT ?", [*params, limit])
    return [LlmCall(**row) for row in rows]


def get_call(store: Store, call_id: int) -> LlmCall | None:
    row = store.one("SELECT * FROM llm_calls WHERE id = ?", (call_id,))
    return LlmCall(**row) if row else None


def log_completion(
    store: Store,
    *,
    purpose: str,
    model: str,
    messages: list[dict[str, str]],
    schema: dict[str, Any] | None,
    completion: Completion,
    error: str | None = None,
) -> int:
    """One chat model call, as the model wrapper measured it (models.chat.Completion)."""
    return log_call(
        store,
        purpose=purpose,
        model=model,
        prompt=prompt_text(messages, schema),
        response=completion.text,
        error=error,
        completion_tokens=completion.completion_tokens or None,
        first_token_ms=completion.first_token_ms,
        total_ms=completion.total_ms,
    )


class LoggedCall:
    """One chat-model call that writes itself to the audit trail when it ends, however it ends
    (done, failed, cancelled, or closed early by its reader), after simonw/llm's `log_to_db`.

    `stream()` yields the text as the model writes it; `text()` waits for all of it. A model error
    is raised to the caller after it is logged; `call_id` is the logged row's id once the call ended.
    """

    def __init__(
        self,
        store: Store,
        chat: ChatModel,
        *,
        purpose: str,
        model: str,
        messages: list[dict[str, str]],
        schema: dict[str, Any] | None = None,
        max_tokens: int = 512,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.store = store
        self.chat = chat
        self.purpose = purpose
        self.model = model
        self.messages = messages
        self.schema = schema
        self.max_tokens = max_tokens
        self.cancelled = cancelled
        self.completion = Completion()
        self.error: str | None = None
        self.call_id: int | None = None

    def stream(self) -> Generator[str, None, None]:
        pieces = self.chat.stream(
            self.messages,
            json_schema=self.schema,
            max_tokens=self.max_tokens,
            cancelled=self.cancelled,
            completion=self.completion,
        )
        try:
            yield from pieces
        except CancelledError:
            self.error = "cancelled"
            raise
        except ModelError as exc:
            self.error = exc.message
            raise
        finally:
            closing = getattr(pieces, "close", None)  # a generator: closing it frees the model now
            if closing is not None:
                closing()
            self.call_id = log_completion(
                self.store,
                purpose=self.purpose,
                model=self.model,
                messages=self.messages,
                schema=self.schema,
                completion=self.completion,
                error=self.error,
            )

    def text(self) -> str:
        for _ in self.stream():
            pass
        return self.completion.text
