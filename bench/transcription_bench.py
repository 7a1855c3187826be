"""`verbatim bench transcription`: the product's transcription pipeline against bare faster-whisper.

In one run, on the same files (the speech-dev manifest), with the same model and options:
- bare: faster-whisper as a script runs it: a fresh Python loads the model once, then
  decode_audio + transcribe for each file, nothing else;
- product: a fresh library, `import_files` (copy, hash, full decode check), the job queue, the
  worker process, batched commits and incremental indexing, to every recording "indexed".
Rounds alternate (bare, product, bare, product) and the best of each is compared, so a neighbour's
burst of CPU hurts both sides alike. WER comes from the transcripts the product stored.
Peak memory is measured in fresh processes (the parent and its transcription worker) for
recordings of growing length, and for the recorder writing and finishing long recordings.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from app.library import Library
from app.paths import DataDir
from bench.wer import overall, read_manifest, score
from capture.audio import FlacWriter, inspect_audio, iter_audio_16k
from capture.transcriber import peak_rss_mb
from models.catalogue import Role
from models.whisper import default_threads

DEFAULT_MANIFEST = Path(__file__).resolve().parents[2] / "shared" / "eval" / "speech-dev" / "manifest.tsv"
Say = Callable[[str], None]


@dataclass
class BenchReport:
    machine: dict[str, Any]
    files: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[dict[str, float]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    memory: list[dict[str, Any]] = field(default_factory=list)
    recorder_memory: list[dict[str, Any]] = field(default_factory=list)
    live: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return self.__dict__


def machine() -> dict[str, Any]:
    import ctranslate2
    import faster_whisper

    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        "unknown",
    )
    return {
        "cpu": cpu,
        "threads": default_threads(),
        "python": sys.version.split()[0],
        "faster_whisper": faster_whisper.__version__,
        "ctranslate2": ctranslate2.__version__,
        "load_average": list(Path("/proc/loadavg").read_text().split()[:3]),
    }


@dataclass
class Run:
    wall: float  # seconds on the clock
    cpu: float  # CPU seconds, every thread and child process: what a busy machine cannot inflate
    texts: list[str]
    stages: dict[str, float] = field(default_factory=dict)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_BARE_SCRIPT = """
import json, sys
from faster_whisper import WhisperModel, decode_audio
model = WhisperModel(sys.argv[1], device="cpu", compute_type="int8", cpu_threads=int(sys.argv[2]))
texts = []
for path in sys.argv[3:]:
    segments, _ = model.transcribe(decode_audio(path), beam_size=5, vad_filter=True, word_timestamps=True,
                                   condition_on_previous_text=False)
    texts.append(" ".join(s.text.strip() for s in segments))
