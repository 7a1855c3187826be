"""Reading spoken text, shared by search, answers and consolidation; no model needed.

Modules: doc (a recording's words cut into sentences, mapped back to raw segments), dates (dates
and times resolved against when the note was spoken), entities (amounts, counts, names), stopwords,
relevance (how well a text supports a question: stems, coverage, answer kinds), quotes (the
deterministic checker: is a quote verbatim in the raw words, and where)."""

__all__ = ["dates", "doc", "entities", "quotes", "relevance", "stopwords"]
