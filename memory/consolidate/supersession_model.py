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

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memory.consolidate.fact_pairs import (
    NUMERIC,
    Attributes,
    Row,
    comparable,
    day_named_in,
    fold,
    named_in,
    names_what,
    replaced,
    same_value,
)
from memory.logistic import StandardisedLogistic, shipped
from memory.text.quotes import ClaimKind

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


def learned_candidates(
    earlier: Sequence[Row],
    new: Row,
    attributes: Attributes,
    said_with: Mapping[tuple[int, str], Sequence[Row]],
) -> list[tuple[Row, dict[str, float]]]:
    """The earlier facts the learned reader weighs for `new` (memory/consolidate/supersession_model.py:
    of another, earlier note, a comparable and different value, not the date of something that
    happened), each with its features. The same for training (bench/train_supersession.py) as here."""
    found = [
        o
        for o in earlier
        if o.kind in (ClaimKind.STATED, ClaimKind.INFERRED)
        and comparable(o, new)
        and not same_value(o, new)
        and o.spoken_at < new.spoken_at
        and not o.happened
        and o.recording_id != new.recording_id
    ]
    alike = [attributes.alike(o, new) for o in found]
    out = []
    for o, a in zip(found, alike, strict=True):
        kinds = {o.value_kind, new.value_kind}
        out.append((o, {
            "alike": a, "share": attributes.share(o, new), "sentences": attributes.sentences(o, new),
            "most_alike": float(a >= max(alike)), "candidates": math.log(len(found)),
            "changed": float(new.changed), "names_what": float(names_what(new)),
            "old_names_what": float(names_what(o)), "same_kind": float(len(kinds) == 1),
            "numbers_of_two_kinds": float(len(kinds) > 1 and kinds <= set(NUMERIC)),
            "named_again": float(named_in(o, new, a)), "names_what_goes": float(replaced(o, new)),
            "day_named_again": float(day_named_in(o, new, said_with)),
            "fold": math.log(fold(o, new)) if new.value_kind in NUMERIC else 0.0,
            "old_inferred": float(o.kind == ClaimKind.INFERRED),
            "new_inferred": float(new.kind == ClaimKind.INFERRED),
            "languages_differ": float(o.language != new.language), "date": float(new.value_kind == "date"),
            "name": float(new.value_kind in ("person", "name")),
            "number": float(new.value_kind in NUMERIC),
            "later_candidates": float(sum(1 for x in found if x.spoken_at > o.spoken_at)),
        }))  # fmt: skip
    return out


def learned_choice(
    model: SupersessionModel,
    earlier: Sequence[Row],
    new: Row,
    attributes: Attributes,
    said_with: Mapping[tuple[int, str], Sequence[Row]],
) -> Row | None:
    """The earlier fact the learned reader is surest `new` replaces, when it is sure enough and that
    fact still holds."""
    weighed = [(model.probability(f), o) for o, f in learned_candidates(earlier, new, attributes, said_with)]
    if not weighed:
        return None
    p, old = max(weighed, key=lambda w: (w[0], w[1].spoken_at))
    current = old.valid_until is None and old.restates is None
    return old if p >= model.threshold and current else None
