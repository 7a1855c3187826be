"""Transcribe a recording in a worker process, committing segments as they come.

The parent owns the store: segments arrive over a queue and are committed in small batches (one
transaction each), each followed by an incremental index pass, so a long note becomes searchable
while it is transcribed. A crashed worker is restarted from the end of the last committed segment;
a cancelled one is stopped. Progress is the end of the latest segment over the duration, with an
ETA from the speed so far.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.ingest.indexing import index_recording
from app.ingest.vocabulary import project_vocabulary
from app.jobs.queue import JobContext
from app.library import Library
from capture.audio import inspect_audio
from capture.transcriber import WINDOW, WorkerRequest
from capture.worker_pool import give_back, shutdown_workers, take_worker
from memory.store import live_transcript, note_ops, recordings
from memory.store.jobs import Job
from memory.store.projects import Project, get_project_by_id
from memory.store.recordings import SegmentIn
from models.catalogue import SHIPPED, Role
from models.errors import AudioError, CancelledError, InputError, ModelError, NotFoundError, VerbatimError

log = logging.getLogger(__name__)

__all__ = ["Progress", "TranscriptionReport", "resolve_model", "shutdown_workers", "transcribe_recording"]

KIND = "transcribe"
BATCH_SEGMENTS = 12
BATCH_SECONDS = 2.0  # a committed batch is at most this old: the transcript shows up as it is made
MAX_RESTARTS = 2  # worker crashes in a row, without progress, before the recording is marked failed
# A cancelled worker is thrown away: it gets this long to notice its cancel flag between two
# segments, then it is killed (a segment of a busy CPU can take seconds; Cancel must not).
CANCEL_GRACE_SECONDS = 0.3

Cancelled = Callable[[], bool]


@dataclass(frozen=True)
class Progress:
    recording_id: int
    fraction: float
    position: float
    duration: float
    eta_seconds: float | None
    segments: int


@dataclass
class TranscriptionReport:
    recording_id: int
    model: str = ""
    language: str | None = None
    duration: float = 0.0
    resumed_from: float = 0.0
    segments_added: int = 0
    seconds: float = 0.0
    worker_restarts: int = 0
    peak_rss_mb: float = 0.0
    worker_cpu_seconds: float = 0.0  # CPU time the worker spent on this recording (model load included)
    batches: int = 0
    stages: dict[str, float] = field(default_factory=dict)

    @property
    def speed(self) -> float:
        """Seconds of audio per second of work (8.0 = eight times faster than real time)."""
        return (self.duration - self.resumed_from) / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "speed": self.speed}


_NAMES = {"base": Role.TRANSCRIPTION, "tiny.en": Role.TRANSCRIPTION_FAST, "tiny": Role.TRANSCRIPTION_FAST}


def resolve_model(library: Library, name: str | None) -> Path:
    """A model name ("whisper-base", "base", "tiny.en"), a folder, or None for the library default."""
    if not name:
        return library.models.path_for(Role.TRANSCRIPTION)
    for role, shipped in SHIPPED.items():
        if name in (shipped.name, shipped.target, role.value) and role in (
            Role.TRANSCRIPTION,
            Role.TRANSCRIPTION_FAST,
        ):
            return library.models.path_for(role)
    if name in _NAMES:
        return library.models.path_for(_NAMES[name])
    path = Path(name).expanduser()
    if (path / "model.bin").is_file():
        return path.resolve()
    raise ModelError(
        f"no transcription model {name!r}",
        fix="use base, tiny.en, or a CTranslate2 Whisper folder (see 'verbatim models')",
    )


def _audio_file(library: Library, rec: recordings.Recording) -> Path:
    if not rec.audio_path:
        raise InputError(f"recording {rec.id} has no audio to transcribe (it was imported as text)")
    path = library.data_dir.root / rec.audio_path
    if not path.is_file():
        raise AudioError(
            f"the audio of recording {rec.id} is missing ({rec.audio_path})",
            fix="restore the data folder from a backup",
        )
    return path


class _Session:
    """The parent side of one recording's transcription: batching, progress, committing."""

    def __init__(
        self,
        library: Library,
        rec: recordings.Recording,
        duration: float,
        on_progress: Callable[[Progress], None] | None,
        report: TranscriptionReport,
    ) -> None:
        self.library = library
        self.rec = rec
        self.duration = max(duration, 0.001)
        self.on_progress = on_progress
        self.report = report
        self.pending: list[SegmentIn] = []
        self.committed_end = recordings.last_segment_end(library.store, rec.id)
        self.position = self.committed_end
        self.last_commit = time.monotonic()
        self.began = time.monotonic()
        self.submitted = self.began  # when the current request went to the worker
        self.began_at = self.committed_end
        self.segments = 0
        self.model_name = ""

    def add(self, seg: dict[str, Any]) -> None:
        if seg["start"] < self.committed_end - 0.05 or not seg["text"].strip():
            return  # already committed (or nothing said): never a duplicate
        self.pending.append(
            SegmentIn(
                start=seg["start"],
                end=seg["end"],
                text=seg["text"],
                words=seg["words"] or None,
                model=self.model_name,
                confidence=seg["confidence"],
            )
        )
        self.advance(seg["end"])
        if len(self.pending) >= BATCH_SEGMENTS or time.monotonic() - self.last_commit >= BATCH_SECONDS:
            self.commit()

    def advance(self, position: float) -> None:
        self.position = max(self.position, min(position, self.duration))
        if self.on_progress is not None:
            self.on_progress(self._progress())

    def _progress(self) -> Progress:
        done = self.position - self.began_at
        elapsed = time.monotonic() - self.began
        eta = (self.duration - self.position) * elapsed / done if done > 1.0 else None
        return Progress(
            self.rec.id,
            min(1.0, self.position / self.duration),
            self.position,
            self.duration,
            eta,
            self.segments,
        )

    def commit(self) -> None:
        self.last_commit = time.monotonic()
        if not self.pending:
            return
        store = self.library.store
        with store.transaction():
            recordings.append_segments(store, self.rec.id, self.pending)
            recordings.update_recording(store, self.rec.id, progress=min(1.0, self.position / self.duration))
        self.committed_end = max(s.end for s in self.pending)
        self.segments += len(self.pending)
        self.report.segments_added += len(self.pending)
        self.report.batches += 1
        self.pending = []
        began = time.perf_counter()
        try:
            index_recording(self.library, self.rec.id, final=False)
        except VerbatimError as exc:  # the final pass retries; the segments are safe
            log.warning("recording %s: incremental indexing failed: %s", self.rec.id, exc.message)
        self.report.stages["index"] = self.report.stages.get("index", 0.0) + time.perf_counter() - began


