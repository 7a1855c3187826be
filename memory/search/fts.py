"""User text → a safe FTS5 query. Nothing a user types is ever parsed as FTS syntax.

The query is cut into words the way the index tokenizer cuts text (unicode letters and digits),
common function words are dropped (they match nearly every chunk, cost time and add nothing to
BM25), and each remaining word is quoted, so `"`, `*`, `NEAR`, `AND`, `(`, `:` and `^` are only
ever words or separators.
"""

from __future__ import annotations

import re

from memory.text.stopwords import STOPWORDS

MAX_TERMS = 48  # a pasted page still gives a fast query: the first distinct words carry it

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


def words(text: str) -> list[str]:
    """Lower-case words of `text` as the index tokenizer sees them, in order, repeats kept."""
    return [w.lower() for w in _TOKEN.findall(text)]


def query_terms(text: str, *, max_terms: int = MAX_TERMS) -> list[str]:
    """Distinct content words of a query; all words when every one of them is a function word."""
    found = words(text)
    content = [w for w in found if w not in STOPWORDS]
    chosen = content or found
    unique = list(dict.fromkeys(chosen))
    return unique[:max_terms]


def match_expression(terms: list[str]) -> str:
    """An FTS5 MATCH string: any of the terms, each a quoted string (so never an operator)."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
