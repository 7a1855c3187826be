"""`verbatim bench backup`: backup, check, restore and export times and sizes on a library of a
given size, against a plain copy of the same data folder (the baseline, same run, same disk).

The library is synthetic but laid out as a real one: recordings of 100 segments of real dictation
text (reshuffled from the evaluation corpora when present), chunks, FTS index and 384-dimension
vectors written through the normal indexing functions; the audio is one file per recording of the
size a FLAC microphone recording has (about 1 MB a minute at 16 kHz mono), filled with random
bytes, which neither ZIP nor any compressor can shrink, just like real FLAC or Opus audio.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from app.backup.create import create_backup
from app.backup.export import export_library
from app.backup.read import verify_backup
from app.backup.restore import restore_backup
from app.library import Library
from app.paths import DataDir
from bench import synthetic_store
from memory.store import snapshots as store_backup

EVAL_DIR = Path(__file__).resolve().parents[2] / "shared" / "eval"
FLAC_BYTES_PER_MINUTE = 1_000_000
DIMS = 384
Say = Callable[[str], None]


def _pool() -> list[tuple[str | None, str]]:
    segments: list[tuple[str | None, str]] = []
    for corpus in sorted(EVAL_DIR.glob("*/corpus.jsonl")):
        for line in corpus.read_text("utf-8").splitlines():
            for seg in json.loads(line).get("segments", []) if line.strip() else []:
                if seg.get("text", "").strip():
                    segments.append((seg.get("speaker"), seg["text"]))
    if not segments:
        rng = np.random.default_rng(3)
        words = [f"w{i}" for i in range(20_000)]
        segments = [(None, " ".join(words[r] for r in rng.integers(0, 20_000, 18))) for _ in range(5000)]
    return segments


def _vectors(first: int, count: int) -> np.ndarray:
    rng = np.random.default_rng(first)
    matrix = rng.standard_normal((count, DIMS)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def build_library(root: Path, recordings: int, audio_files: int, minutes: float, say: Say) -> Library:
    library = Library(DataDir(root))
    synthetic_store.fill_synthetic(
        library.store,
        n_chunks=recordings * synthetic_store.CHUNKS_PER_RECORDING,
        pool=_pool(),
        vectors=_vectors,
        model="bench-minilm",
        dims=DIMS,
    )
    size = int(minutes * FLAC_BYTES_PER_MINUTE)
    for n in range(audio_files):
        folder = library.data_dir.audio_dir / f"{n % 256:02x}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"bench-{n:05d}.flac").write_bytes(os.urandom(size))
    say(f"library: {recordings} recordings, {audio_files} audio files of {minutes:g} min")
    return library


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    began = time.perf_counter()
    result = fn()
    return result, round(time.perf_counter() - began, 2)


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def run_bench(
    *, recordings: int, audio_files: int, minutes: float, work: Path | None, say: Say
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=work, prefix="verbatim-bench-backup-") as scratch:
        base = Path(scratch)
        library, built = _timed(
            lambda: build_library(base / "library", recordings, audio_files, minutes, say)
        )
        counts = store_backup.library_counts(library.store)
        library.store.checkpoint()
        data_bytes = _folder_bytes(library.data_dir.root)
        _, copy_s = _timed(lambda: shutil.copytree(library.data_dir.root, base / "plain-copy"))
        shutil.rmtree(base / "plain-copy")
        say(f"plain copy of the data folder: {copy_s} s")
        full, full_s = _timed(lambda: create_backup(library, base / "full.verbatim-backup"))
        say(f"full backup: {full_s} s")
        _, verify_s = _timed(lambda: verify_backup(Path(full.path)))
        restored, restore_s = _timed(lambda: restore_backup(Path(full.path), base / "restored"))
        say(f"restore: {restore_s} s")
        daily, daily_s = _timed(lambda: create_backup(library, base / "daily.verbatim-backup", audio=False))
        _, markdown_s = _timed(lambda: export_library(library, base / "vault", audio=False))
        _, json_s = _timed(lambda: export_library(library, base / "dump", fmt="json", audio=False))
        db_bytes = library.data_dir.db_path.stat().st_size
        library.close()
        return {
            "library": {**counts, "audio_files": audio_files, "audio_minutes_each": minutes},
            "bytes": {
                "data_folder": data_bytes,
                "database": db_bytes,
                "full_backup": full.bytes,
                "daily_backup": daily.bytes,
            },
            "seconds": {
                "build": built,
                "plain_copy_baseline": copy_s,
                "full_backup": full_s,
                "verify": verify_s,
                "restore_with_verify": restore_s,
                "daily_backup": daily_s,
                "export_markdown_no_audio": markdown_s,
                "export_json_no_audio": json_s,
            },
            "restored_counts_equal": restored.counts == counts,
        }
