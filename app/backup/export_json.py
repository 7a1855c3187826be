"""The library as JSON: a dump other tools can read, and that `verbatim restore DIR` reads back.

Format "verbatim-json", version 1, in a folder:
- `manifest.json`: format, format_version, app_version, schema_version (the database migrations
  the rows follow: memory/migrations/*.sql document every column), created_at, project_id (null
  for the whole library), per table its file, row count and columns, and `files`: the name, size
  and sha256 of every other file in the export;
- one `<table>.jsonl` per table (memory.store.snapshots.EXPORT_TABLES), one JSON object per row with every
  column as stored (columns that hold JSON, such as segments.words or facts.segment_ids, stay JSON
  strings): projects, recordings (a note in the trash has its trashed_at), segments (raw, never
  changed), segment_edits (the user's corrections, versioned), transcript_versions and
  transcript_version_segments (the earlier transcripts of a re-transcribed note, word for word,
  with their edits), recording_history (trashed, restored, moved, re-transcribed),
  consolidation_state, corrections, stretches, entities, facts, connections, connection_weights,
  digest_items, commitments, migrations. Chunks, embeddings and the search
  index are left out: indexing rebuilds them from the segments;
- `settings.json`, and `audio/...`: the audio files at the same relative paths as
  recordings.audio_path.

A restore from JSON checks every file's sha256 first, builds a new database from the rows (ids
kept) beside the library, and then goes on as a backup's restore does. The restored library is
searchable once indexed (the app indexes at start; `verbatim index` in a terminal). A one-project
export cannot be restored (its connections point into projects it does not hold).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app import __version__
from app.backup.formats import BLOCK, SETTINGS, ExportReport, Progress
from app.backup.read import check_schema, safe_member_name
from app.library import Library
from memory.store import snapshots as store_backup
from memory.store.store import Store
from models.errors import InputError

FORMAT = "verbatim-json"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"


def export_json(library: Library, target: Path, *, project_id: int | None, audio: bool) -> ExportReport:
    store = library.store
    tables: dict[str, Any] = {}
    audio_paths: list[str] = []
    for table in store_backup.EXPORT_TABLES:
        rows = 0
        with (target / f"{table}.jsonl").open("w", encoding="utf-8") as out:
            for row in store_backup.table_rows(store, table, project_id=project_id):
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                rows += 1
                if table == "recordings" and row.get("audio_path"):
                    audio_paths.append(row["audio_path"])
        tables[table] = {
            "file": f"{table}.jsonl",
            "rows": rows,
            "columns": store_backup.table_columns(store, table),
        }
    written = [info["file"] for info in tables.values()]
    if library.data_dir.settings_path.is_file():
        shutil.copy2(library.data_dir.settings_path, target / SETTINGS)
        written.append(SETTINGS)
    copied = _copy_audio(library, target, audio_paths) if audio else []
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "schema_version": store_backup.schema_version(store),
        "created_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "project_id": project_id,
        "tables": tables,
        "audio_included": audio,
        "files": [_describe(target, name) for name in written + copied],
    }
    (target / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", "utf-8")
    return ExportReport(
        str(target),
        "json",
        tables["projects"]["rows"],
        tables["recordings"]["rows"],
        len(written) + len(copied) + 1,
        len(copied),
    )


def _copy_audio(library: Library, target: Path, relative_paths: list[str]) -> list[str]:
    root, copied = library.data_dir.root.resolve(), []
    for relative in relative_paths:
        source, destination = (root / relative).resolve(), (target / relative).resolve()
        # audio_path comes from the database: it must point inside the library and the export folder.
        inside = source.is_relative_to(root) and destination.is_relative_to(target.resolve())
        if inside and source.is_file() and safe_member_name(relative):
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
            copied.append(relative)
    return copied


def _describe(folder: Path, name: str) -> dict[str, Any]:
    digest, size = _sha256(folder / name)
    return {"name": name, "size": size, "sha256": digest}


def _sha256(path: Path) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as handle:
        while block := handle.read(BLOCK):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


# --- reading it back ------------------------------------------------------------------------------------
def is_json_export(path: Path) -> bool:
    return path.is_dir() and (path / MANIFEST).is_file()


def verify_json_export(folder: Path, *, progress: Progress | None = None) -> dict[str, Any]:
    """The manifest, once every file it lists matches its sha256; raises naming the first bad file."""
    label = folder.name
    try:
        manifest = json.loads((folder / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{label}: {MANIFEST} is unreadable ({exc})") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InputError(f"{label} is not a Verbatim JSON export")
    if int(manifest.get("format_version", 0)) > FORMAT_VERSION:
        raise InputError(f"{label} was exported by a newer Verbatim", fix="update Verbatim to restore it")
    check_schema(manifest, label)
    if manifest.get("project_id") is not None:
        raise InputError(f"{label} is an export of one project", fix="export the whole library to restore it")
    files = manifest.get("files", [])
    total, done = sum(int(f["size"]) for f in files), 0
    for item in files:
        name = str(item["name"])
        if not (safe_member_name(name) or _is_table_file(name, manifest)):
            raise InputError(f"{label} lists an unsafe file name: {name!r}")
        if not (folder / name).is_file():
            raise InputError(f"{label} is incomplete: {name} is missing", fix="nothing was restored")
        if _sha256(folder / name) != (item["sha256"], item["size"]):
            raise InputError(
                f"{label} is damaged: {name} does not match its checksum", fix="nothing was restored"
            )
        done += int(item["size"])
        if progress is not None:
            progress(done, total)
    return manifest


def _is_table_file(name: str, manifest: dict[str, Any]) -> bool:
    return name in {f"{t}.jsonl" for t in store_backup.EXPORT_TABLES} and name.removesuffix(
        ".jsonl"
    ) in manifest.get("tables", {})


def build_from_json(folder: Path, manifest: dict[str, Any], staging: Path) -> None:
    """A new library in `staging` from a verified JSON export: database (newest schema, rows with
    their ids), settings and audio."""
    staging.mkdir(mode=0o700)
    with Store(staging / "verbatim.db") as store, store.transaction():
        store_backup.defer_foreign_keys(store)
        for table in store_backup.EXPORT_TABLES:
            info = manifest["tables"].get(table)
            if info is None or table == "migrations":  # the new database has its own
                continue
            store_backup.insert_rows(store, table, _read_rows(folder / info["file"], table))
    for item in manifest.get("files", []):
        name = str(item["name"])
        if name == SETTINGS or name.startswith("audio/"):
            destination = staging / name
            destination.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            shutil.copy2(folder / name, destination)


def _read_rows(path: Path, table: str) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise InputError(f"{path.name} line {number} is not JSON ({exc})") from exc
            if not isinstance(row, dict):
                raise InputError(f"{path.name} line {number} is not a {table} row")
            yield row
