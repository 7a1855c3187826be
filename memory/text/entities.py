"""Entities in spoken text: dates and times (memory.text.dates: relative ones resolved against when
the note was spoken), amounts with currencies, counts with their unit, percentages, and names.

Names come from spaCy's English pipeline (memory/text/nlp.py, through the one parse per sentence of
memory/text/fact_parse.py): its named entities (PERSON, ORG, PRODUCT, LAW, EVENT, WORK_OF_ART,
GPE/LOC/FAC, and NORP only for a name known otherwise) and the proper nouns its tagger marks,
combined with the names the library already knows (`NameBook`: a name the model found in another
note is a name here too; the small model misses many names in speech, "Markus owes us the data
dump"). A partial name is the full one once the full one was said in the note, or in another note
of the same project ("Priya" after "Priya Raman"; "Dr Kirby" after "Dr Anselm Kirby").

German notes have no model (none is installed): their names are the library's known names, the
names after a title ("Frau Doktor Helga Voss"), codes and inner capitals ("NIS2", "LVS-2000",
"ScholarDesk"), and runs of two or three capitalised words that neither an article nor a function
word starts ("Markus Eberle"): every German noun is capitalised, so a single capitalised word is
a name there only when it is known.

Each name carries what it is as far as that is known (`NamedEntity.label`: person, organisation,
product, regulation, event, work, place, group, or "name" when unknown); `Entity.kind` keeps the
coarse kinds the facts and the digest read (person, organisation, technology, name).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from memory.store.store import Store
from memory.text.dates import (
    MONTHS,
    NUMBER_WORD_PATTERN,
    ORDINAL_SUFFIX,
    WEEKDAYS,
    DateResolver,
    Entity,
    Taken,
    fact_dates,
    find_dates,
    find_times,
    parse_number,
    word_list,
)
from memory.text.doc import Doc
from memory.text.fact_parse import MIN_WORDS_FOR_LANGUAGE, parsed
from memory.text.nlp import english, language_of, parse
from memory.text.relevance import stem

if TYPE_CHECKING:
    from spacy.tokens import Doc as SpacyDoc
    from spacy.tokens import Span as SpacySpan

    Tokens = SpacyDoc | SpacySpan

_NUMBER = re.compile(
    r"(?P<cur>[£$€])?\s?(?<![^\W\d_])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s?(?P<mult>k|m|bn|million|thousand|grand|mio|tsd)\b)?",
    re.I,
)
_NUMBER_WORDS = re.compile(rf"\b(?P<w>(?:{NUMBER_WORD_PATTERN})(?:[\s-](?:{NUMBER_WORD_PATTERN}))?)\b", re.I)
_CURRENCY_WORD = re.compile(
    r"\s+(?P<c>pounds?|quid|euros?|eur|dollars?|usd|gbp|pence|p|cents?|francs?|chf|franken|euro)\b", re.I
)
_PERCENT = re.compile(r"\s*(?:%|percent\b|per\s+cent\b|prozent\b)", re.I)
_RATE = re.compile(
    r"\s+(?:a|an|per|pro|each)\s+(?P<r>day|hour|week|month|year|message|head|user|seat|person|"
    r"minute|batch|tag|stunde|monat|jahr)\b",
    re.I,
)
_UNIT_WORD = re.compile(r"\s+(?P<w>[a-zäöüß][a-zäöüß-]{1,})")
_CURRENCIES = {"£": "GBP", "$": "USD", "€": "EUR", "pound": "GBP", "quid": "GBP", "euro": "EUR"}
_CURRENCIES |= {"eur": "EUR", "dollar": "USD", "usd": "USD", "gbp": "GBP", "penny": "GBP-pence"}
_CURRENCIES |= {"pence": "GBP-pence", "p": "GBP-pence", "cent": "EUR-cent", "franc": "CHF", "chf": "CHF"}
_CURRENCIES |= {"franken": "CHF"}
_MULT = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "tsd": 1e3, "m": 1e6, "million": 1e6, "mio": 1e6}
_MULT |= {"bn": 1e9}
_NOT_UNITS = frozenset(
    word_list(
        """
    a an the and or but of at to for in on by with from is are was were be been it its this that
    these those so if as than then there here no not up down out off over about into per has have
    had will would can could should may might do does did we you they he she i my our your their his
    her um uh like which who what when where while because also just all some any each other more
    less quid pounds pound euros euro dollars pence percent weeks days years months week day year
    month ago later earlier before after yet still already instead plus minus times odd ish actually
    really basically first again something point total altogether only just around roughly"""
    )
)
_SKIPPABLE = frozenset(
    word_list(
        """
    new old extra more other additional full different separate big small main"""
    )
)

ORG_WORDS = frozenset(
    word_list(
        """
    group fund ltd limited inc gmbh ag plc llc co company corp centre center museum council
    university college bank trust textiles partners agency ministry foundation association institute
    society services solutions systems labs studio studios hospital clinic school board committee
    authority department office"""
    )
)
TECH = frozenset(
    word_list(
        """
    postgres postgresql mysql sqlite redis mongodb kafka kubernetes docker aws azure gcp python java
    javascript typescript react flutter swift kotlin android ios iphone ipad bluetooth wifi excel
    sharepoint salesforce sap oracle jira confluence slack teams zoom tableau powerbi metabase
    duckdb snowflake databricks spark hadoop elasticsearch terraform linux windows macos github
    gitlab wordpress shopify stripe twilio contentful directus strapi drupal firebase supabase
    airflow dbt looker grafana nginx django rails graphql whatsapp xero quickbooks hubspot zendesk
    notion airtable figma dynamics netsuite workday bigquery s3 lambda openai"""
    )
)


def _unit_after(text: str, end: int) -> tuple[str, int]:
    """The noun counted ("44 suppliers", "47,000 patient records"): its stem, and where it ends."""
    unit, at, last = "", end, end
    for _ in range(3):
        m = _UNIT_WORD.match(text, at)
        if m is None or m.group("w").lower() in _NOT_UNITS:
            break
        at = m.end()
        if m.group("w").lower() not in _SKIPPABLE:
            unit, last = m.group("w").lower(), m.end()
            if unit.endswith("s"):
                break  # "47,000 patient records": the plural noun ends the phrase
    return (_singular(unit), last) if unit else ("", end)


def _singular(word: str) -> str:
    for suffix, replacement in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + replacement
    return word


def _quantity(
    text: str, start: int, end: int, amount: float, taken: Taken, *, symbol: str | None, word: bool
) -> Entity | None:
    before = text[max(0, start - 12) : start].lower()
    if re.search(r"(?:^|\W)(?:phase|scope|step|stage|tier|number|no|version|v)\s*$", before):
        return None  # an identifier ("phase two", "scope three"), not a quantity
    currency = _CURRENCIES.get(symbol or "")
    stop = end
    if m := _CURRENCY_WORD.match(text, end):
        currency = _CURRENCIES.get(_singular(m.group("c").lower()), currency)
        stop = m.end()
    if m := _PERCENT.match(text, end):
        taken.take(start, m.end())
        return Entity("percent", text[start : m.end()], start, m.end(), f"{amount:g}%")
    unit = ""
    if m := _RATE.match(text, stop):
        unit, stop = f"per {m.group('r').lower()}", m.end()
    elif not currency:
        unit, stop = _unit_after(text, stop)
        said_as_value = re.search(
            r"(?:\bis|\bare|['’]s|\bbe|\bwants?|\bat)\s+(?:now\s+|only\s+|just\s+)?$", text[:start], re.I
        )
        if re.match(r"\s+of\b", text[stop:]) or (word and not unit and not said_as_value):
            return None  # "two of the galleries", "three have refused": no countable unit said
    taken.take(start, stop)
    value = f"{amount:g} {currency}".strip() + (f" {unit}" if currency and unit else "")
    kind = "amount" if currency else "count"
    return Entity(kind, text[start:stop], start, stop, value if currency else f"{amount:g}", unit)


def _quantities(text: str, taken: Taken) -> list[Entity]:
    found = []
    for m in _NUMBER.finditer(text):
        a, b = m.start("num"), m.end()
        if (
            not taken.free(a, b)
            or re.match(ORDINAL_SUFFIX + r"\b", text[m.end("num") :])
            or text[b : b + 1] == ":"
        ):
            continue
        if m.group("cur"):
            a = m.start("cur")
        amount = float(m.group("num").replace(",", "")) * _MULT.get((m.group("mult") or "").lower(), 1)
        if (e := _quantity(text, a, b, amount, taken, symbol=m.group("cur"), word=False)) is not None:
            found.append(e)
    for m in _NUMBER_WORDS.finditer(text):
        if not taken.free(m.start(), m.end()) or (value := parse_number(m.group("w"))) is None or value < 2:
            continue
        if (
            e := _quantity(text, m.start(), m.end(), float(value), taken, symbol=None, word=True)
        ) is not None:
            found.append(e)
    return found


# --- names ---------------------------------------------------------------------------------------------
NAME_KINDS = ("person", "organisation", "technology", "name")  # Entity.kind of a name (facts, digest)
# What a name is, from spaCy's entity label. NORP (nationalities, groups) counts only when the name is
# known otherwise: "German", "Swedish" are adjectives of every project.
NAME_LABELS = {
    "PERSON": "person",
    "ORG": "organisation",
    "PRODUCT": "product",
    "LAW": "regulation",
    "EVENT": "event",
    "WORK_OF_ART": "work",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "NORP": "group",
}
LABELS = ("person", "organisation", "product", "regulation", "event", "work", "place", "group", "name")
_OLD_KINDS = {"technology": "product"}  # labels stored by earlier versions
# Closed classes of grammar, not lists of names: titles before a name, the small words inside one
# ("Lumen and Lathe", "Holm & Kessler"), and the German articles that make the next word a noun.
TITLES = frozenset(word_list("dr mr mrs ms prof professor frau herr doktor sir dame"))
_JOINERS = frozenset(word_list("and of & de van von der du la le del da di y"))
_GERMAN_ARTICLES = frozenset(
    word_list(
        """
    der die das den dem des ein eine einen einem einer eines zum zur vom beim im am ins ans aufs
    mein meine meinen meinem dein deine sein seine seinen ihr ihre ihren unser unsere kein keine
    dieser diese dieses diesen jeder jede jedes"""
    )
)
_WORD = re.compile(r"\w(?:[\w’'.-]*\w)?|&")
_CODE = re.compile(r"[^\W\d_]{2,}[\w-]*\d[\w-]*")  # NIS2, LVS-2000, MP3
_INNER_CAPITAL = re.compile(r"[^\W\d_]*[a-zäöüß][A-ZÄÖÜ]\w*")  # iPhone, DuckDB, ScholarDesk
_POSSESSIVE = re.compile(r"['’]s$")


@dataclass(frozen=True)
class NamedEntity(Entity):
    label: str = "name"  # what the name is as far as known (LABELS); "name": unknown


@dataclass
class NameBook:
    """The names the library already knows, from its other recordings: what a new note's names are
    read against."""

    project_id: int | None = None  # the project of the recording being read
    forms: dict[str, Counter[str]] = field(default_factory=dict)  # as said → labels said with
    homes: dict[str, set[int]] = field(default_factory=dict)  # value → projects whose notes say it
    # project → first word → the names of two words or more that start with it, with their labels
    people: dict[int, dict[str, dict[str, str]]] = field(default_factory=dict)
    _index: dict[tuple[str, ...], str] | None = None

    def add(self, text: str, value: str, label: str, project: int, count: int = 1) -> None:
        label = _OLD_KINDS.get(label, label)
        self.forms.setdefault(text, Counter())[label] += count
        self.homes.setdefault(value, set()).add(project)
        words = value.split()
        if len(words) >= 2:
            known = self.people.setdefault(project, {}).setdefault(words[0], {})
            if known.get(value) in (None, "name"):
                known[value] = label
        self._index = None

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, form) of each known form in the text, the longest first where they overlap;
        as said (case matters: "Per" is a name, "per" is not)."""
        if self._index is None:
            self._index = {tuple(_WORD.findall(form)): form for form in self.forms}
        longest = max((len(k) for k in self._index), default=0)
        words = []
        for m in _WORD.finditer(text):
            cut = _POSSESSIVE.search(m.group(0))
            words.append((m.start(), m.end() - (len(m.group(0)) - cut.start() if cut else 0), m.group(0)))
        said = [w[:-2] if _POSSESSIVE.search(w) else w for _, _, w in words]
        out, i = [], 0
        while i < len(words):
            for n in range(min(longest, len(words) - i), 0, -1):
                form = self._index.get(tuple(said[i : i + n]))
                if form is not None:
                    out.append((words[i][0], words[i + n - 1][1], form))
                    i += n
                    break
            else:
                i += 1
        return out

    def label(self, text: str) -> str:
        """The label the library gives this form, when all its labelled mentions agree."""
        labels = {k for k in self.forms.get(text, Counter()) if k != "name"}
        return labels.pop() if len(labels) == 1 else "name"

    def full_names(self, first: str) -> dict[str, str]:
        """The longer names of the recording's project that start with this word, with their labels."""
        return dict(self.people.get(self.project_id, {}).get(first, {})) if self.project_id else {}

    def given_names(self) -> set[str]:
        """Given names of any full name of a person the library knows ("priya" of "priya raman")."""
        return {
            g for people in self.people.values() for g, names in people.items() if "person" in names.values()
        }


