"""A learned second reader of supersession: given a new fact and an earlier fact of another note
whose value is comparable and different, the probability that the new one replaces it, from what
the rules of memory/consolidate/fact_validity.py look at (how alike the attributes are in rare
words and in MiniLM meaning, how alike the sentences are, whether the new one is said as a change,
names the earlier value or what it replaces, the kinds and sizes of the two values, which of the
earlier facts is most alike). It is asked only where the rules chose nothing, and decides only above
a threshold chosen on the training sets (bench/train_supersession.py, leave one set out in
docs/benchmarks.md). A missing weights file means none ships and the rules decide alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.logistic import StandardisedLogistic, shipped

WEIGHTS_FILE = "supersession_model.json"
FEATURES = (
    "alike", "share", "sentences", "most_alike", "candidates", "changed", "names_what", "old_names_what",
    "same_kind", "numbers_of_two_kinds", "named_again", "names_what_goes", "day_named_again", "fold",
    "old_inferred", "new_inferred", "languages_differ", "date", "name", "number", "later_candidates",
)  # fmt: skip


@dataclass(frozen=True)
class SupersessionModel(StandardisedLogistic):
    threshold: float = 1.0  # the probability at which the new fact replaces the earlier one


def shipped_model() -> SupersessionModel | None:
    """The model shipped beside this module, read once; None when there is none."""
    return shipped(SupersessionModel, WEIGHTS_FILE, "memory.consolidate")
