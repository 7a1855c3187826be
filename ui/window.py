"""The main window: routes between the views; each view talks to the app services itself, through
the operations helper. Start-up shows the window first and loads everything after, so it is
interactive at once whatever the size of the library.

Layout (built in ui/shell.py): toolbar (record controls, search, settings), notices, the live
recording panel, then sidebar | pages (welcome, timeline, recording, search) | ask panel, and the
jobs line in the status bar.
"""

from __future__ import annotations

import itertools
import logging
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, QUrl
from PySide6.QtGui import QCloseEvent, QDesktopServices, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app import project_service, recording_service
from app.library import Library
from app.project_service import Project
from app.readiness import Readiness, check_readiness
from app.recording_service import Recording, RecordingId
from models.catalogue import SHIPPED, Role
from models.errors import CancelledError
from ui.consolidation_links import ConsolidationLinks
from ui.dialogs.importer import failure_lines, importable, local_paths, summarise
from ui.dialogs.library_copies import (
    BACKUP_EXTENSION,
    FORMAT_NAMES,
    CopyDone,
    backup_file_name,
    export_folder,
)
from ui.error_reporting import describe
from ui.format import duration, short_date
from ui.main_thread_gc import MainThreadCollector
from ui.note_actions import NoteActions
from ui.operations import Change, Progress
from ui.shell import Shell
from ui.widgets.sidebar import ALL_PROJECTS

if TYPE_CHECKING:
    from app.ingest.imports import ImportResult

log = logging.getLogger(__name__)

STATUS_POLL_MS = 2000  # progress of recordings being transcribed
CHANGES_POLL_MS = 5000  # notes added by the CLI, a watched folder or another window


def empty_timeline_hint(where: str, *, can_record: bool) -> str:
    """What an empty timeline says: the ways in that work on this machine (no record shortcut
    without a microphone)."""
    ways = "Press Ctrl+Shift+R to record, Ctrl+I to import" if can_record else "Press Ctrl+I to import"
    return f"No notes in {where} yet. {ways} audio or transcripts, or drop files onto this window."


