"""The audit trail of every language-model call: prompt, response, model, timings and purpose.

Each call is one row written in its own transaction, including calls that failed or were
cancelled (with the error), so a user can always see what a model was shown and what it said.
Prompt and response text stay in the store; they are never written to log files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from memory.store.store import Store, now_iso
from models.chat import Completion


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
