"""The main window: sidebar of projects, the timeline / recording / search pages, notices and jobs.

The window only assembles views and routes between them; each view talks to the app services
through the operations helper. Start-up shows the window first and loads everything after, so it
is interactive at once whatever the size of the library.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app import projects as project_service
from app import recordings as recording_service
from app.library import Library
from app.projects import Project
from app.readiness import Readiness, check_readiness
from app.recordings import Recording
from ui.errors import describe
from ui.notices import NoticeBar
from ui.operations import Operations, Progress
from ui.recording_view import RecordingView
from ui.search_page import SearchPage
from ui.settings_dialog import SettingsDialog
from ui.sidebar import ALL_PROJECTS, ProjectSidebar
from ui.theme import heading_font
from ui.timeline_model import TimelineModel
from ui.timeline_view import TimelineView
from ui.welcome import WelcomePage

log = logging.getLogger(__name__)

STATUS_POLL_MS = 2000  # progress of recordings being transcribed
CHANGES_POLL_MS = 5000  # notes added by the CLI, a watched folder or another window


class TimelinePage(QWidget):
    def __init__(self, model: TimelineModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel(ALL_PROJECTS)
        self.heading.setFont(heading_font(self.font(), scale=1.35))
        self.heading.setAccessibleName("Timeline of")
        self.summary = QLabel()
        self.summary.setAccessibleName("Timeline summary")
        self.view = TimelineView()
        self.view.setModel(model)
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.summary)
        layout.addWidget(self.empty)
        layout.addWidget(self.view, 1)


class MainWindow(QMainWindow):
    def __init__(self, library: Library, *, check_start: bool = True) -> None:
        super().__init__()
        self.library = library
        self.readiness: Readiness | None = None
        self.setWindowTitle("Verbatim")
        self.resize(1280, 800)
        self.ops = Operations(self.show_error, self)
        self.ops.changed.connect(self.on_ops_changed)
        self.notices = NoticeBar()
        self.sidebar = ProjectSidebar(self.ops, library)
        self.projects = self.sidebar.projects  # the list widget, for tests and shortcuts
        self.sidebar.project_selected.connect(self.on_sidebar_project_selected)
        self.sidebar.projects_loaded.connect(self.on_sidebar_projects_loaded)
        self.timeline_model = TimelineModel(self.ops, library, self)
        self.timeline_model.loaded.connect(self.on_timeline_loaded)
        self.timeline = TimelinePage(self.timeline_model)
        self.timeline.view.recording_activated.connect(self.on_timeline_recording_activated)
        self.recording_view = RecordingView(self.ops, library)
        self.recording_view.back_requested.connect(self.show_timeline)
        self.recording_view.message.connect(self.show_status)
        self.search_page = SearchPage(self.ops, library)
        self.search_page.open_requested.connect(self.open_recording)
        self.search_page.back_requested.connect(self.show_timeline)
        self.welcome = WelcomePage()
        self.welcome.new_project_requested.connect(self.new_project)
        self.welcome.provision_requested.connect(self.provision_models)
        self.stack = QStackedWidget()
        for page in (self.welcome, self.timeline, self.recording_view, self.search_page):
            self.stack.addWidget(page)
        self.stack.setCurrentWidget(self.timeline)
        self.search_box = QLineEdit()
        self.right_panel: QWidget | None = None
        self._build_layout()
        self._build_actions()
        self._last_signature: tuple[object, ...] | None = None
        self.status_poll = QTimer(self)
        self.status_poll.setInterval(STATUS_POLL_MS)
        self.status_poll.timeout.connect(self.refresh_active_recordings)
        self.changes_poll = QTimer(self)
        self.changes_poll.setInterval(CHANGES_POLL_MS)
        self.changes_poll.timeout.connect(self.check_for_outside_changes)
        self.sidebar.refresh()
        self.timeline_model.show_project(None)
        if check_start:
            self.ops.query(
                lambda: check_readiness(library), finished=self.on_readiness_checked, label="first-run check"
            )
        self.check_for_outside_changes()  # the baseline later polls compare with
        self.status_poll.start()
        self.changes_poll.start()

    # --- layout ---------------------------------------------------------------------------------
    def _build_layout(self) -> None:
        self.toolbar = QToolBar("Main")
        self.toolbar.setObjectName("main-toolbar")
        self.toolbar.setMovable(False)
        self.addToolBar(self.toolbar)
        self.toolbar_left = QWidget()
        self.toolbar_left_layout = QHBoxLayout(self.toolbar_left)
        self.toolbar_left_layout.setContentsMargins(4, 2, 4, 2)
        self.toolbar.addWidget(self.toolbar_left)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.toolbar.addWidget(spacer)
        self.search_box.setPlaceholderText("Search your notes (Ctrl+F)")
        self.search_box.setAccessibleName("Search your notes")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.setMinimumWidth(280)
        self.search_box.returnPressed.connect(self.on_search_box_return_pressed)
        self.toolbar.addWidget(self.search_box)
        self.settings_action = QAction("Settings", self)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.settings_action.setToolTip("Settings (Ctrl+,)")
        self.settings_action.triggered.connect(self.open_settings)
        self.toolbar.addAction(self.settings_action)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.addWidget(self.notices)
        self.splitter = QSplitter()
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(self.stack)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([240, 1040])
        self.splitter.setChildrenCollapsible(False)
        centre_layout.addWidget(self.splitter, 1)
        self.setCentralWidget(centre)
        self.setStatusBar(QStatusBar())
        self.status_label = QLabel("")
        self.status_label.setAccessibleName("Status")
        self.statusBar().addWidget(self.status_label, 1)

    def add_right_panel(self, panel: QWidget, *, width: int = 420) -> None:
        """The ask panel's place, right of the pages."""
        self.right_panel = panel
        self.splitter.addWidget(panel)
        self.splitter.setStretchFactor(2, 0)
        sizes = self.splitter.sizes()
        self.splitter.setSizes([sizes[0], max(400, sum(sizes[1:]) - width), width])

    def _build_actions(self) -> None:
        shortcuts = [
            ("Search", "Ctrl+F", self.focus_search),
            ("Projects", "Ctrl+1", lambda: self.projects.setFocus()),
            ("Timeline", "Ctrl+2", self.show_timeline),
        ]
        for label, keys, slot in shortcuts:
            action = QAction(label, self)
            action.setShortcut(QKeySequence(keys))
            action.triggered.connect(slot)
            self.addAction(action)

    # --- status and errors -------------------------------------------------------------------------
    def show_error(self, exc: BaseException) -> None:
        message = describe(exc, log_path=str(self.library.data_dir.logs_dir / "verbatim.log"))
        if message.severity == "info":
            self.show_status(message.text)
            return
        self.notices.show_notice(
            f"error:{message.text}", message.text, severity=message.severity, fix=message.fix
        )

    def show_status(self, text: str) -> None:
        self.status_label.setText(text)

    # --- start-up -------------------------------------------------------------------------------------
    def on_readiness_checked(self, readiness: Readiness) -> None:
        self.readiness = readiness
        self.welcome.show_readiness(readiness)
        if readiness.first_run and self.stack.currentWidget() is self.timeline:
            self.stack.setCurrentWidget(self.welcome)
        if readiness.missing_models:
            self.notices.show_notice(
                "models",
                "The models are not set up yet, so new notes cannot be transcribed and answers quote "
                "passages without a language model.",
                severity="warning",
                fix="click Set up models (no network needed), or run 'verbatim models provision'",
                action=("Set up models", self.provision_models),
            )
        if not readiness.can_record:
            self.notices.show_notice(
                "microphone",
                readiness.microphone_problem or "No microphone found: recording is off.",
                severity="warning",
                fix=readiness.microphone_fix,
            )

    def provision_models(self) -> None:
        from app.model_status import provision

        self.notices.dismiss("models")
        self.show_status("Setting up the models…")

        def run(progress: Progress) -> list[str]:
            return provision(self.library, lambda message: progress(None, message))

        def done(_written: object) -> None:
            self.show_status("The models are ready.")
            self.ops.query(lambda: check_readiness(self.library), finished=self.on_readiness_checked)

        self.ops.task(
            run, label="Setting up models", finished=done, progress=lambda _f, m: self.show_status(m)
        )

    # --- projects and timeline ---------------------------------------------------------------------------
    def current_project(self) -> str | None:
        return self.sidebar.current_project()

    def new_project(self) -> None:
        self.stack.setCurrentWidget(self.timeline)
        self.sidebar.start_new_project()

    def on_sidebar_projects_loaded(self, projects: list[Project]) -> None:
        if projects and self.stack.currentWidget() is self.welcome:
            self.stack.setCurrentWidget(self.timeline)

    def on_sidebar_project_selected(self, project: str | None) -> None:
        if self.timeline_model.project != project or not self.timeline_model.rows:
            self.timeline_model.show_project(project)
        self.timeline.heading.setText(project or ALL_PROJECTS)
        if self.stack.currentWidget() is not self.welcome:
            self.show_timeline()

    def show_timeline(self) -> None:
        self.recording_view.player.stop()
        self.stack.setCurrentWidget(self.timeline)
        self.timeline.view.setFocus()

    def on_timeline_loaded(self) -> None:
        model = self.timeline_model
        count = sum(1 for r in model.rows if r.recording is not None)
        empty = count == 0 and model.exhausted
        where = model.project or "any project"
        self.timeline.empty.setText(
            f"No notes in {where} yet. Press Ctrl+Shift+R to record, or drop audio or transcript files "
            "onto this window."
        )
        self.timeline.empty.setVisible(empty)
        self.timeline.view.setVisible(not empty)
        more = "" if model.exhausted else "+"
        self.timeline.summary.setText(f"{count:,}{more} notes, newest first" if count else "")
        if not self.timeline.view.currentIndex().isValid():
            self.timeline.view.select_first_recording()

    def on_timeline_recording_activated(self, recording: Recording) -> None:
        self.open_recording(recording.id, None)

    def open_recording(self, recording_id: int, at: float | None = None) -> None:
        self.stack.setCurrentWidget(self.recording_view)
        self.recording_view.open_recording(recording_id, at=at)

    # --- keeping views fresh ---------------------------------------------------------------------------
    def on_ops_changed(self, changes: frozenset[str]) -> None:
        if changes & {"projects", "recordings"}:
            self.sidebar.refresh()
        if changes & {"recordings"}:
            self.timeline_model.reload()
        if changes & {"projects"} and self.timeline_model.project is not None:
            # a rename: the selection follows the new name and reloads the timeline
            pass

    def refresh_active_recordings(self) -> None:
        ids = self.timeline_model.active_ids()
        if not ids or not self.isVisible():
            return
        self.ops.query(
            lambda: recording_service.get_recordings(self.library, ids),
            finished=self.timeline_model.update_recordings,
            label="recording status",
        )

    def check_for_outside_changes(self) -> None:
        if self._last_signature is not None and not self.isVisible():
            return

        def signature() -> tuple[object, ...]:
            found = project_service.list_projects(self.library, include_archived=True)
            return tuple((p.id, p.name, p.recordings, p.last_spoken_at, p.archived_at) for p in found)

        def compare(current: tuple[object, ...]) -> None:
            if self._last_signature is not None and current != self._last_signature:
                self.sidebar.refresh()
                self.timeline_model.reload()
            self._last_signature = current

        self.ops.query(signature, finished=compare, label="check for changes")

    # --- search -----------------------------------------------------------------------------------------
    def focus_search(self) -> None:
        self.search_box.setFocus()
        self.search_box.selectAll()

    def on_search_box_return_pressed(self) -> None:
        query = self.search_box.text().strip()
        if not query:
            return
        self.stack.setCurrentWidget(self.search_page)
        self.search_page.search(query, project=self.current_project())

    # --- settings ---------------------------------------------------------------------------------------
    def open_settings(self) -> None:
        dialog = SettingsDialog(
            self.ops,
            self.library,
            self.sidebar.loaded_projects(),
            self,
            current_project=self.current_project(),
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.settings_dialog = dialog

    # --- closing -------------------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        self.status_poll.stop()
        self.changes_poll.stop()
        self.recording_view.player.stop()
        if not self.ops.shutdown(5000):
            log.warning("some background work was still running at exit")
        event.accept()
