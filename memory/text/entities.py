"""Rule-based entities in spoken text: dates and times (memory.text.dates: relative ones resolved
against when the note was spoken), amounts with currencies, counts with their unit, percentages,
and names (people, organisations, technologies and vendors). No model: these work with any chat
model, or none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from memory.store.store import Store
from memory.text.dates import (
    MONTHS,
    NUMBER_WORD_PATTERN,
    ORDINAL_SUFFIX,
    WEEKDAYS,
    DateResolver,
    Entity,
    Taken,
    find_dates,
    find_times,
    parse_number,
    word_list,
)
from memory.text.doc import Doc
from memory.text.stopwords import STOPWORDS

_NUMBER = re.compile(
    r"(?P<cur>[£$€])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
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

_NAME = re.compile(
    r"(?:(?P<title>Dr|Mr|Mrs|Ms|Prof|Frau|Herr)\.?\s+)?"
    r"(?P<name>[A-ZÄÖÜ][\w’'-]*|[a-z]+[A-Z][\w-]*)"
    r"(?:\s+(?:(?:and|of|de|van|von|der|&)\s+)?(?:[A-ZÄÖÜ][\w’'-]*|[a-z]+[A-Z][\w-]*))*"
)
_NOT_NAMES = frozenset(
    word_list(
        """
    i i'm i've i'll i'd i’m i’ve i’ll i’d okay ok oh um uh so right yeah yes no well and but the a
    morning good sorry quick big next back aside actions still first second also then now hi hello
    thanks ah hmm dr mr mrs ms prof frau herr"""
    )
)
NATIONALITIES = frozenset(
    word_list(
        """
    english french german dutch polish mandarin spanish italian danish chinese european british
    american scottish welsh irish swiss austrian japanese portuguese russian swedish norwegian
    finnish greek turkish arabic hindi indian canadian australian deutsch englisch"""
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


def name_kind(words: list[str], title: bool) -> str:
    lowered = [w.lower() for w in words]
    if len(words) == 1 and (lowered[0] in TECH or re.match(r"[a-z]+[A-Z]|\w+[a-z][A-Z]", words[0])):
        return "technology"
    if any(w in ORG_WORDS for w in lowered) or any(w in ("and", "&") for w in lowered):
        return "organisation"
    if title or 2 <= len(words) <= 3:
        return "person"
    return "name"


def names(text: str, taken: Taken, known: set[str], common: frozenset[str] = frozenset()) -> list[Entity]:
    """Capitalised names. A sentence's first word counts only when it is known from elsewhere; a
    single word never when it is a function word or a filler ("It", "Mm", "Alright", capitalised
    at a turn's start) or when the note also says it in lower case (`common`: "Great", "Depends"),
    which names rarely are."""
    found = []
    for m in _NAME.finditer(text):
        words = re.sub(r"['’]s$", "", m.group(0)).split()
        if m.group("title"):
            words = words[1:]
        while words and (
            words[0].lower() in _NOT_NAMES or words[0].lower() in MONTHS or words[0].lower() in WEEKDAYS
        ):
            words = words[1:]
        cut = next((i for i, w in enumerate(words) if i and w.lower() in _NOT_NAMES - _JOINERS), len(words))
        words = words[:cut]
        if any(w.lower() in ("and", "&") for w in words) and any(
            w.lower() in TECH or w.lower() in NATIONALITIES or re.match(r"[a-z]+[A-Z]", w) for w in words
        ):
            words = words[: next(i for i, w in enumerate(words) if w.lower() in ("and", "&"))]
        while words and (words[-1].lower() in ("and", "of", "&", "de", "van", "von", "der")):
            words = words[:-1]
        words = (
            [w for w in words if w.lower() not in WEEKDAYS and w.lower() not in MONTHS]
            if len(words) > 1
            else words
        )
        if (
            not words
            or words[0].lower() in _NOT_NAMES
            or words[0].lower() in MONTHS
            or words[0].lower() in WEEKDAYS
        ):
            continue
        if len(words) == 1 and words[0].lower() in NATIONALITIES:
            continue
        start = text.find(words[0], m.start())
        end = text.find(words[-1], start) + len(words[-1])
        if not taken.free(start, end):
            continue
        value = " ".join(w.lower().strip("'’-") for w in words)
        if len(words) == 1 and not m.group("title") and (value in _NEVER_ALONE or value in common):
            continue
        # A sentence's or a clause's first word ("Wow, Congrats"): a name only when known.
        before = text[:start].rstrip(" \"'“‘(")
        initial = not before or before.endswith((",", ";", ":"))
        if initial and len(words) == 1 and value not in known and not m.group("title"):
            continue
        taken.take(start, end)
        found.append(Entity(name_kind(words, bool(m.group("title"))), text[start:end], start, end, value))
    return found


NAME_KINDS = ("person", "organisation", "technology", "name")
_JOINERS = frozenset({"and", "of", "&", "de", "van", "von", "der"})


# Function words and fillers: capitalised at the start of a turn, never a name on their own.
_NEVER_ALONE = (
    STOPWORDS
    | _NOT_NAMES
    | frozenset(
        word_list(
            """
    mm mmm mm-hmm uh-huh huh yep yup nope alright er erm hey wow great excellent thank please
    sure fine cool anyway maybe actually basically exactly absolutely indeed nothing something
    everything anything depends sometimes let lets let's shall may might must even n u"""
        )
    )
)