def library_names(store: Store, recording_id: int | None = None) -> NameBook:
    """The names stored for the library's other recordings, each with the projects whose notes say
    it: a name said in an aside about another project is that project's."""
    row = store.one("SELECT project_id FROM recordings WHERE id = ?", (recording_id,))
    book = NameBook(project_id=int(row["project_id"]) if row else None)
    kinds = (*LABELS, *_OLD_KINDS)
    marks = ",".join("?" * len(kinds))
    counts: Counter[tuple[str, str, str, int]] = Counter()
    for kind, text, value, project, n in store.rows(
        "SELECT kind, text, value, project_id, count(*) FROM entities"
        f" WHERE recording_id != ? AND kind IN ({marks}) GROUP BY kind, text, value, project_id",
        (recording_id or -1, *kinds),
    ):
        counts[(str(kind), str(text), str(value), int(project))] += int(n)
    for kind, text, value, filed, home, n in store.rows(
        "SELECT e.kind, e.text, e.value, e.project_id, t.project_id, count(*) FROM stretches t"
        " JOIN segments s ON s.recording_id = t.recording_id AND s.idx BETWEEN t.first_idx AND t.last_idx"
        " JOIN entities e ON e.segment_id = s.id"
        f" WHERE t.status = 'suggested' AND t.project_id != e.project_id AND e.recording_id != ?"
        f" AND e.kind IN ({marks}) GROUP BY e.kind, e.text, e.value, e.project_id, t.project_id",
        (recording_id or -1, *kinds),
    ):
        counts[(str(kind), str(text), str(value), int(filed))] -= int(n)
        counts[(str(kind), str(text), str(value), int(home))] += int(n)
    for (kind, text, value, project), n in counts.items():
        if n > 0:
            book.add(text, value, kind, project, n)
    return book


