"""Ingest benchmarks of `verbatim bench all`: transcript imports, and a recording's way to search.

- transcript import: a corpus imported the way a user imports one (parse, store, chunk, embed,
  index), in segments a second; the baseline is parsing alone, in the same run.
- recording to searchable: speech is written to a recording in real time, in 50 ms blocks, as the
  recorder's audio callback does, with the live pass (tiny.en) following it; from the moment it
  stops, how long until the live text is searchable (provisional index) and until the final
  transcript is indexed (status "indexed"). The baseline is importing the same audio as a file.
  The microphone itself is not in the loop: capture/recorder.py only appends those blocks.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from app.library import Library
from app.paths import DataDir
from capture.audio import iter_audio_16k
from memory.store import recordings
from models.catalogue import Role

Say = Callable[[str], None]


def transcript_import(corpus: Path, models_dir: Path) -> dict[str, Any]:
    from app.ingest.imports import import_corpus
    from capture.corpus import read_corpus

    began = time.perf_counter()
    parsed = read_corpus(corpus)
    parse_s = time.perf_counter() - began
    segments = sum(len(item.segments) for item in parsed)
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-import-") as tmp:
        library = Library(DataDir(Path(tmp), models_override=models_dir))
        try:
            library.models.embedder().embed(["warm up"])  # the model load is not per segment
            began = time.perf_counter()
            results = import_corpus(library, corpus)
            seconds = time.perf_counter() - began
            indexed = sum(
                1
                for r in results
                if r.recording_id
                and recordings.get_recording(library.store, r.recording_id).status == "indexed"
            )
        finally:
            library.close()
    return {
        "corpus": corpus.parent.name,
        "recordings": len(results),
        "indexed": indexed,
        "segments": segments,
        "seconds": round(seconds, 2),
        "segments_per_s": round(segments / seconds, 1),
        "parse_only_segments_per_s": round(segments / parse_s, 1),
    }


def _speech(source: Path, seconds: float) -> np.ndarray:
    audio = np.concatenate(list(iter_audio_16k(source)))[: int(seconds * 16_000)]
    return (np.clip(audio, -1, 1) * 32767).astype(np.int16)


def _record(library: Library, pcm: np.ndarray, project_id: int) -> tuple[int, int]:
    """Write `pcm` in real time with the live pass following; returns (recording id, live segments)."""
    from capture.blockfile import BlockWriter
    from capture.live_transcriber import LiveRequest, LiveTranscriber
    from memory.store import live_transcript
    from memory.store.live_transcript import LiveSegmentIn
    from memory.store.store import now_iso

    started = now_iso()
    store = library.store
    rid = recordings.create_recording(
        store, project_id=project_id, spoken_at=started, source="microphone", status="recording"
    )
    writer = BlockWriter(
        library.data_dir.recordings_dir, rid, sample_rate=16_000, started_at=started, project_id=project_id
    )
    stored = [0]

    def confirmed(segments: list[tuple[float, float, str]], tentative: str) -> None:
        if segments:  # what RecordingSession._store_live does
            stored[0] += live_transcript.append_live_segments(
                store, rid, [LiveSegmentIn(*s) for s in segments]
            )

    model = library.models.path_for(Role.TRANSCRIPTION_FAST)
    request = LiveRequest(str(writer.pcm_path), 16_000, str(model), os.getpid())
    stream = LiveTranscriber(request, confirmed).start()
    began = time.monotonic()
    for number, first in enumerate(range(0, len(pcm), 800)):
        writer.append(pcm[first : first + 800].tobytes())
        time.sleep(max(0.0, began + (number + 1) * 0.05 - time.monotonic()))
    writer.close()
    stream.finish()
    return rid, stored[0]


def record_to_searchable(source: Path, models_dir: Path, seconds: float, say: Say) -> dict[str, Any]:
    from app.ingest.imports import import_files
    from app.ingest.recording_session import store_recorded_audio
    from app.ingest.transcription import shutdown_workers
    from app.jobs.worker import run_pending
    from capture.audio import FlacWriter
    from capture.blockfile import read_leftover
    from memory.store import projects

    pcm = _speech(source, seconds)
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-record-") as tmp:
        library = Library(DataDir(Path(tmp) / "library", models_override=models_dir))
        try:
            library.models.embedder().embed(["warm up"])  # the app has it loaded while recording
            project = projects.add_project(library.store, "Bench")
            say(f"record: {len(pcm) / 16_000:.0f} s of speech in real time, live pass on")
            rid, live_segments = _record(library, pcm, project.id)
            stopped = time.perf_counter()  # the user pressed stop (the live pass has caught up)
            leftover = read_leftover(library.data_dir.recordings_dir, rid)
            assert leftover is not None and store_recorded_audio(library, leftover, recovered=False)
            provisional_s = time.perf_counter() - stopped
            run_pending(library, recording_ids=[rid])
            indexed_s = time.perf_counter() - stopped
            status = recordings.get_recording(library.store, rid).status
            shutdown_workers()
        finally:
            shutdown_workers()
            library.close()
        # Baseline: the same audio imported as a file into another library (else: a duplicate).
        flac = Path(tmp) / "same.flac"
        with FlacWriter(flac, 16_000) as out:
            out.write(pcm)
        library = Library(DataDir(Path(tmp) / "baseline", models_override=models_dir))
        try:
            library.models.embedder().embed(["warm up"])
            began = time.perf_counter()
            [result] = import_files(library, [flac], project="Bench")
            run_pending(library, recording_ids=[result.recording_id or 0])
            import_s = time.perf_counter() - began
            assert recordings.get_recording(library.store, result.recording_id or 0).status == "indexed"
        finally:
            shutdown_workers()
            library.close()
    return {
        "audio_seconds": round(len(pcm) / 16_000, 1),
        "live_segments": live_segments,
        "stop_to_live_text_searchable_s": round(provisional_s, 2),
        "stop_to_indexed_s": round(indexed_s, 2),
        "final_status": status,
        "baseline_import_to_indexed_s": round(import_s, 2),
    }
