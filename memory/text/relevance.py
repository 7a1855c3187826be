"""Does a passage (or a quote) speak to the question? Deterministic word evidence, no model.

The retriever always returns its best k passages, even for a question the notes cannot answer; a
weak model will then answer from whatever it was shown. This module measures how well a text
supports a question: the question's content words (weighted by inverse document frequency from
the index, so "the" counts for nothing and a rare word for a lot) found close together, and its
names and numbers found around them. memory.answer.answers turns that into the relevance gate.

Words are compared after the quote checker's normalisation and the Snowball stemmer of the text's
language (memory/text/stems.py), so "beacons"/"beacon" and "moving"/"moved" meet.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from memory.store import word_stats
from memory.store.store import Store
from memory.text.nlp import language_of, parse
from memory.text.numbers import find_quantities
from memory.text.quotes import tokens
from memory.text.stems import stem as snowball_stem
from memory.text.stems import text_language
from memory.text.stopwords import STOPWORDS as ENGLISH_STOPWORDS

if TYPE_CHECKING:
    from spacy.tokens import Doc

_QUESTION_TEXT = """
    anything anyone anybody something someone kind type sort much many tell know remember said say says
    mention mentioned talk talked think thought please"""
_GERMAN_TEXT = """
    der die das den dem des ein eine einen einem einer und oder aber ist sind war waren bin bist
    ich du er sie es wir ihr mein meine meinen unser unsere wer was wann wie wo warum welche welcher
    welches mit für von zu zum zur im in am an auf aus bei über nicht noch schon auch nur dass habe hat
    haben hatte hatten wird werden wurde als so"""
STOPWORDS = ENGLISH_STOPWORDS | frozenset(_QUESTION_TEXT.split()) | frozenset(_GERMAN_TEXT.split())


def stem(word: str, language: str = "en") -> str:
    """A normalised word's Snowball stem (memory/text/stems.py)."""
    return snowball_stem(word, language)


def stems(text: str) -> set[str]:
    language = text_language(text)
    return {stem(t.norm, language) for t in tokens(text)}


def said_stems(text: str) -> set[str]:
    """The stems a question's words are looked up in: `stems`, and for a text in German its words
    stemmed the English way too. A consultant asks in English about notes dictated in German, whose
    loanwords and names are the question's words ("Budget", "System", "Cloud"), and the German
    stemmer cuts them otherwise ("budg" for "budget"). Only for looking up: counting the words two
    texts share would count such a word twice."""
    language = text_language(text)
    words = [t.norm for t in tokens(text)]
    found = {stem(w, language) for w in words}
    if language != "en":
        found |= {stem(w, "en") for w in words}
    return found


@dataclass(frozen=True)
class QuestionTerms:
    """The words of a question that carry its meaning, with their weights.

    Content words say *what* is asked and must be found close together (in one window of a
    passage); names and numbers say *who or which* and may be found anywhere around it (the
    passage, its project, title and speakers, or the project's other notes).
    """

    words: tuple[str, ...]  # normalised content words, in order
    weights: Mapping[str, float]  # stem → weight (inverse document frequency)
    names: frozenset[str]  # stems of names and numbers
    raw: str = ""
    spelled: Mapping[str, str] = field(default_factory=dict)  # stem → a word as asked
    # Names that describe rather than name ("the *Dutch* bakery", "the *Colombian* co-op"): a note
    # says "the Netherlands" or "Colombia", so a passage need not say them (`descriptive_names`).
    descriptive: frozenset[str] = frozenset()
    # Content stem → stems of the passages' words that say it another way, with how near each is
    # (cosine of the words' embeddings: "final" → {"last": 0.65}): memory/answer/near_words.py.
    near: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    # The content stems of each thing a two-part question asks (memory/answer/question_parts.py)
    parts: tuple[frozenset[str], ...] = ()

    def with_parts(self, parts: Sequence[frozenset[str]]) -> QuestionTerms:
        return replace(self, parts=tuple(parts))

    def part(self, stems_: frozenset[str]) -> QuestionTerms:
        """The terms of one part: its content words, and every name of the whole question."""
        weights = {s: w for s, w in self.weights.items() if s in stems_ or s in self.names}
        return replace(self, weights=weights, parts=())

    @property
    def content(self) -> list[str]:
        """Stems that must be found in the window (the names too, when the question is only names)."""
        return [s for s in self.weights if s not in self.names] or list(self.weights)

    def with_near(self, near: Mapping[str, Mapping[str, float]]) -> QuestionTerms:
        return replace(self, near=dict(near))

    def said_in(self, stem_: str, window: Collection[str]) -> float:
        """How fully the window says the content stem: 1 when it says it, else the nearness of the
        nearest word that says it another way (0: neither). A word said as asked counts more than
        one said another way: the sentence that says "last day" answers "final day" before one
        that says "today"."""
        if stem_ in window:
            return 1.0
        return max((c for s, c in self.near.get(stem_, {}).items() if s in window), default=0.0)

    def without(self, dropped: Collection[str]) -> QuestionTerms:
        """The same terms less the stems `dropped` (words an answer need not say)."""
        if not set(dropped) & set(self.weights):
            return self
        weights = {s: w for s, w in self.weights.items() if s not in dropped}
        return replace(self, weights=weights, names=self.names - set(dropped))


