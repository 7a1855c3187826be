"""How long Cancel takes, per kind of background work: `python -m bench.cancel_latency [--repeats N]`.

Each run starts the real work on a fresh library in a thread, cancels it part-way the way the app
does (the import's and the start-up indexing's flag, the Jobs list's cancel_job for queued jobs),
and times from the cancel to the work having returned with the library consistent
(app.consistency). The kinds:

- import: a 30 MB .txt, cancelled while it is read, stored and indexed (0.5 s to 8 s in);
- indexing: "Making notes searchable" (index_pending) on a 3 MB note stored without its index;
- transcription: a job on ~3 min of espeak-ng speech, cancelled once its first words are stored;
- consolidation: a job on a long note with the shipped chat model, cancelled 1-4 s in;
- backup: a backup of a library holding a 300 MB audio file, cancelled 0.3-1.5 s in.

Medians and the slowest run go in docs/benchmarks.md; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from app.consistency import library_problems
from app.library import Library
from app.paths import DataDir
from bench.bench_env import cpu_model, load_average

SENTENCES = (
    "the budget for phase one was agreed with the client and the warehouse team will review the pilot"
    " plan next week while Priya checks the invoices from the Oslo depot before the steering meeting"
)


def _text(path: Path, megabytes: float, seed: int = 18) -> Path:
    import random

    words, chooser = SENTENCES.split(), random.Random(seed)
    size, limit = 0, int(megabytes * 1_000_000)
    with path.open("w", encoding="utf-8") as out:
        while size < limit:
            paragraph = (
                " ".join(
                    " ".join(chooser.choice(words) for _ in range(chooser.randint(8, 20))).capitalize() + "."
                    for _ in range(6)
                )
                + "\n\n"
            )
            out.write(paragraph)
            size += len(paragraph)
    return path


MODELS = DataDir.resolve().models_dir  # the provisioned models, shared by every scratch library


def _library(root: Path) -> Library:
    return Library(DataDir(root.resolve(), MODELS))


def _timed_cancel(
    work: Callable[[], object], cancel: Callable[[], object], ready: Callable[[], bool], delay: float
) -> tuple[float, str]:
    """Start `work` in a thread, wait until `ready()` and `delay` seconds, `cancel()`, and return
    (seconds from the cancel to the work's end, how it ended)."""
    ended: list[str] = []

    def run() -> None:
        try:
            work()
            ended.append("finished")
        except Exception as exc:  # the bench records how the work ended, whatever it was
            ended.append(type(exc).__name__)

    thread = threading.Thread(target=run)
    thread.start()
    while not ready() and thread.is_alive():
        time.sleep(0.02)
    time.sleep(delay)
    began = time.perf_counter()
    cancel()
    thread.join()
    return time.perf_counter() - began, ended[0] if ended else "?"


def bench_import(scratch: Path, repeats: int) -> list[dict[str, Any]]:
    from app.ingest.imports import import_files

    source = _text(scratch / "huge.txt", 30)
    runs = []
    for n in range(repeats):
        for delay in (0.5, 2.0, 5.0, 8.0):
            library = _library(scratch / f"import-{n}-{delay}")
            stop = threading.Event()
            seconds, how = _timed_cancel(
                partial(import_files, library, [source], project="Scratch", cancelled=stop.is_set),
                stop.set,
                lambda: True,
                delay,
            )
            runs.append(_result("import", seconds, how, library, f"{delay:g} s in"))
    return runs


def bench_indexing(scratch: Path, repeats: int) -> list[dict[str, Any]]:
    from app.ingest.indexing import index_pending
    from capture.transcripts import read_transcript
    from memory.store import projects, recordings

    segments = read_transcript(_text(scratch / "note.txt", 3, seed=5))
    runs = []
    for n in range(repeats):
        library = _library(scratch / f"index-{n}")
        store = library.store
        project = projects.add_project(store, "P").id
        rid = recordings.create_recording(
            store,
            project_id=project,
            spoken_at="2026-11-20T09:00:00",
            source="transcript",
            status="queued",
            duration=segments[-1].end,
        )
        recordings.append_segments(store, rid, segments)
        stop = threading.Event()
        seconds, how = _timed_cancel(
            partial(index_pending, library, cancelled=stop.is_set),
            stop.set,
            lambda: True,
            2.0 + n % 3,
        )
        runs.append(_result("indexing", seconds, how, library, f"{2 + n % 3} s in"))
    return runs


def _speech(scratch: Path) -> Path:
    wav = scratch / "talk.wav"
    if not wav.exists():
        text = "The lantern budget is small. Call the glacier museum about the insurance. " * 40
        espeak = shutil.which("espeak-ng")
        if espeak is None:
            raise SystemExit("espeak-ng is not installed")
        subprocess.run([espeak, "-v", "en-us", "-s", "150", "-w", str(wav), text], check=True)
    return wav


def _job_runs(kind: str, library: Library, job_id: int, ready: Callable[[], bool], delay: float) -> dict:
    from app.jobs import worker as jobs_worker
    from app.jobs.queue import get_job
    from memory.store import jobs as store_jobs

    job = store_jobs.claim_next(library.store, worker=jobs_worker.worker_id(), kinds=[kind])
    assert job is not None and job.id == job_id
    seconds, _ended = _timed_cancel(
        partial(jobs_worker.run_job, library, job),
        partial(jobs_worker.cancel_job, library, job_id),
        ready,
        delay,
    )
    return _result(kind, seconds, str(get_job(library, job_id).status), library, f"{delay:g} s after start")


def _has_segments(library: Library, recording_id: int) -> bool:
    from memory.store import recordings

    return bool(recordings.list_segments(library.store, recording_id))


def bench_transcription(scratch: Path, repeats: int) -> list[dict[str, Any]]:
    from app.ingest.imports import import_files
    from app.ingest.transcription import shutdown_workers
    from memory.store import jobs as store_jobs

    wav = _speech(scratch)
    runs = []
    for n in range(repeats):
        library = _library(scratch / f"transcribe-{n}")
        [imported] = import_files(library, [wav], project="P")
        rid = imported.recording_id or 0
        [job] = store_jobs.list_jobs(library.store, statuses=store_jobs.OPEN)
        runs.append(
            _job_runs(
                "transcribe",
                library,
                job.id,
                partial(_has_segments, library, rid),
                0.5 * (n % 3),
            )
        )
        shutdown_workers()
    return runs


def bench_consolidation(scratch: Path, repeats: int) -> list[dict[str, Any]]:
    from app.consolidation import service as consolidation
    from app.ingest.imports import import_files

    note = scratch / "meeting.txt"
    note.write_text(
        "Priya Raman will send the Hartwell budget by Friday the 14th. We decided to pilot in Leeds. "
        "The phase one budget is 40,000 pounds, no, sorry, 45,000 pounds. Markus owes us the data dump. "
        * 12,
        encoding="utf-8",
    )
    runs = []
    for n in range(repeats):
        library = _library(scratch / f"consolidate-{n}")
        import_files(library, [note], project="Hartwell Logistics")
        [job_id] = consolidation.enqueue_pending(library)
        runs.append(_job_runs("consolidate", library, job_id, lambda: True, 1.0 + n % 4))
    return runs


def bench_backup(scratch: Path, repeats: int) -> list[dict[str, Any]]:
    from app.backup.create import create_backup
    from app.ingest.imports import import_files

    (scratch / "n.txt").write_text("The lantern budget is far too small.\n", encoding="utf-8")
    runs = []
    for n in range(repeats):
        library = _library(scratch / f"backup-{n}")
        import_files(library, [scratch / "n.txt"], project="P")
        blob = library.data_dir.audio_dir / "large.bin"
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes(np.random.default_rng(n).bytes(300 << 20))
        stop = threading.Event()
        out = scratch / f"backup-{n}.verbatim-backup"
        delay = (0.3, 0.8, 1.5)[n % 3]
        seconds, how = _timed_cancel(
            partial(create_backup, library, out, cancelled=stop.is_set),
            stop.set,
            lambda: True,
            delay,
        )
        blob.unlink()
        runs.append(_result("backup", seconds, how, library, f"{delay:g} s in"))
    return runs


def _result(kind: str, seconds: float, how: str, library: Library, when: str) -> dict[str, Any]:
    problems = library_problems(library)
    library.close()
    return {"kind": kind, "seconds": round(seconds, 3), "ended": how, "when": when, "problems": problems}


KINDS = {
    "import": bench_import,
    "indexing": bench_indexing,
    "transcription": bench_transcription,
    "consolidation": bench_consolidation,
    "backup": bench_backup,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cancel_latency", description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--json", type=Path, help="write every run here")
    args = parser.parse_args(argv)
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="verbatim-cancel-") as folder:
        for kind in args.kinds.split(","):
            scratch = Path(folder) / kind
            scratch.mkdir()
            found = KINDS[kind](scratch, args.repeats)
            runs += found
            times = [r["seconds"] for r in found]
            print(
                f"{kind:14s} runs {len(times):2d}  median {statistics.median(times):.2f} s"
                f"  slowest {max(times):.2f} s  ended {sorted({r['ended'] for r in found})}"
                f"  inconsistent {sum(1 for r in found if r['problems'])}",
                flush=True,
            )
    print(f"machine: {cpu_model()}, load {load_average()}, Python {platform.python_version()}")
    if args.json:
        args.json.write_text(
            json.dumps({"when": datetime.now().isoformat(timespec="seconds"), "runs": runs}, indent=1)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
