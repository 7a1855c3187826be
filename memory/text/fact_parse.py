"""One spaCy parse per sentence of a recording, shared by everything that reads facts from it.

English sentences are parsed by the English pipeline (memory/text/nlp.py), each once, on first use,
and kept with the Doc (a weak reference: the parse goes when the Doc goes). A German sentence has
no parse (no German model is installed): its readers fall back to rules.

`Clause` reads a value in its sentence: the tokens from the value up to the head of its clause
(through "to"-infinitives: "wants to move go-live to ..."), the words around that path that say
what the value is (its attribute) and, for a count, the noun counted.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from memory.text.doc import Doc, Sentence
from memory.text.name_words import NAME_LABELS
from memory.text.nlp import language_of, parse
from memory.text.numbers import word_list

if TYPE_CHECKING:
    from numpy.typing import NDArray
    from spacy.tokens import Doc as SpacyDoc
    from spacy.tokens import Span, Token
    from thinc.types import Ints2d

# Relations that start a clause of its own: a value's hedges and attribute stop there.
CLAUSE_EDGES = frozenset({"conj", "parataxis", "relcl", "advcl", "acl", "csubj", "ccomp", "ROOT"})
_VERBAL = frozenset({"VERB", "AUX"})
# Words around the path that describe the value.
_DESCRIBING = frozenset(
    {
        "nsubj",
        "nsubjpass",
        "dobj",
        "attr",
        "prep",
        "pobj",
        "pcomp",
        "compound",
        "amod",
        "dative",
        "agent",
        "conj",
    }
)
_NOT_ATTRIBUTE_POS = frozenset(
    {"PRON", "DET", "PUNCT", "AUX", "CCONJ", "SCONJ", "PART", "INTJ", "NUM", "SPACE", "ADP", "ADV"}
)
_LIGHT = frozenset(
    word_list(
        """
    be have do get go say tell think know see make let thing lot bit one stuff way time kind sort
    something anything everything nothing really basically actually just also still so well um uh
    yeah okay right now then want need like wish try decide agree ask confirm news side"""
    )
)
# Taking charge of something said with a particle or a preposition: "Kym's picked up the
# Fieldbright stuff", "Kevin is looking after the suppliers", "she's taken on the audit". What
# follows "after" or "with" here is what is taken charge of, not an aside.
OWNER_PHRASES = frozenset({("pick", "up"), ("take", "on"), ("look", "after"), ("deal", "with")})
_ASIDE_PREPS = frozenset(
    word_list(
        """
    with because due despite after before since until during except like than given"""
    )
)
# Verbs of changing say that a value changed, not what the value is.
CHANGE_LEMMAS = frozenset(
    word_list(
        """
    move switch change cut push raise increase reduce lower postpone delay slip replace drop approve
    pull revise update extend shift bump"""
    )
)
MIN_WORDS_FOR_LANGUAGE = 8  # a shorter sentence takes the note's language
_CAPITALISED = re.compile(r"\b[A-ZÄÖÜ][\w'-]+")


@dataclass
class ParsedSentence:
    sentence: Sentence
    language: str
    tokens: SpacyDoc | None  # the sentence's parse (offsets within the sentence); None: not English

    def tokens_in(self, start: int, end: int) -> list[Token]:
        """The tokens of the doc range [start, end)."""
        if self.tokens is None:
            return []
        a, b = start - self.sentence.start, end - self.sentence.start
        return [t for t in self.tokens if t.idx < b and t.idx + len(t.text) > a]

    def path(self, token: Token) -> list[Token]:
        return path_to_clause(token)

    def anchor(self, start: int, end: int) -> Token | None:
        """The value's top token: the first one whose head is outside the value."""
        inside = self.tokens_in(start, end)
        ids = {t.i for t in inside}
        for t in inside:
            if t.head.i not in ids or t.head.i == t.i:
                return t
        return inside[0] if inside else None