def content_words(question: str) -> list[str]:
    found = []
    for t in tokens(question):
        if (t.norm not in STOPWORDS and len(t.norm) > 1) or t.norm.isdigit():
            found.append(t.norm)
    return found


# Entity types that name a thing a passage has to mention; DATE and TIME are not among them: "in
# June" or "on 10 September" says when, which the note's own date answers as often as its words.
_NAME_ENTITIES = frozenset(
    {"PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "NORP", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"}
)


def descriptive_names(question: str) -> set[str]:
    """Stems of the question's words that spaCy reads as an adjective of nationality or group
    (entity NORP, part of speech ADJ: "Dutch", "Colombian", "Portuguese"). They are names, but
    they describe the thing asked about; the notes name the country or the people another way."""
    if language_of(question) == "de":
        return set()
    return {
        stem(t.norm)
        for word in parse(question)
        if word.ent_type_ == "NORP" and word.pos_ == "ADJ"
        for t in tokens(word.text)
    }


def question_names(question: str) -> set[str]:
    """What the question is about, which a supporting passage has to mention: its names and its
    numbers (other than dates and times).

    English questions are read by spaCy (memory/text/nlp.py): a word is a name when it is a proper
    noun or inside a named entity, a number when it has a digit, and neither inside a date or time.
    German questions (no German pipeline here) fall back to capitals, which also take German nouns
    for names: see docs/consolidation.md.
    """
    if language_of(question) == "de":
        return _capitalised(question)
    doc = parse(question)
    offered = _asks_yes_or_no(doc)
    spans: list[tuple[int, int]] = []
    for word in doc:
        if word.ent_type_ in ("DATE", "TIME"):
            continue
        number = any(ch.isdigit() for ch in word.text) and word.ent_type_ not in _NAME_ENTITIES
        if number and offered:
            continue  # "so are we back up to 42 vans?": the number is offered to be checked
        if word.pos_ == "PROPN" or word.ent_type_ in _NAME_ENTITIES or number:
            spans.append((word.idx, word.idx + len(word.text)))
    found: set[str] = set()
    for tok in tokens(question):
        if tok.norm in STOPWORDS:
            continue
        if any(a < tok.end and tok.start < b for a, b in spans):
            found.add(stem(tok.norm))
    return found


@lru_cache(maxsize=256)  # read for every passage of an answer
def asked_values(question: str, names: frozenset[str]) -> dict[str, float]:
    """Name stems of the question that are parts of a number it says, with that number's value:
    "the 40k quote" → {"40k": 40000}, "the 5,000 euro invoice" → {"5": 5000, "000": 5000}. A note says
    a number as it was spoken ("forty thousand"), so a passage that says the value says the name
    (memory/answer/context.py `passage_support`); text2num reads the words (memory/text/numbers.py)."""
    language = text_language(question)
    found: dict[str, float] = {}
    for quantity in find_quantities(question, language):
        parts = {stem(t.norm, language) for t in tokens(quantity.text) if any(c.isdigit() for c in t.norm)}
        if parts and parts <= names:
            found.update(dict.fromkeys(parts, quantity.value))
    return found


def number_values(text: str) -> set[float]:
    """The values of the numbers a text says, in words or in digits."""
    return {q.value for q in find_quantities(text, text_language(text))}


_WH = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})
_CLAUSE_OPENERS = frozenset({",", "so", "and", "but", "then", "ok", "okay", "right", "well"})


def _asks_yes_or_no(doc: Doc) -> bool:
    """A question that asks whether (no question word opens any of its clauses: "so are we back up
    to 42 vans?", "the cap is 2.2m, isn't it?"): a number in it is the value the asker offers to be
    checked, which a passage that answers says otherwise as often as not ("cut back to thirty-six
    vans"). "What does it cost, 40k?" asks what."""
    words = [t for t in doc if not t.is_space]
    return not any(
        t.lower_ in _WH and (i == 0 or words[i - 1].lower_ in _CLAUSE_OPENERS) for i, t in enumerate(words)
    )


def _capitalised(question: str) -> set[str]:
    """Capitalised words after the first (and a capitalised first word that is not a function word),
    and numbers."""
    found: set[str] = set()
    for position, tok in enumerate(tokens(question)):
        raw = question[tok.start : tok.end]
        if tok.norm in STOPWORDS:
            continue
        if any(ch.isdigit() for ch in raw) or (raw[:1].isupper() and (position > 0 or len(raw) > 1)):
            found.add(stem(tok.norm))
    return found


