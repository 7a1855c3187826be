"""Answers with provenance: every claim stated (a checked quote) or inferred, never unmarked.

Modules: context (the few passages an answer is built from), claims (what the model is asked for, and
a tolerant reader of what it said), answers (the relevance gate and the labeller), fact_answers
(current values first, with what they replaced)."""

__all__ = ["answers", "claims", "context", "fact_answers"]
