"""The store: migrations, transactions, immutability of raw segments, refusal of newer schemas."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.store.store import Store, StoreError, migration_files


def test_fresh_store_has_every_migration_and_is_consistent(store: Store) -> None:
    assert store.applied_migrations() == [m[0] for m in migration_files()]
    assert store.integrity_check() == "ok"
    assert store.scalar("SELECT vec_version()").startswith("v0.1")
    assert store.scalar("PRAGMA foreign_keys") == 1


def test_file_store_uses_wal_and_reopens_without_migrating(tmp_path: Path) -> None:
    path = tmp_path / "lib" / "verbatim.db"
    with Store(path) as s:
        assert s.scalar("PRAGMA journal_mode") == "wal"
    with Store(path) as s:
        assert s.migrate() == []


def test_failed_transaction_rolls_back(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.execute("INSERT INTO projects (name, slug, created_at) VALUES ('A', 'a', 'now')")
        raise RuntimeError("boom")
    assert store.scalar("SELECT count(*) FROM projects") == 0


def test_nested_transaction_is_a_savepoint(store: Store) -> None:
    with store.transaction():
        store.execute("INSERT INTO projects (name, slug, created_at) VALUES ('A', 'a', 'now')")
        with pytest.raises(StoreError), store.transaction():
            store.execute("INSERT INTO projects (name, slug, created_at) VALUES ('a', 'a2', 'now')")
    assert [r["name"] for r in store.all("SELECT name FROM projects")] == ["A"]


def test_raw_segments_cannot_be_changed(store: Store) -> None:
    with store.transaction():
        store.execute("INSERT INTO projects (id, name, slug, created_at) VALUES (1, 'A', 'a', 'now')")
        store.execute(
            "INSERT INTO recordings (id, project_id, spoken_at, source, status, created_at)"
            " VALUES (1, 1, '2026-01-01T10:00:00', 'transcript', 'indexed', 'now')"
        )
        store.execute(
            "INSERT INTO segments (recording_id, idx, start, end, text) VALUES (1, 0, 0, 1, 'as spoken')"
        )
    with pytest.raises(StoreError, match="immutable"):
        store.execute("UPDATE segments SET text = 'rewritten'")
    assert store.scalar("SELECT text FROM segments") == "as spoken"


def test_refuses_a_schema_newer_than_the_code(tmp_path: Path) -> None:
    path = tmp_path / "verbatim.db"
    with Store(path) as s:
        s.execute("INSERT INTO migrations (id, name, applied_at) VALUES (9999, 'from-the-future', 'now')")
    with pytest.raises(StoreError, match="newer Verbatim"):
        Store(path)


def test_copies_the_database_before_migrating(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "verbatim.db"
    with Store(path) as s:
        s.execute("INSERT INTO projects (name, slug, created_at) VALUES ('Kept', 'kept', 'now')")
    shipped = migration_files()
    upgrade = (shipped[-1][0] + 1, f"{shipped[-1][0] + 1:04d}_test_upgrade", "CREATE TABLE upgraded (x);")
    monkeypatch.setattr("memory.store.store.migration_files", lambda: [*shipped, upgrade])
    with Store(path) as s:
        assert s.applied_migrations()[-1] == upgrade[0]
        assert s.scalar("SELECT count(*) FROM upgraded") == 0
    copy = tmp_path / f"verbatim.before-{upgrade[1]}.db"
    assert copy.is_file(), "no pre-migration copy"
    with Store(copy, migrate=False) as old:
        assert old.scalar("SELECT name FROM projects") == "Kept"
        assert old.applied_migrations()[-1] == shipped[-1][0]


def test_a_failing_migration_leaves_the_store_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "verbatim.db"
    Store(path).close()
    shipped = migration_files()
    broken = (shipped[-1][0] + 1, "broken", "CREATE TABLE half (x); SELECT no_such_function();")
    monkeypatch.setattr("memory.store.store.migration_files", lambda: [*shipped, broken])
    with pytest.raises(StoreError):
        Store(path)
    monkeypatch.undo()
    with Store(path) as s:
        assert s.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'half'") == 0
        assert s.applied_migrations()[-1] == shipped[-1][0]


def test_backup_copy_is_a_consistent_database(tmp_path: Path) -> None:
    path = tmp_path / "verbatim.db"
    with Store(path) as s:
        s.execute("INSERT INTO projects (name, slug, created_at) VALUES ('Kept', 'kept', 'now')")
        copy = s.backup_copy("manual")
    assert copy is not None
    with Store(copy) as c:
        assert c.integrity_check() == "ok"
        assert c.scalar("SELECT name FROM projects") == "Kept"
