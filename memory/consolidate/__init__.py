"""Consolidation's layers over the raw words, built in the background after a note is stored; each
points back at raw segments and never changes them.

Modules: corrections (self-corrections, found by all readers; the tagger's read here),
correction_rules (the cue, retrace and contrast rules), repair_shapes (a value said again, a word
cut off), retractions (a value taken back by words that say a slip, wherever they stand),
correction_phrases (`Correction` and the phrases either side of its marker), correction_store
(stored and listed), facts and fact_model (facts found by rules and by the chat model, checked
alike; the rules read a sentence's values in fact_values and their attribute, subject and change in
fact_attributes), fact_store (facts stored and read), fact_validity (which fact restates or
supersedes which, by rules; what two facts have in common in fact_pairs; the learned reader where
the rules choose none in supersession_model), connections and connection_store (links between
projects, judged by the user), commitments (who owes what to whom by when: English from the parse
in commitment_english, owing said without the owing party's verb and what blocks a promise in
commitment_owed, who owes and to whom in commitment_parties, where its words are in
commitment_spans, German by rules, shared pieces in commitment_text) and commitment_store (stored,
marked done by later notes, listed), digest (decisions, commitments, open questions), known_names
(the names a project's notes say, for its transcriptions), stretches (parts of a note about another
project), state (which stages are done for which version of a recording)."""

__all__ = [
    "commitment_english",
    "commitment_owed",
    "commitment_parties",
    "commitment_spans",
    "commitment_store",
    "commitment_text",
    "commitments",
    "connection_kinds",
    "connection_store",
    "connections",
    "correction_phrases",
    "correction_rules",
    "correction_store",
    "corrections",
    "digest",
    "fact_attributes",
    "fact_model",
    "fact_pairs",
    "fact_store",
    "fact_validity",
    "fact_values",
    "facts",
    "known_names",
    "repair_shapes",
    "retractions",
    "state",
    "stretches",
    "supersession_model",
]
