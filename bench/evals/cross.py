"""Leave one set out: choose a setting on the other sets, report it on the set left out.

Pure selection, no evaluation: the caller scores every candidate setting on every set (a grid),
then `leave_one_set_out` picks, for each set in turn, a candidate using the OTHER sets only: among
the candidates that are at least as good as the reference (the grid's first, neutral setting) on
every one of the other sets, the one with the best mean over them. A setting that helps one set
and hurts another is never chosen, however much it helps; ties go to the earlier candidate, so the
reference stays unless something holds everywhere and beats it. `survivors` is the same rule over
all the sets at once: what a default may be.

Used by `verbatim eval retrieval --cross` (bench/evals/retrieval_cross.py); any evaluation that
chooses among a few settings can use it the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.evals.common import mean

# Set name -> one score per candidate (same order for every set), higher is better.
Scores = Mapping[str, Sequence[float]]


@dataclass(frozen=True)
class Fold:
    held_out: str
    chosen: int  # index of the candidate chosen on the other sets
    train_score: float  # its mean score over the other sets
    held_out_score: float  # its score on the set left out


def holding_best_on(scores: Scores, sets: Sequence[str], reference: int = 0) -> int:
    """The candidate with the best mean over `sets` among those no worse than `reference` on any."""
    holding = survivors({s: scores[s] for s in sets}, reference)
    means = {i: mean([scores[s][i] for s in sets]) for i in holding}
    top = max(means.values())
    return next(i for i in holding if means[i] >= top - 1e-9)


def leave_one_set_out(scores: Scores, *, reference: int = 0) -> list[Fold]:
    """One fold per set: the candidate chosen on all the others, and how it does on this one."""
    names = list(scores)
    if len(names) < 2:
        raise ValueError("leaving one set out needs at least two sets")
    counts = {len(v) for v in scores.values()}
    if len(counts) != 1 or not next(iter(counts)):
        raise ValueError("every set needs one score per candidate")
    folds = []
    for held in names:
        others = [s for s in names if s != held]
        chosen = holding_best_on(scores, others, reference)
        train = mean([scores[s][chosen] for s in others])
        folds.append(Fold(held, chosen, train, scores[held][chosen]))
    return folds


def survivors(scores: Scores, reference: int = 0, *, tolerance: float = 0.0) -> list[int]:
    """Candidates that are at least as good as `reference` (less `tolerance`) on EVERY set.

    What leave-one-set-out means for one setting at a time: whichever set is left out, a
    candidate that the others would choose over the reference does not lose on it either.
    """
    names = list(scores)
    n = len(scores[names[0]])
    return [i for i in range(n) if all(scores[s][i] >= scores[s][reference] - tolerance for s in names)]


def fold_mean(folds: Sequence[Mapping[str, Any]], key: str, metric: str) -> float:
    """Mean over folds of `fold[key][metric]` (e.g. key "hybrid", metric "recall@400")."""
    return round(mean([float(f[key][metric]) for f in folds]), 4)
