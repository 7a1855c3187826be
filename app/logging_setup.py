"""One rotating log file per library. Transcript and prompt text never go here: they stay in the
database. Library code only uses logging.getLogger(__name__); this is the one place with handlers."""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

_configured: Path | None = None


def setup_logging(logs_dir: Path, *, verbose: bool = False) -> None:
    global _configured
    if _configured == logs_dir:
        return
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    try:
        logs_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
            logs_dir / "verbatim.log", maxBytes=2_000_000, backupCount=3, encoding="utf-8"
        )
        os.chmod(logs_dir / "verbatim.log", 0o600)
    except OSError:
        # A read-only data folder must not stop the CLI from reading notes.
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for old in [h for h in root.handlers if getattr(h, "_verbatim", False)]:
        root.removeHandler(old)
        old.close()
    handler._verbatim = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    if verbose:
        console = logging.StreamHandler()
        console.setLevel(logging.DEBUG)
        console._verbatim = True  # type: ignore[attr-defined]
        root.addHandler(console)
    # Third-party chatter stays out of the user's log.
    for noisy in ("faster_whisper", "httpx", "huggingface_hub"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    _configured = logs_dir
