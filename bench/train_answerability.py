"""Train the answerability model the product ships (memory/answer/answerability.json).

    python -m bench.train_answerability [--sets DIR ...] [--work DIR] [--out FILE]

Collects examples from the licensed development sets (bench/evals/answerability_data.py: each
question asked of the whole set and of two halves of it), fits a class-balanced logistic regression
on standardised features, and chooses the threshold of its veto (below it, what the relevance gate
would answer is "Not in your notes"; see FALSE_ABSTENTION_COST). `verbatim eval ask --cross` uses
the same `fit` per left-out set, so the shipped threshold is chosen the way its figures were measured.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench.evals.answerability_data import LICENSED, Example, collect, load_examples, save_examples
from bench.logistic_fit import fit_standardised
from memory.answer.answerability import FEATURES, WEIGHTS_FILE, AnswerabilityModel

REPO = Path(__file__).resolve().parents[1]
EVAL_DIR = REPO.parent / "shared" / "eval"


# A false abstention hides what the user said; an answer to an unanswerable question still shows
# its quote, which the user can judge. So hiding costs more: the veto's threshold is the one with
# the largest (abstention on unanswerable) - FALSE_ABSTENTION_COST x (false abstention) over the
# training examples. 2 and 3 were compared leaving one set out (docs/benchmarks.md): 3 keeps the
# false abstention within a few points of the gate's.
FALSE_ABSTENTION_COST = 3.0
CANDIDATES = tuple(round(0.025 * i, 3) for i in range(25))  # 0 ... 0.6: a veto, never the middle


def best_threshold(
    probabilities: Sequence[float], labels: Sequence[bool], gate_refused: Sequence[bool]
) -> float:
    """The veto threshold: abstain when the gate refused or p < threshold, scored as above."""
    p = np.asarray(probabilities, dtype=float)
    y = np.asarray(labels, dtype=bool)
    refused = np.asarray(gate_refused, dtype=bool)
    if y.all() or not y.any():
        return 0.0
    best, chosen = -np.inf, 0.0
    for t in CANDIDATES:
        abstains = refused | (p < t)
        score = abstains[~y].mean() - FALSE_ABSTENTION_COST * abstains[y].mean()
        if score > best + 1e-9:
            best, chosen = score, t
    return float(chosen)


def fit(examples: Sequence[Example]) -> AnswerabilityModel:
    x = np.asarray([e.vector() for e in examples], dtype=float)
    y = np.asarray([e.answerable for e in examples], dtype=bool)
    trained_on = [e.set for e in examples]
    partial = fit_standardised(AnswerabilityModel, FEATURES, x, y, trained_on=trained_on, threshold=0.5)
    probabilities = [partial.probability(e.features) for e in examples]
    # the gate kept no passage: the product abstains whatever the model says
    refused = [e.features.get("relevant", 0.0) == 0.0 for e in examples]
    threshold = best_threshold(probabilities, [e.answerable for e in examples], refused)
    return AnswerabilityModel(**{**partial.__dict__, "threshold": round(threshold, 4)})


def examples_for(set_dir: Path, work: Path, say: object = None) -> list[Example]:
    """A set's examples, collected once and kept in `work`."""
    cached = work / f"examples-{set_dir.resolve().name}.jsonl"
    if cached.is_file():
        return load_examples(cached)
    found = collect(set_dir, keep=work, progress=say if callable(say) else None)
    save_examples(found, cached)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.train_answerability", description=__doc__)
    parser.add_argument("--sets", nargs="+", type=Path, default=[EVAL_DIR / name for name in LICENSED])
    parser.add_argument("--work", type=Path, default=Path("/tmp/verbatim-answerability"))
    parser.add_argument("--out", type=Path, default=REPO / "memory" / "answer" / WEIGHTS_FILE)
    args = parser.parse_args(argv)
    refused = [s.name for s in args.sets if s.resolve().name not in LICENSED]
    if refused:
        print(f"not trained on {refused}: their licence does not let the product ship it", file=sys.stderr)
        return 2
    examples = [e for s in args.sets for e in examples_for(s, args.work, lambda m: print(m, file=sys.stderr))]
    model = fit(examples)
    args.out.write_text(json.dumps(model.to_json(), indent=2) + "\n")
    positives = sum(e.answerable for e in examples)
    print(
        f"{len(examples)} examples ({positives} answerable) from {', '.join(model.trained_on)};"
        f" threshold {model.threshold}; written to {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
