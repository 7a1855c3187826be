"""Names heard right, before and after the automatic vocabulary: `python -m bench.names_wer`.

A project "Hartwell Logistics" whose earlier (typed) notes name its people, organisations and
products, all invented so no model has seen them; consolidation (rules only, as the background job
runs without a chat model) reads those notes; app.ingest.vocabulary.project_vocabulary turns what it
found into the transcriber's vocabulary. Then 18 new sentences that say those names, spoken by
espeak-ng, are transcribed by the shipped Whisper model twice, as the transcription worker does
(capture.transcriber.transcribe_windows): without a vocabulary (before), and with the project's
automatic vocabulary (after). Nothing is tuned here: the vocabulary is what the product computes.

Measures, over all sentences (normalised as bench/wer.py does):
- name WER: the words of the names in the reference that the alignment does not match exactly
  (substituted or deleted), over all name words; "heart well" for "Hartwell" is one error;
- names right: names whose every word is matched;
- WER: every word, so a prompt that helps names but hurts the rest would show.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bench_env import cpu_model
from bench.wer import normalise, word_error_rate

PROJECT = "Hartwell Logistics"

# Typed notes of the project, read by consolidation: where the names come from.
EARLIER_NOTES = (
    "Kickoff with Hartwell Logistics. Ilsa Brannock runs the Leeds depot and Teodor Vashti owns the"
    " budget. Marguerite Oyelaran from Quillon Systems will integrate the scanners. Tessaly Freight"
    " carries the northern routes. Ilsa Brannock wants a pilot in March.",
    "Call with Teodor Vashti and Kasimir Delacourt of Varnholt Partners about the audit. Quillon"
    " Systems sent the scanner quote. Sunniva Haldorsen at Osterlund Bank approved the loan. Kasimir"
    " Delacourt will review the contract with Tessaly Freight.",
    "Workshop notes. Marguerite Oyelaran demoed the Cargonaut tracker. Sunniva Haldorsen asked about"
    " Osterlund Bank reporting. Varnholt Partners will audit the depot in May. Teodor Vashti agreed to"
    " buy twelve Cargonaut units.",
)

# New notes: (what is said, the names in it).
SENTENCES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Ilsa Brannock moved the pilot to April.", ("Ilsa Brannock",)),
    ("Teodor Vashti approved the new budget this morning.", ("Teodor Vashti",)),
    ("Hartwell Logistics wants the report by Friday.", ("Hartwell Logistics",)),
    ("Marguerite Oyelaran will send the scanner drivers.", ("Marguerite Oyelaran",)),
    ("Quillon Systems raised their price by ten percent.", ("Quillon Systems",)),
    ("Tessaly Freight lost two trucks on the northern route.", ("Tessaly Freight",)),
    ("Kasimir Delacourt found a problem in the contract.", ("Kasimir Delacourt",)),
    ("Varnholt Partners start the audit on Monday.", ("Varnholt Partners",)),
    ("Sunniva Haldorsen needs the loan figures by noon.", ("Sunniva Haldorsen",)),
    ("Osterlund Bank will extend the credit line.", ("Osterlund Bank",)),
    ("The Cargonaut trackers arrived at the Leeds depot.", ("Cargonaut",)),
    ("Ask Ilsa Brannock whether Tessaly Freight can carry more.", ("Ilsa Brannock", "Tessaly Freight")),
    (
        "Teodor Vashti and Kasimir Delacourt disagree about the fees.",
        ("Teodor Vashti", "Kasimir Delacourt"),
    ),
    ("Quillon Systems and Hartwell Logistics signed the deal.", ("Quillon Systems", "Hartwell Logistics")),
    ("Marguerite Oyelaran fixed the Cargonaut firmware.", ("Marguerite Oyelaran", "Cargonaut")),
    ("Sunniva Haldorsen called from Osterlund Bank again.", ("Sunniva Haldorsen", "Osterlund Bank")),
    ("Varnholt Partners sent the audit plan to Hartwell.", ("Varnholt Partners", "Hartwell")),
    ("Remind Kasimir Delacourt to invoice Hartwell Logistics.", ("Kasimir Delacourt", "Hartwell Logistics")),
)


@dataclass
class Score:
    name_words: int = 0
    name_word_errors: int = 0
    names: int = 0
    names_right: int = 0
    words: int = 0
    word_errors: int = 0

    def add(self, reference: str, names: tuple[str, ...], hypothesis: str) -> list[str]:
        """Score one text (the names in the order said); returns the names it got wrong."""
        ref, hyp = normalise(reference), normalise(hypothesis)
        matched = _matched(ref, hyp)
        wrong = []
        after = 0
        for name in names:
            words = normalise(name)
            at = _find(ref, words, after)
            after = at + 1
            hits = sum(matched[at + k] for k in range(len(words)))
            self.name_words += len(words)
            self.name_word_errors += len(words) - hits
            self.names += 1
            self.names_right += hits == len(words)
            if hits < len(words):
                wrong.append(name)
        alignment = word_error_rate(reference, hypothesis)
        self.words += alignment.reference_words
        self.word_errors += alignment.errors
        return wrong

    def to_json(self) -> dict[str, Any]:
        return {
            "name_wer": round(self.name_word_errors / max(self.name_words, 1), 4),
            "names_right": f"{self.names_right}/{self.names}",
            "wer": round(self.word_errors / max(self.words, 1), 4),
            "name_words": self.name_words,
        }


def _find(words: list[str], part: list[str], start: int = 0) -> int:
    for i in range(start, len(words) - len(part) + 1):
        if words[i : i + len(part)] == part:
            return i
    raise ValueError(f"{part} not in {words}")


def _matched(reference: list[str], hypothesis: list[str]) -> list[bool]:
    """For each reference word, whether a minimum-edit alignment matches it exactly."""
    rows, cols = len(reference), len(hypothesis)
    cost = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows + 1):
        cost[i][0] = i
    for j in range(cols + 1):
        cost[0][j] = j
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            same = reference[i - 1] == hypothesis[j - 1]
            cost[i][j] = min(cost[i - 1][j - 1] + (0 if same else 1), cost[i - 1][j] + 1, cost[i][j - 1] + 1)
    matched = [False] * rows
    i, j = rows, cols
    while i > 0 and j > 0:
        same = reference[i - 1] == hypothesis[j - 1]
        if cost[i][j] == cost[i - 1][j - 1] + (0 if same else 1):
            matched[i - 1] = same
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    return matched


def project_with_history(folder: Path) -> tuple[Any, list[str]]:
    """A library whose project has the earlier notes, consolidated; and its vocabulary."""
    from app.consolidation.service import consolidate
    from app.ingest.imports import import_files
    from app.ingest.vocabulary import project_vocabulary
    from app.library import Library
    from app.paths import DataDir
    from memory.store.projects import get_project

    library = Library(DataDir(folder / "library", DataDir.resolve().models_dir))
    for number, text in enumerate(EARLIER_NOTES):
        note = folder / f"earlier-{number}.txt"
        note.write_text(text + "\n", encoding="utf-8")
        import_files(library, [note], project=PROJECT)
    consolidate(library, use_model=False)
    project = get_project(library.store, PROJECT)
    return library, project_vocabulary(library.store, project.id)


def speak(text: str, path: Path) -> Path:
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        raise SystemExit("espeak-ng is not installed (packaging/setup/system-deps.sh)")
    subprocess.run([espeak, "-v", "en-us", "-s", "150", "-w", str(path), text], check=True)
    return path


def transcribe(transcriber: Any, audio: Path, vocabulary: list[str], way: str = "") -> str:
    from capture.transcriber import transcribe_windows
    from models.whisper import TranscriptionOptions

    # the language detected, as for a new note of a project without one set
    options = TranscriptionOptions(language=None, vocabulary=vocabulary, vocabulary_as=way)
    return " ".join(
        value["text"] for kind, value in transcribe_windows(transcriber, audio, options) if kind == "segment"
    )


WAYS = ("hotwords", "prompt", "both", "names-every-window")  # see models/whisper.py


def note_audio(folder: Path, clips: list[Path]) -> Path:
    """The sentences as one note: one after another with a second's pause, as they are dictated."""
    import wave

    import numpy as np

    from capture.audio import read_audio_16k

    pause = np.zeros(16_000, dtype=np.float32)
    samples = np.concatenate([part for clip in clips for part in (read_audio_16k(clip), pause)])
    path = folder / "note.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(16_000)
        out.writeframes((np.clip(samples, -1.0, 1.0) * 32767).astype("<i2").tobytes())
    return path