def path_to_clause(token: Token, within: tuple[int, int] | None = None) -> list[Token]:
    """From a token up to the head of its clause; "to"-infinitives (xcomp) belong to the clause
    above ("Per wants to move go-live": want, move). `within`: token positions not to leave."""
    path = [token]
    t = token
    while t.head.i != t.i and (within is None or within[0] <= t.head.i < within[1]):
        if t.dep_ in CLAUSE_EDGES and t.pos_ in _VERBAL:
            break
        if t.dep_ == "dep" and t.pos_ in _VERBAL:
            break
        t = t.head
        path.append(t)
    return path


def governor(path: list[Token]) -> Token | None:
    """The verb a clause is embedded under ("I think [it's 300]", "she hinted [that ...]"). A verb
    after the clause governs it only as a parenthetical ("..., I think"): the small model also reads
    a run-on sentence's first clause as the object of the next one's verb."""
    head = path[-1]
    if head.dep_ in ("ccomp", "xcomp") and head.head.i != head.i:
        return head.head
    return None


def parenthetical(above: Token, head: Token) -> bool:
    return above.i > head.i


def attribute_tokens(path: list[Token], value: set[int]) -> list[Token]:
    """The content words that say what the value is: the path's nouns and verbs and the subjects,
    objects, compounds and prepositional phrases hanging off it, without people, pronouns and the
    value itself."""
    seen: dict[int, Token] = {}

    def add(t: Token, depth: int) -> None:
        if t.i in value or t.i in seen or depth > 3:
            return
        if t.lemma_.lower() in _LIGHT:
            if t.pos_ == "NOUN":  # "the Fieldbright stuff": the words on a light noun say what it is
                for child in t.children:
                    if child.dep_ in ("compound", "amod"):
                        add(child, depth + 1)
            return
        if (
            t.pos_ not in _NOT_ATTRIBUTE_POS
            and t.ent_type_ not in ("PERSON", "DATE", "TIME", "CARDINAL")
            and t.lemma_.lower() not in CHANGE_LEMMAS
            and t.is_alpha
            and len(t.text) > 1
        ):
            seen[t.i] = t
        if t.pos_ == "NUM":
            return  # a number's own words ("the original four plus Polish") are about that number
        for child in t.children:
            if child.dep_ == "prep" and child.lower_ in _ASIDE_PREPS:
                continue  # who comes along, why, when: not what the value is
            if child.dep_ == "conj" and child.pos_ != "NOUN":
                continue  # a list of names or adjectives
            if child.dep_ in _DESCRIBING and not (child.pos_ in _VERBAL and child.dep_ in CLAUSE_EDGES):
                add(child, depth + 1)

    for t in path:
        if (
            t.i not in value
            and t.pos_ not in _NOT_ATTRIBUTE_POS
            and t.lemma_.lower() not in _LIGHT | CHANGE_LEMMAS
            and t.ent_type_ != "PERSON"
            and t.is_alpha
        ):
            seen.setdefault(t.i, t)
        for child in t.children:
            if child.i in value or (child.pos_ in _VERBAL and child.dep_ in CLAUSE_EDGES):
                continue
            if (
                child.dep_ == "prep"
                and child.lower_ in _ASIDE_PREPS
                and child.i not in {p.i for p in path}
                and (t.lemma_.lower(), child.lower_) not in OWNER_PHRASES
            ):
                continue
            if child.dep_ == "nsubj" and child.pos_ == "PROPN" and t.lemma_ != "be":
                continue  # who did it ("Priya cut the plan to two")
            if child.dep_ in _DESCRIBING or (child.dep_ == "dep" and child.pos_ in ("NOUN", "PROPN")):
                add(child, 0)
    # "go-live": the second half stands for the compound (the first, often a light verb, goes)
    doc = path[0].doc
    for i in list(seen):
        if i + 2 < len(doc) and doc[i + 1].tag_ == "HYPH" and (i + 2) in seen:
            del seen[i]
        elif i + 2 < len(doc) and doc[i + 1].tag_ == "HYPH" and doc[i + 2].i not in value:
            seen[i + 2] = doc[i + 2]
            del seen[i]
    return sorted(seen.values(), key=lambda t: t.i)


def word_of(t: Token, *, surface: bool = False) -> str:
    """A token's lemma (or, `surface`, its words in lower case), a hyphenated compound whole
    ("go-live", "start-up")."""
    word = t.lower_ if surface else t.lemma_.lower()
    if t.i >= 2 and t.doc[t.i - 1].tag_ == "HYPH":
        return f"{t.doc[t.i - 2].lower_}-{word}"
    return word