print(json.dumps(texts))
"""


def bare_run(model_path: Path, files: list[Path]) -> Run:
    """faster-whisper alone, as a script would run it: a fresh Python that loads the model and
    transcribes each file with the same options the product uses. Its start and model load count,
    as the product's worker process's do."""
    began, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(
        [sys.executable, "-c", _BARE_SCRIPT, str(model_path), str(default_threads()), *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    return Run(time.perf_counter() - began, _children_cpu() - cpu, list(json.loads(done.stdout)))


def product_run(models_dir: Path, files: list[Path], model_path: Path) -> Run:
    """Import into a fresh library and run the queue until every recording is indexed."""
    from app.ingest.imports import import_files
    from app.ingest.transcription import shutdown_workers
    from app.jobs.worker import run_pending
    from memory.store import recordings

    with tempfile.TemporaryDirectory(prefix="verbatim-bench-") as tmp:
        library = Library(DataDir(Path(tmp), models_override=models_dir))
        library.settings.models[Role.TRANSCRIPTION.value] = str(model_path)
        try:
            began, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
            results = import_files(library, files, project="Bench")
            imported = time.perf_counter()
            jobs = run_pending(library)
            shutdown_workers()  # the worker's CPU time is counted once it has exited
            ended = time.perf_counter()
            parent_cpu, worker_cpu = time.process_time() - cpu, _children_cpu() - children
            failed = [j.message for j in jobs if j.status != "done"]
            failed += [r.message for r in results if r.status == "failed"]
            if failed:
                raise RuntimeError(f"the product pipeline failed: {failed[0]}")
            texts = [
                " ".join(s.raw_text for s in recordings.list_segments(library.store, r.recording_id or 0))
                for r in results
            ]
            statuses = {recordings.get_recording(library.store, r.recording_id or 0).status for r in results}
            assert statuses == {"indexed"}, statuses
        finally:
            shutdown_workers()
            library.close()
    stages = {
        "import": imported - began,
        "transcribe_and_index": ended - imported,
        "app_cpu": parent_cpu,  # import checks, store, indexing, embedding
        "worker_cpu": worker_cpu,  # starting Python, loading the model, transcribing
    }
    return Run(ended - began, parent_cpu + worker_cpu, texts, stages)


def _wer(rows: list[tuple[Path, str]], texts: list[str], durations: list[float]) -> float:
    scores = [
        score(p.name, ref, text, d, 0.0) for (p, ref), text, d in zip(rows, texts, durations, strict=True)
    ]
    return float(overall(scores)["wer"])


def compare(
    library: Library, manifest: Path, rounds: int, say: Say, *, max_seconds: float | None = None
) -> BenchReport:
    rows = read_manifest(manifest)
    if max_seconds is not None:  # --quick: the short files only
        rows = [(p, ref) for p, ref in rows if inspect_audio(p).duration <= max_seconds]
    files = [audio for audio, _ in rows]
    durations = [inspect_audio(p).duration for p in files]
    model_path = library.models.path_for(Role.TRANSCRIPTION)
    report = BenchReport(machine())
    bare_runs, product_runs = [], []
    for number in range(rounds):
        bare = bare_run(model_path, files)
        bare_runs.append(bare)
        say(f"round {number + 1}: bare faster-whisper {bare.wall:.1f} s ({bare.cpu:.1f} s CPU)")
        product = product_run(library.data_dir.models_dir, files, model_path)
        product_runs.append(product)
        say(f"round {number + 1}: product pipeline {product.wall:.1f} s ({product.cpu:.1f} s CPU)")
        report.rounds.append(
            {
                "bare_s": bare_runs[-1].wall,
                "bare_cpu_s": bare_runs[-1].cpu,
                "product_s": product_runs[-1].wall,
                "product_cpu_s": product_runs[-1].cpu,
                **{f"product_{k}_s": v for k, v in product_runs[-1].stages.items()},
                "load_average": float(Path("/proc/loadavg").read_text().split()[0]),
            }
        )
    scores = [
        score(p.name, ref, text, d, 0.0)
        for (p, ref), text, d in zip(rows, product_runs[-1].texts, durations, strict=True)
    ]
    report.files = [{k: v for k, v in s.to_json().items() if k not in ("seconds", "rtf")} for s in scores]
    audio = sum(durations)
    bare_wall, product_wall = min(r.wall for r in bare_runs), min(r.wall for r in product_runs)
    bare_cpu, product_cpu = min(r.cpu for r in bare_runs), min(r.cpu for r in product_runs)
    report.summary = {
        "model": model_path.name,
        "files": len(files),
        "audio_seconds": audio,
        "bare_best_s": bare_wall,
        "product_best_s": product_wall,
        "overhead_wall": product_wall / bare_wall - 1,
        "bare_best_cpu_s": bare_cpu,
        "product_best_cpu_s": product_cpu,
        "overhead_cpu": product_cpu / bare_cpu - 1,
        "speed_bare": audio / bare_wall,
        "speed_product": audio / product_wall,
        "wer": _wer(rows, product_runs[-1].texts, durations),
        "wer_bare": _wer(rows, bare_runs[-1].texts, durations),
    }
    return report


def long_audio(source: list[Path], minutes: float, target: Path) -> Path:
    """A FLAC of `minutes` made by repeating the manifest's speech (16 kHz mono)."""
    needed = int(minutes * 60 * 16_000)
    pieces = [np.concatenate(list(iter_audio_16k(p))) for p in source]
    with FlacWriter(target, 16_000) as flac:
        written = 0
        while written < needed:
            for piece in pieces:
                take = piece[: needed - written]
                flac.write((np.clip(take, -1, 1) * 32767).astype(np.int16))
                written += take.size
                if written >= needed:
                    break
    return target