@lru_cache(maxsize=1)
def _dictionary() -> frozenset[str]:
    """English words (the lemmatizer's WordNet index that ships with the English pipeline)."""
    lookups = english().get_pipe("lemmatizer").lookups  # type: ignore[attr-defined]
    index = lookups.get_table("lemma_index") if lookups.has_table("lemma_index") else {}
    return frozenset(w for pos in ("noun", "verb", "adj", "adv") for w in index.get(pos, ()))


def common_word(value: str) -> bool:
    """A one-word name that is also an English word ("SAP", "CFO", "Vienna", "Budget", "Euros"): it
    may name a thing, but two projects saying it is no sign that they share it."""
    low = value.lower()
    words = _dictionary()
    plural = (low.endswith("s") and low[:-1] in words) or (low.endswith("es") and low[:-2] in words)
    return " " not in value and (low in words or plural)


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    from spacy.lang.de.stop_words import STOP_WORDS as GERMAN
    from spacy.lang.en.stop_words import STOP_WORDS as ENGLISH

    return frozenset(ENGLISH | GERMAN)


def _name_word(word: str) -> bool:
    return word[:1].isupper() or bool(_CODE.fullmatch(word) or _INNER_CAPITAL.fullmatch(word))


def _calendar_word(word: str) -> bool:
    return word.lower() in MONTHS or word.lower() in WEEKDAYS


