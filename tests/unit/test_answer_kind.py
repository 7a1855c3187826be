"""An answer to "when / how much / who" must say a date, an amount or a name (app/ask.py), and the
sentence ranker's features compare a sentence with the other candidates (memory/answer/sentence_ranker.py)."""

from __future__ import annotations

from app.ask import says_what_was_asked
from memory.answer.answerability import question_kind
from memory.answer.answers import Citation, Claim
from memory.answer.context import ContextPassage
from memory.answer.sentence_ranker import FEATURES, sentence_features
from memory.text.quotes import ClaimKind
from memory.text.relevance import QuestionTerms, question_terms


def _claim(text: str) -> Claim:
    cite = Citation(1, "p", 1, "2026-01-01T00:00:00", 0.0, 1.0, (1,), text)
    return Claim(text, ClaimKind.STATED, [cite], "extractive")


def _terms(question: str) -> QuestionTerms:
    return question_terms(question, document_counts={}, documents=10)


def test_a_who_question_answered_by_lines_naming_no_one_is_not_answered() -> None:
    question = "Who are the translators for the Polish track?"
    lines = [_claim("I need to record a scratch version so the translators can hear the pacing.")]
    assert not says_what_was_asked(question, _terms(question), lines)


def test_a_name_of_any_entity_type_answers_who() -> None:
    question = "Who is my contact at the museum?"
    lines = [_claim("My contact is Imogen Ferreira, she is head of visitor experience.")]
    assert says_what_was_asked(question, _terms(question), lines)


def test_how_much_needs_an_amount_and_when_a_date() -> None:
    much = "How much does the clinic pay for the licence?"
    assert not says_what_was_asked(much, _terms(much), [_claim("They will keep paying the licence.")])
    assert says_what_was_asked(much, _terms(much), [_claim("The licence costs 4,200 pounds a year.")])
    when = "When is the go-live?"
    assert says_what_was_asked(when, _terms(when), [_claim("The go-live is on Thursday the 11th of June.")])


def test_a_question_that_asks_no_kind_is_not_checked() -> None:
    question = "Why did we drop Redis?"
    assert says_what_was_asked(question, _terms(question), [_claim("Their ops team cannot run it.")])


def test_what_is_the_name_of_asks_for_a_name() -> None:
    assert question_kind("What is the name of my contact at Nordvang?") == "person"
    assert question_kind("What's the name of the forwarder?") == "person"


def test_sentence_features_compare_each_sentence_with_the_best_candidate() -> None:
    question = "Who installs the beacons at the museum?"
    terms = _terms(question)
    passage = ContextPassage(1, 1, 1, "museum", "", "2026-01-01T00:00:00", [], 0, 1.0)
    options = [
        "The museum wants beacons in every gallery.",
        "Cormac Moriarty installs the beacons next week.",
    ]
    (rows,) = sentence_features(terms, [(passage, options)])
    assert set(rows[0]) == set(FEATURES)
    assert max(r["coverage_gap"] for r in rows) == 0.0
    assert rows[1]["kind_found"] == 1.0 and rows[0]["kind_found"] == 0.0
    assert rows[1]["position"] == 1.0 and rows[0]["first"] == 1.0
