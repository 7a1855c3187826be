"""Record from the microphone into a project, and recover recordings a crash interrupted.

`RecorderService(library).start(project)` creates the recording (status "recording") and streams
the microphone to recording/<id>.pcm (crash-safe, see capture/blockfile.py), with a live
provisional transcript from the fast model. `stop()` turns the audio into FLAC in the library,
makes the live transcript searchable at once and queues the final transcription.
`recover_interrupted(library)`, run at start-up, does the same for recordings a crash or a kill -9
interrupted, marking them recovered.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from app.ingest.indexing import index_recording
from app.jobs.queue import enqueue
from app.library import Library
from capture.audio import FlacWriter
from capture.blockfile import BlockWriter, Leftover, interrupted, read_leftover
from capture.files import place, remove_stale_temporaries, sha256_of, temporary_path
from capture.live_transcriber import LiveRequest, LiveSegment, LiveTranscriber
from capture.recorder import Capture, InputChoice, choose_input
from memory.store import live_transcript, projects, recordings
from memory.store.ids import JobId, RecordingId
from memory.store.live_transcript import LiveSegmentIn
from memory.store.store import now_iso
from models.catalogue import Role
from models.errors import AudioError, VerbatimError

log = logging.getLogger(__name__)

TRANSCRIBE = "transcribe"
OnLive = Callable[[list[LiveSegment], str], None]


def _to_flac(library: Library, leftover: Leftover) -> tuple[str, str, float]:
    """Encode the PCM on disk as FLAC in the library; returns (relative path, sha256, seconds)."""
    audio_dir = library.data_dir.audio_dir
    temporary = temporary_path(audio_dir, ".flac")
    try:
        with FlacWriter(temporary, leftover.sample_rate, leftover.channels) as flac:
            for block in leftover.blocks():
                flac.write(block)
        with temporary.open("rb+") as handle:
            os.fsync(handle.fileno())
        sha = sha256_of(temporary)
        return place(temporary, audio_dir, sha, ".flac"), sha, leftover.seconds
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def store_recorded_audio(library: Library, leftover: Leftover, *, recovered: bool) -> bool:
    """The finished audio becomes the recording's, queued for transcription. False if nothing was recorded."""
    store = library.store
    if leftover.frames == 0:
        recordings.discard_empty_recording(store, leftover.recording_id)
        leftover.remove()
        return False
    relative, sha, seconds = _to_flac(library, leftover)
    # Identical audio (two equal stretches of silence) shares the file; sha256 stays unique.
    sha_value = None if recordings.find_recording_by_sha256(store, sha) is not None else sha
    message = "recovered after an interruption: at most the last second may be missing" if recovered else None
    with store.transaction():
        recordings.update_recording(
            store,
            leftover.recording_id,
            audio_path=relative,
            content_sha256=sha_value,
            duration=seconds,
            status="queued",
            status_message=message,
            progress=0.0,
            recovered=int(recovered),
        )
        enqueue(library, TRANSCRIBE, recording_id=leftover.recording_id)
    leftover.remove()  # only now: the FLAC is safely in place and the store knows it
    if live_transcript.count_live_segments(store, leftover.recording_id):
        try:
            index_recording(library, leftover.recording_id, provisional=True)
        except VerbatimError as exc:
            log.warning("recording %s: provisional indexing failed: %s", leftover.recording_id, exc.message)
    return True


def _reason(exc: VerbatimError | OSError) -> str:
    if isinstance(exc, VerbatimError):
        return exc.message
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "the disk is full: the recording could not be saved into the library"
    return f"the recording could not be saved into the library: {exc.strerror or exc}"


class RecordingSession:
    """A recording in progress: level, elapsed time, pause, live text, stop."""

    def __init__(
        self,
        library: Library,
        recording_id: int,
        choice: InputChoice,
        capture: Capture,
        on_live: OnLive | None,
    ) -> None:
        self.library = library
        self.recording_id = recording_id
        self.choice = choice
        self._capture = capture
        self._on_live = on_live
        self._live: LiveTranscriber | None = None
        self._lock = threading.Lock()
        self._confirmed: list[str] = []
        self.stopped = False

    # --- what a UI shows ---------------------------------------------------------------------
    @property
    def level(self) -> float:
        return self._capture.level

    @property
    def elapsed(self) -> float:
        return self._capture.elapsed

    @property
    def paused(self) -> bool:
        return self._capture.paused

    @property
    def problem(self) -> str | None:
        """A problem the user must see (the microphone went quiet, the disk is full), else None."""
        return self._capture.problem

    @property
    def failed(self) -> bool:
        """The audio can no longer be saved (a full disk): stop; what was recorded is kept."""
        return self._capture.failed

    @property
    def device_name(self) -> str:
        return self.choice.name

    def live_text(self) -> str:
        """The provisional transcript so far: confirmed segments, then the tentative tail."""
        with self._lock:
            tentative = self._live.tentative if self._live is not None else ""
            return " ".join([*self._confirmed, tentative]).strip()

    @property
    def live_error(self) -> str | None:
        return self._live.error if self._live is not None else None

    # --- control -----------------------------------------------------------------------------
    def pause(self) -> None:
        self._capture.paused = True

    def resume(self) -> None:
        self._capture.paused = False

    def start_live(self, model_path: Path) -> None:
        request = LiveRequest(
            str(self._capture.writer.pcm_path), self.choice.sample_rate, str(model_path), os.getpid()
        )
        self._live = LiveTranscriber(request, self._store_live).start()

    def _store_live(self, segments: list[LiveSegment], tentative: str) -> None:
        if segments:
            live_transcript.append_live_segments(
                self.library.store, self.recording_id, [LiveSegmentIn(*s) for s in segments]
            )
            with self._lock:
                self._confirmed.extend(s[2] for s in segments)
        if self._on_live is not None:
            self._on_live(segments, tentative)

    def stop(self) -> int:
        """Stop recording, store the audio, queue the transcription. Returns the recording id."""
        if self.stopped:
            return self.recording_id
        self.stopped = True
        self._capture.stop()
        if self._live is not None:
            self._live.finish()
        leftover = read_leftover(self.library.data_dir.recordings_dir, self.recording_id)
        try:
            stored = leftover is not None and store_recorded_audio(self.library, leftover, recovered=False)
        except (VerbatimError, OSError) as exc:  # e.g. a full disk: the audio stays where it was recorded
            raise AudioError(
                f"{_reason(exc)}; the recording is kept in {self.library.data_dir.recordings_dir}"
                " and is saved into the library at the next start",
                fix=getattr(exc, "fix", None) or "free some disk space, then start Verbatim again",
            ) from exc
        if not stored:
            raise AudioError(
                "nothing was recorded: the microphone sent no audio",
                fix="check the input device and its level",
            )
        return self.recording_id


