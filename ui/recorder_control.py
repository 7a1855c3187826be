"""Recording from the window: one controller shared by the big button, Ctrl+Shift+R and the tray.

Starting and stopping go through the operations helper (opening a sound device and encoding the
audio are not main-thread work); while recording, a fast timer reads the session's level and
elapsed time, a slower one its live provisional transcript. The session itself records on its own
threads: the window only looks at it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from app.library import Library
from ui.operations import Change, Operations

if TYPE_CHECKING:  # imported at the first recording: it brings in the audio stack
    from app.ingest.recording_session import RecorderService, RecordingSession

log = logging.getLogger(__name__)

METER_MS = 100
LIVE_MS = 500


class RecorderControl(QObject):
    state_changed = Signal(str)  # "idle" | "starting" | "recording" | "stopping"
    ticked = Signal(float, float, bool)  # level 0..1, elapsed seconds, paused
    live_text_changed = Signal(str)
    problem_found = Signal(str)
    started = Signal(int, str)  # recording id, project
    stopped = Signal(int)  # recording id, saved and queued for transcription

    def __init__(self, ops: Operations, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self._service: RecorderService | None = None
        self.session: RecordingSession | None = None
        self.project: str | None = None
        self.state = "idle"
        self._live_text = ""
        self._problem: str | None = None
        self.meter = QTimer(self)
        self.meter.setInterval(METER_MS)
        self.meter.timeout.connect(self.on_meter_timeout)
        self.live = QTimer(self)
        self.live.setInterval(LIVE_MS)
        self.live.timeout.connect(self.on_live_timeout)

    @property
    def service(self) -> RecorderService:
        if self._service is None:
            from app.ingest.recording_session import RecorderService

            self._service = RecorderService(self.library)
        return self._service

    def _set_state(self, state: str) -> None:
        self.state = state
        self.state_changed.emit(state)

    # --- control -----------------------------------------------------------------------------------
    def toggle(self, project: str | None) -> None:
        if self.state == "idle":
            self.start(project)
        elif self.state == "recording":
            self.stop()

    def start(self, project: str | None) -> None:
        if self.state != "idle":
            return
        if not project:
            self.problem_found.emit("Choose a project to record into first (or create one with Ctrl+N).")
            return
        self._set_state("starting")
        self.project = project
        self._live_text = ""
        self._problem = None
        self.ops.change(
            lambda: self.service.start(project),
            changes={Change.RECORDINGS},
            finished=self.on_session_started,
            failed=self.on_start_failed,
            label="start recording",
        )

    def on_session_started(self, session: RecordingSession) -> None:
        self.session = session
        self._set_state("recording")
        self.meter.start()
        self.live.start()
        self.started.emit(session.recording_id, self.project or "")

    def on_start_failed(self, exc: BaseException) -> None:
        self._set_state("idle")
        self.ops.report_error(exc)

    def pause_or_resume(self) -> None:
        if self.session is None or self.state != "recording":
            return
        if self.session.paused:
            self.session.resume()
        else:
            self.session.pause()
        self.on_meter_timeout()

    def stop(self) -> None:
        session = self.session
        if session is None or self.state != "recording":
            return
        self._set_state("stopping")
        self.meter.stop()
        self.live.stop()
        self.ops.change(
            session.stop,
            changes={Change.RECORDINGS},
            finished=self.on_session_stopped,
            failed=self.on_stop_failed,
            label="stop recording",
        )

    def on_session_stopped(self, recording_id: int) -> None:
        self.session = None
        self._set_state("idle")
        self.stopped.emit(recording_id)

    def on_stop_failed(self, exc: BaseException) -> None:
        self.session = None
        self._set_state("idle")
        self.ops.report_error(exc)

    # --- what the session shows ----------------------------------------------------------------------
    def on_meter_timeout(self) -> None:
        session = self.session
        if session is None:
            return
        self.ticked.emit(float(session.level), float(session.elapsed), bool(session.paused))
        problem = session.problem
        if problem and problem != self._problem:
            self._problem = problem
            self.problem_found.emit(problem)

    def on_live_timeout(self) -> None:
        session = self.session
        if session is None:
            return
        text = session.live_text()
        if text != self._live_text:
            self._live_text = text
            self.live_text_changed.emit(text)

    def shutdown(self) -> None:
        """Closing the window stops a recording properly (the audio is kept either way)."""
        self.meter.stop()
        self.live.stop()
        if self.session is not None and not self.session.stopped:
            try:
                self.session.stop()
            except Exception:  # the block file on disk is recovered at the next start
                log.exception("stopping the recording at exit failed; it will be recovered at next start")
