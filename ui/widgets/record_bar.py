"""The record controls: one big button, the project picker, a level meter, elapsed time, pause;
the live transcript panel under them while recording; the tray icon's record/stop menu.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction, QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSystemTrayIcon,
    QVBoxLayout,
    QWidget,
)

from app.project_service import Project
from ui.format import clock
from ui.recorder_control import RecorderControl
from ui.theme import colours, heading_font
from ui.widgets.icons import app_icon, record_icon


class LevelMeter(QWidget):
    """Input level as a bar, with its value for screen readers (and "paused" as a word)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.level = 0.0
        self.paused = False
        self.setMinimumSize(QSize(90, 14))
        self.setMaximumHeight(16)
        self.setAccessibleName("Input level")

    def set_level(self, level: float, paused: bool) -> None:
        # speech RMS sits around 0.02–0.2: a square root spreads it over the bar
        self.level = 0.0 if paused else min(1.0, max(0.0, level) ** 0.5)
        self.paused = paused
        self.setAccessibleDescription("paused" if paused else f"{int(self.level * 100)} percent")
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        c = colours()
        painter = QPainter(self)
        rect = self.rect().adjusted(0, 2, -1, -2)
        painter.fillRect(rect, QColor(c.border))
        width = int(rect.width() * self.level)
        colour = c.error if self.level > 0.9 else c.ok
        painter.fillRect(rect.adjusted(0, 0, width - rect.width(), 0), QColor(colour))
        painter.end()


class RecordBar(QWidget):
    """Lives in the toolbar."""

    record_clicked = Signal()

    def __init__(self, control: RecorderControl, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.control = control
        self.button = QPushButton("Record")
        self.button.setIcon(record_icon(28))
        self.button.setIconSize(QSize(22, 22))
        self.button.setMinimumHeight(40)
        self.button.setMinimumWidth(130)
        self.button.setFont(heading_font(self.font(), scale=1.1))
        self.button.setAccessibleName("Record")
        self.button.setToolTip("Start or stop recording (Ctrl+Shift+R)")
        self.button.clicked.connect(self.record_clicked.emit)
        self.project = QComboBox()
        self.project.setAccessibleName("Project to record into")
        self.project.setToolTip("The project this recording goes into")
        self.project.setMinimumWidth(160)
        self.meter = LevelMeter()
        self.elapsed = QLabel("0:00")
        self.elapsed.setAccessibleName("Recording time")
        self.elapsed.setMinimumWidth(self.elapsed.fontMetrics().horizontalAdvance("00:00:00"))
        self.pause = QPushButton("Pause")
        self.pause.setAccessibleName("Pause recording")
        self.pause.setToolTip("Pause or resume (Ctrl+Shift+P)")
        self.pause.clicked.connect(control.pause_or_resume)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.button)
        layout.addWidget(self.project)
        layout.addWidget(self.meter)
        layout.addWidget(self.elapsed)
        layout.addWidget(self.pause)
        control.state_changed.connect(self.on_control_state_changed)
        control.ticked.connect(self.on_control_ticked)
        self.on_control_state_changed("idle")

    def set_projects(self, projects: list[Project], current: str | None) -> None:
        chosen = current or self.project.currentText()
        self.project.blockSignals(True)
        self.project.clear()
        self.project.addItems([p.name for p in projects])
        if chosen:
            self.project.setCurrentText(chosen)
        self.project.blockSignals(False)

    def follow_project(self, project: str | None) -> None:
        """Selecting a project in the sidebar makes it the one to record into (when idle)."""
        if project and self.control.state == "idle":
            self.project.setCurrentText(project)

    def chosen_project(self) -> str | None:
        return self.project.currentText() or None

    def set_can_record(self, can: bool, why: str = "") -> None:
        self.button.setEnabled(can)
        self.button.setToolTip("Start or stop recording (Ctrl+Shift+R)" if can else why)

    def on_control_state_changed(self, state: str) -> None:
        recording = state in ("recording", "stopping")
        self.button.setIcon(record_icon(28, recording=recording))
        self.button.setText(
            {"idle": "Record", "starting": "Starting…", "recording": "Stop", "stopping": "Saving…"}[state]
        )
        self.button.setAccessibleName("Stop recording" if recording else "Record")
        self.project.setEnabled(state == "idle")
        for widget in (self.meter, self.elapsed, self.pause):
            widget.setVisible(state in ("recording", "stopping"))
        if state == "idle":
            self.elapsed.setText("0:00")
            self.meter.set_level(0.0, False)

    def on_control_ticked(self, level: float, elapsed: float, paused: bool) -> None:
        self.meter.set_level(level, paused)
        self.elapsed.setText(clock(elapsed) + (" paused" if paused else ""))
        self.pause.setText("Resume" if paused else "Pause")
        self.pause.setAccessibleName("Resume recording" if paused else "Pause recording")


