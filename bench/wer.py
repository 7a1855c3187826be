"""Word error rate: text normalisation, alignment, and scoring a manifest of audio files.

Normalisation (applied to the reference and the hypothesis alike, so neither style is favoured):
- Unicode NFKC, lower case; curly quotes and dashes made plain.
- Numbers become words: "14,800" -> "fourteen thousand eight hundred", "13th" -> "thirteenth",
  "2.5" -> "two point five", "8:40" -> "eight forty", "£300" -> "three hundred pounds",
  "20%" -> "twenty percent". References write digits and Whisper writes either, so both sides go
  to words; "and" inside a spoken number ("one hundred and five") is dropped for the same reason.
- Hyphens and slashes split words; apostrophes are removed ("don't" -> "dont"); every other
  punctuation mark is dropped.
- Hesitations that Whisper usually leaves out and references sometimes keep are removed:
  um, uh, er, erm, hmm, mm, mhm, ah. "ok" is spelled "okay".
Nothing else (no spelling variants, no synonyms): a different word is an error.

WER = (substitutions + deletions + insertions) / reference words, over the whole manifest (not a
mean of per-file rates). Speed is seconds of audio per second of processing ("8.0" = 8x real time).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path

from models.errors import InputError

_ONES = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
]  # fmt: skip
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = [(10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (1000, "thousand")]
_ORDINAL = {
    "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth",
    "twelve": "twelfth",
}  # fmt: skip
_CURRENCY = {"£": "pounds", "$": "dollars", "€": "euros", "¥": "yen"}
_FILLERS = {"um", "uh", "er", "erm", "hmm", "mm", "mhm", "ah", "uhm", "umm"}
_NUMBER_WORDS = set(_ONES) | set(_TENS[2:]) | {"hundred"} | {name for _, name in _SCALES}


def _below_thousand(n: int) -> list[str]:
    words: list[str] = []
    if n >= 100:
        words += [_ONES[n // 100], "hundred"]
        n %= 100
    if n >= 20:
        words.append(_TENS[n // 10])
        n %= 10
        if n:
            words.append(_ONES[n])
    elif n or not words:
        words.append(_ONES[n])
    return words


def number_words(n: int) -> list[str]:
    """Cardinal words of a non-negative integer: 14800 -> fourteen thousand eight hundred."""
    if n < 1000:
        return _below_thousand(n)
    words: list[str] = []
    for scale, name in _SCALES:
        if n >= scale:
            words += [*number_words(n // scale), name]
            n %= scale
    if n:
        words += _below_thousand(n)
    return words


def ordinal_words(n: int) -> list[str]:
    words = number_words(n)
    last = words[-1]
    if last in _ORDINAL:
        words[-1] = _ORDINAL[last]
    elif last.endswith("y"):
        words[-1] = last[:-1] + "ieth"
    else:
        words[-1] = last + "th"
    return words


def _digits(text: str) -> str:
    return " ".join(number_words(int(text.replace(",", ""))))


def _numbers_to_words(text: str) -> str:
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)
    text = re.sub(r"(\d),(\d{3})\b", r"\1\2", text)  # twice: 1,234,567
    for symbol, name in _CURRENCY.items():
        text = re.sub(rf"{re.escape(symbol)}\s?(\d+(?:\.\d+)?)", rf"\1 {name}", text)
    text = re.sub(r"(\d)\s?%", r"\1 percent", text)
    text = re.sub(r"\b(\d{1,2}):(\d{2})\b", lambda m: f"{m[1]} {'' if m[2] == '00' else m[2]}", text)
    text = re.sub(r"\b(\d+)(st|nd|rd|th)\b", lambda m: " ".join(ordinal_words(int(m[1]))), text)
    text = re.sub(
        r"\b(\d+)\.(\d+)\b", lambda m: f"{_digits(m[1])} point {' '.join(_ONES[int(d)] for d in m[2])}", text
    )
    return re.sub(r"\d+", lambda m: f" {_digits(m[0])} ", text)


def normalise(text: str) -> list[str]:
    """The words of `text` as WER compares them (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.replace("’", "'").replace("‘", "'").replace("–", " ").replace("—", " ")
    text = _numbers_to_words(text)
    text = re.sub(r"[-/]", " ", text)
    text = text.replace("'", "")
    text = re.sub(r"[^\w\s]", " ", text)
    words = ["okay" if w == "ok" else w for w in text.split() if w not in _FILLERS]
    return [
        w
        for i, w in enumerate(words)
        if not (
            w == "and"
            and 0 < i < len(words) - 1
            and words[i - 1] in _NUMBER_WORDS
            and words[i + 1] in _NUMBER_WORDS
        )
    ]


@dataclass(frozen=True)
class Alignment:
    substitutions: int
    deletions: int
    insertions: int
    reference_words: int

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    @property
    def wer(self) -> float:
        return self.errors / self.reference_words if self.reference_words else float(self.insertions > 0)


def align(reference: list[str], hypothesis: list[str]) -> Alignment:
    """Minimum edit distance between word lists, split into substitutions, deletions, insertions."""
    # Each cell holds (cost, substitutions, deletions, insertions) of the best path so far.
    previous = [(j, 0, 0, j) for j in range(len(hypothesis) + 1)]
    for i, ref_word in enumerate(reference, start=1):
        current = [(i, 0, i, 0)]
        for j, hyp_word in enumerate(hypothesis, start=1):
            diagonal = previous[j - 1]
            if ref_word == hyp_word:
                best = diagonal
            else:
                sub = (diagonal[0] + 1, diagonal[1] + 1, diagonal[2], diagonal[3])
                up, left = previous[j], current[j - 1]
                dele = (up[0] + 1, up[1], up[2] + 1, up[3])
                ins = (left[0] + 1, left[1], left[2], left[3] + 1)
                best = min(sub, dele, ins)
            current.append(best)
        previous = current
    _, substitutions, deletions, insertions = previous[-1]
    return Alignment(substitutions, deletions, insertions, len(reference))


def word_error_rate(reference: str, hypothesis: str) -> Alignment:
    return align(normalise(reference), normalise(hypothesis))


@dataclass
class FileScore:
    audio: str
    reference_words: int
    errors: int
    substitutions: int
    deletions: int
    insertions: int
    wer: float
    duration: float
    seconds: float
    rtf: float  # seconds of audio per second of processing
    hypothesis: str

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def score(audio: str, reference: str, hypothesis: str, duration: float, seconds: float) -> FileScore:
    a = word_error_rate(reference, hypothesis)
    return FileScore(
        audio=audio,
        reference_words=a.reference_words,
        errors=a.errors,
        substitutions=a.substitutions,
        deletions=a.deletions,
        insertions=a.insertions,
        wer=a.wer,
        duration=duration,
        seconds=seconds,
        rtf=duration / seconds if seconds else 0.0,
        hypothesis=hypothesis,
    )


def overall(files: list[FileScore]) -> dict[str, float]:
    words = sum(f.reference_words for f in files)
    errors = sum(f.errors for f in files)
    duration = sum(f.duration for f in files)
    seconds = sum(f.seconds for f in files)
    return {
        "wer": errors / words if words else 0.0,
        "rtf": duration / seconds if seconds else 0.0,
        "reference_words": words,
        "errors": errors,
        "audio_seconds": duration,
        "processing_seconds": seconds,
    }


def read_manifest(path: Path) -> list[tuple[Path, str]]:
    """(audio path, reference text) rows of a `audio<TAB>reference` manifest; paths relative to it."""
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read the manifest {path}: {exc.strerror or exc}") from exc
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or (number == 1 and line.lower().startswith("audio\t")):
            continue
        audio, tab, reference = line.partition("\t")
        if not tab:
            raise InputError(f"{path.name} line {number}: expected 'audio<TAB>reference'")
        rows.append(((path.parent / audio.strip()).resolve(), reference.strip()))
    if not rows:
        raise InputError(f"{path.name} lists no audio files")
    return rows