@dataclass
class _Found:
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
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text, a, b)]
    out: list[tuple[int, int, list[str], bool]] = []
    run: list[tuple[int, int, str]] = []

    def close() -> None:
        while run and run[-1][2].lower() in _JOINERS:
            run.pop()
        title = False
        while run and run[0][2].lower().strip(".") in TITLES:
            run.pop(0)
            title = True
        while len(run) > 1 and (
            pos.get(run[0][0]) in _NOT_NAME_POS if pos is not None else run[0][2].lower() in _stop_words()
        ):
            run.pop(0)
        if run:
            out.append((run[0][0], run[-1][1], [w for _, _, w in run], title))
        run.clear()

    for s, e, w in words:
        if m := _POSSESSIVE.search(w):
            w, e = w[: m.start()], e - (len(w) - m.start())
        adjacent = bool(run) and text[run[-1][1] : s].isspace()
        joins = adjacent and (w.lower() in _JOINERS or w.isdigit()) and _name_word(run[-1][2])
        if (_name_word(w) and (not run or adjacent)) or joins:
            run.append((s, e, w))
        else:
            close()
            if _name_word(w):
                run.append((s, e, w))
        if m:
            close()
    close()
    return out


def _initial(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \"'“‘(")
    return not before or before.endswith((",", ";", ":", ".", "!", "?", "…"))