class RecorderService:
    """Starts recordings. One at a time is the normal case; nothing stops a second device."""

    def __init__(self, library: Library) -> None:
        self.library = library

    def start(
        self,
        project: str,
        *,
        device: int | str | None = None,
        live_transcript: bool | None = None,
        on_live: OnLive | None = None,
    ) -> RecordingSession:
        store = self.library.store
        target = projects.get_project(store, project)
        choice = choose_input(device if device is not None else self.library.settings.input_device)
        started = now_iso()
        recording_id = recordings.create_recording(
            store, project_id=target.id, spoken_at=started, source="microphone", status="recording"
        )
        try:
            writer = BlockWriter(
                self.library.data_dir.recordings_dir,
                recording_id,
                sample_rate=choice.sample_rate,
                started_at=started,
                device=choice.name,
                project_id=target.id,
            )
            capture = Capture(choice, writer)
            capture.start()
        except BaseException:
            leftover = read_leftover(self.library.data_dir.recordings_dir, recording_id)
            if leftover is not None:
                leftover.remove()
            recordings.discard_empty_recording(store, recording_id)
            raise
        session = RecordingSession(self.library, recording_id, choice, capture, on_live)
        wants_live = self.library.settings.live_transcript if live_transcript is None else live_transcript
        if wants_live:
            try:
                session.start_live(self.library.models.path_for(Role.TRANSCRIPTION_FAST))
            except (OSError, VerbatimError) as exc:  # recording goes on without live text
                log.warning("no live transcript: %s", exc)
        log.info("recording %s started on %s at %s Hz", recording_id, choice.name, choice.sample_rate)
        return session


def _with_row(library: Library, leftover: Leftover) -> Leftover | None:
    """The leftover, with its recording row; a row lost with a restored database is made again."""
    store = library.store
    try:
        rec = recordings.get_recording(store, leftover.recording_id)
    except VerbatimError:
        try:
            project = projects.get_project_by_id(store, leftover.project_id or 0)
        except VerbatimError:
            log.warning(
                "interrupted recording %s has no project any more; its files stay", leftover.recording_id
            )
            return None
        new_id = recordings.create_recording(
            store,
            project_id=project.id,
            spoken_at=leftover.started_at or now_iso(),
            source="microphone",
            status="recording",
        )
        return replace(leftover, recording_id=new_id)
    if rec.audio_path:  # stopped properly, but the files were not removed yet
        leftover.remove()
        return None
    return leftover


def recover_interrupted(library: Library) -> list[RecordingId]:
    """At start-up: interrupted recordings become audio in the library, marked recovered, queued."""
    store = library.store
    recovered: list[RecordingId] = []
    remove_stale_temporaries(library.data_dir.audio_dir)
    for found in interrupted(library.data_dir.recordings_dir):
        leftover = _with_row(library, found)
        if leftover is None:
            continue
        try:
            if store_recorded_audio(library, leftover, recovered=True):
                recovered.append(RecordingId(leftover.recording_id))
                log.info(
                    "recovered interrupted recording %s (%.0f s)", leftover.recording_id, leftover.seconds
                )
        except VerbatimError as exc:
            recordings.set_status(
                store,
                leftover.recording_id,
                "failed",
                message=f"could not recover the recording: {exc.message}",
            )
    _fail_recordings_without_audio(library)
    return recovered


def _fail_recordings_without_audio(library: Library) -> None:
    """Rows left "recording" with no audio on disk (interrupted before the first block was saved)."""
    store = library.store
    folder = library.data_dir.recordings_dir
    cutoff = (datetime.now() - timedelta(minutes=1)).isoformat(timespec="seconds")
    for rec in recordings.list_recordings(store, status="recording"):
        stale = rec.created_at < cutoff and not (folder / f"{rec.id}.pcm").exists()
        if stale and not recordings.discard_empty_recording(store, rec.id):
            recordings.set_status(
                store,
                rec.id,
                "failed",
                message="the recording was interrupted before any audio was saved",
            )


def recover_at_start(library: Library) -> tuple[list[RecordingId], list[JobId]]:
    """Everything a start-up owes a crash: interrupted recordings, then interrupted jobs.

    Returns (recovered recording ids, requeued job ids). The desktop app and the CLI commands
    that record, import or run jobs call this first.
    """
    from app.jobs.queue import recover_jobs

    recovered = recover_interrupted(library)
    requeued = [job.id for job in recover_jobs(library)]
    return recovered, requeued
