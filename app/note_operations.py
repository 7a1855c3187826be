"""What a user does to a whole note: delete it (to the trash), restore it, empty the trash, move it to
another project, re-transcribe it, and make an earlier transcript current again.

- Delete puts the note in the trash for TRASH_DAYS days: at once it leaves timelines, counts,
  search, answers, digests, commitments and connections (its derived rows are removed; its words,
  edits and audio stay). A transcription or re-transcription of the note, queued or under way,
  waits in the queue (one under way pauses where it is) and goes on once the note is restored; its
  other jobs stop. Restore brings it back and the existing jobs rebuild what it had:
  indexing here, consolidation queued. After TRASH_DAYS days (`purge_expired`, run at start-up and
  by `verbatim trash`) or "empty trash" it is gone for good: the recording and every row that
  points at it, its audio file, the cached vectors of its words, and the prompts and responses of
  the model calls that quoted it (their rows stay, redacted: memory.store.llm_log.redact_calls).
- Move files the note under another project: its chunks and vectors follow at once, its
  consolidation runs again there (a queued job), and the facts of the project it left are
  resolved again (a fact it had superseded is current again).
- Re-transcribe keeps the current transcript word for word as an earlier version (with its
  edits) and queues a transcription job with the model asked for and the project's vocabulary as
  it is now; the job indexes the new words, and consolidation follows. A re-transcription that does
  not complete (cancelled, before or while it runs, or failed) falls back by itself: the transcript
  it was to replace is current again, indexed, its consolidation queued, and the lines the new one
  had made are kept as an earlier version; retrying the job keeps the earlier transcript again and
  resumes the new one where it stopped. An earlier version can be made current again; the one it
  replaces is kept in its place. Raw words are never lost.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.library import Library
from memory.search import index
from memory.search.chunking import chunk_segments, chunk_text, content_hash
from memory.store import note_ops
from memory.store import recordings as store_recordings
from memory.store.clock import parse_time, to_store_time
from memory.store.jobs import Job, JobStatus, list_jobs, open_job
from memory.store.note_ops import TRASH_DAYS, TranscriptVersion, VersionSegment
from memory.store.projects import get_project
from memory.store.recordings import Recording
from models.errors import InputError, NotFoundError, VerbatimError

log = logging.getLogger(__name__)

__all__ = [
    "TRASH_DAYS",
    "TranscriptVersion",
    "TrashedNote",
    "VersionSegment",
    "delete_recording",
    "empty_trash",
    "list_trash",
    "move_recording",
    "open_transcription",
    "purge_expired",
    "queue_consolidation",
    "restore_recording",
    "restore_transcript",
    "retranscribe",
    "retranscription_stopped",
    "transcript_versions",
    "transcription_cancelled_before_start",
    "transcription_requeued",
    "transcription_vocabulary",
    "version_segments",
]


@dataclass(frozen=True)
class TrashedNote:
    recording: Recording
    trashed_at: str
    purge_on: str  # the day it is deleted for good (ISO date)

    def to_json(self) -> dict[str, object]:
        return {**self.recording.to_json(), "purge_on": self.purge_on}


def _purge_day(trashed_at: str) -> str:
    return (parse_time(trashed_at) + timedelta(days=TRASH_DAYS)).date().isoformat()


def _fact_projects(library: Library, recording_id: int) -> set[int]:
    from memory.consolidate import fact_store, state

    store = library.store
    return state.fact_projects(store, recording_id) | fact_store.subject_projects(store, recording_id)


def _revalidate(library: Library, project_ids: set[int]) -> None:
    """Facts another note's facts had superseded are current again once that note is gone."""
    if not project_ids:
        return
    from app.consolidation.stages import revalidate

    try:
        revalidate(library, project_ids)
    except VerbatimError as exc:  # the next consolidation in those projects resolves them too
        log.warning("facts of projects %s not resolved again yet: %s", sorted(project_ids), exc.message)


def queue_consolidation(library: Library, recording_id: int) -> None:
    """Queue the note's consolidation from its first stage (the existing job; the app's job worker
    also queues it by itself once a re-transcribed note is indexed)."""
    from app.consolidation.service import KIND
    from app.jobs.queue import enqueue
    from memory.consolidate import state

    store = library.store
    state.reset(store, recording_id)
    if index.recording_chunks(store, recording_id) and open_job(store, KIND, recording_id) is None:
        enqueue(
            library,
            KIND,
            recording_id=recording_id,
            payload={"fingerprint": state.fingerprint(store, recording_id)},
        )


