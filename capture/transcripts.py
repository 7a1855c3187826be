"""Read existing transcripts: SubRip (.srt), WebVTT (.vtt), plain text (.txt) and Markdown (.md).

Subtitles keep their cue times and voice tags (`<v Anna>` becomes the speaker). Plain text and
Markdown have no times: they are cut into segments of whole sentences (at most ~40 words) with
synthetic times at 2.5 words a second, the pace the evaluation corpora assume. The words are kept
exactly as written; only markup that is not speech (HTML tags in cues, cue numbers and settings)
is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from memory.store.recordings import SegmentIn
from models.errors import CancelledError, InputError

Cancelled = Callable[[], bool]
CHECK_EVERY = 2000  # sentences or cues between two looks at the cancel flag (a few ms of work)

TRANSCRIPT_EXTENSIONS = (".txt", ".md", ".vtt", ".srt")
WORDS_PER_SECOND = 2.5
MAX_SEGMENT_WORDS = 40

# Hours are bounded: a time line of a thousand digits is damage, not a very long recording.
_TIME = r"(?:(\d{1,6}):)?(\d{1,2}):(\d{2})[.,](\d{1,3})"
_CUE_TIMES = re.compile(rf"^\s*{_TIME}\s*-->\s*{_TIME}")
_VOICE = re.compile(r"<v(?:\.[^\s>]*)?\s+([^>]+)>")
_TAG = re.compile(r"</?[a-zA-Z][^>]*>|<\d[^>]*>")
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+")


def _seconds(hours: str | None, minutes: str, seconds: str, fraction: str) -> float:
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds) + int(fraction.ljust(3, "0")) / 1000


def _read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise InputError(f"{path.name} disappeared while it was being imported") from exc
    except OSError as exc:
        raise InputError(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    # UTF-16 only with its byte-order mark: without one, any even number of Latin-1 bytes
    # "decodes" as UTF-16 into nonsense that would be imported as if it had been said.
    encoding = "utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        kind = "UTF-16" if encoding == "utf-16" else "UTF-8"
        raise InputError(
            f"{path.name} is not {kind} text", fix="save it as UTF-8 and import it again"
        ) from exc
    if "\0" in text[:4096]:  # checked after decoding: UTF-16 text is full of zero bytes
        raise InputError(f"{path.name} is not a text file")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _check(cancelled: Cancelled | None, count: int) -> None:
    if cancelled is not None and count % CHECK_EVERY == 0 and cancelled():
        raise CancelledError("import cancelled while the file was read")


def _cues(text: str, name: str, cancelled: Cancelled | None = None) -> list[SegmentIn]:
    """Blocks of a .srt or .vtt file that carry a time line; everything else is skipped."""
    segments = []
    for number, block in enumerate(re.split(r"\n\s*\n", text), start=1):
        _check(cancelled, number)
        lines = [line for line in block.split("\n") if line.strip()]
        timing = next((i for i, line in enumerate(lines) if "-->" in line), None)
        if timing is None:
            continue  # a header, a NOTE, a STYLE block, or a stray cue number
        match = _CUE_TIMES.match(lines[timing])
        if match is None:
            raise InputError(f"{name}: cue {number} has an unreadable time line: {lines[timing].strip()!r}")
        groups = match.groups()
        start, end = _seconds(*groups[:4]), _seconds(*groups[4:])
        if end < start:
            raise InputError(f"{name}: cue {number} ends before it starts")
        body = " ".join(lines[timing + 1 :])
        voice = _VOICE.search(body)
        words = " ".join(_TAG.sub("", body).split())
        if words:
            segments.append(
                SegmentIn(start=start, end=end, text=words, speaker=voice.group(1).strip() if voice else None)
            )
    return segments


def _sentences(paragraph: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(paragraph) if s.strip()]


def _prose(text: str, *, markdown: bool, cancelled: Cancelled | None = None) -> list[SegmentIn]:
    if markdown and text.startswith("---\n"):  # YAML front matter is metadata, not speech
        end = text.find("\n---", 4)
        if end > 0:
            text = text[end + 4 :]
    groups: list[str] = []
    seen = 0
    for paragraph in re.split(r"\n\s*\n", text):
        seen += 1
        _check(cancelled, seen)
        lines = paragraph.split("\n")
        if markdown:
            lines = [re.sub(r"^\s{0,3}(#{1,6}\s+|[-*+]\s+|>\s?)", "", line) for line in lines]
        flat = " ".join(" ".join(lines).split())
        current: list[str] = []
        for sentence in _sentences(flat):
            seen += 1
            _check(cancelled, seen)
            if current and len(" ".join([*current, sentence]).split()) > MAX_SEGMENT_WORDS:
                groups.append(" ".join(current))
                current = []
            current.append(sentence)
        if current:
            groups.append(" ".join(current))
    segments, clock = [], 0.0
    for number, group in enumerate(groups):
        _check(cancelled, number)
        length = len(group.split()) / WORDS_PER_SECOND
        segments.append(SegmentIn(start=round(clock, 2), end=round(clock + length, 2), text=group))
        clock += length
    return segments


def read_transcript(path: Path, *, cancelled: Cancelled | None = None) -> list[SegmentIn]:
    """The segments of a transcript file, or InputError saying what is wrong with it.

    `cancelled()` is asked every few thousand sentences: a file of tens of megabytes takes seconds
    to cut up, and a user who cancels its import must not wait for that."""
    suffix = path.suffix.lower()
    if suffix not in TRANSCRIPT_EXTENSIONS:
        raise InputError(f"{path.name} is not a transcript ({', '.join(TRANSCRIPT_EXTENSIONS)})")
    text = _read_text(path)
    if suffix == ".vtt" and not text.lstrip("\ufeff").startswith("WEBVTT"):
        raise InputError(f"{path.name} is not WebVTT: it does not start with 'WEBVTT'")
    if suffix in (".vtt", ".srt"):
        segments = _cues(text, path.name, cancelled)
    else:
        segments = _prose(text, markdown=suffix == ".md", cancelled=cancelled)
    if not segments:
        raise InputError(f"{path.name} contains no text to import")
    return segments
