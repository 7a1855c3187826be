"""The audit trail of every language-model call: prompt, response, model, timings and purpose.

Each call is one row written in its own transaction, including calls that failed or were
cancelled (with the error), so a user can always see what a model was shown and what it said.
Prompt and response text stay in the store; they are never written to log files. Each call is
linked to the notes whose words its prompt quoted (llm_call_recordings, migration 0070): when a
note is deleted for good, those calls keep their row but lose their prompt and response
(`redact_calls`), so the audit trail holds no words of a deleted note.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Iterable, Sequence
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
    recording_ids: Iterable[int] = (),
) -> int:
    """Log one call; `recording_ids`: the notes whose words the prompt quoted."""
    if store.read_only:  # reading a library on read-only media: answers still work, unlogged
        return 0
    with store.transaction():
        call_id = store.execute(
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
        store.executemany(  # a note deleted for good meanwhile is not linked (its words are gone)
            "INSERT OR IGNORE INTO llm_call_recordings (call_id, recording_id)"
            " SELECT ?, id FROM recordings WHERE id = ?",
            [(call_id, int(rid)) for rid in set(recording_ids)],
        )
        return call_id


REDACTED = "[removed: this call quoted a note that was deleted for good]"
MIN_QUOTE_CHARS = 24  # a sentence this long is that note's own words, not a phrase any note says


def call_recordings(store: Store, call_id: int) -> list[int]:
    rows = store.rows(
        "SELECT recording_id FROM llm_call_recordings WHERE call_id = ? ORDER BY recording_id", (call_id,)
    )
    return [int(r[0]) for r in rows]


def redact_calls(store: Store, recording_id: int, sentences: Sequence[str] = ()) -> int:
    """Replace the prompt and response of every call that quoted the note by REDACTED (call them
    before the note's row goes: its links go with it). Calls logged before the links existed (none
    of their own) are found by `sentences` of the note (at least MIN_QUOTE_CHARS long, their end's
    punctuation left out) in their prompt or response, as the prompt stored them (JSON-escaped).
    Returns the calls redacted."""
    with store.transaction():
        ids = {
            int(r[0])
            for r in store.rows(
                "SELECT call_id FROM llm_call_recordings WHERE recording_id = ?", (recording_id,)
            )
        }
        quotes = {json.dumps(s.strip().rstrip(".!?…"), ensure_ascii=False)[1:-1] for s in sentences}
        quotes = {q for q in quotes if len(q) >= MIN_QUOTE_CHARS}
        if quotes:
            unlinked = store.rows(
                "SELECT id, prompt, coalesce(response, '') FROM llm_calls c WHERE prompt != ?"
                " AND NOT EXISTS (SELECT 1 FROM llm_call_recordings l WHERE l.call_id = c.id)",
                (REDACTED,),
            )
            ids |= {
                int(i)
                for i, prompt, response in unlinked
                if any(q in prompt or q in response for q in quotes)
            }
        store.executemany(
            "UPDATE llm_calls SET prompt = ?, response = NULL WHERE id = ?", [(REDACTED, i) for i in ids]
        )
    return len(ids)


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
    recording_ids: Iterable[int] = (),
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
        recording_ids=recording_ids,
    )


class LoggedCall:
    """One chat-model call that writes itself to the audit trail when it ends, however it ends
    (done, failed, cancelled, or closed early by its reader), after simonw/llm's `log_to_db`.

    `stream()` yields the text as the model writes it; `text()` waits for all of it. A model error
    is raised to the caller after it is logged; `call_id` is the logged row's id once the call ended.
    `recording_ids`: the notes whose words the messages quote (see `redact_calls`).
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
        recording_ids: Iterable[int] = (),
    ) -> None:
        self.store = store
        self.recording_ids = tuple(recording_ids)
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
                recording_ids=self.recording_ids,
            )

    def text(self) -> str:
        for _ in self.stream():
            pass
        return self.completion.text
