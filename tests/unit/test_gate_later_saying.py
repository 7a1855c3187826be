"""A later note of a kept passage's project that says how the thing asked about stands now, in fewer
of the question's words, is kept too (memory/answer/relevance_gate.py `_keep_later_sayings`), and only a
later one of the same project that says the kind of thing asked for."""

from __future__ import annotations

from memory.answer.context import ContextPassage
from memory.answer.relevance_gate import Gate, judge_passages
from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.store.store import Store
from memory.text.relevance import QuestionTerms, content_words, question_terms

QUESTION = "How many people are on the shutdown crew?"
FIRST = "The shutdown crew is eighty-five people, Leanne signed off the roster."
# says "crew" of the question's three content words, and the number that answers now
LATER = "Leanne added a second rigging team, so the crew is ninety-six all up."


def _terms() -> QuestionTerms:
    return question_terms(QUESTION, document_counts={w: 1 for w in content_words(QUESTION)}, documents=10)


def _passage(number: int, text: str, spoken_at: str, *, project_id: int = 1, rank: int = 0) -> ContextPassage:
    segment = Segment(number, RecordingId(number), 0, None, 0.0, 5.0, None, text, text, False)
    return ContextPassage(number, number, project_id, f"p{project_id}", "", spoken_at, [segment], rank, 1.0)


def _judged(store: Store, *passages: ContextPassage) -> list[bool]:
    judge_passages(store, list(passages), _terms(), Gate())
    return [p.relevant for p in passages]


def test_a_later_saying_of_the_same_project_is_kept(store: Store) -> None:
    first, later = (
        _passage(1, FIRST, "2027-02-10T18:00:00"),
        _passage(2, LATER, "2027-04-15T18:00:00", rank=3),
    )
    assert _judged(store, first, later) == [True, True]
    assert Gate().min_support_later <= later.support.coverage < Gate().min_support  # the case it is for


def test_alone_the_later_saying_is_not_enough(store: Store) -> None:
    assert _judged(store, _passage(2, LATER, "2027-04-15T18:00:00")) == [False]


def test_only_a_later_note_of_the_same_project(store: Store) -> None:
    earlier = _passage(2, LATER, "2027-01-15T18:00:00")
    other = _passage(3, LATER, "2027-04-15T18:00:00", project_id=2)
    first = _passage(1, FIRST, "2027-02-10T18:00:00")
    assert _judged(store, first, earlier, other) == [True, False, False]


def test_the_later_saying_must_say_the_kind_asked_for(store: Store) -> None:
    """ "How many": a later sentence with no number says nothing of how many."""
    no_number = "Leanne added a second rigging team to the crew, she's pleased with them."
    first, later = _passage(1, FIRST, "2027-02-10T18:00:00"), _passage(2, no_number, "2027-04-15T18:00:00")
    assert _judged(store, first, later) == [True, False]


def test_an_update_may_say_only_one_of_four_words_asked(store: Store) -> None:
    """A quarter of the question's words is enough for a later saying (`Gate.min_support_later`,
    chosen leave one set out): the update names the crew, not the night shift or the shutdown."""
    question = "How many people are on the night shutdown crew?"
    terms = question_terms(question, document_counts={w: 1 for w in content_words(question)}, documents=10)
    first = _passage(
        1, "The night shutdown crew is eighty-five people, Leanne signed it off.", "2027-02-10T18:00:00"
    )
    later = _passage(2, LATER, "2027-04-15T18:00:00", rank=3)
    judge_passages(store, [first, later], terms, Gate())
    assert (first.relevant, later.relevant) == (True, True)
    assert later.support.coverage < Gate().min_support_close  # fewer words than closeness needs
    judge_passages(store, [first, later], terms, Gate(min_support_later=Gate().min_support_close))
    assert (first.relevant, later.relevant) == (True, False)
