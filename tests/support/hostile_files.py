"""Hostile input, built at test time (no binary is checked in): damaged audio in every format,
files that lie about what they are, a ten-hour silent recording that costs a few kilobytes, broken
transcripts, and a dump of a store to prove that a refused input changed nothing.
"""

from __future__ import annotations

import json
import random
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memory.store.store import Store
from tests.support.audio_helpers import FORMATS, encode

AUDIO_FORMATS = tuple(FORMATS)  # wav flac mp3 m4a ogg opus webm


@dataclass(frozen=True)
class Hostile:
    path: Path
    how: str  # what was done to it, for assertion messages


def tone(seconds: float = 1.5, seed: int = 0) -> np.ndarray:
    """16 kHz mono: a tone with a little noise, so every codec writes several real packets."""
    t = np.arange(int(seconds * 16000), dtype=np.float32) / 16000
    noise = np.random.default_rng(seed).normal(0, 0.02, t.shape[0]).astype(np.float32)
    return (0.3 * np.sin(2 * np.pi * 440 * t) + noise).astype(np.float32)


def valid_audio(folder: Path, ext: str, seconds: float = 4.0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return encode(tone(seconds), folder / f"valid.{ext}")


def _variant(source: Path, how: str, data: bytes) -> Hostile:
    path = source.with_name(f"{how}.{source.name.split('.')[-1]}")
    path.write_bytes(data)
    return Hostile(path, f"{source.suffix} {how}")


def _flipped(data: bytes, start: int, count: int, seed: int) -> bytes:
    """`count` random bytes from `start` on, each XOR-ed with a random non-zero value."""
    rng = random.Random(seed)
    out = bytearray(data)
    for _ in range(count):
        at = rng.randrange(min(start, len(out) - 1), len(out))
        out[at] ^= rng.randrange(1, 256)
    return bytes(out)


def damaged_audio(folder: Path, ext: str) -> list[Hostile]:
    """A valid file of `ext` cut, zeroed and flipped in the places readers trust."""
    good = valid_audio(folder / ext, ext).read_bytes()
    source = folder / ext / f"x.{ext}"
    size = len(good)
    variants = {
        "head-only": good[:48],
        "half": good[: size // 2],
        "all-but-tail": good[: size - max(64, size // 20)],
        "header-zeroed": bytes(64) + good[64:],
        "header-flipped": _flipped(good[:64], 0, 12, seed=1) + good[64:],
        "body-flipped": _flipped(good, size // 4, 40, seed=2),
        "garbage": random.Random(3).randbytes(size),
        "text": b"this is not audio, it only has the name of it\n" * 40,
        "zero-bytes": b"",
        "one-byte": b"\0",
    }
    return [_variant(source, how, data) for how, data in variants.items()]


# --- a ten-hour silent FLAC, written frame by frame --------------------------------------------------
def _crc8(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def _crc16(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x8005) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _silent_frame(number: int, block: int) -> bytes:
    # Sync, fixed block size; block size in 16 bits at the end; rate from STREAMINFO; mono; 16 bit.
    header = bytes([0xFF, 0xF8, 0x70, 0x08]) + chr(number).encode("utf-8", "surrogatepass")
    header += struct.pack(">H", block - 1)
    header += bytes([_crc8(header)])
    body = header + bytes([0x00, 0x00, 0x00])  # a CONSTANT subframe of value 0
    return body + struct.pack(">H", _crc16(body))


def silent_flac(path: Path, hours: float = 10.0, rate: int = 8000) -> Path:
    """A real, complete FLAC file of `hours` of digital silence: ~15 bytes per 65,535 samples.

    Encoding ten hours of silence with a real encoder takes minutes; FLAC's CONSTANT subframe
    lets the file be written directly, and every decoder reads it as what it claims to be.
    """
    block = 65535
    total = int(hours * 3600 * rate)
    info = struct.pack(">HH", block, block) + (0).to_bytes(3, "big") + (0).to_bytes(3, "big")
    packed = (rate << 44) | (0 << 41) | (15 << 36) | total  # rate, channels-1, bits-1, samples
    info += packed.to_bytes(8, "big") + bytes(16)  # no MD5 (allowed: "unknown")
    frames = bytearray()
    done, number = 0, 0
    while done < total:
        size = min(block, total - done)
        frames += _silent_frame(number, size)
        done, number = done + size, number + 1
    path.write_bytes(b"fLaC" + bytes([0x80]) + len(info).to_bytes(3, "big") + info + frames)
    return path


def wav_claiming(path: Path, *, seconds: float, data_bytes: int, data_size: int | None = None) -> Path:
    """A 16 kHz mono 16-bit WAV whose header says `seconds` (or `data_size`) but holds `data_bytes`."""
    declared = int(seconds * 16000 * 2) if data_size is None else data_size
    fmt = struct.pack("<HHIIHH", 1, 1, 16000, 32000, 2, 16)
    header = b"RIFF" + struct.pack("<I", min(0xFFFFFFFF, 36 + declared)) + b"WAVE"
    header += b"fmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", declared)
    pcm = (tone(data_bytes / 32000) * 32767).astype("<i2").tobytes()[:data_bytes]
    path.write_bytes(header + pcm)
    return path


# --- transcripts ---------------------------------------------------------------------------------------
def bad_transcripts(folder: Path) -> dict[str, tuple[Path, str]]:
    """name -> (file, a word the refusal message must contain)."""
    folder.mkdir(parents=True, exist_ok=True)
    cue = "00:00:01.000 --> 00:00:02.000\nhello there\n"
    files: dict[str, tuple[bytes, str]] = {
        "latin1.vtt": (f"WEBVTT\n\n{cue}Caf\u00e9 cr\u00e8me\n".encode("latin-1"), "UTF-8"),
        "latin1-even.txt": ("Caf\u00e9 au lait okk.\n".encode("latin-1"), "UTF-8"),
        "latin1-odd.srt": (f"1\n{cue.replace('.', ',')}\u00e9t\u00e9\n".encode("latin-1"), "UTF-8"),
        "no-header.vtt": (cue.encode(), "WEBVTT"),
        "words-for-times.srt": (b"1\nbanana --> apple\nhello\n", "time line"),
        "negative.srt": (b"1\n-00:00:01,000 --> 00:00:02,000\nhello\n", "time line"),
        "backwards.vtt": (b"WEBVTT\n\n00:00:05.000 --> 00:00:01.000\nhello\n", "ends before"),
        "overflow-hours.srt": (b"1\n" + b"9" * 5000 + b":00:01,000 --> 00:00:02,000\nhi\n", "time line"),
        "long-hours.srt": (
            b"1\n" + b"9" * 400 + b":00:01,000 --> " + b"9" * 401 + b":00:02,000\nhi\n",
            "time",
        ),
        "only-header.vtt": (b"WEBVTT\n\nNOTE nothing here\n", "no text"),
        "cues-without-words.srt": (b"1\n00:00:01,000 --> 00:00:02,000\n<i></i>\n", "no text"),
        "nul.txt": (b"hello\0world\n", "not a text file"),
        "empty-lines.md": (b"\n\n   \n\t\n", "no text"),
        "front-matter-only.md": (b"---\ntitle: x\n---\n", "no text"),
        "utf16-odd.txt": (b"\xff\xfeh\x00i\x00!", "UTF-16"),
    }
    out = {}
    for name, (data, word) in files.items():
        (folder / name).write_bytes(data)
        out[name] = (folder / name, word)
    return out


def good_odd_transcripts(folder: Path) -> dict[str, tuple[Path, str]]:
    """Transcripts that look odd but are fine: name -> (file, a phrase the import must keep)."""
    folder.mkdir(parents=True, exist_ok=True)
    srt = "1\n00:00:01,000 --> 00:00:02,500\nZürich budget approved\n"
    vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Anna>Ärger mit dem Zeitplan\n"
    files = {
        "utf16le-bom.srt": ("\ufeff" + srt).encode("utf-16-le"),
        "utf16be-bom.srt": ("\ufeff" + srt).encode("utf-16-be"),
        "utf8-bom.vtt": ("\ufeff" + vtt).encode("utf-8"),
        "crlf.srt": srt.replace("\n", "\r\n").encode(),
        "out-of-order.srt": (
            "1\n00:00:05,000 --> 00:00:06,000\nsecond said\n\n2\n00:00:01,000 --> 00:00:02,000\n"
            "Zürich budget approved\n"
        ).encode(),
    }
    keep = {
        "utf16le-bom.srt": "Zürich budget approved",
        "utf16be-bom.srt": "Zürich budget approved",
        "utf8-bom.vtt": "Ärger mit dem Zeitplan",
        "crlf.srt": "Zürich budget approved",
        "out-of-order.srt": "Zürich budget approved",
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return {name: (folder / name, keep[name]) for name in files}


def huge_line(path: Path, megabytes: int = 10, *, spaces: bool = True) -> Path:
    """One line of `megabytes` MB: words without a sentence end, or one endless 'word'."""
    unit = "budget lorem ipsum " if spaces else "x"
    path.write_text(unit * (megabytes * 1_000_000 // len(unit)))
    return path


def corpus_line(**overrides: Any) -> dict[str, Any]:
    line: dict[str, Any] = {
        "id": "rec-1",
        "project": "Atlas",
        "title": "t",
        "spoken_at": "2026-03-02T08:40:00",
        "segments": [{"id": "s1", "start": 0.0, "end": 1.5, "text": "the budget is fine"}],
    }
    line.update(overrides)
    return line


def seg(**overrides: Any) -> dict[str, Any]:
    return {"id": "s1", "start": 0.0, "end": 1.5, "text": "the budget is fine", **overrides}


def bad_corpora(folder: Path) -> dict[str, tuple[Path, str]]:
    """Broken JSON-lines corpora: name -> (file, a word the refusal message must contain)."""
    folder.mkdir(parents=True, exist_ok=True)
    good = json.dumps(corpus_line())
    raw: dict[str, tuple[str | bytes, str]] = {
        "not-json.jsonl": ("{id: 1,\n", "not valid JSON"),
        "array.jsonl": ("[1, 2, 3]\n", "object"),
        "no-segments.jsonl": (json.dumps(corpus_line(segments=[])), "segments"),
        "segment-string.jsonl": (json.dumps(corpus_line(segments=["hi"])), "segment"),
        "no-text.jsonl": (json.dumps(corpus_line(segments=[{"start": 1}])), "text"),
        "text-number.jsonl": (json.dumps(corpus_line(segments=[seg(text=5)])), "text"),
        "start-string.jsonl": (json.dumps(corpus_line(segments=[seg(start="1")])), "number"),
        "start-bool.jsonl": (json.dumps(corpus_line(segments=[seg(start=True)])), "number"),
        "backwards.jsonl": (json.dumps(corpus_line(segments=[seg(start=5, end=1)])), "before"),
        "negative.jsonl": (json.dumps(corpus_line(segments=[seg(start=-5, end=-1)])), "negative"),
        "nan.jsonl": (good.replace('"start": 0.0', '"start": NaN'), "number"),
        "infinity.jsonl": (good.replace('"end": 1.5', '"end": Infinity'), "number"),
        "overflow.jsonl": (good.replace('"end": 1.5', '"end": 1e400'), "number"),
        "huge-int.jsonl": (good.replace('"end": 1.5', '"end": ' + "9" * 5000), "JSON"),
        "deep.jsonl": ("[" * 100_000 + "\n", "JSON"),
        "no-id.jsonl": (json.dumps({k: v for k, v in corpus_line().items() if k != "id"}), "id"),
        "bad-date.jsonl": (json.dumps(corpus_line(spoken_at="last tuesday")), "date"),
        "date-overflow.jsonl": (json.dumps(corpus_line(spoken_at="0001-01-01T00:00+14:00")), "date"),
        "twice.jsonl": (good + "\n" + good + "\n", "twice"),
        "good-then-bad.jsonl": (good + "\n{broken\n", "line 2"),
        "surrogate.jsonl": (good.replace("the budget", "the \\udce9 budget"), "no character"),
        "latin1.jsonl": (
            json.dumps(corpus_line(title="Caf\u00e9"), ensure_ascii=False).encode("latin-1"),
            "UTF-8",
        ),
    }
    out = {}
    for name, (data, word) in raw.items():
        path = folder / name
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data)
        out[name] = (path, word)
    return out


# --- the store, before and after ------------------------------------------------------------------------
def dump_store(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every real table (virtual tables are dumped through their shadow tables)."""
    tables = [
        r["name"]
        for r in store.all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
            " ORDER BY name"
        )
    ]
    return {t: sorted(store.rows(f'SELECT * FROM "{t}"'), key=repr) for t in tables}


def library_files(root: Path) -> list[str]:
    """Every file under the audio folder (temporaries included)."""
    audio = root / "audio"
    return sorted(str(p.relative_to(root)) for p in audio.rglob("*") if p.is_file()) if audio.exists() else []


# --- names and queries --------------------------------------------------------------------------------
HOSTILE_NAMES = [
    "'; DROP TABLE projects; --",
    "Robert'); DELETE FROM recordings; --",
    '"',
    '""""',
    "*",
    "NEAR(",
    "NEAR(a b, 3)",
    "AND OR NOT",
    "((",
    "]]",
    "'unbalanced",
    "a:b ^c -d +e",
    "../../etc/passwd",
    "..",
    ".",
    "/",
    "a/b\\c",
    "C:\\Windows\\system32",
    "~/.ssh",
    "con",
    "%s %d {0} {name}",
    "$(rm -rf ~)",
    "`id`",
    "<script>alert(1)</script>",
    "a\tb\nc\rd",
    "a\x00b",
    "\x1b[31mred\x1b[0m",
    "\u202eevil\u202c",
    "\u200b",
    "\u200d",
    "שלום עולם",
    "مشروع",
    "👩\u200d💻 dev team",
    "🙂" * 50,
    "Zürich Ärger ß",
    "x" * 120,
    "x" * 121,
    "x" * 10_000,
    "",
    " ",
    "\t\n\r ",
    "\x00\x01\x02",
    "caf\udce9",  # an undecodable byte in a command line, as Python hands it over
]

HOSTILE_QUERIES = [
    '"',
    '"budget',
    "*",
    "budget*",
    "NEAR(budget workshop)",
    "NEAR(",
    "AND OR NOT",
    "budget AND",
    "NOT budget",
    "(((",
    ")",
    "col:budget",
    "^budget",
    "-budget",
    "+budget",
    "'; DROP TABLE chunks; --",
    "budget'; DELETE FROM segments; --",
    "",
    "   ",
    "\x00",
    "budget\x00workshop",
    "the of and is",
    "a",
    "?",
    "x" * 100_000,
    "budget " * 20_000,
    "caf\udce9",
    "\u202ebudget",
    "🙂 budget",
    "Zürich",
    "{budget}",
    "%budget%",
    "budget\nworkshop",
]


def _wav(
    path: Path, samples: np.ndarray, *, rate: int = 16000, channels: int = 1, floats: bool = False
) -> Path:
    data = samples.astype("<f4" if floats else "<i2").tobytes()
    bits = 32 if floats else 16
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", 3 if floats else 1, channels, rate, rate * block, block, bits)
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
    path.write_bytes(header + b"data" + struct.pack("<I", len(data)) + data)
    return path


def extreme_wavs(folder: Path) -> list[Path]:
    """Valid WAVs at the edges: NaN, infinite and huge float samples, one sample, eight channels,
    a sample rate of 1 Hz and of 384 kHz."""
    folder.mkdir(parents=True, exist_ok=True)
    n = 32_000
    return [
        _wav(folder / "nan.wav", np.full(n, np.nan), floats=True),
        _wav(folder / "infinite.wav", np.where(np.arange(n) % 2, np.inf, -np.inf), floats=True),
        _wav(folder / "huge.wav", np.full(n, 1e30), floats=True),
        _wav(folder / "one-sample.wav", np.zeros(1)),
        _wav(folder / "eight-channels.wav", np.zeros(n * 8), channels=8),
        _wav(folder / "rate-1.wav", np.zeros(100), rate=1),
        _wav(folder / "rate-384k.wav", tone(1.0).repeat(24), rate=384_000, floats=True),
    ]
