"""`verbatim eval retrieval SET ... --cross`: ranking settings chosen leave-one-set-out.

Each set's library is built once (import, index, rules-only consolidation, as `eval retrieval`
does; with a work folder, kept and reused by later runs). Every candidate setting of a small grid
is then measured on every set (hybrid, all projects, recall@400: the queries are fast once the
library exists, and each question is embedded once). For each set in turn, the setting with the
best mean recall@400 over the OTHER sets, among those no worse than the defaults on any of them, is
chosen (bench/evals/cross.py), and the held-out set's figures with it are reported for hybrid,
keyword and vector search. The grid lists its neutral setting (the product's defaults) first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np

from app.library import Library
from app.search import ranking_options
from bench.evals.common import EvalQuery, EvalSet, mean, temporary_library
from bench.evals.cross import fold_mean, leave_one_set_out
from bench.evals.retrieval_eval import MODES, run_queries
from models.errors import InputError

Say = Callable[[str], None]
Setting = dict[str, object]
METRICS = ("recall@400", "recall@1000", "mrr")
CRITERION = "recall@400"

# Candidate settings, the neutral one first; each is a set of RankingOptions overrides on top of
# the product's defaults (memory/search/ranking.py). Methods, not fine steps: each candidate turns
# one of the ranking's ideas off or swaps it for the textbook alternative, so a setting is kept
# only when the idea holds on sets it was not chosen on.
GRID: tuple[tuple[str, Setting], ...] = (
    ("defaults", {}),
    ("rrf, equal weights", {"fusion": "rrf", "keyword_weight": 1.0, "vector_weight": 1.0}),
    ("score, equal weights", {"vector_weight": 1.0}),
    ("score, vector 0.5", {"vector_weight": 0.5}),  # the default before 25 Nov
    ("no connections", {"link_share": 0.0}),
    ("no date match", {"date_match": 0.0}),
    ("no recency", {"recency_lambda": 0.0}),
    ("whole chunks", {"passage_words": 0}),
    ("no segment share", {"segment_weight": 0.0}),
    ("spread over notes", {"same_recording_penalty": 0.2}),
    ("spread over projects", {"same_project_penalty": 0.2}),
)


def _figures(result: dict[str, Any]) -> dict[str, Any]:
    summary = result["all"]
    return {
        **{m: summary[m] for m in METRICS},
        "queries": summary["queries"],
        "by_category": {c: {m: r[m] for m in METRICS} for c, r in summary["by_category"].items()},
    }


class _Measured:
    """The built libraries, and every (set, setting, mode) measured so far."""

    def __init__(self, libraries: dict[str, tuple[Library, list[EvalQuery]]], fixed: Setting) -> None:
        self.libraries = libraries
        self.fixed = fixed
        self.vectors: dict[str, dict[str, tuple[np.ndarray, float]]] = {n: {} for n in libraries}
        self.done: dict[tuple[str, int, str], dict[str, Any]] = {}

    def figures(self, name: str, index: int, setting: Setting, modes: Sequence[str]) -> dict[str, Any]:
        wanted = [m for m in modes if (name, index, m) not in self.done]
        if wanted:
            library, queries = self.libraries[name]
            options = ranking_options(library, **{**self.fixed, **setting})
            results, _ = run_queries(
                library,
                queries,
                options=options,
                modes=tuple(wanted),
                scopes=("all",),
                vectors=self.vectors[name],
            )
            for mode in wanted:
                self.done[(name, index, mode)] = _figures(results[mode])
        return {m: self.done[(name, index, m)] for m in modes}


def cross_validate(
    set_dirs: Sequence[Path],
    *,
    like: Library | None,
    work: Path | None = None,
    grid: Sequence[tuple[str, Setting]] = GRID,
    fixed: Setting | None = None,
    say: Say | None = None,
) -> dict[str, Any]:
    """The leave-one-set-out report (`eval retrieval --cross --json`).

    `work`: the folder the sets' libraries are built in (store-NAME each) and reused from while
    a corpus is unchanged; None builds them in temporary folders removed afterwards. `fixed`:
    ranking options applied to every candidate (`--option`).
    """
    sets = [EvalSet.open(d) for d in set_dirs]
    names = [s.name for s in sets]
    if len(sets) < 2:
        raise InputError("--cross needs at least two sets", fix="name two or more SET_DIRs")
    if len(set(names)) != len(names):
        raise InputError("two of the sets have the same folder name", fix="name each set once")
    if not grid:
        raise InputError("the grid of settings is empty")
    with ExitStack() as stack:
        libraries: dict[str, tuple[Library, list[EvalQuery]]] = {}
        built_info = []
        for s in sets:
            if say is not None:
                say(f"{s.name}: building its library")
            keep = work / f"store-{s.name}" if work is not None else None
            built = stack.enter_context(temporary_library(s, like=like, keep=keep, consolidated=True))
            libraries[s.name] = (built.library, s.queries())
            built_info.append(
                {
                    "name": s.name,
                    "recordings": built.recordings,
                    "ingest_s": round(built.ingest_seconds, 2),
                    "reused_store": built.reused,
                }
            )
        measured = _Measured(libraries, fixed or {})
        scores: dict[str, list[float]] = {n: [] for n in names}
        for index, (label, setting) in enumerate(grid):
            for name in names:
                hybrid = measured.figures(name, index, setting, ["hybrid"])["hybrid"]
                scores[name].append(float(hybrid[CRITERION]))
            if say is not None:
                row = ", ".join(f"{n} {scores[n][-1]:.3f}" for n in names)
                say(f"setting {index + 1}/{len(grid)} {label}: {row}")
        folds = []
        for fold in leave_one_set_out(scores):
            label, setting = grid[fold.chosen]
            figures = measured.figures(fold.held_out, fold.chosen, setting, MODES)
            folds.append(
                {
                    "held_out": fold.held_out,
                    "chosen": {"name": label, **setting},
                    "train_recall@400": round(fold.train_score, 4),
                    **figures,
                }
            )
    return {
        "sets": built_info,
        "criterion": f"{CRITERION}, hybrid, all projects: best mean over the other sets, never below"
        " the defaults on any",
        "fixed": dict(fixed or {}),
        "folds": folds,
        "mean": {mode: {m: fold_mean(folds, mode, m) for m in METRICS} for mode in MODES},
        "grid": [
            {
                "name": label,
                "setting": setting,
                CRITERION: {n: round(scores[n][i], 4) for n in names},
                "mean": round(mean([scores[n][i] for n in names]), 4),
            }
            for i, (label, setting) in enumerate(grid)
        ],
    }


def format_cross(report: dict[str, Any]) -> list[str]:
    lines = ["eval retrieval --cross: each set's setting chosen on the other sets (hybrid, all projects)"]
    for fold in report["folds"]:
        chosen = {k: v for k, v in fold["chosen"].items() if k != "name"}
        lines += [
            "",
            f"held out {fold['held_out']}: chosen {fold['chosen']['name']}"
            + (f" {_setting(chosen)}" if chosen else "")
            + f" (other sets' mean recall@400 {fold['train_recall@400']:.3f})",
            f"  {'mode':<8}{'recall@400':>11}{'recall@1000':>12}{'MRR':>7}",
        ]
        for mode in MODES:
            r = fold[mode]
            lines.append(f"  {mode:<8}{r['recall@400']:>11.3f}{r['recall@1000']:>12.3f}{r['mrr']:>7.3f}")
    lines += ["", "mean over held-out sets:", f"  {'mode':<8}{'recall@400':>11}{'recall@1000':>12}{'MRR':>7}"]
    for mode, r in report["mean"].items():
        lines.append(f"  {mode:<8}{r['recall@400']:>11.3f}{r['recall@1000']:>12.3f}{r['mrr']:>7.3f}")
    names = [s["name"] for s in report["sets"]]
    width = max(12, *(len(n) + 2 for n in names))
    lines += [
        "",
        "grid: hybrid recall@400 per set (all projects)",
        f"{'setting':<24}" + "".join(f"{n:>{width}}" for n in names) + f"{'mean':>8}",
    ]
    for row in report["grid"]:
        lines.append(
            f"{row['name'][:23]:<24}"
            + "".join(f"{row[CRITERION][n]:>{width}.3f}" for n in names)
            + f"{row['mean']:>8.3f}"
        )
    return lines


def _setting(setting: Setting) -> str:
    return " ".join(f"{k}={v}" for k, v in setting.items())