def _english_names(text: str, tokens: Tokens, offset: int) -> list[_Found]:
    """Named entities of the model, and the tagger's proper nouns it did not take. `offset`: where
    `text` starts in the parsed text."""
    found: list[_Found] = []
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
            found.append(_Found(s, e, words, label if whole else "", "model", title))
    run: list[int] = []
    for tok in [*tokens, None]:
        inside = tok is not None and any(a <= tok.idx - offset < b for a, b in used)
        if tok is not None and not inside and (tok.pos_ == "PROPN" or (run and tok.lower_ in _JOINERS)):
            run.append(tok.i)
            continue
        if run:
            first, last = by_index[run[0]], by_index[run[-1]]
            a, b = max(0, first.idx - offset), last.idx + len(last.text) - offset
            for s, e, words, title in _runs(text, a, b, pos):
                found.append(_Found(s, e, words, "", "tagger", title))
            run = []
    return found


def _german_names(text: str) -> list[_Found]:
    """Runs of two or three capitalised words that no article or function word starts, not at the
    start of a sentence unless the run itself cannot start one ("Jörg Pawlak, der Lagerleiter")."""
    found: list[_Found] = []
    stop = _stop_words()
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]
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
                and before not in _GERMAN_ARTICLES
                and run[0][2].lower() not in stop
                and run[0][2].lower().strip(".") not in TITLES
                and not any(_calendar_word(w) for _, _, w in run)
            ):
                found.append(_Found(run[0][0], run[-1][1], [w for _, _, w in run], "", "rule"))
        i = j
    return found


