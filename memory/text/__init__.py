"""Reading spoken text, shared by search, answers and consolidation; no model needed.

Modules: doc (a recording's words cut into sentences, mapped back to raw segments), dates (dates
and times resolved against when the note was spoken), entities (dates, amounts, counts and names
of a recording read together, and stored), quantity_entities (amounts, counts, percentages), names
(names in spoken text), name_words (the word lists names are read by), name_book (the names the
library already knows), stopwords,
relevance (how well a text supports a question: stems, coverage, answer kinds), quotes (the
deterministic checker: is a quote verbatim in the raw words, and where), repairs (spoken
self-repairs and the meant reading, read from the labels of the CRF in repair_tagger, whose word
features are in repair_features and whose starts repair_starts chooses again)."""

__all__ = [
    "dates",
    "doc",
    "entities",
    "name_book",
    "name_words",
    "names",
    "quantity_entities",
    "quotes",
    "relevance",
    "repair_features",
    "repair_starts",
    "repair_tagger",
    "repairs",
    "stopwords",
]
