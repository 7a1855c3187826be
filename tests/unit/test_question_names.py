"""The names a question is about, which a passage must mention, are read by spaCy for English
questions (memory/text/relevance.py): dates and times are not names, a note's own date answers them."""

from __future__ import annotations

from memory.text.relevance import question_terms


def _names(question: str) -> set[str]:
    words = {w: 1 for w in question.replace("?", " ").replace("'s", " ").split()}
    return set(question_terms(question, document_counts=words, documents=10).names)


def test_a_month_or_a_date_in_the_question_is_not_a_name() -> None:
    assert _names("What day rate did I agree with Tessera in June?") == {"tessera"}
    assert _names("Where did Oscar go on 5 May 2023?") == {"oscar"}
    assert _names("What time is the presentation to Kranich's advisory board on 10 September?") == {"kranich"}


def test_people_organisations_and_amounts_are_names() -> None:
    assert _names("Is Priya Raman still at Helvion Cloud?") == {"priya", "raman", "helvion", "cloud"}
    assert "5" in _names("Is the budget still 5,000 euros?")
    assert _names("How long has Melanie been creating art?") == {"melani"}


def test_german_questions_keep_the_capitals_rule() -> None:
    # No German spaCy pipeline here: capitals stand in (German nouns are read as names too).
    assert _names("Wo fanden die Demotage für Kranich statt?") == {"demotag", "kranich"}
