"""The words names are made of, and the words that are none: what name readers and the library's
known names (memory/text/names.py, memory/text/name_book.py) share.

What a name can be (LABELS, and NAME_LABELS from spaCy's entity labels), closed classes of
grammar (titles before a name, the small words inside one, German articles), the word pattern
names are cut by, codes and inner capitals, English dictionary words (the English pipeline's
lemmatizer index) and stop words (spaCy's English and German lists), month and weekday names,
the coarse kind of a name the facts and the digest read (`name_kind`: organisation words,
known technologies), and a name the small English model does not know (`unknown_name`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from memory.text.dates import MONTHS, WEEKDAYS
from memory.text.nlp import english
from memory.text.numbers import word_list

if TYPE_CHECKING:
    from collections.abc import Collection

    from spacy.tokens import Doc, Token

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
# Closed classes of grammar, not lists of names: titles before a name, the small words inside one
# ("Lumen and Lathe", "Holm & Kessler"), and the German articles that make the next word a noun.
TITLES = frozenset(word_list("dr mr mrs ms prof professor frau herr doktor sir dame"))
JOINERS = frozenset(word_list("and of & de van von der du la le del da di y"))
GERMAN_ARTICLES = frozenset(
    word_list(
        """
    der die das den dem des ein eine einen einem einer eines zum zur vom beim im am ins ans aufs
    mein meine meinen meinem dein deine sein seine seinen ihr ihre ihren unser unsere kein keine
    dieser diese dieses diesen jeder jede jedes"""
    )
)
WORD_PATTERN = re.compile(r"\w(?:[\w’'.-]*\w)?|&")
CODE = re.compile(r"[^\W\d_]{2,}[\w-]*\d[\w-]*")  # NIS2, LVS-2000, MP3
INNER_CAPITAL = re.compile(r"[^\W\d_]*[a-zäöüß][A-ZÄÖÜ]\w*")  # iPhone, DuckDB, ScholarDesk
POSSESSIVE = re.compile(r"['’]s$")
# The words that make a name an organisation or a technology (`name_kind`).
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


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """English words (the lemmatizer's WordNet index that ships with the English pipeline)."""
    lookups = english().get_pipe("lemmatizer").lookups  # type: ignore[attr-defined]
    index = lookups.get_table("lemma_index") if lookups.has_table("lemma_index") else {}
    return frozenset(w for pos in ("noun", "verb", "adj", "adv") for w in index.get(pos, ()))


def common_word(value: str) -> bool:
    """A one-word name that is also an English word ("SAP", "CFO", "Vienna", "Budget", "Euros"): it
    may name a thing, but two projects saying it is no sign that they share it."""
    low = value.lower()
    words = english_words()
    plural = (low.endswith("s") and low[:-1] in words) or (low.endswith("es") and low[:-2] in words)
    return " " not in value and (low in words or plural)


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    from spacy.lang.de.stop_words import STOP_WORDS as GERMAN
    from spacy.lang.en.stop_words import STOP_WORDS as ENGLISH

    return frozenset(ENGLISH | GERMAN)


def name_word(word: str) -> bool:
    return word[:1].isupper() or bool(CODE.fullmatch(word) or INNER_CAPITAL.fullmatch(word))


def calendar_word(word: str) -> bool:
    return word.lower() in MONTHS or word.lower() in WEEKDAYS


def name_kind(words: list[str], title: bool) -> str:
    """The coarse kind the facts read: a title or two or three words a person, an organisation's
    word makes an organisation, a known technology or an inner capital a technology."""
    lowered = [w.lower() for w in words]
    if len(words) == 1 and (lowered[0] in TECH or INNER_CAPITAL.fullmatch(words[0])):
        return "technology"
    if any(w in ORG_WORDS for w in lowered) or any(w in ("and", "&") for w in lowered):
        return "organisation"
    if title or 2 <= len(words) <= 3:
        return "person"
    return "name"


_NOT_NAMES = frozenset({"INTJ", "PRON", "DET", "ADP", "CCONJ", "SCONJ", "AUX", "PART", "PUNCT", "NUM", "SYM"})


_AFTER_INTERJECTION = frozenset({"DET", "PRON", "INTJ", "CCONJ", "SCONJ"})


def unknown_name(doc: Doc, asked_words: Collection[str]) -> bool:
    """A name the small English model does not know ("Priyanka from finance is running it", "Aoife
    in procurement will chair it": no entity, often not even a proper noun when it opens the
    sentence): a capitalised word that is no English word (the lemmatizer's WordNet index), no stop
    word, month or weekday, nor a filler, and not one of the question's words. A word that opens a
    sentence and stands alone before punctuation, a determiner, pronoun or conjunction ("Erm, …", "Och
    the …", "Eish I …") is an interjection of the spoken register, which no word list covers."""

    def alone(t: Token) -> bool:
        before = t.nbor(-1) if t.i > 0 else None
        after = t.nbor(1) if t.i + 1 < len(t.doc) else None
        # mid-sentence a capitalised word is a name ("…, Kgosi and Ruth are on it"); an interjection
        # opens its sentence ("So the rota is, erm, …" is not capitalised)
        opens = before is None or before.text in (".", "!", "?", "…") or bool(t.is_sent_start)
        return opens and (after is None or after.is_punct or after.pos_ in _AFTER_INTERJECTION)

    return any(
        t.is_alpha
        and not alone(t)
        and t.text[:1].isupper()
        and t.pos_ not in _NOT_NAMES
        and t.lower_ not in asked_words
        and not common_word(t.text)
        and t.lower_ not in stop_words()
        and not calendar_word(t.text)
        for t in doc
    )