def counted_noun(anchor: Token, value: set[int]) -> Token | None:
    """For a number, the noun it counts ("twelve key users" → users)."""
    t = anchor
    if (
        t.dep_ in ("nummod", "quantmod", "compound")
        and t.head.pos_ in ("NOUN", "PROPN")
        and t.head.i not in value
    ):
        return t.head
    for i in sorted(value):
        tok = anchor.doc[i]
        if tok.dep_ == "nummod" and tok.head.i not in value and tok.head.pos_ == "NOUN":
            return tok.head
    return None


class ParsedDoc:
    """The recording parsed once, as one text (several times faster than sentence by sentence),
    on the first English sentence asked for; each sentence's part is then a Doc of its own
    (offsets and token positions within the sentence), made as `Span.as_doc` makes it from the
    parse's attributes read once (`as_doc` reads the whole parse's array and entities again for each
    sentence: 1.4 s of a 60-minute note's 609 sentences)."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.language = language_of(doc.text)
        self._sentences: dict[int, ParsedSentence] = {}
        self._parse: SpacyDoc | None = None
        self._attributes: list[int | str] = []
        self._array: NDArray[Any] | None = None
        self._entities: list[tuple[int, int]] = []
        self._names: frozenset[str] | None = None

    def sentence(self, sentence: Sentence) -> ParsedSentence:
        found = self._sentences.get(sentence.number)
        if found is None:
            language = self.language
            if len(sentence.text.split()) >= MIN_WORDS_FOR_LANGUAGE:
                language = language_of(sentence.text)
            tokens = None
            if language == "en":
                if self._parse is None:
                    self._parse = parse(self.doc.text)
                span = self._parse.char_span(sentence.start, sentence.end, alignment_mode="expand")
                tokens = self._span_doc(span) if span is not None and span.text == sentence.text else None
                if tokens is None:  # the parse's tokens do not end where the sentence does
                    tokens = parse(sentence.text)
            found = self._sentences[sentence.number] = ParsedSentence(sentence, language, tokens)
        return found

    def name_words(self) -> frozenset[str]:
        """The words (lower case) said as part of a name somewhere in the note: in English sentences
        those spaCy tags a proper noun or puts in a name entity; in others, which have no pipeline
        here, a capitalised word that does not open its sentence (German capitalises every noun, so
        there this stays the weaker reading). Neither reading takes a sentence's first word: there the
        small model calls "Mm", "Kay" or "Oh" proper nouns. "You", "If" or "Manager" after a filler
        are not names."""
        if self._names is None:
            names: set[str] = set()
            for sentence in self.doc.sentences:
                tokens = self.sentence(sentence).tokens
                if tokens is None:
                    names |= {
                        m.group(0).lower() for m in _CAPITALISED.finditer(sentence.text) if m.start() > 0
                    }
                    continue
                names |= {
                    t.lower_
                    for t in tokens
                    if (t.pos_ == "PROPN" or t.ent_type_ in NAME_LABELS) and t.i > 0 and t.is_alpha
                }
            self._names = frozenset(names)
        return self._names

    def _span_doc(self, span: Span) -> SpacyDoc:
        """`span.as_doc()` (spaCy 3.8), from the parse's array and entity bounds read once."""
        from spacy.attrs import ENT_IOB
        from spacy.tokens import Doc as SpacyDoc

        whole = span.doc
        if self._array is None:
            self._attributes = list(whole._get_array_attrs())
            self._array = whole.to_array(self._attributes)
            self._entities = [(e.start, e.end) for e in whole.ents]
        attributes, iob = self._attributes, self._attributes.index(ENT_IOB)
        doc = SpacyDoc(whole.vocab, words=[t.text for t in span], spaces=[bool(t.whitespace_) for t in span])
        array = cast("Ints2d", self._array[span.start : span.end].copy())
        span._fix_dep_copy(attributes, array)  # type: ignore[attr-defined]  # heads outside: an ancestor inside, or a root
        if len(array) > 0 and array[0][iob] == 1:  # an entity begun in the sentence before
            array[0][iob] = 3
        doc.from_array(attributes, array)
        inside = {(a, b) for a, b in self._entities if a >= span.start and b <= span.end}
        ents = doc.ents
        if ents:  # an entity cut at the sentence's start or end has no entity annotation
            if (ents[0].start + span.start, ents[0].end + span.start) not in inside:
                doc.set_ents([], missing=[ents[0]], default="unmodified")
            if (ents[-1].start + span.start, ents[-1].end + span.start) not in inside:
                doc.set_ents([], missing=[ents[-1]], default="unmodified")
        doc.noun_chunks_iterator = whole.noun_chunks_iterator  # type: ignore[attr-defined]
        doc.user_hooks = whole.user_hooks
        doc.user_span_hooks = whole.user_span_hooks
        doc.user_token_hooks = whole.user_token_hooks
        doc.vector = span.vector
        doc.vector_norm = span.vector_norm
        doc.tensor = whole.tensor[span.start : span.end]
        for key, value in whole.cats.items():
            if isinstance(key, tuple) and len(key) == 3 and key[:2] == (span.start_char, span.end_char):
                doc.cats[key[2]] = value
        return doc