def _rule_names(text: str) -> list[_Found]:
    """In any language: a name after a title ("Frau Doktor Helga Voss" is a person), and codes and
    words with an inner capital ("NIS2", "DuckDB")."""
    found: list[_Found] = []
    for s, e, words, title in _runs(text, 0, len(text)):
        if title and all(w[:1].isupper() for w in words):
            found.append(_Found(s, e, words[:3], "person", "title", True))
    for m in _WORD.finditer(text):
        if _CODE.fullmatch(m.group(0)) or _INNER_CAPITAL.fullmatch(m.group(0)):
            found.append(_Found(m.start(), m.end(), [m.group(0)], "", "rule"))
    return found


def _known_names(text: str, book: NameBook | None) -> list[_Found]:
    if book is None or not book.forms:
        return []
    out = []
    for a, b, form in book.find(text):
        for s, e, words, title in _runs(text, a, b):
            out.append(_Found(s, e, words, book.label(form) if len(words) > 1 else "", "known", title))
    return out


_PRIORITY = {"known": 0, "title": 1, "model": 2, "tagger": 3, "rule": 4}


def _sentence_names(
    text: str,
    tokens: Tokens | None,
    book: NameBook | None,
    taken: Taken,
    offset: int = 0,
    lower: frozenset[str] = frozenset(),
) -> list[_Found]:
    """Candidate names of one sentence, overlaps resolved (the longest, then the best known).
    `tokens`: its parse (None: not English), `offset`: where the sentence starts in the parsed text,
    `lower`: stems of words said in lower case (a first word among them is not part of the name:
    "Quick Wrenfield aside", "Next SteerCo")."""
    candidates = _known_names(text, book) + _rule_names(text)
    candidates += _english_names(text, tokens, offset) if tokens is not None else _german_names(text)
    candidates.sort(key=lambda f: (-(f.end - f.start), _PRIORITY[f.source]))
    chosen: list[_Found] = []
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
        f.alone = len(_WORD.findall(text)) <= 2
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
class _DocNames:
    """The names of one text, read together: partial names resolved, common words left out."""

    found: list[tuple[int, _Found]]  # (offset of its sentence, name)
    lower: frozenset[str]  # stems of the words the text says in lower case
    book: NameBook | None

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
                # "Priya" is "Priya Raman", "Catalyst" is not "Catalyst Regions Fund" (a word of its own)
                plain = word not in _stop_words() and word not in _dictionary()
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

    def _single_name(self, f: _Found, known: set[str], inside: set[str]) -> bool:
        word = f.words[0]
        low = word.lower()
        if low in _stop_words() or _calendar_word(word) or stem(low) in self.lower:
            return False
        if f.source == "known" or f.title or _CODE.fullmatch(word) or _INNER_CAPITAL.fullmatch(word):
            return True
        if f.alone:
            return False  # a word said on its own is an answer or a filler ("Yep.")
        if f.initial and (low in _dictionary() or f.source != "model") and f.value not in inside:
            return False  # capitalised because it comes first ("Budget is holding"), said nowhere else so
        if f.source == "tagger" and low in _dictionary():
            return False  # a capitalised English word the model does not call a name ("the Weather")
        return f.source != "rule"


def name_kind(words: list[str], title: bool) -> str:
    """The coarse kind the facts read: a title or two or three words a person, an organisation's
    word makes an organisation, a known technology or an inner capital a technology."""
    lowered = [w.lower() for w in words]
    if len(words) == 1 and (lowered[0] in TECH or _INNER_CAPITAL.fullmatch(words[0])):
        return "technology"
    if any(w in ORG_WORDS for w in lowered) or any(w in ("and", "&") for w in lowered):
        return "organisation"
    if title or 2 <= len(words) <= 3:
        return "person"
    return "name"


def _lower_stems(texts: Iterable[str]) -> frozenset[str]:
    return frozenset(stem(m.group(0).lower()) for t in texts for m in re.finditer(r"\b[a-zäöüß][\w'’-]*", t))


def lower_case_words(doc: Doc) -> frozenset[str]:
    """Words the doc says in lower case somewhere: a capitalised one of these is a sentence's
    first word, not a name."""
    return frozenset(
        m.group(0).strip("'’-")
        for sentence in doc.sentences
        for m in re.finditer(r"\b[a-zäöüß][\w'’-]*", sentence.text)
    )


