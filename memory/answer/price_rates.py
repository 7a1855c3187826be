"""Prices asked and said. Whether a question asks a price without "how much" (`asks_price`: "What
will they charge?", "What is the budget?", read from spaCy's parse), and a price per unit of time:
"what's my day rate with Millbrook?", "what's Bec charging a day?", "the monthly rent" ask one
(memory/answer/asked_kind.py `asked_rate` decides whether a question asks a price); "680 a day",
"three fifty per day", "her day rate is six hundred euros", "R850/hour", "2.900 Euro monatlich" say
one. English and German words."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memory.text import nlp
from memory.text.numbers import find_quantities
from memory.text.relevance import stem

if TYPE_CHECKING:
    from spacy.tokens import Token

# Words that say a unit of time as a rate, in a question or a quote.
_RATE_UNITS = {
    "day": r"(?:a|an|per|each|every)[\s-]+day|day\s*rates?|daily|per\s+diem|/\s?day"
    r"|pro\s+tag|am\s+tag|tagess[aä]tz\w*|täglich",
    "hour": r"(?:a|an|per|each|every)[\s-]+hour|hourly|hour\s*rates?|/\s?(?:hour|hr|h)"
    r"|pro\s+stunde|stundens[aä]tz\w*|stündlich",
    "week": r"(?:a|per|each|every)[\s-]+week|weekly|/\s?(?:week|wk)|pro\s+woche|wöchentlich",
    "month": r"(?:a|per|each|every)[\s-]+month|monthly|/\s?(?:month|mo|mth)|pro\s+monat|im\s+monat|monatlich",
    "year": r"(?:a|per|each|every)[\s-]+year|yearly|annual(?:ly)?|per\s+annum|/\s?(?:year|yr)"
    r"|pro\s+jahr|im\s+jahr|jährlich",
}
_RATE_SAID = {unit: re.compile(rf"(?:\b|(?=/))(?:{words})\b", re.I) for unit, words in _RATE_UNITS.items()}
# What may stand between a number and the unit of its rate: a word of money the number reader does
# not take as a currency ("forty-five thousand naira a month"), not another noun ("forty times a day").
_MONEY_GAP = re.compile(r"\s*(?:(?:bucks|yen|yuan|naira|shillings?|pesos?|dirhams?)\s*)?", re.I)
# The rate named by a word of its own, before or after the number ("her day rate is six hundred
# euros", "2.900 Euro monatlich"); "a day" right after a number is read with it (`find_quantities`).
_RATE_NAMED = {
    "day": r"day\s*rates?|daily|per\s+diem|per-day|tagess[aä]tz\w*|täglich",
    "hour": r"hourly|hour\s*rates?|stundens[aä]tz\w*|stündlich",
    "week": r"weekly|wöchentlich",
    "month": r"monthly|monatlich",
    "year": r"yearly|annual(?:ly)?|per\s+annum|jährlich",
}
_RATE_WORD = {unit: re.compile(rf"\b(?:{words})\b", re.I) for unit, words in _RATE_NAMED.items()}
_RATE_REACH = 40  # characters between a rate's name and its number ("day rate is six hundred")
_RATE_AFTER = 12  # ... and between a number and its rate's name after it ("2.900 Euro monatlich")


def says_rate(text: str, unit: str) -> bool:
    """A number said as a rate per `unit` ("680 a day", "three fifty per day", "her day rate is six
    hundred euros", "monatlich 2.900 Euro"); not a number said apart from the rate's name ("five
    days on site, and her day rate goes straight to the credit union")."""
    found = find_quantities(text, nlp.language_of(text))
    if any(q.rate == f"per {unit}" for q in found):
        return True
    if any(
        _MONEY_GAP.fullmatch(text[q.end : m.start()])
        for m in _RATE_SAID[unit].finditer(text)
        for q in found
        if q.end <= m.start()
    ):
        return True  # "forty-five thousand rand a month", "R850/hour"
    return any(
        0 <= q.start - m.end() <= _RATE_REACH or 0 <= m.start() - q.end <= _RATE_AFTER
        for m in _RATE_WORD[unit].finditer(text)
        for q in found
        if not q.rate
    )


def units_said(question: str) -> list[str]:
    """The units of time a text says as a rate ("a day", "hourly", "per annum", "/hr")."""
    return [unit for unit, pattern in _RATE_SAID.items() if pattern.search(question)]


# A price asked for without "how much": the object of a verb of paying or pricing ("What will they
# charge?", "What does a pot cost?"), or a "what" that asks the value of a noun of money ("What is
# the budget?", "What day rate did I agree?"). Read from spaCy's parse of the question. It is
# answered by a sum: a money entity, or a number in digits or with a magnitude ("680 a day").
PRICE_VERBS = frozenset({"cost", "charge", "pay", "quote", "spend", "earn", "bill", "invoice"})
# By stem as well as lemma: the small model reads some questions' verb as a noun ("What is Ferrow
# *charging* …" parsed with "charging" as the root noun, lemma "charging").
PRICE_STEMS = frozenset(stem(v) for v in PRICE_VERBS)
MONEY_NOUNS = frozenset(
    {
        "price",
        "cost",
        "fee",
        "rate",
        "budget",
        "salary",
        "wage",
        "amount",
        "sum",
        "total",
        "premium",
        "revenue",
    }
)


def asks_price(question: str) -> bool:
    if nlp.language_of(question) == "de":
        return False
    doc = nlp.parse(question)
    for word in doc:  # the question's first "what" decides
        if word.lower_ != "what":
            continue
        head = word.head
        if word.dep_ == "dobj" and _is_price_verb(head):
            return True
        if word.dep_ in ("attr", "nsubj") and any(_charged_by(t, word) for t in doc):
            return True
        if word.dep_ == "det" and head.lemma_.lower() in MONEY_NOUNS:
            return True
        if word.dep_ in ("attr", "nsubj") and head.lemma_ == "be":
            return any(
                c.dep_ in ("nsubj", "attr") and c.lemma_.lower() in MONEY_NOUNS
                for c in head.children
                if c != word
            )
        return False
    return False


def _is_price_verb(word: Token) -> bool:
    return word.lemma_.lower() in PRICE_VERBS or stem(word.lower_) in PRICE_STEMS


def _charged_by(verb: Token, what: Token) -> bool:
    """The small model's other readings of "What is X charging …?": "what" hangs from the verb of
    paying (through its auxiliary), or from an "are" whose subject the verb's participle describes
    ("What are the printers charging …?"); not an infinitive after a noun ("the deadline for
    traders to pay")."""
    if not _is_price_verb(verb):
        return False
    head = what.head.head if what.head.dep_ == "aux" else what.head
    if verb == head:
        return True
    return verb.dep_ == "acl" and verb.tag_ == "VBG" and verb.head.dep_ == "nsubj" and verb.head.head == head
