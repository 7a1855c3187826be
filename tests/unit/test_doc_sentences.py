"""Sentences of a note's joined text (memory/text/doc.py): a German ordinal's dot ("am 3.
September") ends no sentence, English is cut as before; and consolidation's self-corrections read
such a German sentence whole. Sentences written for these tests."""

from __future__ import annotations

import pytest

from memory.consolidate.corrections import find_corrections
from memory.store.recordings import Segment
from memory.text.doc import Doc, split_sentences


def doc_of(*texts: str) -> Doc:
    segments = [
        Segment(i + 1, 1, i, None, i * 5.0, i * 5.0 + 4.5, None, t, t, False) for i, t in enumerate(texts)
    ]
    return Doc(segments, "2026-03-02T09:00:00")


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        (
            "Wir treffen uns am 3. September in Berlin. Danach geht es weiter.",
            ["Wir treffen uns am 3. September in Berlin.", "Danach geht es weiter."],
        ),
        (
            "Das ist der 2. wichtige Punkt für die Planung. Und noch etwas.",
            ["Das ist der 2. wichtige Punkt für die Planung.", "Und noch etwas."],
        ),
        (
            "Am 3., nein, am 4. September ist der Workshop. Danach schreiben wir den Bericht.",
            ["Am 3., nein, am 4. September ist der Workshop.", "Danach schreiben wir den Bericht."],
        ),
        (  # a number at a sentence's end, a capitalised word after it: two sentences
            "Der Umsatz lag bei 2025 nur bei 300. Im Jahr danach stieg er.",
            ["Der Umsatz lag bei 2025 nur bei 300.", "Im Jahr danach stieg er."],
        ),
    ],
)
def test_a_german_ordinal_ends_no_sentence(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences
    assert [s.text for s in doc_of(text).sentences] == sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("We counted to 3. then we left. Okay.", ["We counted to 3.", "then we left.", "Okay."]),
        ("The total was 12. September is busy.", ["The total was 12.", "September is busy."]),
    ],
)
def test_english_is_cut_as_before(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences
    assert split_sentences(text, "en") == sentences


@pytest.mark.parametrize(
    ("text", "wrong", "right"),
    [
        ("Der Workshop ist am 3., nein, am 4. September in Köln.", "3", "am 4. September in Köln"),
        ("Wir treffen uns am 3. September, nein, am 4. September in Berlin.", "am 3. September",
         "am 4. September in Berlin"),
        ("Die Abgabe ist am 3. September. Nein, am 4. September.", "am 3. September", "am 4. September"),
    ],
)  # fmt: skip
def test_a_german_date_corrected_is_a_self_correction(text: str, wrong: str, right: str) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.right.text, c.kind) == (wrong, right, "date")
