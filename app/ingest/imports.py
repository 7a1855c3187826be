"""Bring existing material into the library: audio files and transcripts.

Every import is idempotent (the same content twice is one recording, reported as a duplicate) and
atomic per recording (a failure leaves nothing half-written). Audio is copied into the library
(content-addressed by sha256) and checked by decoding it whole before a recording is created, so a
damaged or truncated file is refused with a message and leaves nothing behind; the transcription
itself is queued as a job. Transcript files become recordings without audio, indexed at once.

Cancelling (`cancelled()`, asked between files, between batches of a file's segments and between
its indexing batches) stops within a second or two even in a file of tens of megabytes: the files
already imported stay, and the one being imported is taken back whole (memory.store.withdrawn), so
nothing resumes at the next start and importing it again is how it is retried.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path

from app.jobs.queue import enqueue
from app.library import Library
from capture.audio import AUDIO_EXTENSIONS, inspect_audio
from capture.corpus import looks_like_corpus, read_corpus
from capture.files import check_readable, copy_hashed, place, sha256_of, text_name
from capture.transcripts import TRANSCRIPT_EXTENSIONS, read_transcript
from capture.watch import is_candidate
from memory.store import projects, recordings, withdrawn
from memory.store.clock import normalise_time, to_store_time
from memory.store.projects import Project
from models.errors import CancelledError, InputError, VerbatimError

log = logging.getLogger(__name__)


@dataclass
class ImportResult:
    path: str
    status: str  # "imported" | "duplicate" | "failed"
    recording_id: int | None = None
    project: str | None = None
    message: str = ""
    kind: str = ""  # "audio" | "transcript" | "corpus"
    duration: float | None = None
    sha256: str | None = None

    def to_json(self) -> dict[str, object]:
        return asdict(self)


Cancelled = Callable[[], bool]
SEGMENT_BATCH = 2000  # segments stored between two looks at the cancel flag


def _check(cancelled: Cancelled | None, what: str = "import cancelled") -> None:
    if cancelled is not None and cancelled():
        raise CancelledError(f"{what}; the files already imported stay")


def import_corpus(
    library: Library, path: Path, *, project: str | None = None, cancelled: Cancelled | None = None
) -> list[ImportResult]:
    """A JSON-lines corpus: one recording per line, segment ids kept. `project` overrides each line's."""
    store = library.store
    results = []
    for item in read_corpus(path):  # validates the whole file before storing anything
        _check(cancelled)
        label = f"{path.name}#{item.external_id}"
        existing = recordings.find_recording_by_external_id(store, item.external_id)
        if existing is None:
            existing = recordings.find_recording_by_sha256(store, item.content_sha256)
        if existing is not None:
            results.append(
                ImportResult(label, "duplicate", existing.id, existing.project, "already imported")
            )
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
                    source_name=text_name(path.name),
                    content_sha256=item.content_sha256,
                    duration=max((s.end for s in item.segments), default=0.0),
                )
                recordings.append_segments(store, recording_id, item.segments)
        except VerbatimError as exc:
            results.append(ImportResult(label, "failed", message=exc.message))
            continue
        _index_imported(library, recording_id, cancelled)
        results.append(ImportResult(label, "imported", recording_id, target.name))
    return results


def _index_imported(library: Library, recording_id: int, cancelled: Cancelled | None = None) -> None:
    """Make an imported recording searchable now; if that fails, start-up indexing retries it.
    Cancelled, the recording is taken back whole (it never became a note)."""
    from app.ingest.indexing import index_recording

    try:
        index_recording(library, recording_id, final=True, cancelled=cancelled)
    except CancelledError:
        withdrawn.withdraw_unfinished_import(library.store, recording_id)
        raise
    except VerbatimError as exc:
        log.warning("recording %s imported but not indexed yet: %s", recording_id, exc.message)


def _batches(items: Sequence[recordings.SegmentIn]) -> Iterator[Sequence[recordings.SegmentIn]]:
    for start in range(0, len(items), SEGMENT_BATCH):
        yield items[start : start + SEGMENT_BATCH]


CORPUS_EXTENSIONS = (".jsonl", ".ndjson")
SUPPORTED_EXTENSIONS = AUDIO_EXTENSIONS + TRANSCRIPT_EXTENSIONS + CORPUS_EXTENSIONS
TRANSCRIBE = "transcribe"  # the job kind app.ingest.transcription runs


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given; a folder stands for the importable files in it (not hidden or partial ones)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(
                    p for p in path.rglob("*") if p.is_file() and is_candidate(p, root=path) and supported(p)
                )
            )
        else:
            found.append(path)
    return found


def supported(path: Path) -> bool:
    return path.suffix.lower() in SUPPORTED_EXTENSIONS


def import_files(
    library: Library,
    paths: Sequence[Path | str],
    *,
    project: str,
    spoken_at: str | None = None,
    source: str = "import",
    on_result: Callable[[ImportResult], None] | None = None,
    cancelled: Cancelled | None = None,
) -> list[ImportResult]:
    """Import audio and transcript files (and corpus .jsonl) into `project`; one result per recording.

    `spoken_at` (ISO 8601) overrides when each file was spoken; otherwise the file's own metadata
    says, else its modification time. Audio is queued for transcription. `cancelled()` stops the
    import with CancelledError: what `on_result` was told of stays, the file under way is taken back.
    """
    when = normalise_time(spoken_at) if spoken_at else None
    target = _Target.named(library, project)
    results: list[ImportResult] = []
    for path in expand_paths(Path(p).expanduser() for p in paths):
        _check(cancelled)
        for found in _import_one(library, path, target, when, source, cancelled):
            result = replace(found, path=text_name(found.path), message=text_name(found.message))
            results.append(result)
            if on_result is not None:
                on_result(result)
    return results


