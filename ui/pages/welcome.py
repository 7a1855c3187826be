"""First run: what to do next, in order, with what is missing said plainly (no error dialogs)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.readiness import Readiness
from ui.theme import colours, heading_font


class WelcomePage(QWidget):
    new_project_requested = Signal()
    provision_requested = Signal()
    import_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel("Welcome to Verbatim")
        self.heading.setFont(heading_font(self.font(), scale=1.6))
        self.intro = QLabel(
            "Think out loud; Verbatim keeps every word exactly as you said it, on this computer only, "
            "and answers questions across all your projects with quotes you can play back."
        )
        self.intro.setWordWrap(True)
        self.steps = QLabel()
        self.steps.setWordWrap(True)
        self.steps.setTextFormat(Qt.TextFormat.RichText)
        self.steps.setAccessibleName("Getting started")
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.RichText)
        self.problems.setAccessibleName("What is missing")
        self.new_button = QPushButton("Create your first project")
        self.new_button.setAccessibleName("Create your first project")
        self.new_button.clicked.connect(self.new_project_requested.emit)
        self.import_button = QPushButton("Import files…")
        self.import_button.setAccessibleName("Import audio or transcript files")
        self.import_button.clicked.connect(self.import_requested.emit)
        self.provision_button = QPushButton("Set up the models")
        self.provision_button.setAccessibleName("Set up the shipped models")
        self.provision_button.clicked.connect(self.provision_requested.emit)
        self.provision_button.hide()
        self.setup_progress = QProgressBar()  # first start of a bundle: the models being set up
        self.setup_progress.setAccessibleName("Setting up the models")
        self.setup_progress.setFormat("Setting up the models… %p%")
        self.setup_progress.hide()
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.provision_button)
        buttons.addStretch(1)
        column = QVBoxLayout()
        column.addWidget(self.heading)
        column.addWidget(self.intro)
        column.addSpacing(12)
        column.addWidget(self.steps)
        column.addWidget(self.problems)
        column.addWidget(self.setup_progress)
        column.addSpacing(8)
        column.addLayout(buttons)
        column.addStretch(1)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        inner = QWidget()
        inner.setLayout(column)
        inner.setMaximumWidth(640)
        outer.addWidget(inner, 4)
        outer.addStretch(1)
        self.show_readiness(None)

    def show_readiness(self, readiness: Readiness | None) -> None:
        mic_ok = readiness is None or readiness.can_record
        record_step = (
            "<b>Record</b> with the big button or <b>Ctrl+Shift+R</b>; the transcript appears as you speak."
            if mic_ok
            else "<b>Record</b>: recording is off for now (the banner above says why and how to fix"
            " it). A microphone connected later is picked up at the next start."
        )
        steps = [
            "<b>Create a project</b> for each client or topic (Ctrl+N).",
            record_step,
            "<b>Import</b>: drop audio files (wav, mp3, m4a, ogg, flac, opus, webm) or transcripts onto "
            "the window, or add a watched folder in Settings.",
            "<b>Ask</b> across all projects with <b>Ctrl+K</b>: each sentence of the answer is marked "
            "<i>stated</i> (your words, with a play button) or <i>inferred</i>.",
        ]
        self.steps.setText(
            "<ol>" + "".join(f"<li style='margin-bottom:6px'>{s}</li>" for s in steps) + "</ol>"
        )
        problems = []
        if readiness is not None and readiness.missing_models:
            names = ", ".join(escape(m.name) for m in readiness.missing_models)
            problems.append(
                f"<b>The models are not set up yet</b> ({names}). Transcription and answers need them; "
                "setting them up takes a minute and needs no network."
            )
        # The microphone's problem and its fix are the window's banner (one place, not two).
        warn = colours().warn
        self.problems.setText(
            "".join(f"<p><span style='color:{warn}'>⚠ Note:</span> {p}</p>" for p in problems)
        )
        self.problems.setVisible(bool(problems))
        self.provision_button.setVisible(bool(readiness and readiness.missing_models))

    def show_setup_progress(self, fraction: float | None, message: str) -> None:
        """The models being set up, with what is being written now (None: done)."""
        self.setup_progress.setVisible(fraction is not None)
        self.provision_button.setEnabled(fraction is None)
        if fraction is not None:
            self.setup_progress.setValue(round(100 * fraction))
            self.setup_progress.setToolTip(message)
            if message:
                self.setup_progress.setFormat(f"Setting up the models… %p% ({message})")
