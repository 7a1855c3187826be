"""Hostile files: damaged audio in every format, files that lie, ten hours of silence, broken
transcripts and corpora, huge lines. Each is refused with a message naming it and leaves the store
and the audio folder exactly as they were, or is imported whole."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.ingest.imports import import_files
from app.library import Library
from app.paths import DataDir
from capture.audio import inspect_audio
from capture.transcriber import transcribe_windows
from memory.store import recordings
from memory.store.jobs import list_jobs
from memory.store.projects import find_project
from tests.support.audio_helpers import encode
from tests.support.cli import run
from tests.support.hostile_files import (
    AUDIO_FORMATS,
    Hostile,
    bad_corpora,
    bad_transcripts,
    damaged_audio,
    dump_store,
    extreme_wavs,
    good_odd_transcripts,
    huge_line,
    library_files,
    silent_flac,
    tone,
    wav_claiming,
)

# Damage no reader can mistake for a whole file, in any format.
MUST_FAIL = {"head-only", "half", "garbage", "text", "zero-bytes", "one-byte"}


@pytest.fixture(scope="module")
def hostile_audio(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Hostile]]:
    folder = tmp_path_factory.mktemp("hostile-audio")
    return {ext: damaged_audio(folder, ext) for ext in AUDIO_FORMATS}


def _refused_cleanly(library: Library, path: Path, before: object, files: list[str], message: str) -> None:
    assert path.name in message, message
    assert "Traceback" not in message
    assert dump_store(library.store) == before, f"{path.name} changed the store"
    assert library_files(library.data_dir.root) == files, f"{path.name} left files behind"


@pytest.mark.parametrize("ext", AUDIO_FORMATS)
def test_damaged_audio_is_refused_cleanly_or_imported_whole(
    library: Library, hostile_audio: dict[str, list[Hostile]], ext: str
) -> None:
    library_project = import_files(library, [], project="Atlas")  # nothing: the project is not made
    assert library_project == [] and find_project(library.store, "Atlas") is None
    outcomes = {}
    for hostile in hostile_audio[ext]:
        before, files = dump_store(library.store), library_files(library.data_dir.root)
        [result] = import_files(library, [hostile.path], project="Atlas")
        outcomes[hostile.path.stem] = result.status
        if result.status == "failed":
            _refused_cleanly(library, hostile.path, before, files, result.message)
            continue
        assert result.status == "imported", (hostile.how, result)
        rec = recordings.get_recording(library.store, result.recording_id or 0)
        stored = library.data_dir.root / (rec.audio_path or "")
        assert stored.read_bytes() == hostile.path.read_bytes()  # kept exactly as given
        assert rec.duration and rec.duration > 2.0, hostile.how  # most of the 4 s are there
    assert {name for name, status in outcomes.items() if status == "failed"} >= MUST_FAIL, outcomes
    imported = [n for n, s in outcomes.items() if s == "imported"]
    assert len(list_jobs(library.store)) == len(imported)


def test_the_cli_reports_every_damaged_file_and_exits_1(hostile_audio: dict[str, list[Hostile]]) -> None:
    files = [
        str(h.path) for ext in ("wav", "opus", "m4a") for h in hostile_audio[ext] if h.path.stem in MUST_FAIL
    ]
    result = run("import", *files, "--project", "Atlas", "--no-transcribe")
    assert result.code == 1 and "Traceback" not in result.err
    lines = result.out.splitlines()
    assert len(lines) == len(files) and all(line.startswith("failed ") for line in lines), lines
    assert run("projects", "list", "--json").json() == {"projects": []}  # no empty project left


@pytest.mark.slow
def test_a_refused_file_does_not_create_the_project_it_was_meant_for(
    library: Library, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.srt"
    bad.write_text("1\nbanana --> apple\nhello\n")
    before = dump_store(library.store)
    [result] = import_files(library, [bad], project="Brand New")
    assert result.status == "failed" and "bad.srt" in result.message
    assert dump_store(library.store) == before
    good = tmp_path / "good.txt"
    good.write_text("The Brand New budget is fine.")
    [result] = import_files(library, [good], project="brand new ")
    assert result.status == "imported" and result.project == "brand new"
    [again] = import_files(library, [bad], project="BRAND NEW")
    assert again.project == "brand new"  # an existing project keeps its spelling


def test_ten_hours_of_silence_import_in_a_second_and_transcription_can_start_anywhere(
    library: Library, tmp_path: Path
) -> None:
    """A 63 kB FLAC that decodes to 10 h: import checks it in one streamed pass (nothing held in
    memory), and the transcriber seeks straight to the end instead of decoding 10 h first."""
    ten = silent_flac(tmp_path / "ten-hours.flac", hours=10.0)
    assert ten.stat().st_size < 100_000
    started = time.perf_counter()
    [result] = import_files(library, [ten], project="Atlas")
    elapsed = time.perf_counter() - started
    assert result.status == "imported", result.message
    assert result.duration == pytest.approx(36_000.0)
    assert elapsed < 30, f"checking 10 h of silence took {elapsed:.1f} s"  # a bound, not a benchmark
    rec = recordings.get_recording(library.store, result.recording_id or 0)
    stored = library.data_dir.root / (rec.audio_path or "")
    events = list(transcribe_windows(_NoSpeech(), stored, _options(), start=36_000.0 - 40.0, window=30.0))
    positions = [value for kind, value in events if kind == "position"]
    assert positions[-1] == pytest.approx(36_000.0, abs=0.5)
    assert not [e for e in events if e[0] == "segment"]


class _NoSpeech:
    """The transcriber's place-holder for these windows: it counts the audio it is given.

    Real transcription of silence is tested in test_silence_is_transcribed_to_nothing; here the
    point is how much of a 10 h file gets decoded to reach its end.
    """

    name = "none"

    def transcribe(self, audio: object, options: object) -> tuple[list[object], dict[str, object]]:
        return [], {"language": "en", "language_probability": 1.0}


def _options():  # type: ignore[no-untyped-def]
    from models.whisper import TranscriptionOptions

    return TranscriptionOptions(language="en")


TRANSCRIBED = ("quiet", "nan")  # each costs a transcription; the others only import


@pytest.mark.slow
def test_silence_and_extreme_samples_are_transcribed_to_nothing(library: Library, tmp_path: Path) -> None:
    """Silence, NaN, infinite and huge samples, one sample, eight channels, 1 Hz and 384 kHz are
    imported; the most hostile of them are transcribed for real, to no words and not to a failure."""
    from app.jobs import worker as jobs_worker
    from tests.conftest import require_models

    require_models()
    files = [silent_flac(tmp_path / "quiet.flac", hours=20 / 3600, rate=16000), *extreme_wavs(tmp_path)]
    results = import_files(library, files, project="Atlas")
    assert [r.status for r in results] == ["imported"] * len(files), [r.message for r in results]
    ids = [r.recording_id or 0 for r in results if Path(r.path).stem in TRANSCRIBED]
    jobs = jobs_worker.run_pending(library, kinds=["transcribe"], recording_ids=ids)
    assert [j.status for j in jobs] == ["done"] * len(TRANSCRIBED), [j.message for j in jobs]
    for recording_id in ids:
        rec = recordings.get_recording(library.store, recording_id)
        assert rec.segments == 0 and rec.status == "indexed", rec


def test_wav_headers_that_lie_about_their_length(library: Library, tmp_path: Path) -> None:
    claims_ten_hours = wav_claiming(tmp_path / "claims.wav", seconds=36_000, data_bytes=64_000)
    streamed = wav_claiming(tmp_path / "streamed.wav", seconds=0, data_bytes=64_000, data_size=0xFFFFFFFF)
    unknown = wav_claiming(tmp_path / "unknown.wav", seconds=0, data_bytes=48_000, data_size=0)
    before = dump_store(library.store)
    results = import_files(library, [claims_ten_hours, streamed, unknown], project="Atlas")
    assert [r.status for r in results] == ["failed", "imported", "imported"], [r.message for r in results]
    assert "incomplete" in results[0].message and "claims.wav" in results[0].message
    assert [r.duration for r in results[1:]] == [pytest.approx(2.0), pytest.approx(1.5)]
    assert len(dump_store(library.store)["recordings"]) == len(before["recordings"]) + 2


@pytest.mark.parametrize(
    "stamp", ["9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00", "garbage-garbage"]
)
def test_a_hostile_recording_date_in_the_file_falls_back_to_the_file_time(
    library: Library, tmp_path: Path, stamp: str
) -> None:
    path = encode(tone(1.0), tmp_path / "tagged.flac", metadata={"date": stamp, "creation_time": stamp})
    assert inspect_audio(path).creation_time is None
    [result] = import_files(library, [path], project="Atlas")
    assert result.status == "imported", result.message


def test_broken_transcripts_are_refused_with_a_reason(library: Library, tmp_path: Path) -> None:
    bad = bad_transcripts(tmp_path / "bad")
    library_project = import_files(library, [bad["no-header.vtt"][0]], project="Atlas")
    assert library_project[0].status == "failed"
    for name, (path, reason) in bad.items():
        before = dump_store(library.store)
        [result] = import_files(library, [path], project="Atlas")
        assert result.status == "failed", (name, result)
        assert name in result.message and reason in result.message, (name, result.message)
        assert dump_store(library.store) == before, name


@pytest.mark.slow
def test_odd_but_sound_transcripts_keep_every_word(library: Library, tmp_path: Path) -> None:
    good = good_odd_transcripts(tmp_path / "good")
    for name, (path, phrase) in good.items():
        [result] = import_files(library, [path], project="Atlas")
        assert result.status == "imported", (name, result.message)
        texts = [s.text for s in recordings.list_segments(library.store, result.recording_id or 0)]
        assert phrase in texts, (name, texts)


@pytest.mark.slow
def test_a_ten_megabyte_line_imports_and_stays_searchable(library: Library, tmp_path: Path) -> None:
    words = huge_line(tmp_path / "huge-words.txt", 10)
    blob = huge_line(tmp_path / "huge-blob.md", 10, spaces=False)
    results = import_files(library, [words, blob], project="Atlas")
    assert [r.status for r in results] == ["imported", "imported"], [r.message for r in results]
    stored = recordings.list_segments(library.store, results[0].recording_id or 0)
    assert sum(len(s.text) for s in stored) + len(stored) >= 10_000_000 - 40  # every word kept
    found = run("search", "budget", "--mode", "keyword", "--json")
    assert found.code == 0 and found.json()["hits"], found.err


def test_broken_corpora_are_refused_whole_with_the_line_that_is_wrong(
    library: Library, tmp_path: Path
) -> None:
    library.store  # noqa: B018 (opens the store: the CLI below works on the same folder)
    before = dump_store(library.store)
    for name, (path, reason) in bad_corpora(tmp_path / "corpora").items():
        result = run("import", str(path))
        assert result.code == 1, (name, result.out)
        assert result.err.startswith("error: ") and reason in result.err, (name, result.err)
        assert "Traceback" not in result.err
        assert dump_store(library.store) == before, name


@pytest.mark.parametrize(
    ("content", "kept_aside"),
    [
        ("[1, 2]", True),
        ('"just a string"', True),
        ("{not json", True),
        ('{"watched_folders": 5, "recency_lambda_per_day": "abc", "ask_word_budget": 5.5}', False),
        ('{"watched_folders": ["x", {"path": 1}, {"path": "/notes", "project": "Atlas"}]}', False),
        ('{"models": {"chat": 5}, "input_device": 3, "live_transcript": 1, "unknown": true}', False),
    ],
)
def test_a_hand_edited_settings_file_never_locks_the_user_out(
    data_dir: DataDir, content: str, kept_aside: bool
) -> None:
    from app.settings import Settings

    data_dir.root.mkdir(parents=True, exist_ok=True)
    data_dir.settings_path.write_text(content)
    result = run("search", "budget")
    assert result.code == 0 and "Traceback" not in result.err, result
    assert data_dir.settings_path.with_suffix(".damaged.json").exists() == kept_aside
    settings = Settings.load(data_dir.settings_path)
    defaults = Settings()
    assert settings.recency_lambda_per_day == defaults.recency_lambda_per_day
    assert settings.ask_word_budget == defaults.ask_word_budget
    assert settings.live_transcript is True and settings.input_device is None and settings.models == {}
    assert [(w.path, w.project) for w in settings.watched_folders] in ([], [("/notes", "Atlas")])


@pytest.mark.slow
def test_file_names_that_are_not_utf8_import_and_print(library: Library, tmp_path: Path) -> None:
    """A Latin-1 name from an old archive reaches Python as a lone surrogate: nothing may store or
    print it as is. The watcher, the import and a terminal in strict UTF-8 all take it."""
    import os
    import subprocess
    import sys

    folder = tmp_path / "inbox"
    folder.mkdir()
    names = {b"caf\xe9 note.txt": b"The budget is fine.", b"new\nline.txt": b"Kickoff on Tuesday."}
    for raw, text in names.items():
        with open(os.path.join(os.fsencode(folder), raw), "wb") as handle:
            handle.write(text)
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "import", str(folder), "--project", "Atlas"],
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "caf\\udce9 note.txt" in done.stdout
    titles = sorted(r.source_name or "" for r in recordings.list_recordings(library.store))
    assert titles == ["caf\\udce9 note.txt", "new\nline.txt"]
    for path in folder.iterdir():
        os.utime(path, (1, 1))  # settled long ago
    watched = run("watch", str(folder), "--project", "Atlas", "--once", "--no-transcribe")
    assert watched.code == 0 and watched.out.count("duplicate") == 2, watched


@pytest.mark.slow
def test_a_note_full_of_impossible_dates_consolidates(library: Library, tmp_path: Path) -> None:
    note = tmp_path / "dates.txt"
    note.write_text(
        "We will meet in 99999999999 days, or in 9999999 weeks. The deadline is 12 December 9999"
        " and the 31st. Maria approved it on Friday the 13th at 99 o'clock, next Tuesday."
    )
    for spoken_at in ("9999-12-30T10:00:00", "0001-01-02T10:00:00"):
        imported = run("import", str(note), "--project", spoken_at[:4], "--spoken-at", spoken_at, "--json")
        assert imported.code == 0, imported.err
        note.write_text(note.read_text() + " Again.")  # a new file: not a duplicate
    result = run("consolidate", "--all", "--no-llm")
    assert result.code == 0 and "Traceback" not in result.err, result
    assert [r.status for r in recordings.list_recordings(library.store)] == ["consolidated"] * 2
