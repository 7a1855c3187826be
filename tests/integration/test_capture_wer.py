"""WER: the normalisation both sides go through, the alignment, and `verbatim eval wer`."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.wer import align, normalise, number_words, ordinal_words, word_error_rate
from tests.conftest import eval_set, require_models
from tests.support.cli import run


def test_numbers_become_words_on_both_sides() -> None:
    assert number_words(14800) == ["fourteen", "thousand", "eight", "hundred"]
    assert number_words(2_000_013) == ["two", "million", "thirteen"]
    assert (
        ordinal_words(2) == ["second"]
        and ordinal_words(13) == ["thirteenth"]
        and ordinal_words(20) == ["twentieth"]
    )
    assert normalise("The quote was £14,800, 20% less.") == normalise(
        "the quote was fourteen thousand eight hundred pounds twenty percent less"
    )
    assert normalise("Monday the 2nd of March at 8:40") == [
        "monday",
        "the",
        "second",
        "of",
        "march",
        "at",
        "eight",
        "forty",
    ]
    assert normalise("one hundred and five") == normalise("105") == ["one", "hundred", "five"]
    assert normalise("bread and butter") == ["bread", "and", "butter"]  # 'and' outside numbers stays


def test_case_punctuation_fillers_and_apostrophes() -> None:
    assert normalise("Um, OK — so, uh, we DON'T go-live on the 6th!") == [
        "okay", "so", "we", "dont", "go", "live", "on", "the", "sixth",
    ]  # fmt: skip
    assert normalise("“Quoted”, (bracketed)… done.") == ["quoted", "bracketed", "done"]


def test_alignment_counts_each_kind_of_error() -> None:
    a = align(["a", "b", "c", "d"], ["a", "x", "c", "d", "e"])
    assert (a.substitutions, a.deletions, a.insertions, a.errors) == (1, 0, 1, 2)
    assert a.wer == pytest.approx(0.5)
    b = align(["the", "cat", "sat"], ["cat", "sat"])
    assert (b.deletions, b.wer) == (1, pytest.approx(1 / 3))
    assert word_error_rate("The go-live is the 13th.", "the go live is the thirteenth").wer == 0.0
    assert word_error_rate("", "").wer == 0.0


@pytest.mark.slow
def test_eval_wer_on_speech_dev_files(tmp_path: Path) -> None:
    require_models()
    speech = eval_set("speech-dev")
    rows = (speech / "manifest.tsv").read_text("utf-8").splitlines()
    short = [r for r in rows[1:] if "asterisk" not in r]  # the 8-minute file is for the benchmark
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text("audio\treference\n" + "\n".join(f"{speech}/{r}" for r in short) + "\n", "utf-8")
    result = run("eval", "wer", str(manifest), "--model", "tiny.en", "--json")
    assert result.code == 0, result.err
    report = result.json()
    assert set(report) >= {"files", "overall"} and set(report["overall"]) >= {"wer", "rtf"}
    assert len(report["files"]) == len(short)
    jfk = next(f for f in report["files"] if f["audio"] == "jfk.flac")
    assert jfk["wer"] <= 0.1, jfk["hypothesis"]
    assert 0.0 <= report["overall"]["wer"] < 0.3 and report["overall"]["rtf"] > 0
    text = run("eval", "wer", str(manifest), "--model", "no-such-model")
    assert text.code == 1 and "no transcription model" in text.err