def names(text: str, taken: Taken, known: set[str], common: frozenset[str] = frozenset()) -> list[Entity]:
    """The names of one text (offsets in it), read by the English pipeline when it is English. `known`:
    one-word names known from elsewhere; `common`: words said in lower case elsewhere."""
    book = NameBook()
    for word in known:
        book.add(word[:1].upper() + word[1:], word, "name", 0)
    tokens = parse(text) if language_of(text) == "en" else None
    found = [(0, f) for f in _sentence_names(text, tokens, book if known else None, taken)]
    lower = _lower_stems([text]) | frozenset(stem(w) for w in common)
    out: list[Entity] = []
    for e in _DocNames(found, lower, book if known else None).entities():
        out.append(_with_text(e, text))
        taken.take(e.start, e.end)
    return out


def _with_text(e: NamedEntity, text: str) -> NamedEntity:
    return NamedEntity(e.kind, text[e.start : e.end], e.start, e.end, e.value, label=e.label)


def known_names(doc: Doc) -> set[str]:
    """One-word names the doc uses inside a sentence (so its first word may be one too)."""
    return {e.value for e in doc_entities(doc) if e.kind in NAME_KINDS and " " not in e.value}


def _shifted(e: Entity, offset: int) -> Entity:
    return Entity(e.kind, e.text, e.start + offset, e.end + offset, e.value, e.unit, e.grain, e.explicit)


def doc_entities(doc: Doc, book: NameBook | None = None) -> list[Entity]:
    """Every entity of the recording, in order, with offsets in the doc's joined text; names read
    against the library's known names when `book` is given (see `library_names`)."""
    resolver = DateResolver(doc.spoken_at)
    reader = parsed(doc)
    found: list[Entity] = []
    named: list[tuple[int, _Found]] = []
    lower = _lower_stems(s.text for s in doc.sentences)
    read: list[tuple[int, str, Taken]] = []
    for sentence in doc.sentences:
        taken = Taken()
        here = find_dates(sentence.text, resolver, taken) + find_times(sentence.text, taken)
        here += _quantities(sentence.text, taken)
        found += [_shifted(e, sentence.start) for e in here]
        tokens = reader.sentence(sentence).tokens
        offset = sentence.start if hasattr(tokens, "start_char") else 0  # a span of the whole parse
        here_names = _sentence_names(sentence.text, tokens, book, taken, offset, lower)
        named += [(sentence.start, f) for f in here_names]
        read.append((sentence.start, sentence.text, taken))
    named += _partial_names(read, named, book)
    found += [_with_text(e, doc.text) for e in _DocNames(named, lower, book).entities()]
    return sorted(found, key=lambda e: e.start)


def _partial_names(
    read: Sequence[tuple[int, str, Taken]], named: Sequence[tuple[int, _Found]], book: NameBook | None
) -> list[tuple[int, _Found]]:
    """The first word of a longer name said alone ("Rosalind" after "Rosalind Achebe", in this text
    or in another note of its project): a name wherever the model missed it."""
    firsts = {f.words[0] for _, f in named if len(f.words) >= 2 and _name_word(f.words[0])}
    if book is not None:
        firsts |= {w[:1].upper() + w[1:] for w in book.people.get(book.project_id or -1, {})}
    firsts -= {w for w in firsts if w.lower() in _stop_words() or w.lower().strip(".") in TITLES}
    if not firsts:
        return []
    pattern = re.compile(r"(?<![\w’'-])(?:" + "|".join(map(re.escape, sorted(firsts))) + r")(?![\w’'-])")
    out = []
    for start, text, taken in read:
        here = [f for at, f in named if at == start]
        for m in pattern.finditer(text):
            if taken.free(m.start(), m.end()) and not any(
                f.start < m.end() and m.start() < f.end for f in here
            ):
                found = _Found(
                    m.start(), m.end(), [m.group(0)], "", "known", initial=_initial(text, m.start())
                )
                out.append((start, found))
    return out


