"""Reading spoken text, shared by search, answers and consolidation; no chat model needed. English
is read by spaCy's small English model (nlp, one parse per sentence kept in fact_parse); the
package ships its own trained weights for self-repairs: the repair tagger's CRF
(repair_tagger.crfsuite) and the ranker of where a repair starts (repair_starts.json).

Modules: doc (a recording's words cut into sentences, mapped back to raw segments), nlp (the
spaCy pipeline, loaded once), fact_parse (one parse per sentence of a recording), dates (dates
and times resolved against when the note was spoken), numbers (numbers said or typed, English and
German), entities (dates, amounts, counts and names of a recording read together, and stored),
quantity_entities (amounts, counts, percentages), names (names in spoken text), name_words (the
word lists names are read by), name_book (the names the library already knows), hedges (a value
stated, wished or only tentative), stems (Snowball stems), stopwords, relevance (how well a text
supports a question: stems, coverage, answer kinds), quotes (the deterministic checker: is a
quote verbatim in the raw words, and where), repairs (spoken self-repairs and the meant reading,
read from the labels of the CRF in repair_tagger, whose word features are in repair_features and
whose starts repair_starts chooses again)."""

__all__ = [
    "dates",
    "doc",
    "entities",
    "fact_parse",
    "hedges",
    "name_book",
    "name_words",
    "names",
    "nlp",
    "numbers",
    "quantity_entities",
    "quotes",
    "relevance",
    "repair_features",
    "repair_starts",
    "repair_tagger",
    "repairs",
    "stems",
    "stopwords",
]