class LivePanel(QFrame):
    """Under the toolbar while recording: where it goes and the provisional transcript."""

    def __init__(self, control: RecorderControl, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.heading = QLabel()
        self.heading.setFont(heading_font(self.font(), scale=1.1))
        self.heading.setAccessibleName("Recording")
        self.note = QLabel(
            "Live transcript: provisional, a few seconds behind you. The final transcript "
            "replaces it after you stop; the audio is saved to disk as you speak."
        )
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"color: {colours().muted};")
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setAccessibleName("Live transcript")
        self.text.setPlaceholderText("Listening…")
        self.text.setMaximumHeight(96)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 8)
        layout.addWidget(self.heading)
        layout.addWidget(self.note)
        layout.addWidget(self.text)
        control.state_changed.connect(self.on_control_state_changed)
        control.live_text_changed.connect(self.on_control_live_text_changed)
        control.ticked.connect(self.on_control_ticked)
        self.control = control
        self.hide()

    def on_control_state_changed(self, state: str) -> None:
        if state == "recording":
            self.text.clear()
            self.heading.setText(f"● Recording into {self.control.project}")
            self.show()
        elif state == "stopping":
            self.heading.setText(f"Saving the recording into {self.control.project}…")
        elif state == "idle":
            self.hide()

    def on_control_ticked(self, _level: float, elapsed: float, paused: bool) -> None:
        state = "Paused" if paused else "● Recording"
        self.heading.setText(f"{state} into {self.control.project} · {clock(elapsed)}")

    def on_control_live_text_changed(self, text: str) -> None:
        self.text.setPlainText(text)
        bar = self.text.verticalScrollBar()
        bar.setValue(bar.maximum())


class Tray(QSystemTrayIcon):
    """Record and stop from the tray; a click shows the window."""

    show_requested = Signal()
    toggle_requested = Signal()

    def __init__(self, control: RecorderControl, parent: QWidget | None = None) -> None:
        super().__init__(app_icon(), parent)
        self.setToolTip("Verbatim")
        menu = QMenu(parent)
        self.record_action = QAction("Record", menu)
        self.record_action.triggered.connect(self.toggle_requested.emit)
        menu.addAction(self.record_action)
        menu.addAction("Show Verbatim", self.show_requested.emit)
        menu.addSeparator()
        menu.addAction("Quit", QApplication.quit)
        self.setContextMenu(menu)
        self.menu = menu
        self.activated.connect(self.on_activated)
        control.state_changed.connect(self.on_control_state_changed)

    def on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.show_requested.emit()

    def on_control_state_changed(self, state: str) -> None:
        recording = state in ("recording", "stopping")
        self.record_action.setText("Stop recording" if recording else "Record")
        self.record_action.setEnabled(state in ("idle", "recording"))
        self.setIcon(record_icon(32, recording=True) if recording else app_icon())
        self.setToolTip("Verbatim — recording" if recording else "Verbatim")

    @staticmethod
    def available() -> bool:
        return QSystemTrayIcon.isSystemTrayAvailable()


__all__ = ["LevelMeter", "LivePanel", "Qt", "RecordBar", "Tray"]
