"""The query path: from raw segments to indexed chunks, and from a question to ranked passages.

Modules: chunking (segments into chunks), index (chunks, vectors, embedding cache), fts (user text to
a safe FTS5 query), term_stats (common words left out), binary_index (in-memory vector copy of a
large library), ranking (fusion and recency, pure), passages (re-centred passages), asked_dates
(days a question names), connected (connections search follows), hits (what retrieval returns),
retrieval (hybrid search: the entry point)."""

__all__ = [
    "asked_dates",
    "binary_index",
    "chunking",
    "connected",
    "fts",
    "hits",
    "index",
    "passages",
    "ranking",
    "retrieval",
    "term_stats",
]
