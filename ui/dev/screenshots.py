"""Render the window's main states into docs/screenshots/*.png, from real work on a demo library.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python -m ui.dev.screenshots   (or: make screenshots)

Nothing is staged: the notes are imported through the app services (two of them as espeak-ng
speech that the shipped Whisper model transcribes), answers come from the shipped chat model and
the checker, and the live recording is a real recording from a private PulseAudio null sink fed
with synthetic speech. Consolidation runs as it does for a user: the window's job worker picks each
note up after it is stored. States: first run, timeline, a project's digest, a recording playing, a
recording's facts / self-corrections / connections, the connections page, the commitments page, a
live recording, an answer, search results, a note's menu (move, re-transcribe, trash), the
re-transcribe dialog and a note's transcripts after it, the trash, and the timeline, a recording and
the connections in the dark palette. `--only NAME ...` renders only those states (after the demo
library is built), e.g. `--only note-menu retranscribe trash`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

WIDTH, HEIGHT = 1360, 820
TRANSCRIBE_S = 600.0
CONSOLIDATE_S = 600.0
ASK_S = 240.0


def start_virtual_microphone(runtime: Path) -> subprocess.Popen[bytes] | None:
    """A private PulseAudio server whose default input is the monitor of a null sink `vmic`."""
    if not (shutil.which("pulseaudio") and shutil.which("pactl") and shutil.which("paplay")):
        return None
    env = {
        "XDG_RUNTIME_DIR": str(runtime),
        "PULSE_RUNTIME_PATH": str(runtime / "pulse"),
        "PULSE_SERVER": f"unix:{runtime / 'pulse' / 'native'}",
        "PULSE_STATE_PATH": str(runtime / "state"),
    }
    os.environ.update(env)
    server = subprocess.Popen(
        [
            "pulseaudio",
            "-n",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "--use-pid-file=no",
            "--load=module-native-protocol-unix auth-anonymous=1",
            "--load=module-null-sink sink_name=vmic",
            "--load=module-always-sink",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 15
    while subprocess.run(["pactl", "info"], capture_output=True, check=False).returncode != 0:
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            return None
        time.sleep(0.1)
    subprocess.run(["pactl", "set-default-source", "vmic.monitor"], capture_output=True, check=False)
    return server


def speak(text: str, path: Path) -> Path:
    subprocess.run(
        ["espeak-ng", "-v", "en-gb", "-s", "150", "-w", str(path), text], check=True, capture_output=True
    )
    return path


class Scenario:
    def __init__(self, out: Path, work: Path) -> None:
        from PySide6.QtWidgets import QApplication

        from ui.theme import apply_theme

        self.out = out
        self.work = work
        self.app = QApplication.instance() or QApplication([sys.argv[0]])
        apply_theme(self.app, dark=False)  # type: ignore[arg-type]
        self.window: Any = None
        self.library: Any = None
        self.notes: dict[str, int] = {}

    # --- plumbing -------------------------------------------------------------------------------------
    def wait(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what}")
            self.app.processEvents()
            time.sleep(0.02)

    def pause(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        self.wait(lambda: time.monotonic() > end, seconds + 1, "a pause")

    def settle(self) -> None:
        self.wait(self.window.ops.is_idle, 60, "the window to settle")
        self.pause(0.4)

    def shot(self, name: str) -> None:
        self.settle()
        path = self.out / name
        self.window.grab().save(str(path))
        print(f"wrote {path}")

    def screen_shot(self, name: str) -> None:
        """The window's part of the screen: menus and dialogs are windows of their own, which the
        window's own grab() leaves out."""
        self.pause(0.6)
        frame = self.window.frameGeometry()
        from PySide6.QtGui import QGuiApplication

        screen = QGuiApplication.primaryScreen()
        path = self.out / name
        screen.grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).save(str(path))
        print(f"wrote {path}")

    def open_window(self) -> None:
        from app.library import Library
        from ui.window import MainWindow

        if self.library is None:
            self.library = Library.open(self.work / "library")
        self.window = MainWindow(self.library)
        self.window.resize(WIDTH, HEIGHT)
        self.window.show()
        self.wait(lambda: self.window.readiness is not None, 30, "the first-run check")

    def close_window(self) -> None:
        self.window.close()
        self.wait(self.window.ops.is_idle, 30, "the window to close")
        self.window.deleteLater()
        self.app.processEvents()

    # --- the library ---------------------------------------------------------------------------------
    def import_demo_notes(self) -> None:
        from app.ingest.imports import import_files
        from ui.dev.demo_notes import NOTES

        for n, note in enumerate(NOTES):
            spoken_at = f"{date.today() - timedelta(days=note.days_ago)}T{note.time}:00"
            if note.spoken:
                path = speak(" ".join(note.lines), self.work / f"{note.title}.wav")
            else:
                path = self.work / f"note-{n}.jsonl"
                segments = [
                    {"id": f"demo-{n}:{i}", "start": i * 5.0, "end": i * 5.0 + 4.6, "text": line}
                    for i, line in enumerate(note.lines)
                ]
                path.write_text(
                    json.dumps(
                        {
                            "id": f"demo-{n}",
                            "project": note.project,
                            "title": note.title,
                            "spoken_at": spoken_at,
                            "segments": segments,
                        }
                    )
                    + "\n"
                )
            results = import_files(self.library, [path], project=note.project, spoken_at=spoken_at)
            if results and results[0].recording_id:
                self.notes[note.title] = results[0].recording_id
        self.window.background.wake_jobs()
        self.window.timeline_model.reload()
        self.wait(self.all_transcribed, TRANSCRIBE_S, "the spoken notes to be transcribed")
        self.window.sidebar.refresh()
        self.window.timeline_model.reload()

    def all_transcribed(self) -> bool:
        from app.recording_service import list_recordings

        return all(r.status in ("indexed", "consolidated", "failed") for r in list_recordings(self.library))

    def all_consolidated(self) -> bool:
        from app.consolidation.service import pending
        from app.jobs.queue import list_jobs

        open_jobs = [j for j in list_jobs(self.library, include_finished=False) if j.kind == "consolidate"]
        return not pending(self.library) and not open_jobs

    def wait_consolidated(self) -> None:
        self.window.background.wake_jobs()
        self.wait(self.all_consolidated, CONSOLIDATE_S, "background consolidation")
        self.settle()

    def use_chat_model(self, path: Path) -> None:
        from models.catalogue import Role

        self.library.models.register(Role.CHAT, path)

    # --- the states ------------------------------------------------------------------------------------
    def first_run(self) -> None:
        self.open_window()
        self.shot("first-run.png")

    def timeline(self) -> None:
        self.window.sidebar.select_project(None)
        self.window.show_timeline()
        self.shot("timeline.png")

    def recording(self) -> None:
        recording_id = self.notes["Harbourline go-live check"]
        self.window.open_recording(recording_id)
        view = self.window.recording_view
        self.wait(lambda: view.model.rowCount() > 0, 30, "the transcript")
        row = min(1, view.model.rowCount() - 1)
        view.play_row(row)
        self.pause(1.5)
        self.shot("recording.png")
        view.player.stop()

    def digest(self) -> None:
        self.window.sidebar.select_project("Harbourline")
        self.window.show_timeline()
        digest = self.window.timeline.digest
        self.wait(lambda: bool(digest.blocks), 30, "the digest")
        self.shot("digest.png")

    def consolidation(self, name: str = "recording-consolidation.png") -> None:
        self.window.open_recording(self.notes["Harbourline kickoff"])
        side = self.window.recording_view.side
        self.wait(lambda: bool(side.fact_blocks) and bool(side.correction_buttons), 30, "the note's layers")
        self.shot(name)

    def connections(self, name: str = "connections.png") -> None:
        page = self.window.connections_page
        self.window.consolidation_links.show_connections()
        self.wait(lambda: bool(page.cards), 30, "the connections")
        self.shot(name)

    def commitments(self) -> None:
        page = self.window.commitments_page
        self.window.consolidation_links.show_commitments()
        self.wait(lambda: bool(page.cards), 30, "the commitments")
        self.shot("commitments.png")

    def ask(self, question: str) -> dict[str, Any]:
        panel = self.window.ask_panel
        panel.question.setText(question)
        panel.last_answer = None
        panel.ask()
        self.wait(lambda: panel.op is None, ASK_S, "the answer")
        return panel.last_answer or {}

    def answer(self) -> None:
        from ui.dev.demo_notes import NOT_IN_NOTES, QUESTIONS

        self.ask(NOT_IN_NOTES)
        self.shot("answer-not-in-notes.png")
        chosen = None
        for question in QUESTIONS:
            kinds = {c.get("kind") for c in self.ask(question).get("claims", [])}
            if kinds >= {"stated", "inferred"}:
                chosen = question
                break
            if "stated" in kinds and chosen is None:
                chosen = question
        if chosen is not None and chosen != self.window.ask_panel.question.text():
            self.ask(chosen)
        claims = self.window.ask_panel.answer.claims
        print(f"answer to {chosen!r}: claims of kinds {sorted({c.kind for c in claims})}")
        citations = [b for c in claims for b in c.citations]
        if citations:  # what the user does next: hear it
            citations[0].click()
            view = self.window.recording_view
            self.wait(lambda: view.model.current_row is not None, 30, "the cited recording")
            self.pause(1.0)
        self.shot("answer.png")
        self.window.recording_view.player.stop()

    def answer_commitments(self) -> None:
        """A question about who owes what: the promise, its due day and whether it was done."""
        from ui.dev.demo_notes import OWED

        claims = self.ask(OWED).get("claims", [])
        print(f"answer to {OWED!r}: {[(c.get('kind'), c.get('text')) for c in claims]}")
        self.shot("answer-commitments.png")

    def answer_connections(self) -> None:
        """A question across projects: what two projects share, quoted from both, and why they meet."""
        from ui.dev.demo_notes import ACROSS

        claims = self.ask(ACROSS).get("claims", [])
        print(f"answer to {ACROSS!r}: {[(c.get('kind'), c.get('text')) for c in claims]}")
        self.shot("answer-connections.png")

    def search(self) -> None:
        from ui.dev.demo_notes import SEARCH

        self.window.search_box.setText(SEARCH)
        self.window.on_search_box_return_pressed()
        self.wait(lambda: bool(self.window.search_page.cards), 60, "search results")
        self.shot("search.png")

    def live_recording(self, have_microphone: bool) -> None:
        from ui.dev.demo_notes import LIVE_SPEECH

        if not have_microphone:
            print("no PulseAudio here: skipping the live recording screenshot")
            return
        speech = speak(LIVE_SPEECH, self.work / "live.wav")
        self.window.ask_panel.reset()
        self.window.search_box.clear()
        self.window.sidebar.select_project("Harbourline")
        self.window.show_timeline()
        self.settle()
        recorder = self.window.recorder
        self.window.toggle_recording()
        self.wait(lambda: recorder.state == "recording", 30, "the recording to start")
        player = subprocess.Popen(["paplay", "--device=vmic", str(speech)])
        live = self.window.live_panel.text
        said = lambda: len(live.toPlainText()) > 80 or player.poll() is not None  # noqa: E731
        self.wait(said, 60, "the live transcript")
        self.window.grab().save(str(self.out / "recording-live.png"))  # now: the meter is moving
        print(f"wrote {self.out / 'recording-live.png'}")
        self.wait(lambda: player.poll() is not None, 60, "the speech to end")
        recorder.stop()
        self.wait(lambda: recorder.state == "idle", 60, "the recording to be saved")
        self.wait(self.all_transcribed, TRANSCRIBE_S, "the recording to be transcribed")

    def select_note(self, title: str) -> Any:
        self.window.sidebar.select_project(None)
        self.window.show_timeline()
        model, view = self.window.timeline_model, self.window.timeline.view
        recording_id = self.notes[title]
        self.wait(lambda: model.row_for(recording_id) is not None, 30, f"{title} in the timeline")
        index = model.index(model.row_for(recording_id))
        view.setCurrentIndex(index)
        view.scrollTo(index)
        self.settle()
        return index

    def note_menu(self) -> None:
        """A note's context menu on the timeline, its "Move to project" list open."""
        index = self.select_note("Harbourline caching")
        view = self.window.timeline.view
        rect = view.visualRect(index)
        self.window.note_actions.on_timeline_menu(rect.center())
        menu = self.window.note_actions.menu
        self.wait(menu.isVisible, 10, "the note's menu")
        move = next(a for a in menu.actions() if a.text() == "Move to project")
        menu.setActiveAction(move)
        geometry = menu.actionGeometry(move)
        move.menu().popup(menu.mapToGlobal(geometry.topRight()))
        self.wait(move.menu().isVisible, 10, "the projects to move to")
        self.screen_shot("note-menu.png")
        move.menu().close()
        menu.close()

    def retranscribe(self) -> None:
        """The re-transcribe dialog for a spoken note, then the note's transcripts once it ran."""
        from app.recording_service import RecordingId, get_recording

        title = "Harbourline go-live check"
        self.select_note(title)
        actions = self.window.note_actions
        actions.ask_retranscribe(get_recording(self.library, RecordingId(self.notes[title])))
        self.wait(lambda: actions.dialog is not None and actions.dialog.isVisible(), 30, "the dialog")
        dialog = actions.dialog
        dialog.model.setCurrentIndex(dialog.model.findData("tiny.en"))  # another model than the note's
        self.screen_shot("retranscribe.png")
        dialog.start_button.click()
        self.settle()
        done = lambda: get_recording(self.library, RecordingId(self.notes[title])).transcript_version == 2  # noqa: E731
        self.wait(lambda: done() and self.all_transcribed(), TRANSCRIBE_S, "the new transcript")
        self.window.open_recording(self.notes[title])
        self.wait(lambda: self.window.recording_view.model.rowCount() > 0, 30, "the new transcript")
        actions.show_versions(get_recording(self.library, RecordingId(self.notes[title])))
        self.wait(lambda: actions.dialog is not dialog and actions.dialog.isVisible(), 30, "the transcripts")
        self.wait(lambda: bool(actions.dialog.text.toPlainText()), 30, "the earlier words")
        self.screen_shot("transcripts.png")
        actions.dialog.close()

    def trash(self) -> None:
        """A note deleted (the notice offers Undo), and the Trash page."""
        from app.recording_service import RecordingId, get_recording

        self.select_note("Atlas migration review")
        actions = self.window.note_actions
        actions.delete(get_recording(self.library, RecordingId(self.notes["Atlas migration review"])))
        self.wait(lambda: bool(self.window.notices.notices), 30, "the Undo notice")
        actions.show_trash()
        self.wait(lambda: actions.trash_page.list.count() == 1, 30, "the trash")
        actions.trash_page.list.setCurrentRow(0)
        self.shot("trash.png")
        actions.restore(self.notes["Atlas migration review"])
        self.wait(lambda: actions.trash_page.list.count() == 0, 30, "the note to be restored")
        self.window.show_timeline()
        self.wait_consolidated()

    def library_menu(self) -> None:
        """The Library menu (back up, export), then the window after a backup: where it went."""
        from PySide6.QtCore import QPoint

        from ui.dialogs.library_copies import backup_file_name

        self.window.sidebar.select_project(None)
        self.window.show_timeline()
        self.settle()
        button, menu = self.window.library_button, self.window.library_menu
        # opened leftwards from the button's right edge, as it fits at the window's edge
        corner = button.mapToGlobal(button.rect().bottomRight())
        menu.popup(corner - QPoint(menu.sizeHint().width(), 0))
        self.wait(menu.isVisible, 10, "the Library menu")
        self.screen_shot("library-menu.png")
        menu.close()
        copies = self.work / "copies"
        copies.mkdir(exist_ok=True)
        self.window.back_up_to(copies / backup_file_name())
        self.wait(lambda: "copy" in self.window.notices.notices, 120, "the backup")
        self.shot("library-backup.png")
        self.window.notices.dismiss("copy")

    def dark(self) -> None:
        from ui.theme import apply_theme

        self.close_window()
        apply_theme(self.app, dark=True)  # type: ignore[arg-type]
        self.open_window()
        self.wait(lambda: len(self.window.timeline_model.row_of_id) > 0, 30, "the timeline")
        self.shot("timeline-dark.png")
        self.consolidation("recording-consolidation-dark.png")
        self.connections("connections-dark.png")


