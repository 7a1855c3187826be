"""What kind of thing answers a question, and whether a text says one.

"How many staff does Wrenfield employ?" is answered by a number, "Who are the translators?" by a
name. The kind comes from the question's opening (its wh-words, English and German), or for a
price from its parse ("What will they charge?", "What is the budget?"); whether a
text holds one comes from spaCy's entity types and number tokens (memory/text/nlp.py), other than
the words the question itself gave; a name the small model does not know ("Priyanka from finance
…") counts when it is a capitalised word that is no English word (memory/text/name_words.py
`unknown_name`). German text has no spaCy pipeline here: word rules (memory/text/relevance.py,
`has_answer_kind`) stand in.

These are features of the answerability model and the sentence ranker (neither ships). As a check
before an answer is given ("a 'how many' answer must say a number"), `lacks_asked_kind`: only for
names, amounts and prices, and only in notes spoken by one voice (measured on every set: docs/benchmarks.md,
"Generalisation → Answers", night of 25 Nov). For a name, a quote that points at the one asked
about ("the forwarder", "their customer") must name them (`asked_noun`, `_speaks_of_unnamed`: by
the parse's apposition, copula or "called"), whatever other names it holds. For a "how many"
that names what it counts, a number the parse ties to another thing ("one maintenance contract",
"the budget is 240,000" for "How many pupils …?") answers another question (`_counts_other_things`).
For a price per unit of time ("What's Bec charging a day?", "the monthly rent"), only a quote
that says a number as that rate answers (`asked_rate`; memory/answer/price_rates.py `says_rate`):
"four hundred k a year" is another span's sum.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from memory.answer.price_rates import PRICE_STEMS, asks_price, says_rate, units_said
from memory.text import nlp
from memory.text.name_words import unknown_name
from memory.text.numbers import find_quantities
from memory.text.quotes import tokens
from memory.text.relevance import QuestionTerms, has_answer_kind, stem

if TYPE_CHECKING:
    from spacy.tokens import Token

# A question may open with the preposition of its wh-phrase: "On what date …", "By when …", "For
# how long …", "Until when …".
_PREPOSITION = r"(?:(?:on|by|at|for|from|until|till|since|to|in|bis|ab|um|für)\s+)?"
_OPENINGS = (
    # "What is the name of …" asks for a name as "who" does (a person or an organisation).
    (
        "person",
        re.compile(
            r"^\W*(?:who|whom|whose|wer|wem|wen|what(?:'s|\s+is|\s+was|\s+are|\s+were)\s+(?:the\s+)?names?\s+of"
            r"|wie\s+hei(?:ß|ss)(?:t|en))\b",
            re.I,
        ),
    ),
    # "How much" asks for a sum or a measure (money, a quantity, a share), not for a count of
    # things: "two bids" does not say how much a bid was.
    ("sum", re.compile(rf"^\W*{_PREPOSITION}(?:how\s+much|wie\s+viel(?!e))\b", re.I)),
    (
        "amount",
        re.compile(rf"^\W*{_PREPOSITION}(?:how\s+(?:many|big|far)|wie\s+(?:viele|gro(?:ß|ss)|weit))\b", re.I),
    ),
    (
        "duration",
        re.compile(
            rf"^\W*{_PREPOSITION}(?:how\s+(?:long|often|old)|wie\s+(?:lange|oft|alt)|seit\s+wann)\b", re.I
        ),
    ),
    (
        "time",
        re.compile(
            rf"^\W*{_PREPOSITION}(?:when|what\s+(?:date|day|time)|which\s+(?:date|day)|wann|an\s+welchem)\b",
            re.I,
        ),
    ),
    ("place", re.compile(r"^\W*(?:where|wo|wohin|woher)\b", re.I)),
)
KINDS = (*(kind for kind, _ in _OPENINGS), "price", "name", "contact")
# A phone number or an e-mail address asked for ("what's Renata's cell number?", "Gráinne's mobile?",
# "his email address"): answered only by a quote that says one, never by one that names the person.
_CONTACT = re.compile(
    r"\b(?:tele)?phone\s+(?:number|no\b)|\b(?:cell|mobile|landline)\s+(?:number|no\b)"
    r"|['’]s\s+(?:cell|mobile|phone|landline|e-?mail)\s*\??\s*$|\be-?mail\s+address"
    r"|\b(?:handynummer|telefonnummer|e-?mail-adresse)\b",
    re.I,
)
_DIGITS = re.compile(r"\+?\d[\d ()./-]{5,}\d")
_SPOKEN_DIGITS = re.compile(
    r"(?:\b(?:oh|zero|one|two|three|four|five|six|seven|eight|nine|double|triple)\b[\s,-]*){7,}", re.I
)
_EMAIL = re.compile(
    r"[\w.+-]+@[\w-]+\.[\w.]+|\b\w+\s+at\s+[\w-]+\s+dot\s+(?:com|org|net|ie|co|de|at|ch)\b", re.I
)


def says_contact(text: str) -> bool:
    """A phone number (seven digits or more, in figures or said one by one) or an e-mail address."""
    return (
        any(sum(ch.isdigit() for ch in m.group()) >= 7 for m in _DIGITS.finditer(text))
        or bool(_SPOKEN_DIGITS.search(text))
        or bool(_EMAIL.search(text))
    )


_RATE_NOUNS = frozenset({"rate", "fee", "rent", "cost", "price", "charge", "salary", "wage"})


def asked_rate(question: str) -> str | None:
    """The unit of time of a price the question asks for ("day" for "what day rate am I paying
    Mags?"), when it asks for a price or a sum, or names a rate, fee or rent; else None."""
    said = units_said(question)
    if len(said) != 1:
        return None
    kind = question_kind(question)
    words = {t.norm for t in tokens(question)}
    priced = words & _RATE_NOUNS or any(stem(w) in PRICE_STEMS for w in words)  # "charging", "pay"
    if kind in ("price", "sum") or (kind is None and priced):
        return said[0]
    return None


_ANY_NAME = frozenset({"PERSON", "ORG", "NORP", "GPE", "FAC", "LOC", "PRODUCT"})
ANSWER_ENTITIES: Mapping[str, frozenset[str]] = {
    "time": frozenset({"DATE", "TIME"}),
    "amount": frozenset({"MONEY", "CARDINAL", "QUANTITY", "PERCENT"}),
    "sum": frozenset({"MONEY", "QUANTITY", "PERCENT"}),
    "duration": frozenset({"DATE", "TIME", "CARDINAL", "QUANTITY"}),
    # Any name: the small English model often files an unfamiliar person's name under FAC or GPE
    # ("Imogen Ferreira" as a facility), so "who" is answered by a name of any type.
    "person": _ANY_NAME,
    "place": frozenset({"GPE", "LOC", "FAC"}),
    # A cost or a rate is also said as a share: "food cost is running at thirty-six percent".
    "price": frozenset({"MONEY", "PERCENT"}),
    "name": _ANY_NAME,
}
_NUMERIC_KINDS = frozenset({"amount", "duration"})
_MAGNITUDES = frozenset({"hundred", "thousand", "million", "billion", "k", "grand"})
_GERMAN_RULE_KIND = {
    "time": "time",
    "amount": "number",
    "sum": "number",
    "duration": "number",
    "person": "person",
    "price": "number",
}


@lru_cache(maxsize=256)  # read for every passage an answer quotes; each reading parses the question
def question_kind(question: str) -> str | None:
    """The kind of thing that answers the question (one of KINDS), when its opening says so, or,
    for a price, its words (`_asks_price`). "What *day* rate did I agree?" asks no day: a kind
    word that modifies a noun is not the question's frame."""
    if _CONTACT.search(question):
        return "contact"
    for kind, pattern in _OPENINGS:
        found = pattern.search(question)
        if found is not None:
            if kind == "time" and _modifies_a_noun(question, found.end()):
                break
            return kind
    if asks_price(question):
        return "price"
    return "name" if _asks_which_one(question) else None


def _asks_which_one(question: str) -> bool:
    """ "Which firm is supplying the AV kit?", "Which printer is doing the pack?": a "which" that
    picks one of a kind of thing asks for that thing by its name (a day or a date has its own
    opening, above)."""
    if nlp.language_of(question) == "de":
        return False
    doc = nlp.parse(question)
    first = next((t for t in doc if not t.is_punct), None)
    if first is None or first.lower_ != "which":
        return False
    return first.dep_ == "det" and first.head.pos_ in ("NOUN", "PROPN")


def _modifies_a_noun(question: str, end: int) -> bool:
    if nlp.language_of(question) == "de":
        return False
    opening = [t for t in nlp.parse(question) if t.idx < end]
    return bool(opening) and opening[-1].dep_ in ("compound", "amod") and opening[-1].head.i > opening[-1].i


def frame_stems(question: str) -> set[str]:
    """Stems of the words of the question's opening that say what kind of thing answers it ("the
    *name* of my contact", "what *time* is the presentation", "how *long*"): an answer says the
    thing, not the word ("My contact at Helvion is Stefan Wegener"), so they are not words a passage
    must say. A kind word that modifies a noun is not the frame ("what *day* rate did I agree")."""
    for _kind, pattern in _OPENINGS:
        found = pattern.search(question)
        if found is None:
            continue
        opening = found.group(0)
        words = {t.norm for t in tokens(opening)}
        if nlp.language_of(question) != "de":
            doc = nlp.parse(question)
            within = [t for t in doc if t.idx < found.end() and t.lower_ in words]
            words -= {t.lower_ for t in within if t.dep_ in ("compound", "amod") and t.head.i > t.i}
        return {stem(w) for w in words}
    return set()


# The kinds an answer must say before it is given. Measured per kind on all four development sets:
# "who / the name of" and "how much / many" never cost an answerable question on either consultant
# set; "when", "where" and "how long / often" did (a quote that says "the day after" or "there").
# A price (26 Nov) lost no supported answer on any set, held-out scenarios included. A "which
# firm / printer / system" name (26 Nov, morning): abstains on two more unanswerable questions of
# consultant-dev-2 and the event-operations scenario, no answered question lost (docs/benchmarks.md).
CHECKED_KINDS = frozenset({"person", "amount", "sum", "price", "name", "contact"})


def lacks_asked_kind(
    question: str,
    terms: QuestionTerms,
    quotes: Sequence[str],
    voices: int,
    projects: Sequence[str] = (),
    *,
    across: bool = False,
    names: Sequence[str] = (),
) -> bool:
    """Whether the quotes an answer would give miss the kind of thing the question asks for (a name
    for "who", a number for "how much"), in notes spoken by one voice (`voices` ≤ 1): then the notes
    speak of the thing asked about but do not say it ("the translators can hear the pacing" for "Who
    are the translators?"). The name of the note's own project (`projects`) answers no "who": it is
    said at the top of most notes. In a conversation the answer is often said by reference ("my
    mom") or across turns, so there it is not asked for. `names`: the names consolidation read in
    the quotes' segments (a name the small model misses in this sentence but knows from others)."""
    kind = question_kind(question)
    if voices > 1 or not quotes:
        return False
    if (rate := asked_rate(question)) is not None:
        # a number said as the rate asked is the price, in words too ("three fifty per day")
        return not any(says_rate(q, rate) for q in quotes)
    if kind not in CHECKED_KINDS:
        return False
    if kind == "name" and across:
        return False  # "which other client …": answered by a project, whose name is not a quote's
    given = " ".join(p.replace("-", " ").replace("_", " ") for p in projects)
    if kind in _NAME_KINDS:
        # A quote that speaks of the one asked about without naming it does not answer, whatever
        # other names it holds ("Oren says the forwarder near the Dutch border is very close").
        named = [q for q in quotes if not _speaks_of_unnamed(q, question)]
        if len(named) < len(quotes):
            # The notes speak of that one and leave it unnamed: a name in a quote that does not
            # speak of it at all ("Odile says the Chekhov is selling slowly") is someone else's.
            named = [q for q in named if _mentions_asked_noun(q, question)]
        quotes = named
        if not quotes:
            return True
        if _names_a_new_one(quotes, names, f"{terms.raw} {given}"):
            return False
    if kind == "amount" and (counted := _counted_noun(question)) is not None:
        # "How many pupils …?" is not answered by "one maintenance contract": a number that counts
        # another thing answers another question.
        return not any(
            kind_in(quote, kind, terms, given) and not _counts_other_things(quote, counted)
            for quote in quotes
        )
    return not any(kind_in(quote, kind, terms, given) for quote in quotes)


def _counted(number: Token) -> Token | None:
    """The noun a number counts in its sentence's parse: the one it modifies ("eleven depots", "nine
    hundred people"), the subject it is said to be ("the first cohort is eighteen"), or what it is of
    ("fourteen of them" counts nothing named); None when the parse does not say."""
    for _ in range(4):  # up from "forty" to "thousand" to "hundred": a number's words hang on each other
        if number.dep_ not in ("compound", "quantmod", "nmod", "conj") or number.head.pos_ != "NUM":
            break
        number = number.head
    if number.dep_ in ("nummod", "amod") and number.head.pos_ == "NOUN":
        return number.head
    if number.dep_ in ("attr", "acomp"):
        subject = next((c for c in number.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        return subject if subject is not None and subject.pos_ == "NOUN" else None
    of = next((c for c in number.children if c.dep_ == "prep" and c.lower_ == "of"), None)
    thing = next((c for c in of.children if c.dep_ == "pobj"), None) if of is not None else None
    return thing if thing is not None and thing.pos_ == "NOUN" else None


def _counts_other_things(quote: str, counted: set[str]) -> bool:
    """Every number of the quote counts a thing other than the one asked about (`counted`, stems:
    `_counted_noun`), by stem or lemma: "eleven depots" does not answer "How many days' holiday do
    the depot supervisors get?"."""
    if nlp.language_of(quote) == "de":
        return False
    doc = nlp.parse(quote)
    numbers = [e.root for e in doc.ents if e.label_ in ANSWER_ENTITIES["amount"]]
    numbers += [t for t in doc if t.like_num and t.ent_type_ not in ("DATE", "TIME", "ORDINAL")]
    if not numbers:
        return False
    things = [_counted(n) for n in numbers]
    return all(t is not None and not {stem(t.lower_), stem(t.lemma_.lower())} & counted for t in things)


def _counted_noun(question: str) -> set[str] | None:
    """Stems of the thing a "how many" counts and the words that say which: "GPU nodes" (node, GPU),
    "days' holiday" (day, holiday); None when it names nothing ("How many are coming?") or is German."""
    if nlp.language_of(question) == "de":
        return None
    doc = nlp.parse(question)
    many = next(
        (
            t
            for t in doc
            if t.lower_ == "many" and t.i > 0 and doc[t.i - 1].lower_ == "how" and t.head.pos_ == "NOUN"
        ),
        None,
    )
    if many is None:
        return None
    noun = many.head
    which = {stem(c.lower_) for c in noun.children if c.dep_ in ("compound", "amod", "poss")}
    if noun.dep_ in ("poss", "compound"):  # "days' holiday": the days are of the holiday
        which.add(stem(noun.head.lower_))
    return {stem(noun.lower_), stem(noun.lemma_.lower())} | which


_NAME_KINDS = frozenset({"person", "name"})


def asked_noun(question: str) -> str | None:
    """The lemma of the one a name question asks about: "Who is the *architect* on the works?",
    "What is the name of the *forwarder* …?", "Which *printer* is doing the pack?" (spaCy's parse;
    None for "Who is headlining?" and for German questions)."""
    found = _asked_noun(question)
    return found[0] if found is not None else None


@lru_cache(maxsize=256)  # read for every quote of an answer; kept as words, not the parse
def _asked_noun(question: str) -> tuple[str, bool] | None:
    """(lemma, said in the plural) of the one a name question asks about."""
    if nlp.language_of(question) == "de":
        return None
    doc = nlp.parse(question)
    found: Token | None = None
    for t in doc:
        if t.lower_ == "name" and t.pos_ == "NOUN":
            of = next((c for c in t.children if c.dep_ == "prep" and c.lower_ == "of"), None)
            obj = next((c for c in of.children if c.dep_ == "pobj"), None) if of is not None else None
            if obj is not None and obj.pos_ == "NOUN":
                found = obj
                break
    first = next((t for t in doc if not t.is_punct), None)
    if found is None and first is not None:
        if first.lower_ == "which" and first.dep_ == "det" and first.head.pos_ == "NOUN":
            found = first.head
        elif first.lower_ in ("who", "whom") and first.head.lemma_ == "be":
            found = next(
                (c for c in first.head.children if c.dep_ in ("attr", "nsubj") and c.pos_ == "NOUN"), None
            )
    return (found.lemma_.lower(), found.tag_ == "NNS") if found is not None else None


# How a name says who the one asked about is: "the forwarder, Brink Logistics", "Brink Logistics is
# the forwarder", "a forwarder called Brink", "the mill in Braga", "the Braga mill" (a name the
# question already says tells none apart: not "their customer in Hamburg" for "the Hamburg customer").
_NAMING = frozenset({"appos", "attr", "nsubj", "oprd"})


def _speaks_of_unnamed(quote: str, question: str) -> bool:
    """Whether the quote speaks of the one asked about (`asked_noun`) and names no one as that one:
    no name in apposition with it, said to be it, said to be called so, or placed by a name the
    question does not say (said of several of the kind when one is asked about, or the reverse,
    only the first three name them)."""
    wanted = _asked_noun(question)
    if wanted is None or nlp.language_of(quote) == "de":
        return False
    noun, plural = wanted
    asked = {t.norm for t in tokens(question.lower())}
    doc = nlp.parse(quote)
    # A mention is a noun phrase that points at one ("the forwarder", "their customer"), not the
    # word used loosely ("Tool-wise I'm keeping it simple").
    mentions = [
        t
        for t in doc
        if t.pos_ == "NOUN"
        and t.lemma_.lower() == noun
        and any(c.dep_ in ("det", "poss") for c in t.children)
    ]
    if not mentions:
        return False
    return not any(_named(m, asked, placed=(m.tag_ == "NNS") == plural) for m in mentions)


def _mentions_asked_noun(quote: str, question: str) -> bool:
    wanted = _asked_noun(question)
    if wanted is None or nlp.language_of(quote) == "de":
        return True
    return any(t.lemma_.lower() == wanted[0] for t in nlp.parse(quote))


def _named(noun: Token, asked: set[str], *, placed: bool) -> bool:
    """Whether a name says which one `noun` is; `placed`: a name before it or after a preposition
    counts too ("the Braga mill", "the mill in Braga"; not for "their EU customers" when one
    customer is asked about)."""

    def is_name(t: Token) -> bool:
        return (t.pos_ == "PROPN" or t.ent_type_ in _ANY_NAME) and t.lower_ not in asked

    linked = [c for c in noun.children if c.dep_ in ("appos", "acl")]
    if placed:
        linked += [c for c in noun.children if c.dep_ == "compound"]
        linked += [o for p in noun.children if p.dep_ == "prep" for o in p.children if o.dep_ == "pobj"]
    if noun.dep_ in ("appos", "compound"):  # "Jonas, the restaurant manager", "site engineer Owain Price"
        linked.append(noun.head)
    if noun.dep_ in ("attr", "nsubj") and noun.head.lemma_ == "be":
        verb = noun.head
        linked += [c for c in verb.children if c.dep_ in _NAMING and c is not noun]
        if verb.dep_ == "relcl":  # "Kit Abernathy, who is the new contact"
            linked.append(verb.head)
    for t in linked:
        if is_name(t) or any(is_name(x) for x in t.subtree if x.dep_ in ("oprd", "attr", "dobj", "compound")):
            return True
        # "Harriet Mbeki has taken over the roadshow, so she's my contact now": a pronoun that
        # stands for a name said before it in the sentence.
        if t.tag_ == "PRP" and t.lower_ in _PERSONAL and any(is_name(x) for x in t.sent if x.i < t.i):
            return True
    return False


_PERSONAL = frozenset({"he", "she", "they", "him", "her", "them"})


def _names_a_new_one(quotes: Sequence[str], names: Sequence[str], asked: str) -> bool:
    """A name the library's own reading found in a quote's words (`names`: consolidation's entities,
    read with the names of the other notes) that the question and the note's project do not say."""
    asked_words = {t.norm for t in tokens(asked.lower())}
    for name in names:
        words = {t.norm for t in tokens(name.lower())}
        if words and not words <= asked_words and any(name in quote for quote in quotes):
            return True
    return False


def kind_in(text: str, kind: str | None, terms: QuestionTerms, given: str = "") -> bool:
    """Whether `text` holds a thing of the kind that answers, other than words of the question (and
    of `given`: what the answer already shows, such as the note's project)."""
    if kind is None or not text.strip():
        return False
    if kind == "contact":
        return says_contact(text)
    if nlp.language_of(text) == "de":  # no German pipeline: the word rules
        rule_kind = _GERMAN_RULE_KIND.get(kind)
        if rule_kind == "number" and find_quantities(text, "de"):
            return True  # a number said as one German word ("zweihundertvierzigtausend"), by text2num
        return rule_kind is not None and has_answer_kind(text, rule_kind, terms)
    asked = f"{terms.raw} {given}".lower()
    asked_words = {t.norm for t in tokens(asked)}
    doc = nlp.parse(text)
    wanted = ANSWER_ENTITIES[kind]
    if any(e.label_ in wanted and e.text.lower() not in asked for e in doc.ents):
        return True
    if kind in ("price", "sum"):
        # A sum said without its currency ("680 a day", "three hundred a seat"): a number in digits
        # or with a magnitude, not a date, time or ordinal ("phase one", "half five" are no price).
        return any(
            t.like_num
            and t.ent_type_ not in ("DATE", "TIME", "ORDINAL")
            and (any(ch.isdigit() for ch in t.text) or t.lower_ in _MAGNITUDES)
            and t.lower_ not in asked_words
            for t in doc
        )
    if kind in _NAME_KINDS:
        return unknown_name(doc, asked_words)
    if kind in _NUMERIC_KINDS:
        # A number the entity recogniser left unlabelled ("we are 12", "twenty of them").
        return any(
            t.like_num and t.ent_type_ not in ("DATE", "TIME", "ORDINAL") and t.lower_ not in asked_words
            for t in doc
        )
    return False
