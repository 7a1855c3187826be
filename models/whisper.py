"""faster-whisper (CTranslate2) speech recognition, int8 on the CPU."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from models.errors import ModelError


@dataclass(frozen=True)
class Word:
    text: str
    start: float
    end: float
    probability: float


@dataclass(frozen=True)
class TranscribedSegment:
    start: float
    end: float
    text: str
    words: tuple[Word, ...] = ()
    avg_logprob: float = 0.0
    no_speech_prob: float = 0.0

    @property
    def confidence(self) -> float | None:
        if not self.words:
            return None
        return float(np.mean([w.probability for w in self.words]))


@dataclass
class TranscriptionOptions:
    language: str | None = None  # None: detect
    vocabulary: list[str] = field(default_factory=list)  # names to spell right
    vad: bool = True
    word_timestamps: bool = True
    beam_size: int = 5
    # How the vocabulary reaches the model, "" for VOCABULARY_AS; the others are for
    # bench/names_wer.py, which measures each.
    vocabulary_as: str = ""


# "Names: A, B, C." as the initial prompt: it reaches the first 30 seconds of each five-minute pass
# (capture.transcriber; the previous text is not carried over, so a long note cannot loop on its own
# mistakes). Measured against the
# bare list as hotwords, both (what was used before), and the sentence as hotwords before every
# window (docs/benchmarks.md, "Automatic vocabulary"): every window's prompt fixes more names in a
# long note but makes Whisper drop whole phrases of ordinary speech (speech-dev WER 4.7 % -> 9.9 %
# with one project name, 19.6 % as the bare list); the first 30 seconds' costs 5.0 %, and it fixes
# as many names in a short note. Every project has a name, so what all notes pay decides.
VOCABULARY_AS = "prompt"


def default_threads() -> int:
    return max(1, os.cpu_count() or 1)


class WhisperTranscriber:
    """One loaded Whisper model. Not thread-safe: use one per worker."""

    def __init__(self, path: Path, *, cpu_threads: int | None = None) -> None:
        self.path = Path(path)
        self.name = self.path.name
        if not (self.path / "model.bin").is_file():
            raise ModelError(
                f"the transcription model {self.path} is missing", fix="run 'verbatim models provision'"
            )
        from faster_whisper import WhisperModel

        try:
            self.model = WhisperModel(
                str(self.path),
                device="cpu",
                compute_type="int8",
                cpu_threads=cpu_threads or default_threads(),
                local_files_only=True,
            )
        except (RuntimeError, ValueError, OSError) as exc:
            raise ModelError(f"cannot load the transcription model {self.path.name}: {exc}") from exc

    @property
    def multilingual(self) -> bool:
        return bool(self.model.model.is_multilingual)

    def transcribe(
        self, audio: np.ndarray, options: TranscriptionOptions
    ) -> tuple[Iterator[TranscribedSegment], dict[str, Any]]:
        """Lazily transcribe 16 kHz mono float32 audio. Returns (segments, info)."""
        vocabulary = [term.strip() for term in options.vocabulary if term.strip()]
        way = options.vocabulary_as or VOCABULARY_AS
        sentence = "Names: " + ", ".join(vocabulary) + "." if vocabulary else None
        hotwords = ", ".join(vocabulary) if vocabulary and way in ("hotwords", "both") else None
        if way == "names-every-window":
            hotwords = sentence
        prompt = sentence if way in ("prompt", "both") else None
        language = options.language if self.multilingual else "en"
        segments, info = self.model.transcribe(
            audio,
            language=language,
            beam_size=options.beam_size,
            vad_filter=options.vad,
            word_timestamps=options.word_timestamps,
            hotwords=hotwords,
            initial_prompt=prompt,
            condition_on_previous_text=False,  # a long note must not loop on its own mistakes
        )

        def convert() -> Iterator[TranscribedSegment]:
            for seg in segments:
                words = tuple(
                    Word(w.word, float(w.start), float(w.end), float(w.probability))
                    for w in (seg.words or [])
                )
                yield TranscribedSegment(
                    start=float(seg.start),
                    end=float(seg.end),
                    text=seg.text.strip(),
                    words=words,
                    avg_logprob=float(seg.avg_logprob),
                    no_speech_prob=float(seg.no_speech_prob),
                )

        details = {
            "language": info.language,
            "language_probability": float(info.language_probability),
            "duration": float(info.duration),
        }
        return convert(), details