ONLY = {
    "note-menu": "note_menu",
    "retranscribe": "retranscribe",
    "trash": "trash",
    "timeline": "timeline",
    "library-menu": "library_menu",
    "answer": "answer",
    "commitments": "commitments",
    "answer-commitments": "answer_commitments",
    "answer-connections": "answer_connections",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.dev.screenshots", description=__doc__)
    parser.add_argument("--out", default="docs/screenshots")
    parser.add_argument("--work", help="working folder (default: a temporary one, removed after)")
    parser.add_argument("--chat-model", help="a GGUF chat model for the answers (default: the shipped one)")
    parser.add_argument("--only", nargs="+", metavar="STATE", help="only these states: " + ", ".join(ONLY))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(args.work or tempfile.mkdtemp(prefix="verbatim-shots-"))
    work.mkdir(parents=True, exist_ok=True)
    from app.paths import DataDir

    # the demo library uses the models already provisioned for this user: nothing is copied
    os.environ.setdefault("VERBATIM_MODELS_DIR", str(DataDir.resolve().models_dir))
    server = None
    try:
        scenario = Scenario(out, work)
        if args.only:
            scenario.open_window()
            scenario.import_demo_notes()
            scenario.wait_consolidated()
            for state in args.only:
                getattr(scenario, ONLY[state])()
            scenario.close_window()
            return 0
        scenario.first_run()  # on a machine with no microphone: guidance, not errors
        scenario.close_window()
        server = start_virtual_microphone(work / "pulse")
        scenario.open_window()
        if args.chat_model:
            scenario.use_chat_model(Path(args.chat_model))
        scenario.import_demo_notes()
        scenario.wait_consolidated()
        scenario.timeline()
        scenario.digest()
        scenario.recording()
        scenario.consolidation()
        scenario.connections()
        scenario.commitments()
        scenario.answer()
        scenario.answer_commitments()
        scenario.answer_connections()
        scenario.search()
        scenario.live_recording(server is not None)
        scenario.note_menu()
        scenario.retranscribe()
        scenario.trash()
        scenario.library_menu()
        scenario.dark()
        scenario.close_window()
    finally:
        if server is not None:
            server.terminate()
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
