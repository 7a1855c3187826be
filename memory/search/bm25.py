"""BM25 with the statistics of the projects searched, for the passages FTS5 found.

FTS5's bm25() weighs each word by how common it is in the whole index. Where that differs from how
common it is in the projects searched (memory/store/word_stats.py: a project of its own, or a huge
import beside small projects), the passages FTS5 found are scored again here with the scope's idf,
FTS5's constants and the index's own tokenizer, so a search ranks as the scope's statistics say.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import apsw

from memory.store.store import Store

K1, B = 1.2, 0.75  # FTS5's bm25() constants
# The index's tokenizer, as declared for chunks_fts (memory/store/migrations/0001_initial.sql).
TOKENIZER = ("porter", ["unicode61", "remove_diacritics", "2"])

_tokenizers: weakref.WeakKeyDictionary[Store, Callable[[bytes, int, str | None], list[str]]] = (
    weakref.WeakKeyDictionary()
)


def _tokens(store: Store, text: str, reason: int) -> list[str]:
    tokenizer = _tokenizers.get(store)
    if tokenizer is None:
        made = store.conn.fts5_tokenizer(TOKENIZER[0], TOKENIZER[1])

        def tokenizer(utf8: bytes, flags: int, locale: str | None) -> list[str]:
            return [str(t) for t in made(utf8, flags, locale, include_offsets=False, include_colocated=False)]

        _tokenizers[store] = tokenizer
    return tokenizer(text.encode("utf-8"), reason, None)


def rescore(
    store: Store, chunk_ids: Sequence[int], words: Sequence[str], idf: Mapping[str, float]
) -> list[tuple[int, float]]:
    """(chunk id, BM25 with `idf` per query word), best first. A passage's length is set against
    the mean of these passages (chunks are cut to about the same number of words, so their mean
    stands for the scope's)."""
    if not chunk_ids:
        return []
    stems = {w: _tokens(store, w, apsw.FTS5_TOKENIZE_QUERY) for w in words}
    marks = ",".join("?" * len(chunk_ids))
    texts = dict(store.rows(f"SELECT id, text FROM chunks WHERE id IN ({marks})", list(chunk_ids)))
    counted = {
        int(cid): Counter(_tokens(store, str(text), apsw.FTS5_TOKENIZE_DOCUMENT))
        for cid, text in texts.items()
    }
    lengths = {cid: sum(c.values()) for cid, c in counted.items()}
    mean_length = max(1.0, sum(lengths.values()) / max(len(lengths), 1))
    scored = []
    for cid, counts in counted.items():
        norm = K1 * (1 - B + B * lengths[cid] / mean_length)
        score = 0.0
        for word, parts in stems.items():
            # A word the tokenizer splits ("e-mail") is a phrase in FTS5: its rarest part stands for it.
            tf = min((counts.get(p, 0) for p in parts), default=0)
            if tf:
                score += idf.get(word, 0.0) * tf * (K1 + 1) / (tf + norm)
        scored.append((cid, score))
    scored.sort(key=lambda r: (-r[1], r[0]))
    return scored
