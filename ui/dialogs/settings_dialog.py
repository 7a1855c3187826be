"""Settings: models per role, language and vocabulary per project, watched folders, recording, data folder.

Every change is saved through the app services by the operations helper, as soon as it is made
(no Apply button to forget); what could not be saved is said in the dialog, next to the control.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app import project_service
from app.library import Library
from app.project_service import Project
from app.readiness import input_device_names
from app.settings import WatchedFolder
from models.catalogue import Role
from ui.dialogs.data_folder_tab import DataFolderTab
from ui.error_reporting import describe
from ui.operations import Change, Operations

ROLE_LABELS = {
    Role.TRANSCRIPTION: "Transcription",
    Role.TRANSCRIPTION_FAST: "Live transcript (fast)",
    Role.EMBEDDING: "Search (embeddings)",
    Role.CHAT: "Answers (language model)",
}
DEFAULT_DEVICE = "System default"


class SettingsDialog(QDialog):
    def __init__(
        self,
        ops: Operations,
        library: Library,
        projects: list[Project],
        parent: QWidget | None = None,
        *,
        current_project: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.projects = projects
        self.setWindowTitle("Settings")
        self.resize(720, 480)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Settings status")
        self.tabs = QTabWidget()
        self.tabs.addTab(self._models_tab(), "Models")
        self.tabs.addTab(self._projects_tab(current_project), "Projects")
        self.tabs.addTab(self._watched_tab(), "Watched folders")
        self.tabs.addTab(self._recording_tab(), "Recording")
        self.data_folder = DataFolderTab(library, self.say, self._failed)
        self.tabs.addTab(self.data_folder, "Data folder")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

    def say(self, text: str) -> None:
        self.status.setText(text)

    def _failed(self, exc: BaseException) -> None:
        message = describe(exc)
        self.say(f"⚠ {message.text} {message.fix}".strip())

    # --- models ------------------------------------------------------------------------------------
    def _models_tab(self) -> QWidget:
        page = QWidget()
        grid = QGridLayout(page)
        self.model_labels: dict[Role, QLabel] = {}
        for row, role in enumerate(Role):
            grid.addWidget(QLabel(f"<b>{ROLE_LABELS[role]}</b>"), row, 0)
            label = QLabel()
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setAccessibleName(f"{ROLE_LABELS[role]} model")
            self.model_labels[role] = label
            grid.addWidget(label, row, 1)
            choose = QPushButton("Choose…")
            choose.setAccessibleName(f"Choose a model file for {ROLE_LABELS[role]}")
            choose.clicked.connect(lambda _c=False, r=role: self.on_choose_model(r))
            reset = QPushButton("Use shipped")
            reset.setAccessibleName(f"Use the shipped model for {ROLE_LABELS[role]}")
            reset.clicked.connect(lambda _c=False, r=role: self.reset_model(r))
            grid.addWidget(choose, row, 2)
            grid.addWidget(reset, row, 3)
        note = QLabel(
            "Whisper models are CTranslate2 folders; search and answer models are GGUF files. "
            "A bigger answer model (3–8B instruct) gives better answers with no other change."
        )
        note.setWordWrap(True)
        grid.addWidget(note, len(Role), 0, 1, 4)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(len(Role) + 1, 1)
        self.show_models()
        return page

    def show_models(self) -> None:
        registry = self.library.models
        for role, label in self.model_labels.items():
            source = "your file" if registry.is_user_model(role) else "shipped"
            path = registry.path_for(role)
            missing = "" if path.exists() else " <b>— missing: set up the models or choose a file</b>"
            label.setText(f"{registry.name_for(role)} ({source}){missing}<br><small>{path}</small>")

    def on_choose_model(self, role: Role) -> None:
        if role in (Role.TRANSCRIPTION, Role.TRANSCRIPTION_FAST):
            chosen = QFileDialog.getExistingDirectory(self, "Choose a CTranslate2 Whisper folder")
        else:
            chosen, _ = QFileDialog.getOpenFileName(self, "Choose a GGUF model", "", "GGUF models (*.gguf)")
        if chosen:
            self.set_model(role, Path(chosen))

    def set_model(self, role: Role, path: Path) -> None:
        def done(_result: object) -> None:
            self.show_models()
            self.say(f"{ROLE_LABELS[role]} now uses {path.name}.")

        self.ops.change(
            lambda: self.library.models.register(role, path),
            changes={Change.SETTINGS},
            finished=done,
            failed=self._failed,
            label="choose model",
        )

    def reset_model(self, role: Role) -> None:
        def done(_result: object) -> None:
            self.show_models()
            self.say(f"{ROLE_LABELS[role]} uses the shipped model again.")

        self.ops.change(
            lambda: self.library.models.reset(role),
            changes={Change.SETTINGS},
            finished=done,
            failed=self._failed,
            label="reset model",
        )

    # --- projects ------------------------------------------------------------------------------------
    def _projects_tab(self, current: str | None) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        self.project_combo = QComboBox()
        self.project_combo.setAccessibleName("Project")
        for project in self.projects:
            self.project_combo.addItem(project.name)
        if current:
            self.project_combo.setCurrentText(current)
        self.language = QLineEdit()
        self.language.setAccessibleName("Language")
        self.language.setPlaceholderText("detect automatically (or an ISO code such as en, de)")
        self.vocabulary = QPlainTextEdit()
        self.vocabulary.setAccessibleName("Vocabulary")
        self.vocabulary.setPlaceholderText("One name per line: people, clients, products (e.g. Chen, Becker)")
        self.vocabulary.setTabChangesFocus(True)
        save = QPushButton("Save project settings")
        save.setAccessibleName("Save project settings")
        save.clicked.connect(self.save_project_options)
        save.setEnabled(bool(self.projects))
        form.addRow("Project", self.project_combo)
        form.addRow("Language", self.language)
        form.addRow("Vocabulary", self.vocabulary)
        form.addRow("", save)
        hint = QLabel("Vocabulary helps the transcriber spell names right in this project's next notes.")
        hint.setWordWrap(True)
        form.addRow("", hint)
        self.project_combo.currentTextChanged.connect(self.show_project_options)
        self.show_project_options(self.project_combo.currentText())
        return page

    def show_project_options(self, name: str) -> None:
        project = next((p for p in self.projects if p.name == name), None)
        self.language.setText(project.language or "" if project else "")
        self.vocabulary.setPlainText("\n".join(project.vocabulary) if project else "")

    def save_project_options(self) -> None:
        name = self.project_combo.currentText()
        language = self.language.text().strip()
        terms = [t for t in self.vocabulary.toPlainText().splitlines() if t.strip()]

        def done(project: Project) -> None:
            self.projects = [project if p.id == project.id else p for p in self.projects]
            self.say(
                f"Saved {project.name}: language {project.language or 'automatic'}, "
                f"{len(project.vocabulary)} vocabulary terms."
            )

        self.ops.change(
            lambda: project_service.set_project_options(
                self.library, name, language=language or None, clear_language=not language, vocabulary=terms
            ),
            changes={Change.PROJECTS},
            finished=done,
            failed=self._failed,
            label="project settings",
        )

    # --- watched folders -------------------------------------------------------------------------------
    def _watched_tab(self) -> QWidget:
        page = QWidget()
        self.watched = QListWidget()
        self.watched.setAccessibleName("Watched folders")
        self.watch_project = QComboBox()
        self.watch_project.setAccessibleName("Project for the new watched folder")
        for project in self.projects:
            self.watch_project.addItem(project.name)
        add = QPushButton("Add folder…")
        add.setAccessibleName("Add a watched folder")
        add.clicked.connect(self.on_add_watched_clicked)
        add.setEnabled(bool(self.projects))
        remove = QPushButton("Remove")
        remove.setAccessibleName("Stop watching the selected folder")
        remove.clicked.connect(self.remove_watched)
        row = QHBoxLayout()
        row.addWidget(QLabel("Import into"))
        row.addWidget(self.watch_project, 1)
        row.addWidget(add)
        row.addWidget(remove)
        explain = QLabel(
            "New audio files that appear in a watched folder (for example your phone's sync folder) "
            "are imported into its project once they stop growing. The same file is never imported twice."
        )
        explain.setWordWrap(True)
        layout = QVBoxLayout(page)
        layout.addWidget(explain)
        layout.addWidget(self.watched, 1)
        layout.addLayout(row)
        self.show_watched()
        return page

    def show_watched(self) -> None:
        self.watched.clear()
        for folder in self.library.settings.watched_folders:
            self.watched.addItem(f"{folder.path}  →  {folder.project}")

    def on_add_watched_clicked(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Choose a folder to watch")
        if chosen:
            self.add_watched(chosen, self.watch_project.currentText())

    def add_watched(self, path: str, project: str) -> None:
        def done(folder: WatchedFolder) -> None:
            self.show_watched()
            self.say(f"Watching {folder.path} for {folder.project}.")

        from app.ingest import watched_folders as watch_service

        self.ops.change(
            lambda: watch_service.add_watched_folder(self.library, Path(path), project),
            changes={Change.SETTINGS, Change.WATCHED},
            finished=done,
            failed=self._failed,
            label="watch folder",
        )

    def remove_watched(self) -> None:
        row = self.watched.currentRow()
        folders = self.library.settings.watched_folders
        if not 0 <= row < len(folders):
            return
        path = Path(folders[row].path)
        from app.ingest import watched_folders as watch_service

        self.ops.change(
            lambda: watch_service.remove_watched_folder(self.library, path),
            changes={Change.SETTINGS, Change.WATCHED},
            finished=lambda _r: self.show_watched(),
            failed=self._failed,
            label="unwatch folder",
        )

    # --- recording ---------------------------------------------------------------------------------------
    def _recording_tab(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        self.device = QComboBox()
        self.device.setAccessibleName("Microphone")
        self.device.addItem(DEFAULT_DEVICE)
        self.device.setEnabled(False)
        self.live = QCheckBox("Show a live transcript while recording")
        self.live.setAccessibleName("Live transcript while recording")
        self.live.setChecked(self.library.settings.live_transcript)
        self.live.toggled.connect(lambda _on: self.save_recording_options())
        form.addRow("Microphone", self.device)
        form.addRow("", self.live)
        self.ops.query(input_device_names, finished=self.show_devices, label="list microphones")
        return page

    def show_devices(self, names: list[str]) -> None:
        self.device.blockSignals(True)
        self.device.clear()
        self.device.addItem(DEFAULT_DEVICE)
        self.device.addItems(names)
        chosen = self.library.settings.input_device
        self.device.setCurrentText(chosen if chosen in names else DEFAULT_DEVICE)
        self.device.setEnabled(bool(names))
        if not names:
            self.device.setItemText(0, "No microphone found")
        self.device.blockSignals(False)
        self.device.currentTextChanged.connect(lambda _t: self.save_recording_options())

    def save_recording_options(self) -> None:
        device = self.device.currentText()
        live = self.live.isChecked()

        def save() -> None:
            self.library.settings.input_device = None if device == DEFAULT_DEVICE else device
            self.library.settings.live_transcript = live
            self.library.save_settings()

        self.ops.change(
            save,
            changes={Change.SETTINGS},
            finished=lambda _r: self.say("Recording settings saved."),
            failed=self._failed,
            label="recording settings",
        )