def _request(
    library: Library,
    rec: recordings.Recording,
    project: Project,
    audio: Path,
    start: float,
    window: float,
    model_path: Path | None,
) -> WorkerRequest:
    return WorkerRequest(
        audio_path=str(audio),
        model_path=str(model_path or resolve_model(library, project.transcription_model)),
        start=start,
        language=project.language or (rec.language if start > 0 else None),
        vocabulary=tuple(project_vocabulary(library.store, project.id)),
        window=window,
    )


def _handle(session: _Session, kind: str, value: Any) -> str | None:
    """Apply one message of the worker; returns "done" or "crashed" when the request is over."""
    if kind == "segment":
        session.add(value)
    elif kind == "position":
        session.advance(value)
    elif kind == "info":
        if not session.rec.language:
            recordings.update_recording(session.library.store, session.rec.id, language=value["language"])
        session.report.language = value["language"]
    elif kind == "started":
        session.model_name = session.report.model = value["model"]
        waited = time.monotonic() - session.submitted
        session.report.stages["worker_start"] = session.report.stages.get("worker_start", 0.0) + waited
    elif kind == "done":
        session.report.peak_rss_mb = max(session.report.peak_rss_mb, value["peak_rss_mb"])
        session.report.worker_cpu_seconds += value.get("cpu_seconds", 0.0)
        return "done"
    elif kind == "cancelled":
        raise CancelledError("transcription cancelled")
    elif kind == "error":
        error = {"AudioError": AudioError, "InputError": InputError}.get(value["type"], ModelError)
        raise error(value["message"], fix=value["fix"])
    elif kind == "exited":
        log.warning("transcription worker exited with code %s", value)
        return "crashed"
    return None


def _run_worker(session: _Session, request: WorkerRequest, cancelled: Cancelled) -> str:
    """One request to a worker: 'done', or 'crashed' (it died); raises on errors and cancellation."""
    worker = take_worker()
    session.submitted = time.monotonic()
    worker.submit(request)
    reusable = False
    stopping = False
    try:
        for kind, value in worker.events():
            if cancelled():
                stopping = True
                raise CancelledError("transcription cancelled")
            try:
                outcome = _handle(session, kind, value)
            except (AudioError, InputError, ModelError):
                reusable = True  # the worker reported the problem and waits for the next request
                raise
            if outcome is not None:
                reusable = outcome == "done"
                return outcome
            if time.monotonic() - session.last_commit >= BATCH_SECONDS:
                session.commit()
        return "crashed"
    finally:
        session.commit()  # whatever arrived is kept, whatever happens next
        if reusable:
            give_back(worker)
        elif stopping:
            worker.stop(grace=CANCEL_GRACE_SECONDS)
        else:
            worker.stop()


