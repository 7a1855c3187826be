"""Word stems by the Snowball stemmers (PyStemmer's C build): English, and German for German text.

Used wherever words are compared rather than shown: search's passage centring, the relevance gate,
facts and stretches. Stemming is symmetric (question and passage words go through the same
stemmer of their text's language), so it only has to agree with itself.
"""

from __future__ import annotations

import threading
from functools import lru_cache

import snowballstemmer

from memory.text.nlp import language_of

_local = threading.local()
LANGUAGES = {"en": "english", "de": "german"}


def _stemmer(language: str) -> snowballstemmer.stemmer:
    stemmers = getattr(_local, "stemmers", None)
    if stemmers is None:  # one per thread: a Snowball stemmer keeps state while it works
        stemmers = _local.stemmers = {}
    if language not in stemmers:
        stemmers[language] = snowballstemmer.stemmer(LANGUAGES.get(language, "english"))
    return stemmers[language]


@lru_cache(maxsize=1 << 16)
def stem(word: str, language: str = "en") -> str:
    """The stem of a lower-case word; numbers, short words and codes are kept as they are, but a
    number said in the plural is the number ("the Corvane 360s" asks about "the 360 feedback")."""
    if len(word) > 1 and word.endswith("s") and word[:-1].isdigit():
        return word[:-1]
    if len(word) <= 3 or not word.isalpha():
        return word
    return str(_stemmer(language).stemWord(word))


def text_language(text: str) -> str:
    """The language whose stemmer reads `text` ("en" or "de")."""
    return language_of(text)
