"""In a conversation, a question about one speaker is supported by what that speaker stated, not
by what they asked the other person (memory/answer/context.py, passage_support)."""

from __future__ import annotations

from memory.answer.answers import extractive_claims
from memory.answer.context import ContextPassage, passage_support, states_something
from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.text.relevance import QuestionTerms, content_words, question_terms


def _passage(*turns: tuple[str, str]) -> ContextPassage:
    segments = [
        Segment(n + 1, RecordingId(1), n, None, n * 5.0, n * 5.0 + 5.0, speaker, text, text, False)
        for n, (speaker, text) in enumerate(turns)
    ]
    return ContextPassage(1, 1, 1, "chats", "", "2026-05-01T10:00:00", segments, 0, 1.0)


def _terms(question: str) -> QuestionTerms:
    return question_terms(question, document_counts={w: 1 for w in content_words(question)}, documents=10)


def _support(question: str, passage: ContextPassage) -> float:
    return passage_support(passage, _terms(question), width=2, mentioned=lambda _: True).coverage


def _quotes(question: str, *passages: ContextPassage) -> list[str]:
    """The extractive answer's quotes, with every passage judged relevant."""
    for p in passages:
        p.relevant = True
    return [c.text for c in extractive_claims(list(passages), _terms(question))]


def test_what_a_speaker_asked_the_other_is_not_about_the_speaker() -> None:
    chat = _passage(
        ("Melanie", "That sounds great! What kind of counselling do you want to pursue?"),
        ("Caroline", "I'm thinking of working with trans people."),
    )
    assert _support("What kind of counselling is Melanie interested in pursuing?", chat) < 0.5
    # what Melanie states about herself still counts
    stated = _passage(
        ("Melanie", "I want to pursue counselling for kids, it's my plan."), ("Caroline", "Nice!")
    )
    assert _support("What kind of counselling is Melanie interested in pursuing?", stated) >= 0.5


def test_a_question_a_speaker_asks_themselves_still_counts() -> None:
    chat = _passage(
        ("Melanie", "Should I pursue counselling after all? Probably, yes."), ("Caroline", "Go for it.")
    )
    assert _support("Is Melanie going to pursue counselling?", chat) >= 0.5


def test_the_quote_is_the_words_of_the_person_asked_about() -> None:
    chat = _passage(
        ("Melanie", "I realised after my charity race that I love running."),
        ("Caroline", "The charity race made me see that self-care matters."),
    )
    chat.relevant = True
    [claim] = extractive_claims([chat], _terms("What did Caroline realise after her charity race?"))
    assert claim.text.startswith("The charity race made me see")
    assert claim.citations[0].segment_ids == (2,)


def test_words_that_turn_to_the_other_person_are_about_them() -> None:
    # Turns written for this test: Priya reacts to Tomasz's news; the question is about Priya.
    question = "What did Priya think of her new bakery?"
    reaction = _passage(
        ("Tomasz", "I finally opened the bakery last week."),
        ("Priya", "Tom, the new bakery looks amazing."),
    )
    assert _support(question, reaction) < 0.5  # she names him: about his bakery
    yours = _passage(("Tom", "Look, the bakery!"), ("Priya", "Your new bakery looks amazing."))
    assert _support(question, yours) < 0.5
    # her own words about her own bakery count, even when she names him
    own = _passage(("Tom", "How is it going?"), ("Priya", "Tom, I think my new bakery is amazing."))
    assert _support(question, own) >= 0.5


def test_a_plain_you_is_often_anyone_and_turns_to_no_one() -> None:
    question = "What did Priya say about writing a proposal?"
    generic = _passage(
        ("Priya", "So you write a proposal and you send it to people before the meeting."),
        ("Tom", "Right."),
    )
    assert _support(question, generic) >= 0.5


def test_a_question_and_the_thanks_after_it_state_nothing() -> None:
    question = "How did Caroline's children handle the accident?"
    asked = _passage(
        ("Melanie", "My son had a car accident last week."),
        ("Caroline", "Oh no! How did they handle the accident? Thanks, Melanie"),
    )
    assert _quotes(question, asked) == []
    replied = _passage(("Caroline", "How did they handle the accident? They were scared but fine."))
    assert _quotes(question, replied) == ["How did they handle the accident? They were scared but fine"]
    assert states_something("Do we need a second site? Probably not.")
    assert not states_something("Any special meaning to it? Thanks!", ["Melanie"])


def test_no_quote_when_the_person_asked_about_only_speaks_to_the_other() -> None:
    chat = _passage(
        ("Jon", "I finally opened the store last week."), ("Caroline", "Your store looks great, Jon!")
    )
    assert _quotes("How does Caroline's store look?", chat) == []