def transcribe_recording(
    library: Library,
    recording_id: int,
    *,
    on_progress: Callable[[Progress], None] | None = None,
    cancelled: Cancelled | None = None,
    window: float = WINDOW,
    model_path: Path | None = None,
    paused: Cancelled | None = None,
) -> TranscriptionReport:
    """Transcribe (or finish transcribing) one recording, then index it; its status ends "indexed".

    `paused()` tells a stop for the app closing from a user's cancel: asked after a cancellation, a
    True leaves the recording queued, to resume from its last committed segment at the next start.
    """
    store = library.store
    cancelled = cancelled or (lambda: False)
    rec = recordings.get_recording(store, recording_id)
    report = TranscriptionReport(recording_id)
    began = time.perf_counter()
    try:
        audio = _audio_file(library, rec)
        duration = rec.duration or inspect_audio(audio).duration
        project = get_project_by_id(store, rec.project_id)
        session = _Session(library, rec, duration, on_progress, report)
        report.duration, report.resumed_from = duration, session.committed_end
        recordings.set_status(
            store, rec.id, "transcribing", progress=session.committed_end / max(duration, 0.001)
        )
        crashes = 0
        while session.committed_end < duration - 0.5:
            before = session.committed_end
            request = _request(library, rec, project, audio, before, window, model_path)
            if _run_worker(session, request, cancelled) == "done":
                break
            crashes = 0 if session.committed_end > before else crashes + 1
            report.worker_restarts += 1
            if crashes > MAX_RESTARTS:
                raise ModelError(
                    "the transcription process stopped unexpectedly, again and again",
                    fix="see the log; try another transcription model",
                )
        _finish(library, rec, report, session)
    except CancelledError:
        percent = 100 * recordings.last_segment_end(store, recording_id) / max(report.duration, 0.001)
        if paused is not None and paused():
            recordings.set_status(
                store, recording_id, "queued", message=f"paused at {percent:.0f}%; resumes where it stopped"
            )
        else:
            recordings.set_status(
                store,
                recording_id,
                "failed",
                message=f"transcription cancelled at {percent:.0f}%; what was transcribed is kept",
            )
        raise
    except VerbatimError as exc:
        recordings.set_status(store, recording_id, "failed", message=str(exc))
        raise
    except KeyboardInterrupt:
        recordings.set_status(store, recording_id, "queued", message="interrupted; resumes where it stopped")
        raise
    report.seconds = time.perf_counter() - began
    return report


def _finish(
    library: Library, rec: recordings.Recording, report: TranscriptionReport, session: _Session
) -> None:
    store = library.store
    values: dict[str, Any] = {"duration": session.duration, "progress": 1.0}
    if session.model_name:
        values["model"] = session.model_name
    recordings.update_recording(store, rec.id, **values)
    began = time.perf_counter()
    index_recording(library, rec.id, final=True)  # sets the status to "indexed"
    live_transcript.clear_live_segments(store, rec.id)  # the final transcript replaces the provisional one
    report.stages["index"] = report.stages.get("index", 0.0) + time.perf_counter() - began
    if session.on_progress is not None:
        session.position = session.duration
        session.on_progress(session._progress())


def enqueue_transcription(library: Library, recording_id: int) -> int:
    from app.jobs.queue import enqueue

    return enqueue(library, KIND, recording_id=recording_id)


def run_job(library: Library, job: Job, context: JobContext) -> str:
    if job.recording_id is None:
        raise InputError(f"job {job.id} names no recording")

    def progress(p: Progress) -> None:
        context.report(p.fraction, p.eta_seconds)

    recording_id = job.recording_id

    def in_trash() -> bool:  # at each message of the worker (they come in bursts): one row read
        return note_ops.is_trashed(library.store, recording_id)

    model = job.payload.get("model")  # a re-transcription with another model (app.note_operations)
    try:
        report = transcribe_recording(
            library,
            recording_id,
            on_progress=progress,
            cancelled=lambda: context.cancelled() or in_trash(),
            paused=lambda: not context.user_cancelled,  # the app is closing, or the note went to the trash
            model_path=resolve_model(library, str(model)) if model else None,
        )
    except CancelledError:
        if not context.user_cancelled and note_ops.is_trashed(library.store, recording_id):
            raise CancelledError(note_ops.WAITS_IN_TRASH) from None  # paused: back in the queue, waiting
        raise
    return f"{report.segments_added} segments, {report.speed:.1f}x real time"


def cancelled_before_start(library: Library, job: Job) -> None:
    if job.recording_id is not None:
        with contextlib.suppress(NotFoundError):
            recordings.set_status(
                library.store, job.recording_id, "failed", message="transcription cancelled before it started"
            )


def requeued(library: Library, job: Job) -> None:
    if job.recording_id is not None:
        recordings.set_status(library.store, job.recording_id, "queued")
