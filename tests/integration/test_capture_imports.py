"""Imports: every audio format, transcripts, duplicates, spoken-at, and every kind of bad input."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from app.ingest.imports import import_files
from app.library import Library
from capture.audio import inspect_audio
from capture.transcripts import read_transcript
from memory.store import recordings
from memory.store.jobs import list_jobs
from models.errors import AudioError, InputError
from tests.support.audio_helpers import FORMATS, SELF_CORRECTION, encode, pcm16k, speak, truncate
from tests.support.cli import run


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    wav = speak(SELF_CORRECTION, tmp_path_factory.mktemp("speech") / "speech.wav")
    return pcm16k(wav)


@pytest.fixture(scope="module")
def formats(tmp_path_factory: pytest.TempPathFactory, speech: np.ndarray) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("formats")
    return {ext: encode(speech, folder / f"note.{ext}") for ext in FORMATS}


def _library_files(library: Library) -> list[Path]:
    return sorted(p for p in library.data_dir.audio_dir.rglob("*") if p.is_file())


def _assert_nothing_stored(library: Library) -> None:
    assert recordings.list_recordings(library.store) == []
    assert _library_files(library) == []
    assert list_jobs(library.store) == []


@pytest.mark.slow
def test_every_format_imports_once_and_is_queued(library: Library, formats: dict[str, Path]) -> None:
    length = len(formats["wav"].read_bytes()) and inspect_audio(formats["wav"]).duration
    results = import_files(library, list(formats.values()), project="Atlas")
    assert [r.status for r in results] == ["imported"] * len(formats), [r.message for r in results]
    for ext, result in zip(formats, results, strict=True):
        rec = recordings.get_recording(library.store, result.recording_id or 0)
        assert rec.status == "queued" and rec.source == "import" and rec.source_name == f"note.{ext}"
        assert rec.duration == pytest.approx(length, abs=0.15), ext
        stored = library.data_dir.root / (rec.audio_path or "")
        assert stored.is_file() and stored.name == f"{rec.content_sha256}.{ext}"
        assert stored.parent.name == (rec.content_sha256 or "")[:2]
        assert stored.read_bytes() == formats[ext].read_bytes()  # a copy, byte for byte
    assert [j.kind for j in list_jobs(library.store)] == ["transcribe"] * len(formats)
    # The same files again: duplicates, nothing new stored.
    again = import_files(library, list(formats.values()), project="Other")
    assert {r.status for r in again} == {"duplicate"}
    assert [r.recording_id for r in again] == [r.recording_id for r in results]
    assert len(recordings.list_recordings(library.store)) == len(formats)
    assert len(_library_files(library)) == len(formats)


@pytest.mark.parametrize("ext", list(FORMATS))
@pytest.mark.slow
def test_truncated_audio_is_refused_and_leaves_nothing(
    library: Library, formats: dict[str, Path], ext: str
) -> None:
    cut = truncate(formats[ext])
    [result] = import_files(library, [cut], project="Atlas")
    assert result.status == "failed"
    assert cut.name in result.message
    assert any(word in result.message for word in ("incomplete", "damaged")), result.message
    _assert_nothing_stored(library)


def test_bad_files_each_get_a_clear_message(library: Library, tmp_path: Path) -> None:
    empty = tmp_path / "empty.wav"
    empty.write_bytes(b"")
    text_as_mp3 = tmp_path / "notes.mp3"
    text_as_mp3.write_text("this is not audio at all\n" * 40)
    unsupported = tmp_path / "photo.jpg"
    unsupported.write_bytes(b"\xff\xd8\xff\xe0" + b"\0" * 100)
    missing = tmp_path / "gone.m4a"
    binary_txt = tmp_path / "blob.txt"
    binary_txt.write_bytes(b"\0\1\2" * 100)
    results = import_files(library, [empty, text_as_mp3, unsupported, missing, binary_txt], project="Atlas")
    messages = [r.message for r in results]
    assert [r.status for r in results] == ["failed"] * 5
    assert "empty" in messages[0]
    assert "not audio" in messages[1] and "notes.mp3" in messages[1]
    assert "cannot be imported" in messages[2] and "wav" in messages[2]
    assert "does not exist" in messages[3]
    assert "not a text file" in messages[4]
    _assert_nothing_stored(library)
    assert not list(library.data_dir.audio_dir.glob(".incoming-*"))


@pytest.mark.slow
def test_a_file_deleted_mid_import_fails_alone(
    library: Library, tmp_path: Path, formats: dict[str, Path]
) -> None:
    first, doomed, last = (tmp_path / n for n in ("a.flac", "b.wav", "c.opus"))
    for target, ext in ((first, "flac"), (doomed, "wav"), (last, "opus")):
        target.write_bytes(formats[ext].read_bytes())

    def delete_the_next(result: object) -> None:
        doomed.unlink(missing_ok=True)  # the user (or a sync) removes it while the import runs

    results = import_files(library, [first, doomed, last], project="Atlas", on_result=delete_the_next)
    assert [r.status for r in results] == ["imported", "failed", "imported"]
    assert "b.wav" in results[1].message
    assert len(recordings.list_recordings(library.store)) == 2
    assert len(_library_files(library)) == 2


@pytest.mark.slow
def test_unicode_and_spaces_in_paths(library: Library, tmp_path: Path, formats: dict[str, Path]) -> None:
    folder = tmp_path / "Notizen für Müller" / "Ordner mit Leerzeichen"
    folder.mkdir(parents=True)
    target = folder / "Besprechung – Café 日本.m4a"
    target.write_bytes(formats["m4a"].read_bytes())
    result = run("import", str(target), "--project", "Kunde Zürich", "--no-transcribe", "--json")
    assert result.code == 0, result.err
    [item] = result.json()["results"]
    assert item["status"] == "imported"
    rec = recordings.get_recording(library.store, item["recording_id"])
    assert rec.source_name == target.name and rec.project == "Kunde Zürich" and rec.title == target.stem


@pytest.mark.slow
def test_spoken_at_from_metadata_else_mtime_else_override(
    library: Library, tmp_path: Path, speech: np.ndarray
) -> None:
    tagged = encode(speech, tmp_path / "phone.m4a", metadata={"creation_time": "2026-03-02T08:40:00.000000Z"})
    plain = encode(speech[: len(speech) // 2], tmp_path / "plain.flac")
    when = datetime(2025, 12, 24, 18, 30, 5).timestamp()
    os.utime(plain, (when, when))
    overridden = encode(speech[: len(speech) // 3], tmp_path / "late.wav")
    got = import_files(library, [tagged, plain], project="Atlas")
    got += import_files(library, [overridden], project="Atlas", spoken_at="2026-01-05 09:15")
    times = [recordings.get_recording(library.store, r.recording_id or 0).spoken_at for r in got]
    utc = datetime.fromisoformat("2026-03-02T08:40:00+00:00").astimezone().replace(tzinfo=None)
    assert times == [utc.isoformat(), "2025-12-24T18:30:05", "2026-01-05T09:15:00"]
    with pytest.raises(InputError, match="not a date"):
        import_files(library, [overridden], project="Atlas", spoken_at="last Tuesday")


def test_transcript_parsers(tmp_path: Path) -> None:
    srt = tmp_path / "call.srt"
    srt.write_text(
        "1\n00:00:01,000 --> 00:00:04,500\nThe workshop is on Monday,\noh wait, Tuesday.\n\n"
        "2\n00:00:05,000 --> 00:00:07,250\n<i>Budget is 14,800 pounds.</i>\n",
        "utf-8",
    )
    vtt = tmp_path / "call.vtt"
    vtt.write_text(
        "WEBVTT\n\nNOTE written by hand\n\nintro\n00:01.000 --> 00:03.000 align:start\n"
        "<v Anna Becker>Hello Chen.\n\n"
        "00:00:03.500 --> 00:00:06.000\n<v Chen>Hi Anna, <b>welcome</b>.\n",
        "utf-8",
    )
    md = tmp_path / "notes.md"
    md.write_text(
        "---\ndate: 2026-03-02\n---\n# Kickoff\n\n- Scope agreed. Budget next week!\n\nDone.\n", "utf-8"
    )
    assert [(s.start, s.end, s.text) for s in read_transcript(srt)] == [
        (1.0, 4.5, "The workshop is on Monday, oh wait, Tuesday."),
        (5.0, 7.25, "Budget is 14,800 pounds."),
    ]
    cues = read_transcript(vtt)
    assert [(s.start, s.speaker, s.text) for s in cues] == [
        (1.0, "Anna Becker", "Hello Chen."),
        (3.5, "Chen", "Hi Anna, welcome."),
    ]
    prose = read_transcript(md)
    assert [s.text for s in prose] == ["Kickoff", "Scope agreed. Budget next week!", "Done."]
    assert prose[1].start == prose[0].end and prose[1].end - prose[1].start == pytest.approx(5 / 2.5)
    broken = tmp_path / "broken.vtt"
    broken.write_text("no header\n\n00:01.000 --> 00:02.000\nx\n", "utf-8")
    with pytest.raises(InputError, match="WEBVTT"):
        read_transcript(broken)
    bad_time = tmp_path / "bad.srt"
    bad_time.write_text("1\n00:00:01 --> soon\ntext\n", "utf-8")
    with pytest.raises(InputError, match="unreadable time"):
        read_transcript(bad_time)


@pytest.mark.slow
def test_transcripts_import_as_searchable_recordings_without_audio(library: Library, tmp_path: Path) -> None:
    notes = tmp_path / "Kickoff notes.txt"
    notes.write_text(
        "Okay so the Tidewater kickoff went well. The budget is 14,800 pounds.\n\n"
        "Next step: Becker sends the plan.\n",
        "utf-8",
    )
    corpus = tmp_path / "old.jsonl"
    corpus.write_text(
        '{"id": "n1", "project": "ignored", "title": "t", "spoken_at": "2026-01-02T10:00:00",'
        ' "segments": [{"id": "n1:1", "start": 0, "end": 2, "text": "Corpus line."}]}\n',
        "utf-8",
    )
    result = run("import", str(notes), str(corpus), "--project", "Tidewater", "--json")
    assert result.code == 0, result.err
    items = result.json()["results"]
    assert [(i["status"], i["kind"]) for i in items] == [("imported", "transcript"), ("imported", "")]
    rec = recordings.get_recording(library.store, items[0]["recording_id"])
    assert rec.source == "transcript" and rec.audio_path is None and rec.status == "indexed"
    assert [s.text for s in recordings.list_segments(library.store, rec.id)] == [
        "Okay so the Tidewater kickoff went well. The budget is 14,800 pounds.",
        "Next step: Becker sends the plan.",
    ]
    corpus_rec = recordings.get_recording(library.store, items[1]["recording_id"])
    assert corpus_rec.project == "Tidewater" and corpus_rec.external_id == "n1"
    from app.search import search

    assert any(h.recording_id == rec.id for h in search(library, "Becker plan", mode="keyword"))
    assert (
        run("import", str(notes), "--project", "Tidewater", "--json").json()["results"][0]["status"]
        == "duplicate"
    )


@pytest.mark.slow
def test_import_needs_a_project_except_for_corpora(tmp_path: Path, formats: dict[str, Path]) -> None:
    result = run("import", str(formats["wav"]))
    assert result.code == 1 and "--project" in result.err


def test_inspect_audio_rejects_what_is_not_audio(tmp_path: Path) -> None:
    fake = tmp_path / "fake.wav"
    fake.write_bytes(b"RIFF" + b"\0" * 40)
    with pytest.raises(AudioError):
        inspect_audio(fake)
