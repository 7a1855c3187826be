"""Words of a passage that say a question's word another way ("last" for "final", "inside" for
"indoors", "recruited" for "hired"), read from the library's embedding model, word by word.

The relevance gate counts a question's content word as said in a window when the window says it
or one of its near words (memory/text/relevance.py `coverage`), and so does the choice of the
sentence an answer quotes. A user asks in their own words, days after they dictated the note in
others: on the development sets most answerable questions left "not in your notes" said a word of
the note another way ("How many people are we catering for?" for "planning for 465 guests").

Only the words of the passages the gate may keep (its first `max_rank`) are compared, and a pair
counts from MIN_WORD_COSINE, chosen leave one set out over eight sets, each question counting once
(docs/benchmarks.md, "Words said another way"). MiniLM also puts some opposites close ("indoors"
and "outdoors", 0.59): the threshold is above most of them, and a word said another way counts only
as much as it is near. What it lets through still has to pass the kind check (a number for "how
many", a name for "who"). Each word is embedded once per process and model (`word_vectors`), and
kept in memory only: asking writes nothing to the library (a write there would wait on the import
or consolidation writing beside it, and an answer must not depend on who got the lock first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from memory.answer.context import ContextPassage
from memory.text.dates import MONTHS, WEEKDAYS
from memory.text.quotes import tokens
from memory.text.relevance import STOPWORDS, QuestionTerms, stem
from memory.text.said_values import NUMBER_WORDS

Embed = Callable[[Sequence[str]], np.ndarray]  # unit-length vectors, one row per text
MIN_WORD_COSINE = 0.6
MIN_LETTERS = 3
MAX_CACHED_WORDS = 50_000  # ~75 MB of MiniLM vectors at most; a library says far fewer words

_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_lock = threading.Lock()


def word_vectors(words: Sequence[str], model: str, embed: Embed) -> dict[str, np.ndarray]:
    """Unit-length vectors of single words by `model`, each embedded once per process (the least
    recently used forgotten past MAX_CACHED_WORDS)."""
    wanted = list(dict.fromkeys(words))
    with _lock:
        found = {w: _cache[(model, w)] for w in wanted if (model, w) in _cache}
        for w in found:
            _cache.move_to_end((model, w))
    missing = [w for w in wanted if w not in found]
    if missing:
        made = dict(zip(missing, (np.asarray(v, dtype=np.float32) for v in embed(missing)), strict=True))
        with _lock:
            for w, v in made.items():
                _cache[(model, w)] = v
            while len(_cache) > MAX_CACHED_WORDS:
                _cache.popitem(last=False)
        found.update(made)
    return found


# Days, months and numbers are values, not ways of saying a thing: MiniLM puts "July" near "June"
# and "Monday", "seven" near "eight", and a note that says one does not say the other.
_VALUE_WORDS = frozenset(MONTHS) | frozenset(WEEKDAYS) | frozenset(NUMBER_WORDS)


def _comparable(word: str) -> bool:
    return (
        len(word) >= MIN_LETTERS and word not in STOPWORDS and word not in _VALUE_WORDS and not word.isdigit()
    )


def passage_words(passages: Sequence[ContextPassage], max_rank: int) -> dict[str, str]:
    """The content words of the passages the gate may keep, each with its stem."""
    said: dict[str, str] = {}
    for p in passages:
        if p.rank >= max_rank:
            continue
        for t in tokens(p.text):
            if _comparable(t.norm):
                said.setdefault(t.norm, stem(t.norm))
    return said


def with_near_words(
    terms: QuestionTerms,
    passages: Sequence[ContextPassage],
    embed: Embed,
    model: str,
    *,
    max_rank: int,
    min_cosine: float = MIN_WORD_COSINE,
) -> QuestionTerms:
    """The terms with, for each content word of the question (not its names: a name is said as
    it is), the stems of the passages' words whose embedding's cosine with it is at least
    `min_cosine`, each with that cosine (a word said another way counts that much of the word)."""
    asked = {
        s: w for s in terms.content if s not in terms.names and _comparable(w := terms.spelled.get(s, s))
    }
    said = {w: s for w, s in passage_words(passages, max_rank).items() if s not in asked}
    if not asked or not said:
        return terms
    found = word_vectors([*asked.values(), *said], model, embed)
    words = list(said)
    matrix = np.stack([found[w] for w in words])
    near: dict[str, dict[str, float]] = {}
    for s, w in asked.items():
        cosines = matrix @ found[w]
        close: dict[str, float] = {}
        for i in np.flatnonzero(cosines >= min_cosine):
            stem_ = said[words[i]]
            close[stem_] = max(close.get(stem_, 0.0), float(cosines[i]))
        if close:
            near[s] = close
    return terms.with_near(near) if near else terms
