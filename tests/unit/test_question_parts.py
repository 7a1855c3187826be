"""A question that asks two things is read as its parts (memory/answer/question_parts.py).
The questions are written for this test, none from the eval sets."""

from __future__ import annotations

from memory.answer.question_parts import question_parts, with_parts
from memory.text.relevance import question_terms


def test_two_questions_joined_by_and_are_two_parts() -> None:
    assert question_parts("Who manages the Fenwick depot, and who signs off its budget?") == [
        "Who manages the Fenwick depot",
        "who signs off its budget",
    ]
    # framed by "Remind me": the framed clauses are the parts
    assert len(question_parts("Remind me who chairs the board and who keeps the minutes?")) == 2
    # one question with two wh-words, or joined nouns, is one part
    assert question_parts("When and where does the Fenwick launch happen?") == [
        "When and where does the Fenwick launch happen?"
    ]
    assert len(question_parts("What did Priya and Oren agree?")) == 1


def test_each_part_keeps_the_names_of_the_whole_question() -> None:
    question = "Who manages the Fenwick depot, and who signs off its budget?"
    counts = {"manages": 2, "depot": 3, "signs": 4, "budget": 5, "fenwick": 2}
    terms = with_parts(question_terms(question, document_counts=counts, documents=50), question)
    assert len(terms.parts) == 2
    second = terms.part(terms.parts[1])
    assert "fenwick" in second.names and "fenwick" in second.weights
    assert "budget" in second.weights and "depot" not in second.weights
