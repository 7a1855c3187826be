"""The root of every error a user may see.

It lives in the leaf package so that every layer (capture, memory, models, app) can raise it
without importing upwards. Each error carries a message written for the user and, where there is
one, the fix. The CLI and the UI each translate these in exactly one place.
"""

from __future__ import annotations


class VerbatimError(Exception):
    """An expected failure with a message a user can act on."""

    def __init__(self, message: str, *, fix: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix

    def __str__(self) -> str:
        return f"{self.message} ({self.fix})" if self.fix else self.message


class ModelError(VerbatimError):
    """A model is missing, corrupt, or cannot be loaded."""


class NotFoundError(VerbatimError):
    """A project, recording or other named thing does not exist."""


class InputError(VerbatimError):
    """A file, query or value given by the user cannot be used."""


class AudioError(VerbatimError):
    """Audio cannot be recorded, decoded or played."""


class CancelledError(VerbatimError):
    """Long work was cancelled by the user."""

    def __init__(self, message: str = "cancelled") -> None:
        super().__init__(message)