def _probe(mode: str, path: Path, models_dir: Path, minutes: float) -> dict[str, Any]:
    """Run a memory probe in a fresh Python, so its peak is its own."""
    call = f"probe_main({mode!r}, {str(path)!r}, {str(models_dir)!r}, {minutes})"
    code = f"from bench.transcription_bench import probe_main; {call}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"memory probe failed: {done.stderr.strip()[-500:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def probe_main(mode: str, path: str, models_dir: str, minutes: float) -> None:
    """In a fresh process: transcribe one long file (mode "transcribe") or record one (mode "record")."""
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="verbatim-probe-") as tmp:
        library = Library(DataDir(Path(tmp), models_override=Path(models_dir)))
        if mode == "transcribe":
            from app.ingest.imports import import_files
            from app.ingest.transcription import shutdown_workers, transcribe_recording

            [imported] = import_files(library, [Path(path)], project="Bench")
            report = transcribe_recording(library, imported.recording_id or 0)
            shutdown_workers()
            result = {
                "worker_peak_mb": report.peak_rss_mb,
                "speed": report.speed,
                "segments": report.segments_added,
            }
        else:
            result = _record_probe(library, minutes)
        library.close()
    result.update(
        {"minutes": minutes, "parent_peak_mb": peak_rss_mb(), "seconds": time.perf_counter() - began}
    )
    print(json.dumps(result))


def _record_probe(library: Library, minutes: float) -> dict[str, Any]:
    """The recorder's disk path at full speed: blocks to the crash-safe file, then FLAC in the library."""
    from app.ingest.recording_session import store_recorded_audio
    from capture.blockfile import BlockWriter, read_leftover
    from memory.store import projects, recordings

    project = projects.add_project(library.store, "Bench")
    rid = recordings.create_recording(
        library.store,
        project_id=project.id,
        spoken_at="2026-01-01T09:00:00",
        source="microphone",
        status="recording",
    )
    writer = BlockWriter(
        library.data_dir.recordings_dir, rid, sample_rate=16_000, started_at="2026-01-01T09:00:00"
    )
    rng = np.random.default_rng(0)
    block = (rng.standard_normal(800) * 3000).astype(np.int16).tobytes()  # 50 ms, like the callback's
    for _ in range(int(minutes * 60 * 20)):
        writer.append(block)
    writer.close()
    began = time.perf_counter()
    leftover = read_leftover(library.data_dir.recordings_dir, rid)
    assert leftover is not None and store_recorded_audio(library, leftover, recovered=False)
    return {"finish_seconds": time.perf_counter() - began}


def memory_curve(library: Library, manifest: Path, lengths: list[float], say: Say) -> list[dict[str, Any]]:
    sources = [audio for audio, _ in read_manifest(manifest)]
    curve = []
    with tempfile.TemporaryDirectory(prefix="verbatim-long-") as tmp:
        for minutes in lengths:
            path = long_audio(sources, minutes, Path(tmp) / f"long-{minutes:g}.flac")
            point = _probe("transcribe", path, library.data_dir.models_dir, minutes)
            say(
                f"{minutes:g} min: worker peak {point['worker_peak_mb']:.0f} MB,"
                f" app {point['parent_peak_mb']:.0f} MB"
            )
            curve.append(point)
            path.unlink()
    return curve


def recorder_curve(library: Library, lengths: list[float], say: Say) -> list[dict[str, Any]]:
    curve = []
    for minutes in lengths:
        point = _probe("record", Path("-"), library.data_dir.models_dir, minutes)
        say(
            f"recorder {minutes:g} min: peak {point['parent_peak_mb']:.0f} MB,"
            f" finish {point['finish_seconds']:.1f} s"
        )
        curve.append(point)
    return curve


def live_lag(library: Library, source: Path, seconds: float, say: Say) -> dict[str, Any]:
    """The live pass on speech written at the speed of speaking: how far behind its text is.

    The audio is appended to a recording file in 50 ms blocks in real time, as the recorder does;
    the lag of a segment is when the live pass confirmed it minus when its last word was written.
    """
    import os

    from capture.blockfile import BlockWriter
    from capture.live_transcriber import LiveRequest, LiveTranscriber

    audio = np.concatenate(list(iter_audio_16k(source)))[: int(seconds * 16_000)]
    pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
    lags: list[float] = []
    with tempfile.TemporaryDirectory(prefix="verbatim-live-") as tmp:
        writer = BlockWriter(Path(tmp), 1, sample_rate=16_000, started_at="2026-01-01T09:00:00")
        began = time.monotonic()

        def confirmed(segments: list[tuple[float, float, str]], tentative: str) -> None:
            now = time.monotonic() - began
            lags.extend(now - min(end, len(pcm) / 16_000) for _, end, _ in segments)

        model = library.models.path_for(Role.TRANSCRIPTION_FAST)
        live = LiveTranscriber(LiveRequest(str(writer.pcm_path), 16_000, str(model), os.getpid()), confirmed)
        live.start()
        for number, first in enumerate(range(0, len(pcm), 800)):
            writer.append(pcm[first : first + 800].tobytes())
            time.sleep(max(0.0, began + (number + 1) * 0.05 - time.monotonic()))
        writer.close()
        live.finish()
    result = {
        "audio_seconds": len(pcm) / 16_000,
        "segments": len(lags),
        "median_lag_s": float(np.median(lags)) if lags else None,
        "max_lag_s": max(lags) if lags else None,
    }
    say(f"live pass: {result['segments']} segments, median lag {result['median_lag_s']} s")
    return result
