"""Train the learned supersession reader the product ships (memory/consolidate/supersession_model.json).

    python -m bench.train_supersession [--sets DIR ...] [--out FILE] [--json]

Each keyed set's notes are read into a fresh library (bench.evals.common, consolidated by the
product), and for every fact each earlier fact the reader would weigh (memory/consolidate/
supersession_model.py `learned_candidates`) is an example, labelled by the set's key (its old quote and
its new quote are one `superseded` item's). The sets are ours (consultant-dev, consultant-dev-2,
bench/scenarios), so the product may ship what is learned from them.

Leave one set out, for the threshold and the figures: for each set, a class-balanced logistic
regression is fitted on the others, its threshold is the one with the most right minus twice the
wrong choices on those others (the reader alone, the surest candidate of each new fact), and the
left-out set is read by the rules alone (what consolidation stored, without the model) and by the
rules with the reader where the rules chose nothing. The threshold shipped is the same choice over
all sets.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from bench.evals.common import EvalSet, temporary_library
from bench.evals.consolidation_eval import Locator
from bench.logistic_fit import fit_standardised
from memory.consolidate import fact_pairs, fact_validity
from memory.consolidate.supersession_model import (
    FEATURES,
    WEIGHTS_FILE,
    SupersessionModel,
    learned_candidates,
)
from memory.store import recordings

REPO = Path(__file__).resolve().parents[1]
SETS = [
    REPO.parent / "shared" / "eval" / "consultant-dev",
    REPO.parent / "shared" / "eval" / "consultant-dev-2",
    *sorted(p for p in (REPO / "bench" / "scenarios").iterdir() if p.is_dir()),
]
OUT = REPO / "memory" / "consolidate" / WEIGHTS_FILE
THRESHOLDS = (0.9, 0.95, 0.97, 0.98, 0.99, 0.995)
WRONG_COST = 2  # a wrong replacement hides a value that still holds: it costs two right ones


@dataclass(frozen=True)
class Example:
    set: str
    new: tuple[int, int]  # (project, new fact): the candidates of one new fact compete
    x: tuple[float, ...]
    y: bool
    by_rules: bool  # what the rules chose (stored by consolidation without the model)


def collect(sets: Sequence[Path]) -> list[Example]:
    """The candidate pairs of every set, with their features and labels."""
    examples: list[Example] = []
    for folder in sets:
        eval_set = EvalSet.open(folder)
        key = json.loads((folder / "key.json").read_text("utf-8")).get("superseded", [])
        with temporary_library(eval_set, consolidated=True) as built:
            examples += _examples(built.library, eval_set.name, key)
        print(f"read {eval_set.name}", file=sys.stderr)
    return examples


def _examples(library: Any, name: str, key: list[dict[str, Any]]) -> list[Example]:
    store = library.store
    notes = {rid: str(ext) for rid, ext in recordings.external_ids(store).items()}
    locate = Locator(library)
    embedder = library.models.embedder()

    def embed(texts: Sequence[str]) -> Mapping[str, np.ndarray]:
        return dict(zip(texts, embedder.embed(list(texts)), strict=True))

    projects = [int(project_id) for (project_id,) in store.rows("SELECT id FROM projects")]
    for project_id in projects:  # what the rules alone choose (the shipped reader may have been at work)
        fact_validity.resolve_validity(store, project_id, embed, learned=False)
    chosen = dict(store.rows("SELECT id, superseded_by FROM facts"))

    def side(row: fact_pairs.Row, k: dict[str, Any]) -> bool:
        return notes.get(row.recording_id) == k["note"] and locate.overlaps(
            row.recording_id, row.quote, k["quote"]
        )

    out = []
    for project_id in projects:
        rows = fact_pairs.project_rows(store, project_id)
        attributes = fact_pairs.Attributes(rows, embed)
        said_with: dict[tuple[int, str], list[fact_pairs.Row]] = {}
        for r in rows:
            said_with.setdefault((r.recording_id, r.quote), []).append(r)
        for i, new in enumerate(rows):
            for old, features in learned_candidates(rows[:i], new, attributes, said_with):
                label = any(side(old, k["old"]) and side(new, k["new"]) for k in key)
                x = tuple(features[f] for f in FEATURES)
                out.append(Example(name, (project_id, new.id), x, label, chosen.get(old.id) == new.id))
    return out


def fit(examples: Sequence[Example], threshold: float = 1.0) -> SupersessionModel:
    x = np.array([e.x for e in examples])
    y = np.array([e.y for e in examples])
    model = fit_standardised(SupersessionModel, FEATURES, x, y, trained_on=[e.set for e in examples])
    return replace(model, threshold=threshold)


def _choices(model: SupersessionModel, examples: Sequence[Example], threshold: float) -> set[int]:
    """The surest candidate of each new fact, when sure enough (indices into `examples`)."""
    by_new: dict[tuple[str, tuple[int, int]], list[int]] = defaultdict(list)
    for i, e in enumerate(examples):
        by_new[e.set, e.new].append(i)
    out = set()
    for group in by_new.values():
        p, best = max((model.probability(dict(zip(FEATURES, examples[i].x, strict=True))), i) for i in group)
        if p >= threshold:
            out.add(best)
    return out


def _threshold(model: SupersessionModel, examples: Sequence[Example]) -> float:
    def gain(t: float) -> int:
        chosen = _choices(model, examples, t)
        right = sum(examples[i].y for i in chosen)
        return right - WRONG_COST * (len(chosen) - right)

    return max(THRESHOLDS, key=gain)


def _read(model: SupersessionModel, examples: Sequence[Example]) -> dict[str, int]:
    """Right and wrong choices and key pairs, by the rules alone and with the reader."""
    ruled = {e.new for e in examples if e.by_rules}
    rules = {i for i, e in enumerate(examples) if e.by_rules}
    both = rules | {i for i in _choices(model, examples, model.threshold) if examples[i].new not in ruled}
    key = sum(e.y for e in examples)
    return {
        "key": key,
        "rules_right": sum(examples[i].y for i in rules),
        "rules_chosen": len(rules),
        "with_reader_right": sum(examples[i].y for i in both),
        "with_reader_chosen": len(both),
    }


def cross(examples: Sequence[Example]) -> dict[str, Any]:
    folds: list[dict[str, Any]] = []
    for held in sorted({e.set for e in examples}):
        train = [e for e in examples if e.set != held]
        model = fit(train)
        model = replace(model, threshold=_threshold(model, train))
        folds.append(
            {
                "held_out": held,
                "threshold": model.threshold,
                **_read(model, [e for e in examples if e.set == held]),
            }
        )
    total = {
        k: sum(int(f[k]) for f in folds)
        for k in ("key", "rules_right", "rules_chosen", "with_reader_right", "with_reader_chosen")
    }
    return {"folds": folds, "total": total}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.train_supersession", description=__doc__)
    parser.add_argument("--sets", nargs="+", type=Path, default=SETS, help="keyed scenario sets")
    parser.add_argument("--out", type=Path, default=OUT, help="where the weights go")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    missing = [s for s in args.sets if not (s / "key.json").is_file()]
    if missing:
        print(f"no key.json in {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    examples = collect(args.sets)
    report = cross(examples)
    model = fit(examples)
    model = replace(model, threshold=_threshold(model, examples))
    args.out.write_text(json.dumps(model.to_json(), indent=1) + "\n", "utf-8")
    report["threshold"] = model.threshold
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for f in report["folds"]:
            print(
                f"{f['held_out']:<32} threshold {f['threshold']:<6} rules {f['rules_right']}/"
                f"{f['rules_chosen']} right, with the reader {f['with_reader_right']}/"
                f"{f['with_reader_chosen']} (key {f['key']})"
            )
        t = report["total"]
        print(
            f"left out, all sets: rules {t['rules_right']}/{t['rules_chosen']}, with the reader "
            f"{t['with_reader_right']}/{t['with_reader_chosen']} of {t['key']}; threshold {model.threshold}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
