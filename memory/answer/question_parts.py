"""The parts of a question that asks two things at once ("Who runs the theatre, and who looks
after its money?"): each part is answered by its own sentence, often in another window of the
passage, so the relevance gate judges a passage by the part it speaks to best (with the names of
the whole question: "who's the sponsor" is still about the Dutch bakery).

Read from spaCy's parse: a verb joined to the question's main verb (or to the clause a "Remind me"
or "Can you tell me" frames) by "and", with its own words."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from memory.text import nlp
from memory.text.relevance import QuestionTerms, content_words, stem

if TYPE_CHECKING:
    from spacy.tokens import Token


def question_parts(question: str) -> list[str]:
    """The question's parts, in order; one part when it asks one thing (or is not English)."""
    if nlp.language_of(question) == "de":
        return [question]
    doc = nlp.parse(question)
    joined = [
        t
        for t in doc
        if t.dep_ == "conj"
        and t.pos_ in ("VERB", "AUX")
        and t.head.dep_ in ("ROOT", "ccomp")
        and t.head.pos_ in ("VERB", "AUX")
    ]
    if not joined:
        return [question]
    parts: list[str] = []
    taken: set[int] = set()
    for verb in joined:
        span = {w.i for w in verb.subtree}
        parts.append(_said(doc[i] for i in sorted(span)))
        taken |= span
    heads = {verb.head.i for verb in joined}
    first = [t for t in doc if t.i not in taken and not (t.dep_ == "cc" and t.head.i in heads)]
    return [_said(first), *parts]


def _said(words: Iterable[Token]) -> str:
    return "".join(t.text_with_ws for t in words).strip(" ,;?")


def with_parts(terms: QuestionTerms, question: str) -> QuestionTerms:
    """The terms with the content stems of each part, when the question asks more than one thing."""
    parts = question_parts(question)
    if len(parts) < 2:
        return terms
    stems_of = [frozenset(stem(w) for w in content_words(p)) & set(terms.weights) for p in parts]
    stems_of = [s for s in stems_of if s - terms.names]
    return terms.with_parts(stems_of) if len(stems_of) >= 2 else terms
