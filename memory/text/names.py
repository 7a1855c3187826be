"""Names in spoken text: the candidates of each sentence, and the names of a whole text.

Names come from spaCy's English pipeline (memory/text/nlp.py, through the one parse per sentence of
memory/text/fact_parse.py): its named entities (PERSON, ORG, PRODUCT, LAW, EVENT, WORK_OF_ART,
GPE/LOC/FAC, and NORP only for a name known otherwise) and the proper nouns its tagger marks,
combined with the names the library already knows (memory/text/name_book.py `NameBook`: a name
the model found in another note is a name here too; the small model misses many names in speech,
"Markus owes us the data dump"). A partial name is the full one once the full one was said in the
note, or in another note of the same project ("Priya" after "Priya Raman"; "Dr Kirby" after
"Dr Anselm Kirby").

German notes have no model (none is installed): their names are the library's known names, the
names after a title ("Frau Doktor Helga Voss"), codes and inner capitals ("NIS2", "LVS-2000",
"ScholarDesk"), and runs of two or three capitalised words that neither an article nor a function
word starts ("Markus Eberle"): every German noun is capitalised, so a single capitalised word is
a name there only when it is known.

`sentence_names` gives a sentence's candidates, overlaps resolved; `partial_names` the first
words of longer names said alone; `DocNames` judges them together for the whole text. The word
lists they read are in memory/text/name_words.py; memory/text/entities.py reads names beside
dates and quantities.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory.text.name_book import NameBook
from memory.text.name_words import (
    CODE,
    GERMAN_ARTICLES,
    INNER_CAPITAL,
    JOINERS,
    NAME_LABELS,
    POSSESSIVE,
    TITLES,
    WORD_PATTERN,
    calendar_word,
    english_words,
    name_kind,
    name_word,
    stop_words,
)
from memory.text.said_values import Entity, Taken
from memory.text.stems import stem

if TYPE_CHECKING:
    from spacy.tokens import Doc as SpacyDoc
    from spacy.tokens import Span as SpacySpan

    Tokens = SpacyDoc | SpacySpan


@dataclass(frozen=True)
class NamedEntity(Entity):
    label: str = "name"  # what the name is as far as known (LABELS); "name": unknown


@dataclass
class FoundName:
    """A name one reader found in one sentence, before the names of the whole text are judged."""

    start: int  # offsets in the sentence
    end: int
    words: list[str]
    label: str  # from the model, the book or a title; "" when unknown
    source: str  # known | model | tagger | title | rule
    title: bool = False
    initial: bool = False  # the sentence's or a clause's first word
    alone: bool = False  # the sentence is hardly more than this word ("Yep.", "'Kay.")

    @property
    def value(self) -> str:
        return " ".join(w.lower().strip("'’-") for w in self.words)


_NOT_NAME_POS = frozenset(
    {"DET", "PRON", "ADP", "CCONJ", "SCONJ", "AUX", "INTJ", "ADV", "ADJ", "VERB", "PART"}
)


def _runs(
    text: str, a: int, b: int, pos: dict[int, str] | None = None
) -> list[tuple[int, int, list[str], bool]]:
    """The name-like runs of words in text[a:b]: capitalised words (codes, inner capitals), joined by
    "and", "of", "von" ...; a possessive 's dropped; a title in front taken off and noted, and so is
    a first word that is no name ("The", "Quick": by its part of speech, or a function word)."""
    words = [(m.start(), m.end(), m.group(0)) for m in WORD_PATTERN.finditer(text, a, b)]
    out: list[tuple[int, int, list[str], bool]] = []
    run: list[tuple[int, int, str]] = []

    def close() -> None:
        while run and run[-1][2].lower() in JOINERS:
            run.pop()
        title = False
        while run and run[0][2].lower().strip(".") in TITLES:
            run.pop(0)
            title = True
        while len(run) > 1 and (
            pos.get(run[0][0]) in _NOT_NAME_POS if pos is not None else run[0][2].lower() in stop_words()
        ):
            run.pop(0)
        if run:
            out.append((run[0][0], run[-1][1], [w for _, _, w in run], title))
        run.clear()

    for s, e, w in words:
        if m := POSSESSIVE.search(w):
            w, e = w[: m.start()], e - (len(w) - m.start())
        adjacent = bool(run) and text[run[-1][1] : s].isspace()
        joins = adjacent and (w.lower() in JOINERS or w.isdigit()) and name_word(run[-1][2])
        if (name_word(w) and (not run or adjacent)) or joins:
            run.append((s, e, w))
        else:
            close()
            if name_word(w):
                run.append((s, e, w))
        if m:
            close()
    close()
    return out


def _initial(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \"'“‘(")
    return not before or before.endswith((",", ";", ":", ".", "!", "?", "…"))


def _english_names(text: str, tokens: Tokens, offset: int) -> list[FoundName]:
    """Named entities of the model, and the tagger's proper nouns it did not take. `offset`: where
    `text` starts in the parsed text."""
    found: list[FoundName] = []
    used: list[tuple[int, int]] = []
    pos = {t.idx - offset: t.pos_ for t in tokens}
    by_index = {t.i: t for t in tokens}
    for ent in tokens.ents:
        a, b = max(0, ent.start_char - offset), ent.end_char - offset
        used.append((a, b))
        label = NAME_LABELS.get(ent.label_)
        if label is None:
            continue
        runs = _runs(text, a, b, pos)
        whole = len(runs) == 1
        for s, e, words, title in runs:
            found.append(FoundName(s, e, words, label if whole else "", "model", title))
    run: list[int] = []
    for tok in [*tokens, None]:
        inside = tok is not None and any(a <= tok.idx - offset < b for a, b in used)
        if tok is not None and not inside and (tok.pos_ == "PROPN" or (run and tok.lower_ in JOINERS)):
            run.append(tok.i)
            continue
        if run:
            first, last = by_index[run[0]], by_index[run[-1]]
            a, b = max(0, first.idx - offset), last.idx + len(last.text) - offset
            for s, e, words, title in _runs(text, a, b, pos):
                found.append(FoundName(s, e, words, "", "tagger", title))
            run = []
    return found


def _german_names(text: str) -> list[FoundName]:
    """Runs of two or three capitalised words that no article or function word starts, not at the
    start of a sentence unless the run itself cannot start one ("Jörg Pawlak, der Lagerleiter")."""
    found: list[FoundName] = []
    stop = stop_words()
    words = [(m.start(), m.end(), m.group(0)) for m in WORD_PATTERN.finditer(text)]
    i = 0
    while i < len(words):
        j = i + 1
        if words[i][2][:1].isupper():
            while j < len(words) and words[j][2][:1].isupper() and text[words[j - 1][1] : words[j][0]] == " ":
                j += 1
            run = words[i:j]
            before = words[i - 1][2].lower() if i else ""
            if (
                2 <= len(run) <= 3
                and before not in GERMAN_ARTICLES
                and run[0][2].lower() not in stop
                and run[0][2].lower().strip(".") not in TITLES
                and not any(calendar_word(w) for _, _, w in run)
            ):
                found.append(FoundName(run[0][0], run[-1][1], [w for _, _, w in run], "", "rule"))
        i = j
    return found


def _rule_names(text: str) -> list[FoundName]:
    """In any language: a name after a title ("Frau Doktor Helga Voss" is a person), and codes and
    words with an inner capital ("NIS2", "DuckDB")."""
    found: list[FoundName] = []
    for s, e, words, title in _runs(text, 0, len(text)):
        if title and all(w[:1].isupper() for w in words):
            found.append(FoundName(s, e, words[:3], "person", "title", True))
    for m in WORD_PATTERN.finditer(text):
        if CODE.fullmatch(m.group(0)) or INNER_CAPITAL.fullmatch(m.group(0)):
            found.append(FoundName(m.start(), m.end(), [m.group(0)], "", "rule"))
    return found


def _known_names(text: str, book: NameBook | None) -> list[FoundName]:
    if book is None or not book.forms:
        return []
    out = []
    for a, b, form in book.find(text):
        for s, e, words, title in _runs(text, a, b):
            out.append(FoundName(s, e, words, book.label(form) if len(words) > 1 else "", "known", title))
    return out


_PRIORITY = {"known": 0, "title": 1, "model": 2, "tagger": 3, "rule": 4}


def sentence_names(
    text: str,
    tokens: Tokens | None,
    book: NameBook | None,
    taken: Taken,
    offset: int = 0,
    lower: frozenset[str] = frozenset(),
) -> list[FoundName]:
    """Candidate names of one sentence, overlaps resolved (the longest, then the best known).
    `tokens`: its parse (None: not English), `offset`: where the sentence starts in the parsed text,
    `lower`: stems of words said in lower case (a first word among them is not part of the name:
    "Quick Wrenfield aside", "Next SteerCo")."""
    candidates = _known_names(text, book) + _rule_names(text)
    candidates += _english_names(text, tokens, offset) if tokens is not None else _german_names(text)
    candidates.sort(key=lambda f: (-(f.end - f.start), _PRIORITY[f.source]))
    chosen: list[FoundName] = []
    for f in candidates:
        if not taken.free(f.start, f.end):
            continue
        same = [c for c in chosen if c.start == f.start and c.end == f.end]
        if same:
            if not same[0].label and f.label:
                same[0].label = f.label
            continue
        if any(c.start < f.end and f.start < c.end for c in chosen):
            continue
        f.initial = _initial(text, f.start)
        f.alone = len(WORD_PATTERN.findall(text)) <= 2
        if f.initial and len(f.words) > 1 and f.source != "known" and stem(f.words[0].lower()) in lower:
            f.start = text.index(f.words[1], f.start + len(f.words[0]))
            f.words = f.words[1:]
            f.label = f.label if len(f.words) > 1 else ""
        chosen.append(f)
    if tokens is not None:
        interjections = {t.idx - offset for t in tokens if t.pos_ in ("INTJ", "PRON", "DET", "AUX", "CCONJ")}
        chosen = [f for f in chosen if not (len(f.words) == 1 and f.start in interjections)]
    return sorted(chosen, key=lambda f: f.start)


@dataclass
class DocNames:
    """The names of one text, read together: partial names resolved, common words left out."""

    found: list[tuple[int, FoundName]]  # (offset of its sentence, name)
    lower: frozenset[str]  # stems of the words the text says in lower case
    book: NameBook | None
    # Offsets of the words the parse makes a proper noun doing something (the subject of a verb):
    # only there is a word alone the short name of another project's organisation ("Coldline say
    # their factory is backed up"), not "Ruben's export" nor "on the Quayside".
    subjects: frozenset[int] = frozenset()

    def entities(self) -> list[NamedEntity]:
        full_first: dict[str, dict[str, str]] = {}
        full_last: dict[str, dict[str, str]] = {}
        for _, f in self.found:
            if len(f.words) >= 2:
                label = "person" if f.title else f.label or "name"
                full_first.setdefault(f.words[0].lower(), {})[f.value] = label
                if label == "person":
                    full_last.setdefault(f.words[-1].lower(), {})[f.value] = label
        inside = {f.value for _, f in self.found if not f.initial}
        known = set(self.book.forms) if self.book is not None else set()
        given = self.book.given_names() if self.book is not None else set()
        out = []
        for offset, f in self.found:
            value, label, words = f.value, f.label, f.words
            if len(words) == 1:
                word = words[0].lower()
                fulls = dict(full_first.get(word, {}))
                if f.title:
                    fulls |= full_last.get(word, {})
                if not fulls and self.book is not None:
                    fulls = self.book.full_names(word)
                    if not fulls and offset + f.start in self.subjects:
                        fulls = self.book.firm_names(word)
                # "Priya" is "Priya Raman", "Catalyst" is not "Catalyst Regions Fund" (a word of its own)
                plain = word not in stop_words() and word not in english_words()
                fulls = {v: x for v, x in fulls.items() if x == "person" or plain}
                if len(fulls) == 1:
                    [(value, label)] = fulls.items()
                    label = label if label != "name" or f.label != "person" else "person"
                elif not self._single_name(f, known, inside):
                    continue
                elif label == "person" and not f.title:
                    label = "name"  # a lone word the model calls a person may be anything ("Kobaltnetz")
                if label == "group" and f.source != "known":
                    continue
                if value == word and word in given and label == "person":
                    label = "name"
            if label == "group" and f.source != "known":
                continue
            label = label or (self.book.label(" ".join(words)) if self.book is not None else "") or "name"
            kind = name_kind(words, f.title)
            out.append(NamedEntity(kind, "", offset + f.start, offset + f.end, value, label=label))
        return out

    def _single_name(self, f: FoundName, known: set[str], inside: set[str]) -> bool:
        word = f.words[0]
        low = word.lower()
        if low in stop_words() or calendar_word(word) or stem(low) in self.lower:
            return False
        if f.source == "known" or f.title or CODE.fullmatch(word) or INNER_CAPITAL.fullmatch(word):
            return True
        if f.alone:
            return False  # a word said on its own is an answer or a filler ("Yep.")
        if f.initial and (low in english_words() or f.source != "model") and f.value not in inside:
            return False  # capitalised because it comes first ("Budget is holding"), said nowhere else so
        if f.source == "tagger" and low in english_words():
            return False  # a capitalised English word the model does not call a name ("the Weather")
        return f.source != "rule"


def lower_stems(texts: Iterable[str]) -> frozenset[str]:
    return frozenset(stem(m.group(0).lower()) for t in texts for m in re.finditer(r"\b[a-zäöüß][\w'’-]*", t))


def with_text(e: NamedEntity, text: str) -> NamedEntity:
    return NamedEntity(e.kind, text[e.start : e.end], e.start, e.end, e.value, label=e.label)


def partial_names(
    read: Sequence[tuple[int, str, Taken]],
    named: Sequence[tuple[int, FoundName]],
    book: NameBook | None,
    subjects: frozenset[int] = frozenset(),
) -> list[tuple[int, FoundName]]:
    """The first word of a longer name said alone ("Rosalind" after "Rosalind Achebe", in this text
    or in another note of its project), or of another project's organisation or product said as the
    subject of a verb (`subjects`: doc offsets; "Coldline say ..." after "Coldline Catering
    Equipment" elsewhere, by a word that is no English word): a name wherever the model missed it."""
    firsts = {f.words[0] for _, f in named if len(f.words) >= 2 and name_word(f.words[0])}
    firms: set[str] = set()
    if book is not None:
        firsts |= {w[:1].upper() + w[1:] for w in book.people.get(book.project_id or -1, {})}
        firms = {w[:1].upper() + w[1:] for w in book.firm_words() if w not in english_words()} - firsts
    firsts |= firms
    firsts -= {w for w in firsts if w.lower() in stop_words() or w.lower().strip(".") in TITLES}
    if not firsts:
        return []
    pattern = re.compile(r"(?<![\w’'-])(?:" + "|".join(map(re.escape, sorted(firsts))) + r")(?![\w’'-])")
    out = []
    for start, text, taken in read:
        here = [f for at, f in named if at == start]
        for m in pattern.finditer(text):
            if m.group(0) in firms and start + m.start() not in subjects:
                continue
            if taken.free(m.start(), m.end()) and not any(
                f.start < m.end() and m.start() < f.end for f in here
            ):
                found = FoundName(
                    m.start(), m.end(), [m.group(0)], "", "known", initial=_initial(text, m.start())
                )
                out.append((start, found))
    return out
