"""Backups and restores on a real library: imported notes (consolidated, one edited), a real audio
file (espeak-ng speech), settings. A restored library must hold the same rows, the same audio bytes
and answer searches the same; a damaged or hostile backup must be refused before anything changes."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import shutil
import threading
import time
import zipfile
import zlib
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from app.backup import create as bk
from app.backup import daily, formats, restore
from app.backup.daily import daily_backups, daily_path, enqueue_daily, make_daily_backup
from app.backup.read import verify_backup
from app.backup.restore import holds_data, restore_backup
from app.consolidation.service import consolidate
from app.edits import save_edit
from app.ingest.imports import import_corpus, import_files
from app.instance_lock import InstanceLock, LibraryInUseError
from app.jobs.worker import JobWorker
from app.library import Library
from app.paths import DataDir
from app.project_service import add_project
from app.recording_service import audio_file, get_recording, list_recordings, list_segments
from app.search import search
from memory.store import snapshots as store_backup
from memory.store.store import Store, StoreError, migration_files
from models.errors import CancelledError, InputError
from tests.conftest import MODELS_DIR, require_models
from tests.support.audio_helpers import speech_file
from tests.support.cli import run
from tests.support.consolidation_corpus import write_corpus
from tests.support.fault_helpers import kill_9, small_disk, start_driver
from tests.support.waiting import wait_until

AS_OF = datetime(2026, 6, 1, 12, 0)
QUERIES = ("launch date", "Priya Raman", "sign maker")


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` with its sha256: 'untouched' means this is equal before and after."""
    return {str(p.relative_to(folder)): _sha(p) for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    root = tmp_path_factory.mktemp("backup-source")
    library = Library(DataDir(root / "library", MODELS_DIR))
    assert {r.status for r in import_corpus(library, write_corpus(root / "notes.jsonl"))} == {"imported"}
    consolidate(library, use_model=False)
    clip = speech_file(root, "The Harbour App launch moved to April.", "harbour.ogg")
    [imported] = import_files(library, [clip], project="Harbour App", spoken_at="2026-03-01T10:00:00")
    assert imported.status == "imported"
    first = list_segments(library, list_recordings(library, project="Harbour App")[-1].id)[0]
    save_edit(library, first.id, first.raw_text + " (checked)")
    library.settings.recency_lambda_per_day = 0.02
    library.save_settings()
    yield library
    library.close()


@pytest.fixture(scope="module")
def backup_file(source: Library, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("backups") / "library.verbatim-backup"
    seen: list[tuple[int, int]] = []
    report = bk.create_backup(source, out, progress=lambda done, total: seen.append((done, total)))
    assert out.is_file() and report.bytes == out.stat().st_size
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1][0] == seen[-1][1]
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]  # no partial left
    return out


@pytest.mark.slow
def test_backup_holds_database_audio_settings_and_a_manifest(source: Library, backup_file: Path) -> None:
    with zipfile.ZipFile(backup_file) as archive:
        manifest = json.loads(archive.read(formats.MANIFEST))
        names = set(archive.namelist())
        for member in manifest["members"]:
            assert hashlib.sha256(archive.read(member["name"])).hexdigest() == member["sha256"]
        audio_member = next(i for i in archive.infolist() if i.filename.startswith("audio/"))
        assert audio_member.compress_type == zipfile.ZIP_STORED  # already compressed
    assert manifest["counts"] == store_backup.library_counts(source.store)
    assert manifest["schema_version"] == store_backup.newest_known_schema()
    assert manifest["app_version"] and manifest["created_at"] and manifest["missing_audio"] == []
    audio = [r.audio_path for r in list_recordings(source) if r.audio_path]
    assert audio and set(audio) <= names
    assert {formats.DATABASE, formats.SETTINGS, formats.MANIFEST} <= names


@pytest.mark.slow
def test_restore_into_a_fresh_folder_gives_the_same_library(
    source: Library, backup_file: Path, tmp_path: Path
) -> None:
    report = restore_backup(backup_file, tmp_path / "restored")
    assert report.set_aside is None
    with Library(DataDir(tmp_path / "restored", MODELS_DIR)) as restored:
        assert store_backup.library_counts(restored.store) == store_backup.library_counts(source.store)
        assert restored.store.integrity_check() == "ok"
        # every table, row for row (segments, edits, facts, the FTS index, vectors...)
        assert store_backup.table_fingerprints(restored.store) == store_backup.table_fingerprints(
            source.store
        )
        for rec in list_recordings(source):
            assert list_segments(restored, rec.id) == list_segments(source, rec.id)
            original = audio_file(source, rec)
            if original is not None:
                copy = audio_file(restored, get_recording(restored, rec.id))
                assert copy is not None and _sha(copy) == _sha(original) == rec.content_sha256
        for query in QUERIES:
            before = [(h.recording_id, h.segment_ids) for h in search(source, query, as_of=AS_OF)]
            after = [(h.recording_id, h.segment_ids) for h in search(restored, query, as_of=AS_OF)]
            assert before and before == after
        assert restored.settings.recency_lambda_per_day == 0.02


