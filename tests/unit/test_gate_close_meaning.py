"""A question asked in other words than the note's: the relevance gate keeps a passage that says
fewer of its words when the embedding model puts the passage close to the question in meaning
(memory/answer/relevance_gate.py `Gate.min_cosine`, `Gate.min_support_close`), and only then."""

from __future__ import annotations

from memory.answer.context import ContextPassage
from memory.answer.relevance_gate import Gate, judge_passages
from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.store.store import Store
from memory.text.relevance import QuestionTerms, content_words, question_terms

QUESTION = "How many stalls did the food traders pay deposits on?"
# says "stalls" and "deposits" of the question's five content words, "vendors" for "traders"
SAID = "Thirty-six stalls are signed up now, every one of the vendors has paid a deposit."


def _terms() -> QuestionTerms:
    return question_terms(QUESTION, document_counts={w: 1 for w in content_words(QUESTION)}, documents=10)


def _passage(cosine: float) -> ContextPassage:
    segment = Segment(1, RecordingId(1), 0, None, 0.0, 5.0, None, SAID, SAID, False)
    return ContextPassage(
        1, 1, 1, "festival", "", "2026-05-01T10:00:00", [segment], 0, 1.0, {"cosine": cosine}
    )


def _relevant(store: Store, cosine: float, gate: Gate) -> bool:
    return judge_passages(store, [_passage(cosine)], _terms(), gate)


def test_a_passage_close_in_meaning_needs_fewer_of_the_questions_words(store: Store) -> None:
    passage = _passage(0.62)
    judge_passages(store, [passage], _terms(), Gate())
    assert Gate().min_support_close <= passage.support.coverage < Gate().min_support  # the case it is for
    assert _relevant(store, 0.62, Gate())
    assert not _relevant(store, 0.62, Gate(min_cosine=1.1))  # words alone: not enough of them


def test_a_passage_far_in_meaning_still_needs_half_the_words(store: Store) -> None:
    assert not _relevant(store, 0.35, Gate())


def test_closeness_alone_is_not_enough(store: Store) -> None:
    unrelated = "Thirty-six people came to the opening, the weather held."
    segment = Segment(1, RecordingId(1), 0, None, 0.0, 5.0, None, unrelated, unrelated, False)
    passage = ContextPassage(
        1, 1, 1, "festival", "", "2026-05-01T10:00:00", [segment], 0, 1.0, {"cosine": 0.9}
    )
    assert not judge_passages(store, [passage], _terms(), Gate())


def test_in_a_conversation_closeness_does_not_count(store: Store) -> None:
    """What is close in meaning in a conversation is as often what the other person did."""
    turns = [
        Segment(
            1,
            RecordingId(1),
            0,
            None,
            0.0,
            5.0,
            "Mel",
            "How is the festival going?",
            "How is the festival going?",
            False,
        ),
        Segment(2, RecordingId(1), 1, None, 5.0, 9.0, "Jo", SAID, SAID, False),
    ]
    passage = ContextPassage(1, 1, 1, "chats", "", "2026-05-01T10:00:00", turns, 0, 1.0, {"cosine": 0.62})
    assert not judge_passages(store, [passage], _terms(), Gate())
