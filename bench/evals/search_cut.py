"""`verbatim eval search-cut SET... [--json]`: where the search page's results stop, leave one set out.

The search page shows the best passages for a query (hybrid, all projects, 20 at most) down to
where relevance falls away: a passage under a share of the best one's score is left out
(app/search.py, RESULTS_CUT). For each answerable query of each set, the 20 passages are ranked
once; every candidate share then keeps a prefix-like subset of them. A kept passage is right when
it holds evidence of the query. Per query: precision (right among kept), recall (evidence passages
kept among those in the 20), F1, and F2, which weighs recall twice: the page is for finding what
was said, and a passage left out costs the user more than one more passage to read. Averaged over
the set's queries. For each set in turn, the share with the best mean F2 over the OTHER sets is
chosen and reported on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from app.library import Library
from app.search import cut_where_relevance_falls, search
from bench.evals.common import EvalSet, mean, temporary_library
from memory.search.hits import Hit
from memory.search.index import external_segment_ids
from memory.store.clock import parse_time
from models.errors import InputError

SHARES = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
CRITERION = "f2"
SHOWN = 20  # passages the search page asks for
Say = Callable[[str], None]


def score_cut(kept: Sequence[Hit], ranked: Sequence[Hit], right: Callable[[Hit], bool]) -> dict[str, float]:
    """Precision, recall and F1 of the kept passages against the right ones among all ranked."""
    relevant = sum(1 for h in ranked if right(h))
    hits = sum(1 for h in kept if right(h))
    precision = hits / len(kept) if kept else 0.0
    recall = hits / relevant if relevant else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    f2 = 5 * precision * recall / (4 * precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "f2": f2, "shown": float(len(kept))}


def _measure(library: Library, eval_set: EvalSet) -> dict[float, dict[str, float]]:
    external = external_segment_ids(library.store)
    rows: dict[float, list[dict[str, float]]] = {share: [] for share in SHARES}
    for query in eval_set.queries():
        if not query.answerable or not query.evidence:
            continue
        evidence = set(query.evidence)
        as_of = parse_time(query.asked_at) if query.asked_at else None
        ranked = search(library, query.question, k=SHOWN, as_of=as_of)
        if not any(evidence & {external.get(s) for s in h.segment_ids} for h in ranked):
            continue  # nothing to find in the 20: a cut cannot be right or wrong here

        def right(hit: Hit, evidence: set[str] = evidence) -> bool:
            return bool(evidence & {external.get(s) for s in hit.segment_ids})

        for share in SHARES:
            rows[share].append(score_cut(cut_where_relevance_falls(ranked, share), ranked, right))
    return {
        share: {k: round(mean([r[k] for r in rs]), 4) for k in ("precision", "recall", "f1", "f2", "shown")}
        | {"queries": float(len(rs))}
        for share, rs in rows.items()
    }


def cross_validate(
    set_dirs: Sequence[Path], *, like: Library | None, work: Path | None = None, say: Say | None = None
) -> dict[str, Any]:
    sets = [EvalSet.open(d) for d in set_dirs]
    names = [s.name for s in sets]
    if len(sets) < 2 or len(set(names)) != len(names):
        raise InputError("the search cut is chosen leave one set out: name two or more different sets")
    figures: dict[str, dict[float, dict[str, float]]] = {}
    with ExitStack() as stack:
        for s in sets:
            if say is not None:
                say(f"{s.name}: building its library and ranking its questions")
            keep = work / f"store-{s.name}" if work is not None else None
            built = stack.enter_context(temporary_library(s, like=like, keep=keep, consolidated=True))
            figures[s.name] = _measure(built.library, s)
    folds: list[dict[str, Any]] = []
    for held in names:
        others = [n for n in names if n != held]
        chosen = max(SHARES, key=lambda share: (mean([figures[n][share][CRITERION] for n in others]), -share))
        folds.append({"held_out": held, "chosen_share": chosen, **figures[held][chosen]})
    return {
        "shown_at_most": SHOWN,
        "folds": folds,
        "criterion": f"{CRITERION}: best mean over the other sets",
        "mean": {
            k: round(mean([f[k] for f in folds]), 4) for k in ("precision", "recall", "f1", "f2", "shown")
        },
        "grid": {n: {str(share): figures[n][share] for share in SHARES} for n in names},
    }


def format_cut(report: dict[str, Any]) -> list[str]:
    lines = [
        f"eval search-cut: the share of the best score a result needs, chosen on the other sets"
        f" (hybrid, all projects, {report['shown_at_most']} at most)",
        "",
        f"{'held out':<20}{'share':>6}{'precision':>10}{'recall':>8}{'F1':>6}{'F2':>6}{'shown':>7}",
    ]
    for f in report["folds"]:
        lines.append(
            f"{f['held_out']:<20}{f['chosen_share']:>6.1f}{f['precision']:>10.3f}{f['recall']:>8.3f}"
            f"{f['f1']:>6.3f}{f['f2']:>6.3f}{f['shown']:>7.1f}"
        )
    m = report["mean"]
    lines.append(
        f"{'mean':<26}{m['precision']:>10.3f}{m['recall']:>8.3f}{m['f1']:>6.3f}{m['f2']:>6.3f}{m['shown']:>7.1f}"
    )
    lines += [
        "",
        "by share and set: F2 (recall / passages shown)",
        f"{'share':<8}" + "".join(f"{n[:20]:>24}" for n in report["grid"]),
    ]
    for share in SHARES:
        cells = []
        for n in report["grid"]:
            g = report["grid"][n][str(share)]
            cells.append(f"{g['f2']:.3f} ({g['recall']:.2f} / {g['shown']:.1f})")
        lines.append(f"{share:<8.1f}" + "".join(f"{c:>24}" for c in cells))
    return lines