@lru_cache(maxsize=256)
def _parse_short(text: str) -> SpacyDoc:
    return parse(text)


def sentence_dates(text: str, spoken_at: datetime) -> list[Entity]:
    """The dates and times of a single text (resolved against `spoken_at`), without reading its
    names: no parse, so a caller that only compares dates (a self-correction's two phrases) pays
    for none."""
    resolver = DateResolver(spoken_at)
    taken = Taken()
    return sorted(find_dates(text, resolver, taken) + find_times(text, taken), key=lambda e: e.start)


def sentence_entities(text: str, spoken_at: datetime) -> list[Entity]:
    """Entities of a single text (tests, questions, phrases)."""
    resolver = DateResolver(spoken_at)
    taken = Taken()
    here = find_dates(text, resolver, taken) + find_times(text, taken) + _quantities(text, taken)
    tokens = _parse_short(text) if language_of(text) == "en" else None
    found = [(0, f) for f in _sentence_names(text, tokens, None, taken)]
    found += _partial_names([(0, text, taken)], found, None)
    here += [_with_text(e, text) for e in _DocNames(found, _lower_stems([text]), None).entities()]
    return sorted(here, key=lambda e: e.start)


def _label(e: Entity) -> str:
    if isinstance(e, NamedEntity):
        return e.label
    if e.kind == "person":
        return "person" if " " in e.value else "name"
    return {"organisation": "organisation", "technology": "product"}.get(e.kind, "name")


def _day_said(text: str) -> bool:
    """A date said with its day ("the 11th", "zehnten September"), not only a weekday or "tomorrow"."""
    return bool(re.search(r"\d", text)) or any(w.lower() in MONTHS for w in _WORD.findall(text))


def calendar_dates(doc: Doc) -> list[Entity]:
    """The days the recording names with the day said or with a time ("Thursday the 10th of
    September", "the 11th", "Donnerstag, dem zehnten September ... um 14 Uhr"): what a calendar
    clash can rest on. A weekday alone ("on Tuesday") or a relative day is never one."""
    resolver = DateResolver(doc.spoken_at)
    language = language_of(doc.text)
    out = []
    for sentence in doc.sentences:
        here_language = (
            language_of(sentence.text) if len(sentence.text.split()) >= MIN_WORDS_FOR_LANGUAGE else language
        )
        here = fact_dates(sentence.text, resolver, here_language)
        timed = any(e.kind == "time" for e in here)
        for e in here:
            if e.kind == "date" and e.grain == "day" and (_day_said(e.text) or timed):
                out.append(_shifted(e, sentence.start))
    return out


def store_entities(
    store: Store, recording_id: int, doc: Doc, entities: Sequence[Entity], projects: Sequence[int]
) -> None:
    """Replace the recording's stored names and calendar days (what connections are found from);
    `projects[i]` is the project segment i is filed under."""
    rows = []
    things = [(e, _label(e)) for e in entities if e.kind in NAME_KINDS]
    things += [(e, "date") for e in calendar_dates(doc)]
    for e, kind in things:
        span = doc.span(e.start, e.end)
        seg = doc.segments[span.first_segment]
        rows.append(
            (
                recording_id,
                seg.id,
                projects[span.first_segment],
                kind,
                e.text,
                e.value,
                span.seg_start,
                span.seg_start + len(span.text),
            )
        )
    with store.transaction():
        store.execute("DELETE FROM entities WHERE recording_id = ?", (recording_id,))
        store.executemany(
            "INSERT INTO entities (recording_id, segment_id, project_id, kind, text, value,"
            " char_start, char_end)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def explicit_dates(entities: Sequence[Entity], doc: Doc) -> set[tuple[int, str]]:
    """(segment id, date) of the dates said in full (a month or weekday named)."""
    return {
        (doc.segments[doc.segment_at(e.start)].id, e.value)
        for e in entities
        if e.kind == "date" and e.explicit
    }