def run(model: str, ways: tuple[str, ...] = WAYS) -> dict[str, Any]:
    """Each sentence as its own clip, and all of them as one note; before, and after each way."""
    from models.catalogue import Role
    from models.whisper import WhisperTranscriber

    roles = {"base": Role.TRANSCRIPTION, "tiny.en": Role.TRANSCRIPTION_FAST}
    began = time.perf_counter()
    result: dict[str, Any] = {"model": model, "sentences": len(SENTENCES)}
    with tempfile.TemporaryDirectory(prefix="verbatim-names-") as scratch:
        folder = Path(scratch)
        library, vocabulary = project_with_history(folder)
        model_path = library.models.path_for(roles[model])
        library.close()
        result["vocabulary"] = vocabulary
        transcriber = WhisperTranscriber(model_path)
        clips = [speak(text, folder / f"s{n:02d}.wav") for n, (text, _) in enumerate(SENTENCES)]
        sides: dict[str, tuple[list[str], str]] = {"before": ([], "")}
        sides |= {way: (vocabulary, way) for way in ways}
        for side, (terms, way) in sides.items():
            clip_score, rows = Score(), []
            for clip, (text, names) in zip(clips, SENTENCES, strict=True):
                heard = transcribe(transcriber, clip, terms, way)
                rows.append({"said": text, "heard": heard, "wrong": clip_score.add(text, names, heard)})
            note_score = Score()
            heard_note = transcribe(transcriber, note_audio(folder, clips), terms, way)
            note_score.add(
                " ".join(text for text, _ in SENTENCES),
                tuple(name for _, names in SENTENCES for name in names),
                heard_note,
            )
            result[side] = {
                "clips": clip_score.to_json(),
                "note": note_score.to_json(),
                "rows": rows,
                "note_heard": heard_note,
            }
    result["seconds"] = round(time.perf_counter() - began, 1)
    return result


