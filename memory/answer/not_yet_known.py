"""Whether a sentence says that the thing asked about is not known: "she wouldn't tell me who",
"I don't know which yet", "we still need to confirm the date", "I have no idea how much".

Dictated notes often record what is still open. Such a sentence shares the question's words and
often holds a name or a number of the kind asked ("Nia wants a headline act by the 1st of July,
… she wouldn't tell me who"), so the word checks took it for the answer. It is read from spaCy's
parse: a verb of knowing, telling or finding out that is negated (or owed: "need to check"), whose
own phrase holds the asked kind's question word ("who", "which", "how much"), "the name", or the
noun the question asks about ("the date" for "What is the date of …?"). The verbs are a closed
class of English; the structure is the parser's. German text (no parse here) is never read as
saying so.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from memory.text import nlp

if TYPE_CHECKING:
    from spacy.tokens import Token

# Verbs whose negation says the speaker lacks the fact: knowing, telling, deciding, finding out.
_KNOWING = frozenset(
    {
        *("know", "tell", "say", "confirm", "decide", "share", "disclose", "reveal", "name", "remember"),
        *("announce", "specify", "mention", "check", "find", "look", "ask", "hear", "sure", "clear"),
    }
)
# Words that say the knowing is missing without a negation.
_UNKNOWING = frozenset({"vague", "unclear", "unsure", "uncertain", "undecided", "unknown"})
# Of those, the ones a speaker "needs to" do because the fact is not known yet ("I need to look up
# the figure"); "I have to tell Jonas the date" says the opposite.
_FINDING_OUT = frozenset({"check", "find", "look", "ask", "confirm", "hear"})
_OWED = frozenset({"need", "have"})
_WORD_KINDS: Mapping[str, frozenset[str]] = {
    "who": frozenset({"person", "name"}),
    "whom": frozenset({"person", "name"}),
    "whose": frozenset({"person", "name"}),
    "which": frozenset({"person", "name", "place", "time"}),
    "where": frozenset({"place"}),
    "when": frozenset({"time"}),
    "what": frozenset({"amount", "sum", "price", "name"}),
}
_AFTER_HOW: Mapping[str, frozenset[str]] = {
    "much": frozenset({"amount", "sum", "price"}),
    "many": frozenset({"amount"}),
    "long": frozenset({"duration"}),
    "often": frozenset({"duration"}),
}
_NOUN_KINDS: Mapping[str, frozenset[str]] = {
    "name": frozenset({"person", "name"}),
    **dict.fromkeys(("figure", "number", "amount", "total", "sum"), frozenset({"amount", "sum", "price"})),
    **dict.fromkeys(("cost", "price", "fee", "rate", "budget"), frozenset({"price", "sum", "amount"})),
    **dict.fromkeys(("date", "day", "deadline"), frozenset({"time"})),
    "time": frozenset({"time", "duration"}),
    **dict.fromkeys(("place", "venue", "address", "location"), frozenset({"place"})),
}
# A negation on the verb a knowing verb depends on reaches it ("didn't want to say", "I'm not sure
# who"); one on a coordinated verb does not ("we don't have it, and she told me who").
_CLIMB = frozenset({"xcomp", "ccomp", "acomp"})
_OTHER_CLAUSE = frozenset({"conj", "cc", "punct", "parataxis"})
_NOUN_ROLES = frozenset({"dobj", "nsubj", "nsubjpass", "pobj", "attr"})


def says_not_known(text: str, kind: str | None, question: str = "") -> bool:
    """Whether `text` says that a thing of the asked `kind` (memory/answer/asked_kind.py) is not
    known, not told or still to be found out: by a question word of that kind ("who", "how
    much"), or by the noun the question asks about ("nobody could tell me the date" answers "What
    is the date of the inspection?", while "nobody has confirmed a budget" does not answer "How
    much is the project worth?")."""
    if not kind or not text.strip() or nlp.language_of(text) != "en":
        return False
    asked = {t.lemma_.lower() for t in nlp.parse(question)} if question else set()
    return kind in not_known_kinds(text, asked)


def not_known_kinds(text: str, asked: Collection[str] = ()) -> set[str]:
    """The kinds of things `text` says are not known (empty when it says none is); a noun such
    as "the date" or "the figure" counts only when it is among the `asked` lemmas ("the name"
    always: it is what a name question asks)."""
    found: set[str] = set()
    for token in nlp.parse(text):
        if _lacks(token):
            found |= _asked_in(token, asked)
            if token.dep_ == "acomp":  # "it's unclear who will chair": the clause hangs from "is"
                found |= _asked_in(token.head, asked)
    return found


def _lacks(token: Token) -> bool:
    """A verb of knowing that is negated or owed, "no idea", or a word that says the knowing is
    missing ("vague on how many", "unclear who")."""
    if token.lemma_.lower() in ("idea", "clue") and any(c.lower_ == "no" for c in token.children):
        return True
    if token.lemma_.lower() in _UNKNOWING and token.pos_ in ("ADJ", "VERB"):
        return True
    lemma = token.lemma_.lower()
    if lemma not in _KNOWING or token.pos_ not in ("VERB", "AUX", "ADJ"):
        return False
    at = token
    for _ in range(3):  # "didn't want to say", "I'm not sure who": the negation sits on a head
        if any(c.dep_ == "neg" for c in at.children):
            return True
        if any(c.dep_ == "nsubj" and c.lower_ in ("nobody", "noone") for c in at.children):
            return True
        if lemma in _FINDING_OUT and at.dep_ == "xcomp" and at.head.lemma_.lower() in _OWED:
            return True
        if at.dep_ not in _CLIMB or at.head is at:
            break
        at = at.head
    return False


def _asked_in(token: Token, asked: Collection[str]) -> set[str]:
    """The kinds the phrase of a knowing verb asks about: its question words and its object."""
    kinds: set[str] = set()
    doc = token.doc
    # Its own phrase only: "I don't know if they'll sign, but the budget is forty thousand" goes
    # on to another clause (a conjunct of the verb), which the negation does not reach.
    phrase = [t for c in token.children if c.dep_ not in _OTHER_CLAUSE for t in c.subtree]
    for t in phrase:
        word = t.lower_
        if t.tag_ in ("WP", "WRB", "WDT", "WP$") and word in _WORD_KINDS:
            kinds |= _WORD_KINDS[word]
            if word == "what":  # "what the current figure is", "what they charge per head"
                kinds |= {k for n in t.head.subtree for k in _NOUN_KINDS.get(n.lemma_.lower(), ())}
        if word == "how" and t.i + 1 < len(doc):
            kinds |= _AFTER_HOW.get(doc[t.i + 1].lower_, frozenset())
        noun = t.lemma_.lower()
        if t.dep_ in _NOUN_ROLES and noun in _NOUN_KINDS and (noun == "name" or noun in asked):
            kinds |= _NOUN_KINDS[noun]
    return kinds
