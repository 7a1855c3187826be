"""Read transcripts in the JSON-lines corpus format of ../shared/eval/README.md.

One recording per line: {"id", "project", "title", "spoken_at", "segments": [{"id", "start",
"end", "speaker", "text"}]}. Segment ids are kept: they are what evaluations cite. The whole file
is validated before anything is stored, so a bad line changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memory.store.clock import normalise_time
from memory.store.recordings import SegmentIn
from models.errors import InputError


@dataclass(frozen=True)
class CorpusRecording:
    external_id: str
    project: str
    title: str
    spoken_at: str
    segments: list[SegmentIn]
    content_sha256: str
    line: int


def _field(obj: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InputError(f"{where}: '{key}' must be a {kind.__name__}")
    return value


def _segment(raw: Any, where: str) -> SegmentIn:
    if not isinstance(raw, dict):
        raise InputError(f"{where}: a segment must be an object")
    text = _field(raw, "text", str, where)
    start: Any = raw.get("start", 0.0)
    end: Any = raw.get("end", start)
    if not all(isinstance(t, int | float) and not isinstance(t, bool) for t in (start, end)):
        raise InputError(f"{where}: 'start' and 'end' must be numbers")
    if not all(math.isfinite(t) for t in (start, end)):  # JSON's NaN, Infinity, 1e400
        raise InputError(f"{where}: 'start' and 'end' must be finite numbers of seconds")
    if start < 0:
        raise InputError(f"{where}: the segment starts at a negative time ({start})")
    if end < start:
        raise InputError(f"{where}: the segment ends before it starts")
    speaker = raw.get("speaker")
    seg_id = raw.get("id")
    return SegmentIn(
        start=float(start),
        end=float(end),
        text=text,
        speaker=str(speaker) if speaker else None,
        external_id=str(seg_id) if seg_id is not None else None,
    )


def _parse_line(text: str, line: int, name: str) -> CorpusRecording:
    where = f"{name} line {line}"
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where} is not valid JSON: {exc.msg}") from exc
    except (ValueError, RecursionError) as exc:  # a 5,000-digit number, arrays nested 100,000 deep
        raise InputError(f"{where} is not valid JSON that Verbatim can read ({type(exc).__name__})") from exc
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected an object per line")
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:  # "\ud800" is valid JSON but no character: nothing could store it
        raise InputError(
            f"{where}: a \\u escape stands for no character ({exc.object[exc.start]!r})"
        ) from exc
    segments_raw = obj.get("segments")
    if not isinstance(segments_raw, list) or not segments_raw:
        raise InputError(f"{where}: 'segments' must be a non-empty list")
    segments = [_segment(s, f"{where} segment {i + 1}") for i, s in enumerate(segments_raw)]
    said_at = _field(obj, "spoken_at", str, where)
    try:
        spoken_at = normalise_time(said_at)
    except InputError as exc:  # the clock's message names the value, not where it came from
        raise InputError(f"{where}: 'spoken_at' {exc.message}", fix=exc.fix) from exc
    return CorpusRecording(
        external_id=_field(obj, "id", str, where),
        project=_field(obj, "project", str, where),
        title=str(obj.get("title") or ""),
        spoken_at=spoken_at,
        segments=segments,
        content_sha256=hashlib.sha256(text.strip().encode("utf-8")).hexdigest(),
        line=line,
    )


def read_corpus(path: Path) -> list[CorpusRecording]:
    """Every recording of a corpus file, or InputError naming the first bad line."""
    return list(_iter_corpus(path))


def _iter_corpus(path: Path) -> Iterator[CorpusRecording]:
    seen: set[str] = set()
    try:
        handle = path.open("r", encoding="utf-8-sig")  # a byte-order mark is not part of line 1
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from exc
    with handle:
        try:
            for number, text in enumerate(handle, start=1):
                if not text.strip():
                    continue
                recording = _parse_line(text, number, path.name)
                if recording.external_id in seen:
                    raise InputError(f"{path.name} line {number}: id {recording.external_id!r} appears twice")
                seen.add(recording.external_id)
                yield recording
        except UnicodeDecodeError as exc:
            raise InputError(f"{path.name} is not UTF-8 text") from exc


def looks_like_corpus(path: Path) -> bool:
    return path.suffix.lower() in (".jsonl", ".ndjson")