class MainWindow(Shell):
    def __init__(self, library: Library, *, check_start: bool = True, background: bool = True) -> None:
        super().__init__()
        self.gc = MainThreadCollector(self)  # before any worker starts: see ui/main_thread_gc.py
        self.gc.start()
        self.library = library
        self.readiness: Readiness | None = None
        self._provisioning_started = False
        self._last_signature: tuple[object, ...] | None = None
        self.build_shell(library)
        self._connect()
        self.consolidation_links = ConsolidationLinks(self)  # digest, note layers, connections
        self.note_actions = NoteActions(self)  # trash, move, re-transcribe, earlier transcripts
        self.setAcceptDrops(True)
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
        if background:
            self.background.start(self.jobs_panel.events.relay)
            self.jobs_panel.load_open_jobs()
        self.check_for_outside_changes()  # the baseline later polls compare with
        self.status_poll.start()
        self.changes_poll.start()

    def _connect(self) -> None:
        slots = {
            "record": self.toggle_recording,
            "pause": self.recorder.pause_or_resume,
            "ask": self.ask_panel.focus_question,
            "search": self.focus_search,
            "projects": self.projects.setFocus,
            "timeline": self.show_timeline,
            "import": self.choose_files_to_import,
            "play": self.recording_view.player.toggle,
            "settings": self.open_settings,
            "backup": self.choose_backup_file,
            "export": lambda: self.choose_export_folder("markdown"),
            "export_json": lambda: self.choose_export_folder("json"),
        }
        for name, slot in slots.items():
            self.actions_by_name[name].triggered.connect(slot)
        self.search_box.returnPressed.connect(self.on_search_box_return_pressed)
        self.ops.changed.connect(self.on_ops_changed)
        self.sidebar.project_selected.connect(self.on_sidebar_project_selected)
        self.sidebar.projects_loaded.connect(self.on_sidebar_projects_loaded)
        self.timeline_model.loaded.connect(self.on_timeline_loaded)
        self.timeline.view.recording_activated.connect(lambda r: self.open_recording(r.id))
        self.recording_view.back_requested.connect(self.show_timeline)
        self.recording_view.message.connect(self.show_status)
        self.search_page.open_requested.connect(self.open_recording)
        self.search_page.back_requested.connect(self.show_timeline)
        self.ask_panel.open_requested.connect(self.open_recording)
        self.welcome.new_project_requested.connect(self.new_project)
        self.welcome.provision_requested.connect(self.provision_models)
        self.welcome.import_requested.connect(self.choose_files_to_import)
        self.record_bar.record_clicked.connect(self.toggle_recording)
        self.recorder.problem_found.connect(
            lambda text: self.notices.show_notice("recorder", text, severity="warning")
        )
        self.recorder.stopped.connect(self.on_recorder_stopped)
        self.recorder.started.connect(lambda _id, project: self.show_status(f"Recording into {project}."))
        self.background.recovered.connect(self.on_background_recovered)
        self.background.imported.connect(self.on_background_imported)
        self.importer.finished.connect(self.on_import_finished)
        self.importer.stopped.connect(self.on_import_stopped)
        self.copies.finished.connect(self.on_copy_finished)
        self.copies.stopped.connect(self.on_copy_stopped)
        self.sidebar.show_archived.toggled.connect(lambda on: setattr(self.ask_panel, "include_archived", on))
        if self.tray is not None:
            self.tray.toggle_requested.connect(self.toggle_recording)
            self.tray.show_requested.connect(self.bring_to_front)

    # --- status and errors -------------------------------------------------------------------------
    def show_error(self, exc: BaseException) -> None:
        message = describe(exc, log_path=str(self.library.data_dir.logs_dir / "verbatim.log"))
        if message.severity == "info":
            self.show_status(message.text)
            return
        key = f"error:{message.text}"
        self.notices.show_notice(key, message.text, severity=message.severity, fix=message.fix)

    def show_status(self, text: str) -> None:
        self.status_label.setText(text)

    def bring_to_front(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()

    # --- start-up -------------------------------------------------------------------------------------
    def on_readiness_checked(self, readiness: Readiness) -> None:
        self.readiness = readiness
        self.welcome.show_readiness(readiness)
        self.on_timeline_loaded()  # the empty timeline's hint names recording only with a microphone
        if readiness.first_run and self.stack.currentWidget() is self.timeline:
            self.stack.setCurrentWidget(self.welcome)
        if readiness.missing_models and self._sets_up_models_itself(readiness):
            self.provision_models()
        elif readiness.missing_models:
            self.notices.show_notice(
                "models",
                "The models are not set up yet, so new notes cannot be transcribed and answers quote "
                "passages without a language model.",
                severity="warning",
                fix="click Set up models (no network needed), or run 'verbatim models provision'",
                action=("Set up models", self.provision_models),
            )
        self.record_bar.set_can_record(readiness.can_record, readiness.microphone_problem)
        if not readiness.can_record:
            self.notices.show_notice(
                "microphone",
                readiness.microphone_problem or "No microphone found.",
                severity="warning",
                fix=readiness.microphone_fix,
            )

    def _sets_up_models_itself(self, readiness: Readiness) -> bool:
        """An installed bundle sets up its shipped models on first start, once, without asking."""
        if not getattr(sys, "frozen", False) or self._provisioning_started:
            return False
        registry = self.library.models
        return not any(registry.is_user_model(Role(m.role)) for m in readiness.missing_models)

    def provision_models(self) -> None:
        from app.model_status import provision

        self.notices.dismiss("models")
        self._provisioning_started = True
        missing = {m.name for m in self.readiness.missing_models} if self.readiness else set()
        shipped = [m for m in SHIPPED.values() if not missing or m.name in missing]
        total = max(1, sum(len(m.outputs) for m in shipped))  # files to write: the progress steps
        self.welcome.show_setup_progress(0.0, "")

        def run(progress: Progress) -> list[str]:
            started = itertools.count()  # provisioning reports each file as it starts writing it

            def report(message: str) -> None:
                progress(min(next(started), total) / total, message)

            return provision(self.library, report)

        def done(_written: object) -> None:
            self.welcome.show_setup_progress(None, "")
            self.show_status("The models are ready.")
            self.ops.query(lambda: check_readiness(self.library), finished=self.on_readiness_checked)

        def failed(exc: BaseException) -> None:
            self.welcome.show_setup_progress(None, "")
            self.show_error(exc)

        self.ops.task(
            run,
            label="Setting up the models",
            finished=done,
            failed=failed,
            progress=self.welcome.show_setup_progress,
        )

    def on_background_recovered(self, recovered: list[Recording]) -> None:
        first = recovered[0]
        more = f" and {len(recovered) - 1} more" if len(recovered) > 1 else ""
        self.notices.show_notice(
            "recovered",
            f"A recording that was interrupted has been recovered: {first.project}, "
            f"{short_date(first.spoken_at)}, {duration(first.duration)}{more}. It is being transcribed.",
            severity="info",
            action=("Open it", lambda: self.open_recording(first.id)),
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
        self.record_bar.set_projects(projects, self.current_project())

    def on_sidebar_project_selected(self, project: str | None) -> None:
        if self.timeline_model.project != project or not self.timeline_model.rows:
            self.timeline_model.show_project(project)
        self.timeline.heading.setText(project or ALL_PROJECTS)
        self.timeline.digest.setVisible(project is not None)
        self.ask_panel.set_current_project(project)
        self.record_bar.follow_project(project)
        if self.stack.currentWidget() is not self.welcome:
            self.show_timeline()

    def show_timeline(self) -> None:
        self.recording_view.player.stop()
        self.stack.setCurrentWidget(self.timeline)
        self.timeline.view.setFocus()

    def on_timeline_loaded(self) -> None:
        model = self.timeline_model
        count = len(model.row_of_id)
        empty = count == 0 and model.exhausted
        where = model.project or "any project"
        self.timeline.empty.setText(
            empty_timeline_hint(where, can_record=bool(self.readiness and self.readiness.can_record))
        )
        self.timeline.empty.setVisible(empty)
        self.timeline.view.setVisible(not empty)
        more = "" if model.exhausted else "+"
        noun = "note" if count == 1 and not more else "notes"
        self.timeline.summary.setText(f"{count:,}{more} {noun}, newest first" if count else "")
        if not self.timeline.view.currentIndex().isValid():
            self.timeline.view.select_first_recording()

    def open_recording(self, recording_id: RecordingId, at: float | None = None) -> None:
        self.stack.setCurrentWidget(self.recording_view)
        self.recording_view.open_recording(recording_id, at=at)

    # --- keeping views fresh ---------------------------------------------------------------------------
    def on_ops_changed(self, changes: frozenset[Change]) -> None:
        if changes & {Change.PROJECTS, Change.RECORDINGS}:
            self.sidebar.refresh()
        if changes & {Change.RECORDINGS}:
            self.timeline_model.reload()
        if "watched" in changes:
            self.background.start_watching()

    def refresh_active_recordings(self) -> None:
        ids = self.timeline_model.active_ids()
        if ids and self.isVisible():
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

    # --- recording --------------------------------------------------------------------------------------
    def toggle_recording(self) -> None:
        self.recorder.toggle(self.record_bar.chosen_project() or self.current_project())

    def on_recorder_stopped(self, recording_id: int) -> None:
        self.background.wake_jobs()
        self.show_status("Saved. The note is searchable now; the final transcript follows in a few minutes.")
        self.notices.dismiss("recorder")
        del recording_id

    # --- search and ask -----------------------------------------------------------------------------------
    def focus_search(self) -> None:
        self.search_box.setFocus()
        self.search_box.selectAll()

    def on_search_box_return_pressed(self) -> None:
        query = self.search_box.text().strip()
        if query:
            self.stack.setCurrentWidget(self.search_page)
            self.search_page.search(
                query, project=self.current_project(), include_archived=self.sidebar.show_archived.isChecked()
            )

    # --- import -------------------------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and importable(local_paths(event.mimeData().urls())):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = local_paths(event.mimeData().urls())
        if paths:
            event.acceptProposedAction()
            self.import_paths(paths)

    def import_folder(self) -> str:
        """Where the import dialog opens: the last folder imported from, else the home folder
        (never the app's own working folder)."""
        last = self.library.settings.last_import_folder
        return last if last and Path(last).is_dir() else str(Path.home())

    def choose_files_to_import(self) -> None:
        chosen, _ = QFileDialog.getOpenFileNames(self, "Import audio or transcripts", self.import_folder())
        if chosen:
            self.remember_import_folder(Path(chosen[0]).parent)
            self.import_paths([Path(p) for p in chosen])

    def remember_import_folder(self, folder: Path) -> None:
        def save() -> None:
            self.library.settings.last_import_folder = str(folder)
            self.library.save_settings()

        self.ops.change(save, changes={Change.SETTINGS}, label="import folder")

    def import_paths(self, paths: list[Path]) -> None:
        project = self.current_project() or self.record_bar.chosen_project()
        if not project:
            self.notices.show_notice(
                "import",
                "Create a project first: imported notes go into a project.",
                severity="warning",
                fix="press Ctrl+N",
            )
            return
        self.show_status(f"Importing into {project}…")
        self.importer.import_paths(paths, project)

    def on_import_finished(self, results: list[ImportResult], project: str) -> None:
        summary, details = summarise(results)
        severity = "warning" if details else "info"
        failures = failure_lines(results)
        action = None
        if len(failures) > 3:  # the banner names three: the rest are one click away, not lost
            action = (f"Show all {len(failures)}", lambda: self.show_import_failures(project, failures))
        self.notices.show_notice(
            "import", f"{project}: {summary}", severity=severity, fix=details, action=action
        )
        # the status line says the import ended (it said "Importing…" for the rest of the session)
        self.show_status(f"Imported into {project}: {summary[0].lower()}{summary[1:]}")
        self.background.wake_jobs()

    def show_import_failures(self, project: str, failures: list[str]) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Files not imported",
            f"{len(failures)} files could not be imported into {project}:",
            QMessageBox.StandardButton.Close,
            self,
        )
        box.setDetailedText("\n".join(failures))
        box.setInformativeText("\n".join(failures[:20]) + ("\n…" if len(failures) > 20 else ""))
        box.open()
        self.import_failures_box = box

    def on_import_stopped(self, exc: BaseException, project: str) -> None:
        if isinstance(exc, CancelledError):
            self.show_status(f"Import into {project} cancelled; the files already imported stay.")
        else:
            self.show_status(f"Import into {project} stopped.")
            self.ops.report_error(exc)
        self.background.wake_jobs()

    # --- backup and export -------------------------------------------------------------------------
    def choose_backup_file(self) -> None:
        default = str(Path.home() / backup_file_name())
        chosen, _ = QFileDialog.getSaveFileName(
            self, "Back up the library", default, f"Verbatim backups (*{BACKUP_EXTENSION})"
        )
        if chosen:
            path = Path(chosen)
            self.back_up_to(
                path if path.name.endswith(BACKUP_EXTENSION) else path.with_name(path.name + BACKUP_EXTENSION)
            )

    def back_up_to(self, path: Path) -> None:
        self.show_status(f"Backing up to {path.name}…")
        self.copies.back_up(path)

    def choose_export_folder(self, fmt: str) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, f"Export as {FORMAT_NAMES[fmt]} into a folder", str(Path.home())
        )
        if folder:
            self.export_to(export_folder(Path(folder), fmt), fmt)

    def export_to(self, folder: Path, fmt: str) -> None:
        self.show_status(f"Exporting to {folder.name}…")
        self.copies.export(folder, fmt)

    def on_copy_finished(self, done: CopyDone) -> None:
        self.show_status(done.text)
        self.notices.show_notice(
            "copy",
            done.text,
            severity="info",
            action=("Show in folder", partial(self.show_folder, done.path.parent)),
        )

    def show_folder(self, folder: Path) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))  # the desktop's file manager

    def on_copy_stopped(self, exc: BaseException) -> None:
        if isinstance(exc, CancelledError):
            self.show_status("Cancelled; no copy was written.")
        else:
            self.show_status("The copy was not written.")
            self.ops.report_error(exc)

    def on_background_imported(self, result: ImportResult) -> None:
        if result.status == "imported":
            self.show_status(
                f"Imported {Path(result.path).name} from a watched folder into {result.project}."
            )
            self.timeline_model.reload()
            self.sidebar.refresh()
            self.background.wake_jobs()
        elif result.status == "failed":
            self.notices.show_notice(
                f"watch:{result.path}",
                f"A file in a watched folder could not be imported: {result.message}",
                severity="warning",
            )

    # --- settings ---------------------------------------------------------------------------------------
    def open_settings(self) -> None:
        from ui.dialogs.settings_dialog import SettingsDialog

        dialog = SettingsDialog(
            self.ops,
            self.library,
            self.sidebar.loaded_projects(),
            self,
            current_project=self.current_project(),
        )
        dialog.open()
        self.settings_dialog = dialog

    # --- closing -------------------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        self.status_poll.stop()
        self.changes_poll.stop()
        self.recording_view.player.stop()
        self.recorder.shutdown()
        self.ops.shutdown(0)  # cancel every task now, so they wind down while the job worker stops
        self.background.stop()
        if self.tray is not None:
            self.tray.hide()
        # Wait for the cancelled work: the library closes after this, and a thread still writing
        # to it then was the "Fatal Python error" of a close during a big import.
        if not self.ops.shutdown(30_000):
            log.warning("some background work was still running at exit")
        self.gc.stop()
        event.accept()
