"""`verbatim doctor`: everything that can stop Verbatim from working, each with its fix."""

from __future__ import annotations

import shutil
from dataclasses import asdict, dataclass
from importlib import metadata

from app.consistency import library_problems, orphan_audio, orphan_folder
from app.library import Library
from app.model_status import all_model_status
from capture.devices import list_input_devices
from memory.health import sqlite_features
from models.errors import VerbatimError

LANGUAGE_PACKAGES = ("dateparser", "text2num", "PyStemmer")
MIN_FREE_BYTES = 2 * 1024**3  # an hour of 16 kHz audio is ~115 MB; 2 GB leaves room for models too


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    severity: str = "error"  # "error" stops Verbatim working; "warning" limits it

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def _database_checks() -> list[Check]:
    features = sqlite_features()
    return [
        Check(
            "sqlite-vec",
            "sqlite_vec" in features,
            f"sqlite-vec {features.get('sqlite_vec')} on SQLite {features['sqlite']}"
            if "sqlite_vec" in features
            else str(features.get("sqlite_vec_error")),
            "reinstall with 'make install'",
        ),
        Check(
            "fts5", bool(features.get("fts5")), "FTS5 full-text search", "reinstall apsw with 'make install'"
        ),
    ]


def _language_check() -> Check:
    """The libraries consolidation reads spoken text with: spaCy's English pipeline, dateparser,
    text2num and the Snowball stemmer's C build."""
    try:
        import dateparser  # noqa: F401
        import Stemmer  # noqa: F401
        import text_to_num  # noqa: F401

        from memory.text import nlp

        versions = "; ".join(f"{name} {metadata.version(name)}" for name in LANGUAGE_PACKAGES)
        detail = f"spaCy {nlp.version()}; {versions}"
    except (ImportError, OSError, metadata.PackageNotFoundError, VerbatimError) as exc:
        message = exc.message if isinstance(exc, VerbatimError) else str(exc)
        return Check("language", False, message, "reinstall with 'make install'")
    return Check("language", True, detail)


def _audio_check() -> Check:
    try:
        devices = list_input_devices()
    except VerbatimError as exc:
        return Check("audio input", False, exc.message, exc.fix or "", severity="warning")
    if not devices:
        return Check(
            "audio input",
            False,
            "no microphone found: recording is unavailable; importing files still works",
            "connect a microphone, or check the system's sound settings",
            severity="warning",
        )
    default = next((d.name for d in devices if d.is_default), devices[0].name)
    return Check("audio input", True, f"{len(devices)} input device(s); default: {default}")


def _disk_check(library: Library) -> Check:
    usage = shutil.disk_usage(library.data_dir.root)
    free_gb = usage.free / 1024**3
    return Check(
        "free disk",
        usage.free >= MIN_FREE_BYTES,
        f"{free_gb:.1f} GB free in {library.data_dir.root}",
        "free some disk space: recordings need about 115 MB per hour",
        severity="warning",
    )


def _consistency_check(library: Library) -> Check:
    problems = library_problems(library)
    detail = "recordings, segments, index and audio files agree" if not problems else "; ".join(problems[:5])
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    return Check("consistency", not problems, detail + more, "restore the data folder from a backup")


def _orphan_check(library: Library) -> Check:
    """Audio files no note points at: left by a crash while a note was deleted for good."""
    orphans = orphan_audio(library)
    if not orphans:
        return Check("audio files", True, "every audio file belongs to a note", severity="warning")
    megabytes = sum(o.bytes for o in orphans) / 1e6
    shown = ", ".join(o.path for o in orphans[:5]) + (
        f" (and {len(orphans) - 5} more)" if len(orphans) > 5 else ""
    )
    return Check(
        "audio files",
        False,
        f"{len(orphans)} audio file(s), {megabytes:.1f} MB, belong to no note: {shown}",
        f"'verbatim doctor --clean-audio' moves them to {orphan_folder(library)} (delete them there when"
        " sure), '--clean-audio --delete' deletes them; audio a note points at is never touched",
        severity="warning",
    )


def run_checks(library: Library, *, load_models: bool = False) -> list[Check]:
    checks = _database_checks()
    try:
        store = library.store
        checks.append(Check("library", store.integrity_check() == "ok", f"database at {store.path}"))
        checks.append(_consistency_check(library))
        checks.append(_orphan_check(library))
    except VerbatimError as exc:
        checks.append(Check("library", False, exc.message, exc.fix or ""))
    for status in all_model_status(library, verify=True, load=load_models):
        ok = status.present and status.sha256_verified and status.loads is not False
        detail = f"{status.name} at {status.path}" if ok else status.problem
        checks.append(Check(f"model: {status.role}", ok, detail, status.fix))
    checks.append(_language_check())
    checks.append(_audio_check())
    checks.append(_disk_check(library))
    return checks