@pytest.mark.slow
def test_a_restore_clears_what_a_killed_restore_left_half_unpacked(backup_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "restored"
    stale = target / ".restoring-2026-01-01-000000"  # what kill -9 during unpacking leaves
    (stale / "audio").mkdir(parents=True)
    (stale / "verbatim.db").write_bytes(b"half a database")
    restore_backup(backup_file, target)
    assert not list(target.glob(".restoring-*"))
    with Library(DataDir(target, MODELS_DIR)) as restored:
        assert restored.store.integrity_check() == "ok"


def _flip_byte_inside(archive_path: Path, member: str, out: Path) -> Path:
    """A copy of the archive whose `member` no longer holds what it held. A byte flipped in
    deflated data may fall where it changes nothing (the code lengths of symbols a dynamic block
    never uses): then the content is intact, a restore is right to accept it, and that byte does
    not damage the member; the next one is flipped instead. Measured: 3 of the 31,747 bytes of a
    deflated 200 kB library database change nothing when flipped; a fresh-clone CI run met one
    ("DID NOT RAISE")."""
    shutil.copy(archive_path, out)
    with zipfile.ZipFile(out) as archive:
        info = archive.getinfo(member)
        original = archive.read(member)
    data = bytearray(out.read_bytes())
    header = info.header_offset
    name_len = int.from_bytes(data[header + 26 : header + 28], "little")
    extra_len = int.from_bytes(data[header + 28 : header + 30], "little")
    start = header + 30 + name_len + extra_len
    for offset in range(start + info.compress_size // 2, start + info.compress_size):
        data[offset] ^= 0xFF
        out.write_bytes(bytes(data))
        try:
            with zipfile.ZipFile(out) as archive:
                if archive.read(member) != original:
                    return out
        except (zipfile.BadZipFile, zlib.error, EOFError):
            return out
        data[offset] ^= 0xFF
    raise AssertionError(f"no byte of {member} changes what it holds")


@pytest.mark.slow
def test_a_damaged_backup_is_refused_naming_the_member_and_the_target_is_untouched(
    source: Library, backup_file: Path, tmp_path: Path
) -> None:
    existing = tmp_path / "existing"
    restore_backup(backup_file, existing)
    before = _snapshot(existing)
    audio = next(r.audio_path for r in list_recordings(source) if r.audio_path)
    assert audio is not None
    for member in (audio, formats.DATABASE):
        damaged = _flip_byte_inside(backup_file, member, tmp_path / "damaged.verbatim-backup")
        with pytest.raises(InputError, match="damaged") as caught:
            restore_backup(damaged, existing, force=True)
        assert member in caught.value.message
        assert _snapshot(existing) == before
        assert not (existing / "backups").exists()
    cut = tmp_path / "cut.verbatim-backup"
    cut.write_bytes(backup_file.read_bytes()[: backup_file.stat().st_size // 2])
    with pytest.raises(InputError, match="not a readable Verbatim backup"):
        restore_backup(cut, existing, force=True)
    assert _snapshot(existing) == before
    result = run("restore", str(damaged), "--into", str(tmp_path / "fresh"))
    assert result.code == 1 and "damaged" in result.err and not (tmp_path / "fresh").exists()


def _rewrite(
    backup_file: Path, out: Path, *, manifest_change: dict, extra: tuple[str, bytes] | None = None
) -> Path:
    with zipfile.ZipFile(backup_file) as src, zipfile.ZipFile(out, "w") as dst:
        manifest = json.loads(src.read(formats.MANIFEST))
        for info in src.infolist():
            if info.filename != formats.MANIFEST:
                dst.writestr(info, src.read(info.filename))
        if extra is not None:
            name, data = extra
            dst.writestr(name, data)
            manifest["members"].append(
                {"name": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            )
        manifest.update(manifest_change)
        dst.writestr(formats.MANIFEST, json.dumps(manifest))
    return out


@pytest.mark.slow
def test_newer_schema_and_hostile_member_names_are_refused(backup_file: Path, tmp_path: Path) -> None:
    newer = _rewrite(
        backup_file, tmp_path / "newer.verbatim-backup", manifest_change={"schema_version": 9999}
    )
    with pytest.raises(StoreError, match="newer Verbatim"):
        restore_backup(newer, tmp_path / "a")
    for name in ("../escaped.txt", "/etc/evil", "audio/../../evil", "notes/other.txt"):
        hostile = _rewrite(
            backup_file, tmp_path / "hostile.verbatim-backup", manifest_change={}, extra=(name, b"x")
        )
        with pytest.raises(InputError, match="unsafe member name"):
            restore_backup(hostile, tmp_path / "b")
    with zipfile.ZipFile(backup_file) as archive:
        members = json.loads(archive.read(formats.MANIFEST))["members"]
    lying = [{**m, "size": 10} if m["name"].startswith("audio/") else m for m in members]
    shrunk = _rewrite(backup_file, tmp_path / "sizes.verbatim-backup", manifest_change={"members": lying})
    with pytest.raises(InputError, match="has the wrong size"):  # a member bigger than it says
        restore_backup(shrunk, tmp_path / "b")
    with pytest.warns(UserWarning, match="Duplicate name"):  # zipfile warns, and writes it anyway
        twice = _rewrite(
            backup_file,
            tmp_path / "twice.verbatim-backup",
            manifest_change={},
            extra=(formats.SETTINGS, b"{}"),
        )
    with pytest.raises(InputError, match="twice"):
        restore_backup(twice, tmp_path / "b")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
    assert not (tmp_path / "escaped.txt").exists()


@pytest.mark.slow
def test_restore_refuses_a_library_with_notes_and_with_force_keeps_it_aside(
    backup_file: Path, tmp_path: Path
) -> None:
    require_models()
    target = tmp_path / "mine"
    with Library(DataDir(target, MODELS_DIR)) as mine:
        transcript = tmp_path / "own.txt"
        transcript.write_text("My own note about the Quarry project budget.", "utf-8")
        import_files(mine, [transcript], project="Quarry")
        own_counts = store_backup.library_counts(mine.store)
    assert holds_data(target)
    result = run("--data-dir", str(target), "restore", str(backup_file))
    assert result.code == 1 and "already holds a library" in result.err and "--force" in result.err
    app_lock = InstanceLock(target, "the desktop app").acquire()  # the app has this library open
    before = _snapshot(target)
    with pytest.raises(LibraryInUseError, match="the desktop app"):
        restore_backup(backup_file, target, force=True)
    assert _snapshot(target) == before
    app_lock.release()
    result = run("--data-dir", str(target), "restore", str(backup_file), "--force", "--json")
    assert result.code == 0, result.err
    aside = Path(result.json()["set_aside"])
    assert aside.parent == target / "backups" and aside.name.startswith("replaced-")
    assert store_backup.inspect_database(aside / formats.DATABASE)["counts"] == own_counts
    assert (
        result.json()["counts"] == json.loads(zipfile.ZipFile(backup_file).read(formats.MANIFEST))["counts"]
    )
    assert not (target / "verbatim.db-wal").exists() or (target / "verbatim.db").exists()


@pytest.mark.slow
def test_an_interrupted_backup_leaves_no_file(source: Library, tmp_path: Path) -> None:
    out = tmp_path / "never.verbatim-backup"
    with pytest.raises(CancelledError):
        bk.create_backup(source, out, cancelled=lambda: True)
    assert list(tmp_path.iterdir()) == []
    out.write_text("not mine")
    with pytest.raises(InputError, match="already exists"):
        bk.create_backup(source, out)
    assert out.read_text() == "not mine"


@pytest.mark.slow
def test_daily_backups_rotate_and_can_be_turned_off(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_models()
    monkeypatch.setattr(daily, "IDLE_SECONDS", 0.0)
    note = tmp_path / "note.txt"
    note.write_text("A short note about the Harbour App launch.", "utf-8")
    import_files(library, [note], project="Harbour App")
    library.settings.daily_backups_keep = 3
    today = date.today()
    for back in range(5, -1, -1):
        assert make_daily_backup(library, day=today - timedelta(days=back)) is not None
    assert make_daily_backup(library, day=today) is None  # at most once a day
    assert [p.name for p in daily_backups(library)] == [
        daily_path(library, today - timedelta(days=n)).name for n in (2, 1, 0)
    ]
    verify_backup(daily_path(library, today))
    assert enqueue_daily(library) is None  # today's is made
    daily_path(library, today).unlink()
    library.settings.daily_backups_keep = 0
    assert make_daily_backup(library, day=today) is None
    assert enqueue_daily(library) is None  # off
    library.settings.daily_backups_keep = 3
    assert enqueue_daily(library) is not None  # due, and the queue is idle
    assert enqueue_daily(library) is None  # once a day


@pytest.mark.slow
def test_the_job_worker_makes_the_daily_backup_when_idle(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_models()
    monkeypatch.setattr(daily, "IDLE_SECONDS", 0.5)
    note = tmp_path / "note.txt"
    note.write_text("A short note about the Harbour App launch.", "utf-8")
    import_files(library, [note], project="Harbour App")
    worker = JobWorker(library, kinds=["backup"], poll_seconds=0.2).start()

    def made() -> bool:
        worker.wake()
        return daily_path(library).exists()

    try:
        wait_until(made, "the daily backup", timeout=30)
    finally:
        worker.stop()
    assert daily_path(library).exists()
    verify_backup(daily_path(library))


def test_migration_makes_a_copy_first_that_opens_at_the_old_schema(tmp_path: Path) -> None:
    path = tmp_path / "library" / "verbatim.db"
    old = Store(path, migrate=False)
    applied = old.applied_migrations()
    for number, name, sql in migration_files():
        if number <= 10:
            with old.transaction():
                old.conn.execute(sql)
                old.execute(
                    "INSERT INTO migrations (id, name, applied_at) VALUES (?, ?, '2026-01-01T00:00:00')",
                    (number, name),
                )
    old.execute("INSERT INTO projects (name, slug, created_at) VALUES ('Old', 'old', '2026-01-01T00:00:00')")
    old.close()
    assert applied == []
    with Library(DataDir(tmp_path / "library", MODELS_DIR)) as library:
        assert store_backup.schema_version(library.store) == store_backup.newest_known_schema()
    copies = sorted(path.parent.glob("verbatim.before-*.db"))
    first_pending = next(name for number, name, _ in migration_files() if number > 10)
    assert [c.name for c in copies] == [f"verbatim.before-{first_pending}.db"]
    found = store_backup.inspect_database(copies[0])
    assert found["integrity"] == "ok" and found["schema_version"] == 10 and found["counts"]["projects"] == 1


@pytest.mark.slow
def test_cli_backup_and_restore(source: Library, tmp_path: Path) -> None:
    out = tmp_path / "cli.verbatim-backup"
    made = run("--data-dir", str(source.data_dir.root), "backup", "--out", str(out), "--json")
    assert made.code == 0, made.err
    assert made.json()["counts"] == store_backup.library_counts(source.store)
    again = run("--data-dir", str(source.data_dir.root), "backup", "--out", str(out))
    assert again.code == 1 and "already exists" in again.err
    restored = run("restore", str(out), "--into", str(tmp_path / "r"))
    assert restored.code == 0 and "restored" in restored.out, restored.err


@pytest.mark.slow
def test_a_backup_without_audio_restores_only_where_the_audio_still_is(
    source: Library, backup_file: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    restore_backup(backup_file, copy)
    with Library(DataDir(copy, MODELS_DIR)) as library:
        report = bk.create_backup(library, tmp_path / "db-only.verbatim-backup", audio=False)
    assert not report.audio_included
    with zipfile.ZipFile(report.path) as archive:
        manifest = json.loads(archive.read(formats.MANIFEST))
        assert not [n for n in archive.namelist() if n.startswith("audio/")]
    audio = [item["name"] for item in manifest["referenced_audio"]]
    assert audio == [r.audio_path for r in list_recordings(source) if r.audio_path]
    with pytest.raises(InputError, match="without audio"):
        restore_backup(Path(report.path), tmp_path / "elsewhere")
    assert not (tmp_path / "elsewhere").exists()
    restored = restore_backup(Path(report.path), copy, force=True)
    assert restored.set_aside and not (Path(restored.set_aside) / "audio").exists()
    with Library(DataDir(copy, MODELS_DIR)) as library:
        assert store_backup.table_fingerprints(library.store) == store_backup.table_fingerprints(source.store)
        assert all(audio_file(library, r) is not None for r in list_recordings(library) if r.audio_path)
    (copy / audio[0]).write_bytes(b"not the audio")
    with pytest.raises(InputError, match=re.escape(audio[0])):
        restore_backup(Path(report.path), copy, force=True)


def test_a_backup_taken_while_the_app_writes_is_consistent(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another thread keeps adding projects through the same store while the database is copied a
    page at a time: the copy is one consistent state, and it restores."""
    monkeypatch.setattr(store_backup, "PAGES_PER_STEP", 1)
    stop, added = threading.Event(), []

    def write() -> None:
        while not stop.is_set():
            added.append(add_project(library, f"Project {len(added)}").name)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        wait_until(lambda: len(added) >= 5, "five projects from the writer thread", timeout=30)
        report = bk.create_backup(library, tmp_path / "busy.verbatim-backup")
    finally:
        stop.set()
        writer.join()
    assert 5 <= report.counts["projects"] <= len(added)
    restored = restore_backup(Path(report.path), tmp_path / "restored")
    assert restored.counts == report.counts


@pytest.mark.slow
def test_a_full_disk_refuses_the_backup_and_leaves_no_file(
    source: Library, backup_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store_backup.copy_database(source.store, tmp_path / "copy.db")
    database = (tmp_path / "copy.db").stat().st_size
    with small_disk(tmp_path / "small", backup_file.stat().st_size // 1024 // 2) as disk:
        with pytest.raises(StoreError, match="not enough free space"):
            bk.create_backup(source, disk / "library.verbatim-backup")
        assert list(disk.iterdir()) == []
    # Past the check (as if another program filled the disk meanwhile): the database copy fits,
    # the archive does not. A clear message, and nothing left behind.
    monkeypatch.setattr(bk, "SPARE_BYTES", -(10 << 30))
    room = (database + backup_file.stat().st_size // 2) // 1024
    with small_disk(tmp_path / "smaller", room) as disk:
        with pytest.raises(StoreError, match=r"full|No space") as caught:
            bk.create_backup(source, disk / "library.verbatim-backup")
        assert "free some disk space" in (caught.value.fix or "")
        assert list(disk.iterdir()) == []


@pytest.mark.slow
def test_a_full_disk_refuses_the_restore_and_keeps_nothing_half_done(
    backup_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    half = backup_file.stat().st_size // 1024 // 2
    with small_disk(tmp_path / "small", half) as disk:
        with pytest.raises(StoreError, match="not enough free space"):
            restore_backup(backup_file, disk)
        assert list(disk.iterdir()) == []
        monkeypatch.setattr(restore, "SPARE_BYTES", -(10 << 30))  # the disk fills while unpacking
        with pytest.raises(StoreError, match="No space left") as caught:
            restore_backup(backup_file, disk)
        assert "free some disk space" in (caught.value.fix or "")
        assert [p.name for p in disk.iterdir()] in ([], ["verbatim.lock"])


@pytest.mark.slow
def test_a_backup_taken_while_another_process_writes_finishes_and_is_consistent(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app writes while `verbatim backup` runs in a terminal: SQLite restarts a page-by-page
    copy at each write from another connection; after a few restarts the rest is copied at once."""
    add_project(library, "First")
    writer = start_driver(
        library.data_dir.root,
        "import itertools, sys\n"
        "from app.library import Library\n"
        "from app.project_service import add_project\n"
        "library = Library.open()\n"
        "for n in itertools.count():\n"
        "    add_project(library, f'Busy {n}')\n"
        "    print('wrote', n, flush=True)\n",
    )
    seen: list[int] = []

    def slowly(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == 1:  # the other process commits between the first two steps, at least
            count = "SELECT count(*) FROM projects"
            before = library.store.scalar(count)
            wait_until(
                lambda: library.store.scalar(count) != before, "the other process's commit", timeout=20
            )
        time.sleep(0.02)  # kept: a slow copy, so that the other process writes between its steps

    try:
        assert writer.stdout is not None
        while not writer.stdout.readline().startswith("wrote 3"):
            pass
        monkeypatch.setattr(store_backup, "PAGES_PER_STEP", 1)
        store_backup.copy_database(library.store, tmp_path / "copy.db", progress=slowly)
        report = bk.create_backup(library, tmp_path / "busy.verbatim-backup")
    finally:
        kill_9(writer)
    assert any(later <= earlier for earlier, later in itertools.pairwise(seen))  # it started over
    copied = store_backup.inspect_database(tmp_path / "copy.db")
    assert copied["integrity"] == "ok" and copied["counts"]["projects"] >= 5
    restored = restore_backup(Path(report.path), tmp_path / "restored")
    assert restored.counts == report.counts
