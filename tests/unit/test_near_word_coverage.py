"""A question's word said another way counts as much as the two words are near
(memory/text/relevance.py `coverage`, with the near words memory/answer/near_words.py finds)."""

from __future__ import annotations

from memory.text.relevance import coverage, question_terms, said_stems


def test_a_near_word_counts_its_nearness_and_the_word_itself_counts_fully() -> None:
    terms = question_terms("When is the final day?", document_counts={"final": 1, "day": 1}, documents=10)
    near = terms.with_near({"final": {"last": 0.65}})
    said_as_asked = coverage(near, said_stems("The final day is the 28th."))
    said_another_way = coverage(near, said_stems("The last day is the 28th."))
    said_neither = coverage(near, said_stems("The day is the 28th."))
    assert said_as_asked.coverage == 1.0
    assert said_another_way.matched == ["final", "day"] and 0.8 < said_another_way.coverage < 0.85
    assert said_neither.coverage == 0.5
    # without near words the other way of saying it is not found
    assert coverage(terms, said_stems("The last day is the 28th.")).coverage == 0.5
