"""How the window keeps consolidation visible: the digest follows the chosen project, the
connections page and the commitments page have their sidebar badges, and every consolidation view
redraws when a verdict or an assignment is stored or a background consolidation job finishes (the
job worker runs them: app.jobs.queue feeders queue one after each note is stored; the jobs line
shows each with its stage).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from app import recording_service
from app.jobs.queue import JobEvent
from ui.operations import Change

if TYPE_CHECKING:
    from ui.shell import Shell

REFRESHING_KINDS = ("consolidate",)  # jobs whose end changes facts, digest or connections


class ConsolidationLinks(QObject):
    def __init__(self, window: Shell) -> None:
        super().__init__(window)
        self.window = window
        page = window.connections_page
        page.open_requested.connect(window.open_recording)
        page.back_requested.connect(window.show_timeline)
        page.count_changed.connect(window.sidebar.set_new_connections)
        page.message.connect(window.show_status)
        window.timeline.digest.open_requested.connect(window.open_recording)
        window.recording_view.open_requested.connect(window.open_recording)
        window.sidebar.connections_requested.connect(self.show_connections)
        window.sidebar.project_selected.connect(window.timeline.digest.show_project)
        window.actions_by_name["connections"].triggered.connect(self.show_connections)
        commitments = window.commitments_page
        commitments.open_requested.connect(window.open_recording)
        commitments.back_requested.connect(window.show_timeline)
        commitments.count_changed.connect(window.sidebar.set_overdue_commitments)
        window.sidebar.commitments_requested.connect(self.show_commitments)
        window.actions_by_name["commitments"].triggered.connect(self.show_commitments)
        window.ops.changed.connect(self.on_ops_changed)
        window.jobs_panel.events.arrived.connect(self.on_job_event)
        page.reload()  # the badges' counts, at start
        commitments.reload()

    def show_connections(self) -> None:
        self.window.recording_view.player.stop()
        self.window.stack.setCurrentWidget(self.window.connections_page)
        self.window.connections_page.reload()
        self.window.connections_page.area.setFocus()

    def show_commitments(self) -> None:
        self.window.recording_view.player.stop()
        self.window.stack.setCurrentWidget(self.window.commitments_page)
        self.window.commitments_page.reload()
        self.window.commitments_page.area.setFocus()

    def refresh(self) -> None:
        self.window.connections_page.reload()
        self.window.commitments_page.reload()
        self.window.timeline.digest.reload()
        self.window.recording_view.side.reload()

    def on_ops_changed(self, changes: frozenset[Change]) -> None:
        if changes & {Change.CONNECTIONS, Change.CONSOLIDATION}:
            self.refresh()

    def on_job_event(self, event: JobEvent) -> None:
        if event.kind not in REFRESHING_KINDS or event.status in ("queued", "running"):
            return
        self.refresh()
        if event.recording_id is not None:  # its status on the timeline ("Ready" once consolidated)
            ids = [event.recording_id]
            self.window.ops.query(
                lambda: recording_service.get_recordings(self.window.library, ids),
                finished=self.window.timeline_model.update_recordings,
                label="recording status",
            )
