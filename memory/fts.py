"""User text → a safe FTS5 query. Nothing a user types is ever parsed as FTS syntax.

The query is cut into words the way the index tokenizer cuts text (unicode letters and digits),
common function words are dropped (they match nearly every chunk, cost time and add nothing to
BM25), and each remaining word is quoted, so `"`, `*`, `NEAR`, `AND`, `(`, `:` and `^` are only
ever words or separators.
"""

from __future__ import annotations

import re

MAX_TERMS = 48  # a pasted page still gives a fast query: the first distinct words carry it

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)

# Function words of English questions. Kept short on purpose: names and content words must stay.
_STOPWORDS_TEXT = """
    a about above after again against all am an and any are aren as at be because been before being
    below between both but by can could did didn do does doesn doing don down during each few for from
    further had hadn has hasn have haven having he her here hers herself him himself his how i if in into
    is isn it its itself just ll m me more most my myself no nor not now of off on once only or other our
    ours ourselves out over own re s same she should so some such t than that the their theirs them
    themselves then there these they this those through to too under until up ve very was wasn we were
    weren what when where which while who whom why will with won would wouldn y you your yours yourself
    yourselves d o ever also get got"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


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