_CACHE: weakref.WeakKeyDictionary[Doc, ParsedDoc] = weakref.WeakKeyDictionary()


def parsed(doc: Doc) -> ParsedDoc:
    """The recording's sentences, each parsed once (on first use) while the Doc lives."""
    found = _CACHE.get(doc)
    if found is None:
        found = _CACHE[doc] = ParsedDoc(doc)
    return found


def pronoun_subject(path: list[Token]) -> bool:
    """The clause's subject is a pronoun ("it's now six"): what it is about was said before."""
    head = path[-1]
    return any(
        c.dep_ in ("nsubj", "nsubjpass", "expl") and c.pos_ == "PRON" for c in head.children
    ) and not any(c.dep_ in ("nsubj", "nsubjpass") and c.pos_ in ("NOUN", "PROPN") for c in head.children)


def past_event(path: list[Token]) -> bool:
    """The clause tells what happened ("I sent Tobias the plan on Monday"), not how things stand."""
    head = path[-1]
    if head.tag_ != "VBD" or head.lemma_ == "be":
        return False
    return not any(c.dep_ in ("aux", "auxpass") for c in head.children)


# Verbs of choosing one thing over another ("the board picked Northlight over Chorus"); "go" only
# with "with" ("they've gone with Ketterley Roast over Brewhold", not "we went over the budget").
_CHOOSING = frozenset({"pick", "choose", "select", "prefer", "opt", "favour", "favor", "hire", "appoint"})


def chosen_over(path: list[Token], value: set[int]) -> list[Token]:
    """What a choice says it was preferred to: the words after "over" on a verb of choosing or on
    the chosen one ("picked Northlight Contact over Chorus": Chorus), never a time ("over the
    summer")."""
    verbs = [t for t in path if t.pos_ in _VERBAL]
    choosing = any(
        v.lemma_ in _CHOOSING or (v.lemma_ == "go" and any(c.lower_ == "with" for c in v.children))
        for v in verbs
    )
    if not choosing:
        return []
    out: list[Token] = []
    for t in path:
        for child in t.children:
            if child.dep_ == "prep" and child.lower_ == "over" and child.i not in value:
                out += [
                    x
                    for x in child.subtree
                    if x.pos_ in ("NOUN", "PROPN")
                    and x.i not in value
                    and x.ent_type_ not in ("DATE", "TIME")
                ]
    return out


def replaced_tokens(path: list[Token], value: set[int]) -> list[Token]:
    """What a change says it replaces: the words after "from", "off", "instead of", "rather than"
    on the value's clause ("switch me from the day rate to a monthly retainer": day rate)."""
    out: list[Token] = []
    for t in path:
        if t.pos_ not in _VERBAL:
            continue
        for child in t.children:
            if child.i in value:
                continue
            if (child.dep_ == "prep" and child.lower_ in ("from", "off")) or child.lower_ in (
                "instead",
                "rather",
            ):
                out += [x for x in child.subtree if x.pos_ in ("NOUN", "PROPN") and x.i not in value]
    return out