def _reindex(library: Library, recording_id: int, *, final: bool = True) -> None:
    from app.ingest.indexing import index_recording

    try:
        index_recording(library, recording_id, final=final)
    except VerbatimError as exc:  # start-up indexing (and `verbatim index`) catches up
        log.warning("recording %s not indexed yet: %s", recording_id, exc.message)


# --- the trash ----------------------------------------------------------------------------------------
def delete_recording(library: Library, recording_id: int) -> Recording:
    """Put a note in the trash (restorable for TRASH_DAYS days). Returns it as trashed. Its
    transcription or re-transcription, queued or under way, waits in the queue for the note's
    restore (one under way pauses where it is); its other jobs stop (restore queues them again)."""
    from app.ingest.transcription import KIND as TRANSCRIBE

    projects = _fact_projects(library, recording_id)
    rec = note_ops.trash(library.store, recording_id, waiting=(TRANSCRIBE,))
    _revalidate(library, projects)
    return rec


def restore_recording(library: Library, recording_id: int) -> Recording:
    """Take a note out of the trash. A transcription that waited for it runs again from where it
    stopped (its passages so far searchable at once); a re-transcription cancelled while the note
    was in the trash falls back now; otherwise its index is rebuilt here, its consolidation is
    queued, and an unfinished transcription is queued again (it resumes where it stopped)."""
    from app.ingest.transcription import KIND as TRANSCRIBE
    from app.jobs.queue import enqueue

    store = library.store
    rec = note_ops.untrash(store, recording_id)
    waited = open_job(store, TRANSCRIBE, recording_id)
    if waited is not None:  # it goes on: it indexes the note when it ends, and consolidation follows
        _reindex(library, recording_id, final=False)
        if waited.status == JobStatus.QUEUED:  # (one restored before it paused itself is still running)
            store_recordings.set_status(store, recording_id, "queued", message="restored from the trash")
        return store_recordings.get_recording(store, recording_id)
    stopped = _stopped_in_trash(library, rec)
    if stopped is not None and _fall_back(library, stopped):
        return store_recordings.get_recording(store, recording_id)
    if rec.segments:
        _reindex(library, recording_id)
        queue_consolidation(library, recording_id)
    if rec.audio_path and rec.status not in ("indexed", "consolidated"):
        enqueue(library, TRANSCRIBE, recording_id=recording_id)
        store_recordings.set_status(store, recording_id, "queued", message="restored from the trash")
    return store_recordings.get_recording(store, recording_id)


def _stopped_in_trash(library: Library, rec: Recording) -> Job | None:
    """The re-transcription of a note that ended (cancelled, failed) while the note was in the trash,
    without falling back then: the transcript it replaces is still current."""
    from app.ingest.transcription import KIND as TRANSCRIBE

    ended = list_jobs(library.store, statuses=(JobStatus.FAILED, JobStatus.CANCELLED), recording_id=rec.id)
    for job in ended:  # newest first
        if job.kind == TRANSCRIBE and "earlier_version" in job.payload:
            return job if job.payload.get("version") == rec.transcript_version else None
    return None


def open_transcription(library: Library, recording_id: int) -> int | None:
    """The id of the note's transcription job that is queued or running (in the trash: waiting)."""
    from app.ingest.transcription import KIND as TRANSCRIBE

    job = open_job(library.store, TRANSCRIBE, recording_id)
    return job.id if job is not None else None


def list_trash(library: Library) -> list[TrashedNote]:
    return [
        TrashedNote(r, r.trashed_at or "", _purge_day(r.trashed_at or to_store_time(datetime.now())))
        for r in note_ops.trashed(library.store)
    ]


def _embedded_hashes(library: Library, recording_id: int) -> set[str]:
    """Content hashes of everything the note's words were embedded as (chunks and lines)."""
    segments = store_recordings.list_segments(library.store, recording_id)
    shas = {spec.content_sha256 for spec in chunk_segments(segments, final=True)}
    return shas | {content_hash(chunk_text([s])) for s in segments}


