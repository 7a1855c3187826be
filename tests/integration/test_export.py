"""Exports of a real library (imported notes, consolidated, one edited, a real audio file, hostile
project names and titles): an Obsidian vault whose notes parse, whose names are safe and whose links
all resolve, and a JSON dump that reads back to the same library. An export never changes the library."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.backup.export import export_library
from app.backup.formats import safe_name
from app.backup.restore import restore_backup
from app.consolidation.service import consolidate, list_connections, list_facts
from app.edits import save_edit
from app.ingest.imports import import_corpus, import_files
from app.ingest.indexing import index_pending
from app.library import Library
from app.paths import DataDir
from app.project_service import list_projects
from app.recording_service import audio_file, list_recordings, list_segments
from app.search import search
from memory.consolidate import state
from memory.store import snapshots as store_backup
from models.errors import InputError
from tests.conftest import MODELS_DIR, require_models
from tests.support.audio_helpers import speech_file
from tests.support.cli import run
from tests.support.consolidation_corpus import write_corpus

HOSTILE_PROJECTS = ("../x", "a/b", "a:b", "CON", "🎙️ Notes")
HOSTILE_TITLES = (
    "../../etc/passwd",
    "a/b",
    "CON",
    "PRN.txt",
    "🎙️ voice memo",
    "Same",
    "Same",
    "x" * 300,
    "..",
    "Facts",
)
SPOKEN = "Budget is $14,800 and [[not a link]] # not a heading, see <b>this</b> | pipe ^block %%c%%."
RESERVED = {
    "CON",
    "PRN",
    "AUX",
    "NUL",
    *(f"COM{n}" for n in range(1, 10)),
    *(f"LPT{n}" for n in range(1, 10)),
}
AS_OF = datetime(2026, 6, 1, 12, 0)
LINK = re.compile(r"(!?)\[\[([^\]|#]+)(?:#\^([A-Za-z0-9-]+))?(?:\|[^\]]*)?\]\]")


def _hostile_corpus(path: Path) -> Path:
    lines = []
    for n, title in enumerate(HOSTILE_TITLES):
        project = {"Same": "CON", "Facts": "Facts"}.get(title, HOSTILE_PROJECTS[n % len(HOSTILE_PROJECTS)])
        segments = [{"id": f"h{n}:s0", "start": 0.0, "end": 4.0, "text": f"{SPOKEN} Note {n}."}]
        lines.append(
            json.dumps(
                {
                    "id": f"h{n}",
                    "project": project,
                    "title": title,
                    "spoken_at": "2026-04-01T09:30:00",
                    "segments": segments,
                }
            )
        )
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    root = tmp_path_factory.mktemp("export-source")
    library = Library(DataDir(root / "library", MODELS_DIR))
    for corpus in (write_corpus(root / "notes.jsonl"), _hostile_corpus(root / "hostile.jsonl")):
        assert {r.status for r in import_corpus(library, corpus)} == {"imported"}
    consolidate(library, use_model=False)
    clip = speech_file(root, "The Harbour App launch moved to April.", "harbour.ogg")
    assert import_files(library, [clip], project="Harbour App")[0].status == "imported"
    first = list_segments(library, list_recordings(library, project="Harbour App")[-1].id)[0]
    save_edit(library, first.id, first.raw_text + " Checked by Priya.")
    yield library
    library.close()


@pytest.fixture(scope="module")
def vault(source: Library, tmp_path_factory: pytest.TempPathFactory) -> Path:
    before = store_backup.table_fingerprints(source.store)
    out = tmp_path_factory.mktemp("exports") / "vault"
    report = export_library(source, out, fmt="markdown")
    assert report.recordings == len(list_recordings(source)) and report.audio_files == 1
    assert store_backup.table_fingerprints(source.store) == before  # an export only reads
    return out


def _front_matter(text: str) -> dict[str, object]:
    """The YAML subset the export writes: `key: value`, each value a JSON scalar (YAML-compatible)."""
    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, text[:200]
    values = {}
    for line in match[1].splitlines():
        key, value = re.fullmatch(r"([a-z_]+): (.*)", line).groups()  # type: ignore[union-attr]
        values[key] = json.loads(value)
    return values


def _notes(vault: Path) -> dict[Path, str]:
    return {p: p.read_text("utf-8") for p in vault.rglob("*.md")}


@pytest.mark.slow
def test_every_recording_has_a_note_with_front_matter(source: Library, vault: Path) -> None:
    by_id = {}
    for path, text in _notes(vault).items():
        front = _front_matter(text)
        if "recording_id" in front:
            by_id[front["recording_id"]] = (path, front, text)
    recordings = list_recordings(source)
    assert set(by_id) == {r.id for r in recordings}
    for rec in recordings:
        path, front, text = by_id[rec.id]
        assert path.parent.parent == vault
        assert (front["project"], front["spoken_at"], front["duration"]) == (
            rec.project,
            rec.spoken_at,
            rec.duration,
        )
        assert (front["source"], front["status"], front["title"]) == (rec.source, rec.status, rec.title)
        assert re.match(r"\d{4}-\d{2}-\d{2} \d{4} ", path.name)
        for segment in list_segments(source, rec.id):
            assert re.search(rf"^\*\*\[\d\d:\d\d:\d\d\]\*\* .* \^s{segment.idx}$", text, re.M)


@pytest.mark.slow
def test_file_names_are_safe_for_hostile_projects_and_titles(source: Library, vault: Path) -> None:
    paths = [p for p in vault.rglob("*")]
    for path in paths:
        relative = path.relative_to(vault)
        assert path.resolve().is_relative_to(vault.resolve())
        for part in relative.parts:
            assert part not in (".", "..") and not re.search(r'[<>:"/\\|?*\x00-\x1f]', part), part
            assert part.split(".")[0].strip().upper() not in RESERVED, part
            assert len(part.encode()) <= 255 and part == part.strip() and not part.endswith(".")
    folders = {p.name for p in vault.iterdir() if p.is_dir()}
    assert len(folders) == len(list_projects(source, include_archived=True)) + 1  # + audio
    assert {"x", "a-b", "a-b (2)", "CON_", "🎙️ Notes", "Facts"} <= folders
    facts_folder = {p.name for p in (vault / "Facts").iterdir()}
    assert {"Facts.md", "Facts (2).md"} < facts_folder  # the project's index and its facts, apart
    con = [p.name for p in (vault / "CON_").glob("*Same*.md")]
    assert sorted(con) == ["2026-04-01 0930 Same (2).md", "2026-04-01 0930 Same.md"]
    assert safe_name("..") == "untitled" and safe_name("a/../b") == "a-..-b"
    assert safe_name("lpt1.txt") == "lpt1_.txt" and safe_name("\u202e\x00") == "untitled"


@pytest.mark.slow
def test_links_resolve_to_files_and_lines_that_exist(vault: Path) -> None:
    notes = _notes(vault)
    checked = 0
    for path, text in notes.items():
        for embed, target, block in LINK.findall(text):
            file = vault / target if embed else vault / f"{target}.md"
            assert file.is_file(), f"{path.name}: [[{target}]]"
            if block:
                assert re.search(rf" \^{block}$", notes[file], re.M), f"{path.name}: {target}#^{block}"
            checked += 1
    assert checked > 50
    hostile = next(t for t in notes.values() if "Note 0." in t)
    assert "[[not a link]]" not in hostile and "$14" not in hostile.replace("\\$14", "")


@pytest.mark.slow
def test_audio_edits_facts_and_connections_are_in_the_vault(source: Library, vault: Path) -> None:
    rec = next(r for r in list_recordings(source) if r.audio_path)
    original = audio_file(source, rec)
    assert original is not None
    note = next(t for t in _notes(vault).values() if f"recording_id: {rec.id}\n" in t)
    audio = _front_matter(note)["audio"]
    assert isinstance(audio, str) and f"![[{audio}]]" in note
    assert hashlib.sha256((vault / audio).read_bytes()).hexdigest() == rec.content_sha256
    assert "*No transcript yet (queued).*" in note
    [edited] = [t for t in _notes(vault).values() if "*(edited)*" in t]
    assert "Checked by Priya. *(edited)*" in edited and "> raw, as spoken:" in edited
    harbour = vault / "Harbour App"
    facts = (harbour / "Facts.md").read_text("utf-8")
    expected = list_facts(source, project="Harbour App")
    assert expected and facts.count("\n- **") == len(expected)
    assert all("([[Harbour App/" in line for line in facts.splitlines() if line.startswith("- **"))
    connections = (vault / "Connections.md").read_text("utf-8")
    assert list_connections(source) and connections.count("\n## ") == len(list_connections(source))
    assert "[[Harbour App/Harbour App|" in (vault / "Verbatim.md").read_text("utf-8")


@pytest.mark.slow
def test_export_targets_are_checked(source: Library, vault: Path, tmp_path: Path) -> None:
    root = source.data_dir.root
    for bad in (root, root / "exports", root / "audio"):
        with pytest.raises(InputError, match="inside the library's data folder"):
            export_library(source, bad)
    with pytest.raises(InputError, match="not empty"):
        export_library(source, vault)
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(InputError, match="is a file"):
        export_library(source, tmp_path / "file.txt")
    result = run("--data-dir", str(root), "export", "--out", str(vault), "--force", "--no-audio", "--json")
    assert result.code == 0, result.err
    assert result.json()["recordings"] == len(list_recordings(source))
    assert not (root / "exports").exists()


@pytest.mark.slow
def test_json_export_reads_back_to_the_same_library(source: Library, tmp_path: Path) -> None:
    out = tmp_path / "dump"
    result = run("--data-dir", str(source.data_dir.root), "export", "--format", "json", "--out", str(out))
    assert result.code == 0, result.err
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["format"] == "verbatim-json" and manifest["format_version"] == 1
    assert manifest["schema_version"] == store_backup.schema_version(source.store)
    tables = {}
    for name, info in manifest["tables"].items():
        rows = [json.loads(line) for line in (out / info["file"]).read_text("utf-8").splitlines()]
        assert len(rows) == info["rows"] and all(list(r) == info["columns"] for r in rows)
        tables[name] = rows
    recordings = {r["id"]: r for r in tables["recordings"]}
    assert set(recordings) == {r.id for r in list_recordings(source)}
    segments: dict[int, list[str]] = {}
    for row in tables["segments"]:
        segments.setdefault(row["recording_id"], []).append(row["text"])
    for rec in list_recordings(source):
        assert segments.get(rec.id, []) == [s.raw_text for s in list_segments(source, rec.id)]
        if rec.audio_path:
            copied = out / recordings[rec.id]["audio_path"]
            assert hashlib.sha256(copied.read_bytes()).hexdigest() == rec.content_sha256
    edits = {row["segment_id"]: row["text"] for row in tables["segment_edits"]}
    assert any("Checked by Priya" in text for text in edits.values())
    facts = {row["id"]: row for row in tables["facts"]}
    assert {i for i, row in facts.items() if row["restates"] is None} == {f.id for f in list_facts(source)}
    assert all(row["restates"] in facts for row in facts.values() if row["restates"] is not None)
    assert len(tables["connections"]) == len(list_connections(source, include_dismissed=True))


@pytest.mark.slow
def test_one_project_only(source: Library, tmp_path: Path) -> None:
    export_library(source, tmp_path / "md", project="Harbour App", audio=False)
    notes = [p for p in (tmp_path / "md").rglob("*.md") if p.parent != tmp_path / "md"]
    assert {p.parent.name for p in notes} == {"Harbour App"}
    export_library(source, tmp_path / "js", fmt="json", project="Harbour App")
    rows = [json.loads(x) for x in (tmp_path / "js" / "recordings.jsonl").read_text().splitlines()]
    assert {r["id"] for r in rows} == {r.id for r in list_recordings(source, project="Harbour App")}
    segments = [json.loads(x) for x in (tmp_path / "js" / "segments.jsonl").read_text().splitlines()]
    assert segments and {s["recording_id"] for s in segments} <= {r["id"] for r in rows}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_safe_name_is_one_safe_component_for_any_text(text: str) -> None:
    name = safe_name(text)
    assert name and name not in (".", "..") and name == name.strip(" .-")
    assert not re.search(r'[<>:"/\\|?*#^\[\]\x00-\x1f\x7f]', name)
    assert name.split(".")[0].strip().upper() not in RESERVED and len(name.encode()) <= 120
    assert safe_name(name) == name  # stable: a safe name stays as it is


@pytest.mark.slow
def test_a_project_cannot_take_the_name_of_the_data_folder(tmp_path: Path) -> None:
    require_models()
    with Library(DataDir(tmp_path / "Atlas", MODELS_DIR)) as library:
        note = tmp_path / "note.txt"
        note.write_text("A note about the Atlas launch.", "utf-8")
        import_files(library, [note], project="Atlas")
        export_library(library, tmp_path, force=True, audio=False)
        assert (tmp_path / "Atlas (2)" / "Atlas (2).md").is_file()
        assert not list((tmp_path / "Atlas").glob("*.md"))  # nothing written into the library


@pytest.mark.slow
def test_a_json_export_restores_to_a_library_that_searches_the_same(source: Library, tmp_path: Path) -> None:
    out = tmp_path / "dump"
    export_library(source, out, fmt="json")
    damaged = tmp_path / "damaged"
    shutil.copytree(out, damaged)
    text = (damaged / "segments.jsonl").read_text("utf-8")
    (damaged / "segments.jsonl").write_text(text.replace("Priya", "Pryia", 1), "utf-8")
    result = run("restore", str(damaged), "--into", str(tmp_path / "never"))
    assert result.code == 1 and "segments.jsonl does not match its checksum" in result.err
    assert not (tmp_path / "never").exists()
    export_library(source, tmp_path / "one", fmt="json", project="Harbour App")
    with pytest.raises(InputError, match="one project"):
        restore_backup(tmp_path / "one", tmp_path / "never")

    result = run("restore", str(out), "--into", str(tmp_path / "restored"), "--json")
    assert result.code == 0, result.err
    with Library(DataDir(tmp_path / "restored", MODELS_DIR)) as restored:
        for table in store_backup.EXPORT_TABLES[:-1]:  # all but migrations (the new database's own)
            assert list(store_backup.table_rows(restored.store, table)) == list(
                store_backup.table_rows(source.store, table)
            ), table
        for rec in list_recordings(source):
            copy = audio_file(restored, rec)
            if rec.audio_path:
                assert (
                    copy is not None and hashlib.sha256(copy.read_bytes()).hexdigest() == rec.content_sha256
                )
        index_pending(restored)
        for query in ("launch date", "Priya Raman", "sign maker"):
            before = [(h.recording_id, h.segment_ids) for h in search(source, query, as_of=AS_OF)]
            assert before == [(h.recording_id, h.segment_ids) for h in search(restored, query, as_of=AS_OF)]
        # Re-indexed, every recording has the chunks it had: consolidation finds its stages done.
        done = []
        for rec in list_recordings(source):
            here, there = (state.fingerprint(lib.store, rec.id) for lib in (source, restored))
            done.append(state.done_stages(restored.store, rec.id, there))
            assert done[-1] == state.done_stages(source.store, rec.id, here)
        assert sum(1 for stages in done if stages) >= 10
