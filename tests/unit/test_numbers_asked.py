"""A number in a question is said in a note as it was spoken: "the 40k quote" is "forty thousand"
(memory/text/relevance.py `asked_values`, memory/answer/context.py `passage_support`). Sentences
written for this test, in no development set."""

from __future__ import annotations

from memory.answer.context import ContextPassage, passage_support
from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.text.relevance import asked_values, content_words, question_names, question_terms


def _names_found(question: str, text: str) -> float:
    segment = Segment(1, RecordingId(1), 0, None, 0.0, 5.0, None, text, text, False)
    passage = ContextPassage(1, 1, 1, "depots", "", "2026-05-01T10:00:00", [segment], 0, 1.0)
    terms = question_terms(question, document_counts={w: 1 for w in content_words(question)}, documents=10)
    return passage_support(passage, terms, width=2, mentioned=lambda _: False).names


def test_the_numbers_a_question_says_are_read_as_values() -> None:
    def values(question: str) -> dict[str, float]:
        return asked_values(question, frozenset(question_names(question)))

    assert values("What did Hal say about the 40k quote?") == {"40k": 40000.0}
    assert values("Why did the 5,000 euro invoice bounce?") == {"5": 5000.0, "000": 5000.0}
    assert values("Who is running the 12 depots?") == {"12": 12.0}
    assert values("What is on the A14 site?") == {}  # a name with a digit is no number


def test_a_number_said_in_words_is_the_number_asked_about() -> None:
    question = "Who is running the 12 depots in the north?"
    assert _names_found(question, "Dana Okafor runs the twelve depots in the north now") == 1.0
    assert _names_found(question, "Dana Okafor runs 12 depots in the north now") == 1.0
    # another number is not it
    assert _names_found(question, "Dana Okafor runs the eleven depots in the north now") == 0.0
    question = "What did Hal say about the 40k quote?"
    assert _names_found(question, "Hal thinks forty thousand is steep for the quote") == 1.0
    assert _names_found(question, "Hal thinks fourteen thousand is steep for the quote") == 0.5