def _quoted_sentences(library: Library, recording_id: int) -> list[str]:
    """The note's sentences as a model could have been shown them (raw or edited, every transcript
    kept), to find the model calls logged before calls were linked to the notes they quoted."""
    from memory.text.doc import split_sentences

    texts = [
        t for s in store_recordings.list_segments(library.store, recording_id) for t in (s.raw_text, s.text)
    ]
    for version in note_ops.transcript_versions(library.store, recording_id):
        lines = note_ops.version_segments(library.store, recording_id, version.version)
        texts += [t for line in lines for t in (line.raw_text, line.text)]
    return sorted({sentence for text in set(texts) for sentence in split_sentences(text)})


def _purge(library: Library, recording_id: int) -> None:
    shas = _embedded_hashes(library, recording_id)
    audio = note_ops.purge(library.store, recording_id, quoted=_quoted_sentences(library, recording_id))
    index.forget_vectors(library.store, shas)
    if audio:
        path = (library.data_dir.root / audio).resolve()
        if path.is_relative_to(library.data_dir.root.resolve()):
            path.unlink(missing_ok=True)
    log.info("recording %s deleted for good", recording_id)


def empty_trash(library: Library, recording_ids: list[int] | None = None) -> list[int]:
    """Delete notes in the trash for good (all of them, or those given). Returns their ids."""
    trashed = [int(r.id) for r in note_ops.trashed(library.store)]
    chosen = trashed if recording_ids is None else [int(r) for r in recording_ids]
    for rid in chosen:
        if rid not in trashed:
            raise InputError(f"recording {rid} is not in the trash", fix="see 'verbatim trash list'")
    for rid in chosen:
        _purge(library, rid)
    return chosen


def purge_expired(library: Library, now: datetime | None = None) -> list[int]:
    """Delete for good the notes that have been in the trash for TRASH_DAYS days."""
    cutoff = to_store_time((now or datetime.now()) - timedelta(days=TRASH_DAYS))
    expired = note_ops.trashed_before(library.store, cutoff)
    for rid in expired:
        _purge(library, rid)
    return expired


# --- moving ---------------------------------------------------------------------------------------------
def move_recording(library: Library, recording_id: int, project: str) -> Recording:
    """File a note under another project (a name or slug)."""
    store = library.store
    target = get_project(store, project)
    projects = _fact_projects(library, recording_id)
    with store.transaction():  # the note, its chunks and their vectors move together
        left = note_ops.move(store, recording_id, target.id)
        if left == target.id:
            return store_recordings.get_recording(store, recording_id)
        index.unfile_vectors(store, recording_id)
    _reindex(library, recording_id)  # the vectors, filed under the new project from the cache
    _revalidate(library, projects | {left})
    queue_consolidation(library, recording_id)
    return store_recordings.get_recording(store, recording_id)


# --- transcripts ----------------------------------------------------------------------------------------
def retranscribe(library: Library, recording_id: int, *, model: str | None = None) -> int:
    """Queue a new transcription of a note (`model`: a name or folder, None: the project's or the
    default), with the project's vocabulary as it is now. The current transcript is kept as an
    earlier version. Returns the job's id."""
    from app.ingest.transcription import KIND, resolve_model
    from app.jobs.queue import enqueue

    store = library.store
    rec = store_recordings.get_recording(store, recording_id)
    if not rec.audio_path:
        raise InputError(f"recording {recording_id} was imported as text: there is no audio to transcribe")
    if not (library.data_dir.root / rec.audio_path).is_file():
        raise InputError(
            f"the audio of recording {recording_id} is missing ({rec.audio_path})",
            fix="restore the data folder from a backup",
        )
    if rec.status in ("recording", "transcribing") or open_job(store, KIND, recording_id) is not None:
        raise InputError(
            f"recording {recording_id} is being transcribed already", fix="wait for it, or cancel its job"
        )
    if model:
        resolve_model(library, model)  # an unknown model is refused before anything changes
    with store.transaction():  # never a note waiting for a transcription no job will make
        new = note_ops.start_new_transcript(store, recording_id, model=model or None)
        payload: dict[str, object] = {"model": model} if model else {}
        if rec.segments:  # the transcript kept, to fall back on if the new one does not complete
            payload |= {"earlier_version": rec.transcript_version, "version": new}
        return enqueue(library, KIND, recording_id=recording_id, payload=payload or None)