def lower_case_words(doc: Doc) -> frozenset[str]:
    """Words the doc says in lower case somewhere: a capitalised one of these is a sentence's
    first word, not a name."""
    return frozenset(
        m.group(0).strip("'’-")
        for sentence in doc.sentences
        for m in re.finditer(r"\b[a-zäöüß][\w'’-]*", sentence.text)
    )


def known_names(doc: Doc) -> set[str]:
    """Single capitalised words the doc uses inside a sentence (so its first word may be one too)."""
    known: set[str] = set()
    for sentence in doc.sentences:
        # After a word, not after a comma: chat and speech start clauses there ("Wow, Congrats").
        for m in re.finditer(r"(?<=\w )([A-ZÄÖÜ][\w-]+)", sentence.text):
            word = m.group(1).lower()
            if (
                word not in _NOT_NAMES
                and word not in NATIONALITIES
                and word not in MONTHS
                and word not in WEEKDAYS
            ):
                known.add(word)
    return known


def doc_entities(doc: Doc) -> list[Entity]:
    """Every entity of the recording, in order, with offsets in the doc's joined text."""
    resolver = DateResolver(doc.spoken_at)
    known = known_names(doc)
    common = lower_case_words(doc)
    found: list[Entity] = []
    for sentence in doc.sentences:
        taken = Taken()
        here = find_dates(sentence.text, resolver, taken) + find_times(sentence.text, taken)
        here += _quantities(sentence.text, taken) + names(sentence.text, taken, known, common)
        for e in sorted(here, key=lambda e: e.start):
            found.append(
                Entity(
                    e.kind,
                    e.text,
                    e.start + sentence.start,
                    e.end + sentence.start,
                    e.value,
                    e.unit,
                    e.grain,
                    e.explicit,
                )
            )
    return found


def sentence_entities(text: str, spoken_at: datetime) -> list[Entity]:
    """Entities of a single text (tests, questions)."""
    resolver = DateResolver(spoken_at)
    taken = Taken()
    here = find_dates(text, resolver, taken) + find_times(text, taken) + _quantities(text, taken)
    return sorted(here + names(text, taken, set()), key=lambda e: e.start)


def store_entities(
    store: Store, recording_id: int, doc: Doc, entities: Sequence[Entity], projects: Sequence[int]
) -> None:
    """Replace the recording's entities; `projects[i]` is the project segment i is about."""
    rows = []
    for e in entities:
        if e.kind == "time" or (e.kind == "date" and e.grain != "day") or (e.kind == "count"):
            continue  # times, vague dates and bare counts connect nothing on their own
        span = doc.span(e.start, e.end)
        seg = doc.segments[span.first_segment]
        rows.append(
            (
                recording_id,
                seg.id,
                projects[span.first_segment],
                e.kind,
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