@dataclass(frozen=True)
class _Target:
    """The project files go into: created with its first recording, so a refused file adds nothing."""

    library: Library
    name: str

    @classmethod
    def named(cls, library: Library, name: str) -> _Target:
        existing = projects.find_project(library.store, projects.clean_name(name))
        return cls(library, existing.name if existing else projects.clean_name(name))

    def ensure(self) -> Project:
        return projects.add_project(self.library.store, self.name, exist_ok=True)


def _import_one(
    library: Library,
    path: Path,
    project: _Target,
    when: str | None,
    source: str,
    cancelled: Cancelled | None = None,
) -> list[ImportResult]:
    suffix = path.suffix.lower()
    try:
        check_readable(path)
        if looks_like_corpus(path):
            return import_corpus(library, path, project=project.name, cancelled=cancelled)
        if suffix in AUDIO_EXTENSIONS:
            return [_import_audio(library, path, project, when, source, cancelled)]
        if suffix in TRANSCRIPT_EXTENSIONS:
            return [_import_transcript(library, path, project, when, cancelled)]
        raise InputError(
            f"{path.name}: {suffix or 'files without an extension'} cannot be imported",
            fix="Verbatim imports " + ", ".join(e.lstrip(".") for e in SUPPORTED_EXTENSIONS),
        )
    except CancelledError:
        raise
    except VerbatimError as exc:
        log.info("import of a file failed: %s", type(exc).__name__)
        return [ImportResult(str(path), "failed", project=project.name, message=str(exc))]
    except FileNotFoundError:
        message = f"{path.name} disappeared while it was being imported"
        return [ImportResult(str(path), "failed", project=project.name, message=message)]
    except OSError as exc:
        message = f"cannot read {path.name}: {exc.strerror or exc}"
        return [ImportResult(str(path), "failed", project=project.name, message=message)]


def _file_time(path: Path) -> str:
    try:
        return to_store_time(datetime.fromtimestamp(path.stat().st_mtime))
    except FileNotFoundError as exc:
        raise InputError(f"{path.name} disappeared while it was being imported") from exc


def _duplicate(path: Path, existing: recordings.Recording, kind: str, sha: str) -> ImportResult:
    where = f", which is in the trash ('verbatim trash restore {existing.id}')" if existing.trashed_at else ""
    return ImportResult(
        str(path),
        "duplicate",
        existing.id,
        existing.project,
        f"already imported as recording {existing.id}{where}",
        kind,
        existing.duration,
        sha,
    )


def _import_audio(
    library: Library,
    path: Path,
    project: _Target,
    when: str | None,
    source: str,
    cancelled: Cancelled | None = None,
) -> ImportResult:
    store, audio_dir = library.store, library.data_dir.audio_dir
    temporary, sha = copy_hashed(path, audio_dir)
    placed: Path | None = None
    try:
        existing = recordings.find_recording_by_sha256(store, sha)
        if existing is not None:
            temporary.unlink()
            return _duplicate(path, existing, "audio", sha)
        _check(cancelled)
        info = inspect_audio(temporary, name=path.name)
        _check(cancelled)
        spoken = when or info.creation_time or _file_time(path)
        relative = place(temporary, audio_dir, sha, path.suffix)
        placed = library.data_dir.root / relative
        with store.transaction():
            recording_id = recordings.create_recording(
                store,
                project_id=project.ensure().id,
                spoken_at=spoken,
                source=source,
                status="queued",
                title=text_name(path.stem),
                source_name=text_name(path.name),
                audio_path=relative,
                content_sha256=sha,
                duration=info.duration,
            )
            enqueue(library, TRANSCRIBE, recording_id=recording_id)
    except BaseException:
        temporary.unlink(missing_ok=True)
        if placed is not None and recordings.find_recording_by_sha256(store, sha) is None:
            placed.unlink(missing_ok=True)  # no recording owns it: no garbage left behind
        raise
    return ImportResult(
        str(path),
        "imported",
        recording_id,
        project.name,
        "queued for transcription",
        "audio",
        info.duration,
        sha,
    )


def _import_transcript(
    library: Library, path: Path, project: _Target, when: str | None, cancelled: Cancelled | None = None
) -> ImportResult:
    store = library.store
    sha = sha256_of(path)
    existing = recordings.find_recording_by_sha256(store, sha)
    if existing is not None:
        return _duplicate(path, existing, "transcript", sha)
    segments = read_transcript(path, cancelled=cancelled)
    duration = max(s.end for s in segments)
    with store.transaction():  # cancelled between two batches: rolled back, nothing stored
        recording_id = recordings.create_recording(
            store,
            project_id=project.ensure().id,
            spoken_at=when or _file_time(path),
            source="transcript",
            status="queued",
            title=text_name(path.stem),
            source_name=text_name(path.name),
            content_sha256=sha,
            duration=duration,
        )
        for batch in _batches(segments):
            _check(cancelled)
            recordings.append_segments(store, recording_id, batch)
    _index_imported(library, recording_id, cancelled)
    return ImportResult(
        str(path),
        "imported",
        recording_id,
        project.name,
        f"{len(segments)} segments",
        "transcript",
        duration,
        sha,
    )