def term_document_counts(store: Store, words: Iterable[str]) -> dict[str, int]:
    """How many indexed chunks contain each word (the index tokenizer stems as it likes)."""
    counts: dict[str, int] = {}
    for word in dict.fromkeys(words):
        quoted = '"' + word.replace('"', '""') + '"'
        counts[word] = int(
            store.scalar("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (quoted,))
        )
    return counts


def project_mentions(store: Store, project_id: int, word: str) -> bool:
    """Whether any note of the project contains the word (a name's home is its project)."""
    quoted = '"' + word.replace('"', '""') + '"'
    return (
        store.scalar(
            "SELECT 1 FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid"
            " WHERE chunks_fts MATCH ? AND c.project_id = ? LIMIT 1",
            (quoted, project_id),
        )
        is not None
    )


def chunk_count(store: Store) -> int:
    return int(store.scalar("SELECT count(*) FROM chunks") or 0)


def question_terms(question: str, *, document_counts: Mapping[str, float], documents: float) -> QuestionTerms:
    """Weights: idf = ln(1 + (N + 1) / (df + 1)) for words the notes contain.

    A word no note contains weighs nothing: no passage can match it, so it cannot tell passages
    apart, and on the development sets it was far more often a paraphrase ("visualise" for
    "dashboards") than the sign of an unanswerable question (see docs/benchmarks.md, "Ask").
    """
    words = content_words(question)
    weights: dict[str, float] = {}
    spelled: dict[str, str] = {}
    for word in words:
        df = document_counts.get(word, 0)
        key = stem(word)
        idf = math.log(1.0 + (documents + 1) / (df + 1)) if df > 0 else 0.0
        weights[key] = max(weights.get(key, 0.0), idf)
        spelled.setdefault(key, word)
    names = question_names(question) & set(weights)
    descriptive = descriptive_names(question) & names
    return QuestionTerms(tuple(words), weights, frozenset(names), question, spelled, frozenset(descriptive))


def load_question_terms(
    store: Store, question: str, project_ids: Sequence[int] | None = None
) -> QuestionTerms:
    """The question's words weighed by how rare they are in the projects asked (None: the whole
    library; memory/store/word_stats.py): a huge import into one project does not make the words of
    another project common when that project is asked."""
    words = content_words(question)
    stats = word_stats.word_stats(store, words, project_ids)
    counts = {w: stats.count(w) for w in words}
    return question_terms(question, document_counts=counts, documents=stats.passages)


@dataclass
class Support:
    """How well a passage supports the question.

    `coverage`: the weighted share of the question's content words found in one window of the
    passage; `names`: the share of its names and numbers found around it. A question about "the
    Millbrook site engineer" is answered by "the site engineer is Owain" in a Millbrook note.
    """

    coverage: float = 0.0
    names: float = 1.0
    matched: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.coverage * self.names

    def to_json(self) -> dict[str, object]:
        return {"coverage": round(self.coverage, 3), "names": round(self.names, 3), "matched": self.matched}


def coverage(terms: QuestionTerms, window: set[str]) -> Support:
    """The content words of the question found in `window` (stems), weighted."""
    content = terms.content
    total = sum(terms.weights[s] for s in content)
    said = {s: terms.said_in(s, window) for s in content}
    matched = [s for s in content if said[s] > 0]
    if total <= 0:
        return Support(0.0, 1.0, matched)
    return Support(sum(terms.weights[s] * said[s] for s in matched) / total, 1.0, matched)


def best_window(terms: QuestionTerms, texts: Sequence[str], *, width: int = 2) -> tuple[int, Support]:
    """The position whose window (that text and the next `width - 1`) covers the question best."""
    per_text = [said_stems(t) for t in texts]
    best, best_support = 0, Support(0.0, 1.0)
    for i in range(len(texts)):
        found = coverage(terms, set().union(*per_text[i : i + width]))
        if found.coverage > best_support.coverage:
            best, best_support = i, found
    return best, best_support


# --- what kind of words would answer, in German text ----------------------------------------------
_TIME_TEXT = """
    january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday today tomorrow yesterday tonight noon montag dienstag mittwoch
    donnerstag freitag samstag sonntag januar februar märz juni juli oktober dezember uhr"""
_NUMBER_TEXT = """
    one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty
    hundred thousand million dozen half zwei drei vier fünf sechs sieben acht neun zehn hundert tausend"""
_TIME_WORDS = frozenset(_TIME_TEXT.split())
_NUMBER_WORDS = frozenset(_NUMBER_TEXT.split())


def has_answer_kind(text: str, kind: str | None, terms: QuestionTerms) -> bool:
    """Whether `text` holds a word of the kind the question asks for ("time", "number", "person"),
    not one the question gave: word rules, for German text, which has no spaCy pipeline here
    (memory/answer/asked_kind.py reads English text with spaCy)."""
    if kind is None:
        return False
    words = [t.norm for t in tokens(text)]
    if kind == "time":
        return any(w in _TIME_WORDS or re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?|\d{4}", w) for w in words)
    if kind == "number":
        return any(w.isdigit() or w in _NUMBER_WORDS for w in words)
    named = {t.norm for t in tokens(text) if text[t.start : t.start + 1].isupper() and t.start > 0}
    return any(stem(n) not in terms.names and n not in STOPWORDS for n in named)
