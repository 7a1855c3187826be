"""The main window's construction: which views exist, where they sit, which keys reach them.

Kept apart from the window's behaviour (ui/window.py) so each reads on its own. Keyboard first:
every view has a shortcut, and the tab order runs record controls → search → projects → the page
→ the ask panel.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.library import Library
from app.recording_service import RecordingId
from ui.background import Background
from ui.dialogs.importer import Importer
from ui.dialogs.library_copies import LibraryCopies
from ui.operations import Operations
from ui.pages.ask_panel import AskPanel
from ui.pages.commitments_page import CommitmentsPage
from ui.pages.connections_page import ConnectionsPage
from ui.pages.digest_view import DigestPanel
from ui.pages.recording_view import RecordingView
from ui.pages.search_page import SearchPage
from ui.pages.timeline_model import TimelineModel
from ui.pages.timeline_view import TimelineView
from ui.pages.welcome import WelcomePage
from ui.recorder_control import RecorderControl
from ui.theme import heading_font
from ui.widgets.icons import app_icon
from ui.widgets.jobs_panel import JobsPanel
from ui.widgets.notices import NoticeBar
from ui.widgets.record_bar import LivePanel, RecordBar, Tray
from ui.widgets.sidebar import ALL_PROJECTS, ProjectSidebar

SHORTCUTS = {
    "record": ("Record or stop", "Ctrl+Shift+R"),
    "pause": ("Pause or resume recording", "Ctrl+Shift+P"),
    "ask": ("Ask", "Ctrl+K"),
    "search": ("Search", "Ctrl+F"),
    "projects": ("Projects", "Ctrl+1"),
    "timeline": ("Timeline", "Ctrl+2"),
    "connections": ("Connections", "Ctrl+3"),
    "commitments": ("Commitments", "Ctrl+4"),
    "import": ("Import files…", "Ctrl+I"),
    "play": ("Play or pause", "Ctrl+Space"),
    "settings": ("Settings", "Ctrl+,"),
    "backup": ("Back up library…", "Ctrl+Shift+B"),
    "export": ("Export for Obsidian (Markdown)…", "Ctrl+Shift+E"),
    "export_json": ("Export as JSON…", ""),
}


class TimelinePage(QWidget):
    def __init__(self, model: TimelineModel, digest: DigestPanel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel(ALL_PROJECTS)
        self.heading.setFont(heading_font(self.font(), scale=1.35))
        self.heading.setAccessibleName("Timeline of")
        self.summary = QLabel()
        self.summary.setAccessibleName("Timeline summary")
        # a project's digest (decisions, commitments, open questions) above its notes; the user
        # sets the split, and "All projects" has no digest
        self.digest = digest
        self.digest.hide()
        self.view = TimelineView()
        self.view.setModel(model)
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.hide()
        notes = QWidget()
        notes_layout = QVBoxLayout(notes)
        notes_layout.setContentsMargins(0, 0, 0, 0)
        notes_layout.addWidget(self.summary)
        notes_layout.addWidget(self.empty)
        notes_layout.addWidget(self.view, 1)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.digest)
        self.split.addWidget(notes)
        self.split.setChildrenCollapsible(False)
        self.split.setStretchFactor(0, 1)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([420, 360])  # in proportion: the digest a little over half
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.split, 1)


class Shell(QMainWindow):
    def build_shell(self, library: Library) -> None:
        self.library = library
        self.setWindowTitle("Verbatim")
        self.setWindowIcon(app_icon())
        self.resize(1360, 820)
        self.ops = Operations(self.show_error, self)
        self.notices = NoticeBar()
        self.sidebar = ProjectSidebar(self.ops, library)
        self.projects = self.sidebar.projects  # the list widget, for tests and shortcuts
        self.timeline_model = TimelineModel(self.ops, library, self)
        self.timeline = TimelinePage(self.timeline_model, DigestPanel(self.ops, library))
        self.recording_view = RecordingView(self.ops, library)
        self.search_page = SearchPage(self.ops, library)
        self.connections_page = ConnectionsPage(self.ops, library)
        self.commitments_page = CommitmentsPage(self.ops, library)
        self.welcome = WelcomePage()
        self.stack = QStackedWidget()
        pages: tuple[QWidget, ...] = (self.welcome, self.timeline, self.recording_view, self.search_page)
        pages += (self.connections_page, self.commitments_page)
        for page in pages:
            self.stack.addWidget(page)
        self.stack.setCurrentWidget(self.timeline)
        self.ask_panel = AskPanel(self.ops, library)
        self.recorder = RecorderControl(self.ops, library, self)
        self.record_bar = RecordBar(self.recorder)
        self.live_panel = LivePanel(self.recorder)
        self.tray: Tray | None = Tray(self.recorder, self) if Tray.available() else None
        if self.tray is not None:
            self.tray.show()
        self.jobs_panel = JobsPanel(self.ops, library)
        self.background = Background(self.ops, library, self)
        self.importer = Importer(self.ops, library, self)
        self.copies = LibraryCopies(self.ops, library, self)
        self.search_box = QLineEdit()
        self._build_toolbar()
        self._build_centre()
        self._build_status_bar()
        self._build_actions()

    # The window (ui/window.py) defines what these do; the parts built here and the links between
    # them (ui/consolidation_links.py) only need to know that a shell has them.
    def show_error(self, exc: BaseException) -> None:  # the window's translator replaces this
        raise NotImplementedError

    def show_status(self, text: str) -> None:
        raise NotImplementedError

    def show_timeline(self) -> None:
        raise NotImplementedError

    def open_recording(self, recording_id: RecordingId, at: float | None = None) -> None:
        raise NotImplementedError

    def _build_toolbar(self) -> None:
        self.toolbar = QToolBar("Main")
        self.toolbar.setObjectName("main-toolbar")
        self.toolbar.setMovable(False)
        self.toolbar.setFloatable(False)
        self.addToolBar(self.toolbar)
        self.toolbar.addWidget(self.record_bar)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.toolbar.addWidget(spacer)
        self.search_box.setPlaceholderText("Search your notes (Ctrl+F)")
        self.search_box.setAccessibleName("Search your notes")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.setMinimumWidth(260)
        self.search_box.setMaximumWidth(420)
        self.toolbar.addWidget(self.search_box)
        # Backup and export: the library's copies, beside Settings (the CLI has them too)
        self.library_button = QToolButton()
        self.library_button.setText("Library")
        self.library_button.setAccessibleName("Library: back up or export")
        self.library_button.setToolTip("Back up or export the library")
        self.library_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.library_menu = QMenu(self.library_button)
        self.library_button.setMenu(self.library_menu)
        self.toolbar.addWidget(self.library_button)
        self.settings_action = QAction("Settings", self)
        self.settings_action.setToolTip("Settings (Ctrl+,)")
        self.toolbar.addAction(self.settings_action)

    def _build_centre(self) -> None:
        centre = QWidget()
        layout = QVBoxLayout(centre)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.notices)
        layout.addWidget(self.live_panel)
        self.splitter = QSplitter()
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(self.stack)
        self.splitter.addWidget(self.ask_panel)
        for index, stretch in enumerate((0, 1, 0)):
            self.splitter.setStretchFactor(index, stretch)
        self.splitter.setSizes([230, 770, 360])
        self.splitter.setChildrenCollapsible(False)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(centre)

    def _build_status_bar(self) -> None:
        self.setStatusBar(QStatusBar())
        self.status_label = QLabel("")
        self.status_label.setAccessibleName("Status")
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.jobs_panel)

    def _build_actions(self) -> None:
        self.actions_by_name: dict[str, QAction] = {}
        for name, (label, keys) in SHORTCUTS.items():
            action = self.settings_action if name == "settings" else QAction(label, self)
            if keys:
                action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            self.addAction(action)
            self.actions_by_name[name] = action
        for name in ("backup", "export", "export_json"):
            self.library_menu.addAction(self.actions_by_name[name])
        # record/stop works from anywhere in the app, including the settings dialog
        self.actions_by_name["record"].setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        self.setTabOrder(self.record_bar.button, self.record_bar.project)
        self.setTabOrder(self.record_bar.project, self.search_box)
        self.setTabOrder(self.search_box, self.projects)
