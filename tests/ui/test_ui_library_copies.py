"""Backup and export from the window (they were only in the CLI): the Library menu's actions run as
tasks, say where the copy went, and the copies are whole (a backup verifies, an export opens as a
vault)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.backup.read import verify_backup
from app.ingest.imports import import_corpus
from tests.support.ui_helpers import WAIT_MS, note, write_corpus
from ui.dialogs.library_copies import backup_file_name, export_folder

pytestmark = pytest.mark.slow  # the real window loads the embedding and chat models as it starts


def _two_notes(library, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    corpus = write_corpus(
        tmp_path / "corpus.jsonl",
        [
            note("a:1", "Atlas", "2026-03-02T09:00:00", ["Kickoff with the Atlas platform team."]),
            note("b:1", "Brightwater", "2026-03-05T15:00:00", ["Jonas wants the migration plan by Friday."]),
        ],
    )
    import_corpus(library, corpus)


def test_the_library_menu_offers_backup_and_both_exports(window) -> None:  # type: ignore[no-untyped-def]
    labels = [a.text() for a in window.library_menu.actions()]
    assert labels == ["Back up library…", "Export for Obsidian (Markdown)…", "Export as JSON…"]
    assert window.actions_by_name["backup"].shortcut().toString() == "Ctrl+Shift+B"


def test_a_backup_from_the_window_is_whole_and_says_where_it_went(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _two_notes(library, tmp_path)
    out = tmp_path / "copies" / backup_file_name()
    out.parent.mkdir()
    window.back_up_to(out)
    qtbot.waitUntil(lambda: "copy" in window.notices.notices, timeout=WAIT_MS)
    assert out.is_file()
    manifest = verify_backup(out)
    assert manifest["counts"]["recordings"] == 2
    assert (
        window.status_label.text() == f"Backed up 2 notes to {out.name} ({out.stat().st_size / 1e6:.1f} MB)."
    )


def test_exports_from_the_window_go_into_a_new_folder(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _two_notes(library, tmp_path)
    chosen = tmp_path / "Documents"
    chosen.mkdir()
    (chosen / "something else.txt").write_text(
        "the user's own file", "utf-8"
    )  # not empty: refused as a target
    vault = export_folder(chosen, "markdown")
    window.export_to(vault, "markdown")
    qtbot.waitUntil(lambda: "copy" in window.notices.notices, timeout=WAIT_MS)
    assert vault.parent == chosen and any(vault.rglob("*.md"))
    assert "Exported 2 notes of 2 projects as Markdown" in window.status_label.text()
    dump = export_folder(chosen, "json")
    assert dump != vault
    window.notices.dismiss("copy")
    window.export_to(dump, "json")
    qtbot.waitUntil(lambda: "copy" in window.notices.notices, timeout=WAIT_MS)
    exported = [json.loads(p.read_text("utf-8")) for p in dump.glob("*.json")]
    assert exported, "no JSON file written"
    assert (chosen / "something else.txt").read_text("utf-8") == "the user's own file"


def test_a_refused_backup_says_why_and_writes_nothing(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "a folder"  # a folder, not a file: refused
    folder.mkdir()
    window.back_up_to(folder)
    qtbot.waitUntil(lambda: window.status_label.text() == "The copy was not written.", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: any(k.startswith("error:") for k in window.notices.notices), timeout=WAIT_MS)
    assert not any(folder.iterdir())
