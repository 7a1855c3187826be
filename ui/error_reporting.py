"""The one place the window turns errors into something a user reads.

An expected failure (VerbatimError) shows its message and fix in the notice bar, never a chain of
dialogs; anything else is a bug: it is logged with its traceback and the user is told where the log
is. Nothing here shows transcript text.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from models.errors import CancelledError, VerbatimError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class UserMessage:
    text: str
    fix: str = ""
    severity: str = "error"  # "error" | "warning" | "info"


def describe(exc: BaseException, *, log_path: str = "") -> UserMessage:
    if isinstance(exc, CancelledError):
        return UserMessage("Cancelled.", severity="info")
    if isinstance(exc, VerbatimError):
        return UserMessage(_sentence(exc.message), _sentence(exc.fix) if exc.fix else "")
    log.error("unexpected error in the window", exc_info=(type(exc), exc, exc.__traceback__))
    where = f" Details are in {log_path}." if log_path else ""
    return UserMessage(f"Something went wrong ({type(exc).__name__}).{where}", "")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."
