"""Answers with provenance: every claim stated (a checked quote) or inferred, never unmarked.

Modules: context (the few passages an answer is built from), claims (what the model is asked for, and
a tolerant reader of what it said), answers (the relevance gate and the labeller), fact_answers
(current values first, with what they replaced), near_words (a passage's words that say a question's
word another way, which the gate counts), asked_kind (the kind of thing a question asks for),
question_parts (the two things a question may ask at once)."""

__all__ = ["answers", "claims", "context", "fact_answers"]
