"""A title's dot before a name ends no sentence (memory/text/doc.py, the one sentence splitter)."""

from __future__ import annotations

from memory.text.doc import split_sentences


def test_a_title_before_a_name_ends_no_sentence() -> None:
    assert split_sentences("I will revert to Mr. Venkataraman by Friday. Then Dr. Okafor called.") == [
        "I will revert to Mr. Venkataraman by Friday.",
        "Then Dr. Okafor called.",
    ]
    assert split_sentences("Herr Dr. Vogel ist da. Wir fangen an.") == [
        "Herr Dr. Vogel ist da.",
        "Wir fangen an.",
    ]
    # a dot after other short words still ends a sentence
    assert split_sentences("We moved it to the 3rd. Then we left.") == [
        "We moved it to the 3rd.",
        "Then we left.",
    ]