# --- a re-transcription that does not complete ------------------------------------------------------------
def _replaced_version(library: Library, job: Job) -> tuple[Recording, int] | None:
    """The note of a re-transcription job and the version it replaced, when that version is still
    kept and the note is not in the trash (one that ended while the note was in the trash falls
    back when the note is restored)."""
    earlier = job.payload.get("earlier_version")
    if job.recording_id is None or not isinstance(earlier, int):
        return None
    try:
        rec = store_recordings.get_recording(library.store, job.recording_id)
    except NotFoundError:  # deleted for good meanwhile
        return None
    if rec.trashed_at is not None or not note_ops.has_version(library.store, rec.id, earlier):
        return None
    return rec, earlier


def _fall_back(library: Library, job: Job) -> bool:
    """Make the transcript a re-transcription replaced current again; the new lines are kept as an
    earlier version. Returns whether the job was such a re-transcription."""
    found = _replaced_version(library, job)
    if found is None:
        return False
    rec, earlier = found
    store = library.store
    why = "failed" if job.status == JobStatus.FAILED else "cancelled"
    projects = _fact_projects(library, rec.id)
    kept = note_ops.restore_version(
        store, rec.id, earlier, reason=f"re-transcription {why} at {rec.progress:.0%}: the lines it had made"
    )
    _reindex(library, rec.id)
    _revalidate(library, projects)
    queue_consolidation(library, rec.id)
    message = f"re-transcription {why}; transcript {earlier} is current again"
    if kept is not None:
        message += f" (the {rec.segments} new lines are kept as version {kept})"
    store_recordings.set_status(store, rec.id, "indexed", message=message)
    log.info("recording %s: %s", rec.id, message)
    return True


def retranscription_stopped(library: Library, job: Job) -> None:
    """A transcription job ended failed or cancelled while it ran: a re-transcription falls back to
    the transcript it was to replace (a first transcription stays failed with what it made)."""
    _fall_back(library, job)


def transcription_cancelled_before_start(library: Library, job: Job) -> None:
    """A queued transcription cancelled: a re-transcription falls back; a first one is failed."""
    from app.ingest.transcription import cancelled_before_start

    if not _fall_back(library, job):
        cancelled_before_start(library, job)


def transcription_requeued(library: Library, job: Job) -> None:
    """A failed or cancelled transcription retried. A re-transcription that fell back keeps the
    earlier transcript again and resumes from the lines it had made (or starts afresh)."""
    from app.ingest.transcription import requeued

    earlier, version = job.payload.get("earlier_version"), job.payload.get("version")
    if job.recording_id is not None and isinstance(earlier, int):
        store = library.store
        rec = store_recordings.get_recording(store, job.recording_id)
        if rec.trashed_at is None and rec.transcript_version == earlier:  # it fell back
            if isinstance(version, int) and note_ops.has_version(store, rec.id, version):
                reason = "replaced again: re-transcription retried"
                note_ops.restore_version(store, rec.id, version, reason=reason)
            else:
                model = job.payload.get("model")
                note_ops.start_new_transcript(store, rec.id, model=str(model) if model else None)
    requeued(library, job)


def transcription_vocabulary(library: Library, recording_id: int) -> list[str]:
    """The terms a re-transcription of the note is given now: the project's own vocabulary, its name
    and the names its notes say (app.ingest.vocabulary)."""
    from app.ingest.vocabulary import project_vocabulary

    rec = store_recordings.get_recording(library.store, recording_id)
    return project_vocabulary(library.store, rec.project_id)


def transcript_versions(library: Library, recording_id: int) -> list[TranscriptVersion]:
    store_recordings.get_recording(library.store, recording_id)
    return note_ops.transcript_versions(library.store, recording_id)


def version_segments(library: Library, recording_id: int, version: int) -> list[VersionSegment]:
    return note_ops.version_segments(library.store, recording_id, version)


def restore_transcript(library: Library, recording_id: int, version: int) -> Recording:
    """Make an earlier transcript current again (the current one is kept as an earlier version);
    the note is indexed again here and its consolidation queued."""
    from app.ingest.transcription import KIND

    store = library.store
    if open_job(store, KIND, recording_id) is not None:
        raise InputError(
            f"recording {recording_id} is being transcribed", fix="wait for it, or cancel its job first"
        )
    projects = _fact_projects(library, recording_id)
    note_ops.restore_version(store, recording_id, version)
    _reindex(library, recording_id)
    _revalidate(library, projects)
    queue_consolidation(library, recording_id)
    return store_recordings.get_recording(store, recording_id)


def note_history(library: Library, recording_id: int) -> list[dict[str, object]]:
    store_recordings.get_recording(library.store, recording_id)
    return note_ops.history(library.store, recording_id)
