"""`verbatim eval wer`: transcribe each file of a manifest the way the product does, and score it.

The files go through the product's own transcription path (capture.transcriber's windows, the
same VAD, beam and word-timestamp options), in this process and without a library, so the score
is the model's and the pipeline's, not the store's. Model loading is timed apart from the files.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from app.ingest.transcription import resolve_model
from app.library import Library
from bench.wer import FileScore, overall, read_manifest, score
from capture.audio import inspect_audio
from capture.transcriber import transcribe_windows
from models.whisper import TranscriptionOptions, WhisperTranscriber


@dataclass
class WerReport:
    model: str
    manifest: str
    load_seconds: float
    files: list[FileScore] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "model": self.model,
            "manifest": self.manifest,
            "load_seconds": self.load_seconds,
            "files": [f.to_json() for f in self.files],
            "overall": overall(self.files),
        }


def transcribe_text(transcriber: WhisperTranscriber, audio: Path, options: TranscriptionOptions) -> str:
    texts = [
        value["text"] for kind, value in transcribe_windows(transcriber, audio, options) if kind == "segment"
    ]
    return " ".join(texts)


def evaluate_wer(
    library: Library,
    manifest: Path,
    *,
    model: str | None = None,
    language: str | None = None,
    on_file: Callable[[FileScore], None] | None = None,
) -> WerReport:
    rows = read_manifest(manifest)
    path = resolve_model(library, model)
    began = time.perf_counter()
    transcriber = WhisperTranscriber(path)
    report = WerReport(transcriber.name, str(manifest), time.perf_counter() - began)
    for audio, reference in rows:
        duration = inspect_audio(audio).duration
        began = time.perf_counter()
        hypothesis = transcribe_text(transcriber, audio, TranscriptionOptions(language=language))
        result = score(audio.name, reference, hypothesis, duration, time.perf_counter() - began)
        report.files.append(result)
        if on_file is not None:
            on_file(result)
    return report