def general_wer(manifest: Path, model: str, vocabularies: dict[str, list[str]]) -> dict[str, float]:
    """WER on ordinary speech (a manifest such as speech-dev) under each vocabulary: what a prompt of
    names that are never said costs the rest of the words."""
    from app.library import Library
    from app.paths import DataDir
    from bench.wer import read_manifest

    roles = {"base": "transcription", "tiny.en": "transcription_fast"}
    from models.catalogue import Role
    from models.whisper import WhisperTranscriber

    with tempfile.TemporaryDirectory(prefix="verbatim-names-") as scratch:
        library = Library(DataDir(Path(scratch), DataDir.resolve().models_dir))
        transcriber = WhisperTranscriber(library.models.path_for(Role(roles[model])))
        library.close()
    rows = read_manifest(manifest)
    found = {}
    for label, terms in vocabularies.items():
        words = errors = 0
        for audio, reference in rows:
            alignment = word_error_rate(reference, transcribe(transcriber, audio, terms))
            words += alignment.reference_words
            errors += alignment.errors
        found[label] = round(errors / max(words, 1), 4)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.names_wer", description=__doc__)
    parser.add_argument("--model", choices=("base", "tiny.en"), default="base")
    parser.add_argument("--ways", default=",".join(WAYS), help="comma-separated: hotwords, prompt, both")
    parser.add_argument("--json", type=Path, help="write every transcript here")
    parser.add_argument(
        "--general",
        type=Path,
        metavar="MANIFEST",
        help="only the WER of this manifest under no, the project's name, all 9 terms",
    )
    args = parser.parse_args(argv)
    if args.general:
        with tempfile.TemporaryDirectory(prefix="verbatim-names-") as scratch:
            library, vocabulary = project_with_history(Path(scratch))
            library.close()
        found = general_wer(args.general, args.model, {"none": [], "name": [PROJECT], "all": vocabulary})
        print(f"{args.general}: WER {found}")
        return 0
    ways = tuple(w for w in args.ways.split(",") if w)
    result = run(args.model, ways)
    print(f"vocabulary ({len(result['vocabulary'])}): {', '.join(result['vocabulary'])}")
    print(f"whisper-{args.model}, {result['sentences']} sentences, each alone (clips) and as one note")
    for side in ("before", *ways):
        for layout in ("clips", "note"):
            s = result[side][layout]
            print(
                f"  {side:9s} {layout:5s} name WER {s['name_wer']:.3f}  names right {s['names_right']:>5s}"
                f"  WER {s['wer']:.3f}"
            )
    print(f"machine: {cpu_model()}, Python {platform.python_version()}, {result['seconds']} s")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
