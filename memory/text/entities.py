"""Entities in spoken text: dates and times (memory.text.dates: relative ones resolved against when
the note was spoken), amounts with currencies, counts with their unit, percentages
(memory/text/quantity_entities.py), and names (memory/text/names.py, read against the library's
known names of memory/text/name_book.py).

This module reads them together, sentence by sentence (a date or an amount is no name), for a
whole recording (`doc_entities`) or a single text (`sentence_entities`), and stores a recording's
names and calendar days for connections (`store_entities`).

Each name carries what it is as far as that is known (`NamedEntity.label`: person, organisation,
product, regulation, event, work, place, group, or "name" when unknown); `Entity.kind` keeps the
coarse kinds the facts and the digest read (person, organisation, technology, name).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from memory.store.store import Store
from memory.text.clock_times import find_times
from memory.text.dates import MONTHS, DateResolver, fact_dates, find_dates
from memory.text.doc import Doc
from memory.text.fact_parse import MIN_WORDS_FOR_LANGUAGE, parsed
from memory.text.name_book import NameBook
from memory.text.name_words import WORD_PATTERN
from memory.text.names import (
    DocNames,
    FoundName,
    NamedEntity,
    lower_stems,
    partial_names,
    sentence_names,
    with_text,
)
from memory.text.nlp import language_of, parse
from memory.text.quantity_entities import read_quantities
from memory.text.said_values import Entity, Taken

if TYPE_CHECKING:
    from spacy.tokens import Doc as SpacyDoc

NAME_KINDS = ("person", "organisation", "technology", "name")  # Entity.kind of a name (facts, digest)


def _shifted(e: Entity, offset: int) -> Entity:
    return Entity(e.kind, e.text, e.start + offset, e.end + offset, e.value, e.unit, e.grain, e.explicit)


def doc_entities(doc: Doc, book: NameBook | None = None) -> list[Entity]:
    """Every entity of the recording, in order, with offsets in the doc's joined text; names read
    against the library's known names when `book` is given (memory/text/name_book.py `library_names`)."""
    resolver = DateResolver(doc.spoken_at)
    reader = parsed(doc)
    found: list[Entity] = []
    named: list[tuple[int, FoundName]] = []
    lower = lower_stems(s.text for s in doc.sentences)
    read: list[tuple[int, str, Taken]] = []
    subjects: set[int] = set()  # doc offsets of proper nouns that are the subject of a verb
    for sentence in doc.sentences:
        taken = Taken()
        here = find_dates(sentence.text, resolver, taken) + find_times(sentence.text, taken)
        here += read_quantities(sentence.text, taken)
        found += [_shifted(e, sentence.start) for e in here]
        tokens = reader.sentence(sentence).tokens
        offset = sentence.start if hasattr(tokens, "start_char") else 0  # a span of the whole parse
        here_names = sentence_names(sentence.text, tokens, book, taken, offset, lower)
        named += [(sentence.start, f) for f in here_names]
        read.append((sentence.start, sentence.text, taken))
        if tokens is not None:
            subjects |= {
                sentence.start + t.idx - offset
                for t in tokens
                if t.pos_ == "PROPN" and t.dep_ in ("nsubj", "nsubjpass")
            }
    named += partial_names(read, named, book, frozenset(subjects))
    found += [with_text(e, doc.text) for e in DocNames(named, lower, book, frozenset(subjects)).entities()]
    return sorted(found, key=lambda e: e.start)


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
    here = find_dates(text, resolver, taken) + find_times(text, taken) + read_quantities(text, taken)
    tokens = _parse_short(text) if language_of(text) == "en" else None
    found = [(0, f) for f in sentence_names(text, tokens, None, taken)]
    found += partial_names([(0, text, taken)], found, None)
    here += [with_text(e, text) for e in DocNames(found, lower_stems([text]), None).entities()]
    return sorted(here, key=lambda e: e.start)


def _label(e: Entity) -> str:
    if isinstance(e, NamedEntity):
        return e.label
    if e.kind == "person":
        return "person" if " " in e.value else "name"
    return {"organisation": "organisation", "technology": "product"}.get(e.kind, "name")


def _day_said(text: str) -> bool:
    """A date said with its day ("the 11th", "zehnten September"), not only a weekday or "tomorrow"."""
    return bool(re.search(r"\d", text)) or any(w.lower() in MONTHS for w in WORD_PATTERN.findall(text))


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
