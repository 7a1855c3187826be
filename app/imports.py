"""Bring existing material into the library: audio files and transcripts.

Every import is idempotent (the same content twice is one recording, reported as a duplicate) and
atomic per recording (a failure leaves nothing half-written).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from app.library import Library
from capture.corpus import read_corpus
from memory import projects, recordings
from models.errors import VerbatimError

log = logging.getLogger(__name__)


@dataclass
class ImportResult:
    path: str
    status: str  # "imported" | "duplicate" | "failed"
    recording_id: int | None = None
    project: str | None = None
    message: str = ""

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def import_corpus(library: Library, path: Path, *, project: str | None = None) -> list[ImportResult]:
    """A JSON-lines corpus: one recording per line, segment ids kept. `project` overrides each line's."""
    store = library.store
    results = []
    for item in read_corpus(path):  # validates the whole file before storing anything
        label = f"{path.name}#{item.external_id}"
        existing = recordings.find_recording_by_external_id(store, item.external_id)
        if existing is None:
            existing = recordings.find_recording_by_sha256(store, item.content_sha256)
        if existing is not None:
            results.append(ImportResult(label, "duplicate", existing.id, existing.project, "already imported"))
            continue
        try:
            with store.transaction():
                target = projects.add_project(store, project or item.project, exist_ok=True)
                recording_id = recordings.create_recording(
                    store,
                    project_id=target.id,
                    spoken_at=item.spoken_at,
                    source="transcript",
                    status="queued",
                    title=item.title,
                    external_id=item.external_id,
                    source_name=path.name,
                    content_sha256=item.content_sha256,
                    duration=max((s.end for s in item.segments), default=0.0),
                )
                recordings.append_segments(store, recording_id, item.segments)
        except VerbatimError as exc:
            results.append(ImportResult(label, "failed", message=exc.message))
            continue
        results.append(ImportResult(label, "imported", recording_id, target.name))
        _index_imported(library, recording_id)
    return results


def _index_imported(library: Library, recording_id: int) -> None:
    """Make an imported recording searchable now; if that fails, start-up indexing retries it."""
    from app.indexing import index_recording

    try:
        index_recording(library, recording_id, final=True)
    except VerbatimError as exc:
        log.warning("recording %s imported but not indexed yet: %s", recording_id, exc.message)
