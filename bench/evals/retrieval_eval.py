"""`verbatim eval retrieval`: evidence recall within a context budget, on a fresh library.

Every query runs across all projects and again within its own project, with its `asked_at` as the
time of asking (a set without one is asked just after its last note), in hybrid, keyword-only and
vector-only mode. For each, the ranked passages are walked until the next would pass 400 (or
1,000) words; recall is the share of the query's evidence segments those passages cover.
Unanswerable queries are left out of every quality figure.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from app.library import Library
from app.search import ranking_options, resolve_scope
from bench.evals.common import (
    BUDGETS,
    EvalQuery,
    EvalSet,
    budget_walk,
    mean,
    percentile,
    temporary_library,
)
from memory.search.hits import Hit
from memory.search.index import external_segment_ids, index_stats, recordings_summary
from memory.search.ranking import RankingOptions
from memory.search.retrieval import Query, retrieve
from memory.store.clock import parse_time

MODES = ("hybrid", "keyword", "vector")
SCOPES = ("all", "project")
DEPTH = 20  # passages ranked per query: enough to fill 1,000 words, and for MRR

Progress = Callable[[float], None]


def _external_ids(library: Library) -> dict[int, str]:
    return external_segment_ids(library.store)


def _time_of_asking(query: EvalQuery, fallback: datetime) -> datetime:
    return parse_time(query.asked_at) if query.asked_at else fallback


def score_ranking(hits: list[Hit], evidence: set[str], external: dict[int, str]) -> dict[str, float]:
    """recall@budget, hit@400 and reciprocal rank of one ranked list against the evidence."""
    result: dict[str, float] = {}
    for budget in BUDGETS:
        covered = {external.get(s) for h in budget_walk(hits, budget) for s in h.segment_ids}
        found = len(evidence & covered)
        result[f"recall@{budget}"] = found / len(evidence) if evidence else 0.0
        if budget == 400:
            result["hit@400"] = 1.0 if found else 0.0
    result["mrr"] = 0.0
    for rank, hit in enumerate(hits, start=1):
        if evidence & {external.get(s) for s in hit.segment_ids}:
            result["mrr"] = 1.0 / rank
            break
    return result


def _summary(rows: list[tuple[str, dict[str, float]]]) -> dict[str, Any]:
    keys = [f"recall@{b}" for b in BUDGETS] + ["hit@400", "mrr"]
    out: dict[str, Any] = {k: round(mean([r[k] for _, r in rows]), 4) for k in keys}
    out["queries"] = len(rows)
    by_category: dict[str, list[dict[str, float]]] = defaultdict(list)
    for category, r in rows:
        by_category[category].append(r)
    out["by_category"] = {
        c: {**{k: round(mean([r[k] for r in rs]), 4) for k in keys}, "queries": len(rs)}
        for c, rs in sorted(by_category.items())
    }
    return out


def run_queries(
    library: Library,
    queries: list[EvalQuery],
    *,
    options: RankingOptions,
    modes: tuple[str, ...] = MODES,
    scopes: tuple[str, ...] = SCOPES,
    progress: Progress | None = None,
    vectors: dict[str, tuple[np.ndarray, float]] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(results by mode and scope, latency in ms) for queries on an indexed library.

    `vectors` (query id → embedding, ms to embed) is filled on first use and reused after, so
    several ranking variants can be compared without embedding every question again.
    """
    store = library.store
    external = _external_ids(library)
    last_note = parse_time(str(recordings_summary(store)[1]))
    model = library.models.embedding_model_name()
    embedder = library.models.embedder()
    rows: dict[tuple[str, str], list[tuple[str, dict[str, float]]]] = defaultdict(list)
    timings: dict[str, list[float]] = defaultdict(list)
    answerable = [q for q in queries if q.answerable and q.evidence]
    for n, q in enumerate(answerable):
        if vectors is not None and q.id in vectors:
            vector, embed_ms = vectors[q.id]
        else:
            began = time.perf_counter()
            vector = embedder.embed([q.question])[0]
            embed_ms = (time.perf_counter() - began) * 1000
            if vectors is not None:
                vectors[q.id] = (vector, embed_ms)
        timings["embed_query"].append(embed_ms)
        as_of = _time_of_asking(q, last_note)
        for scope_name in scopes:
            scope = resolve_scope(
                library, [q.project] if scope_name == "project" and q.project else None, None, None
            )
            for mode in modes:
                query = Query(q.question, vector, model, as_of, DEPTH, mode, options)
                began = time.perf_counter()
                hits = retrieve(store, query, scope)
                elapsed = (time.perf_counter() - began) * 1000 + (embed_ms if mode != "keyword" else 0.0)
                timings[f"{mode}/{scope_name}"].append(elapsed)
                rows[(mode, scope_name)].append((q.category, score_ranking(hits, set(q.evidence), external)))
        if progress is not None:
            progress((n + 1) / len(answerable))
    results = {mode: {scope: _summary(rows[(mode, scope)]) for scope in scopes} for mode in modes}
    latency = {
        name: {"p50": round(percentile(v, 50), 2), "p95": round(percentile(v, 95), 2), "n": len(v)}
        for name, v in sorted(timings.items())
    }
    return results, latency


def evaluate_retrieval(
    set_dir: Path,
    *,
    like: Library | None = None,
    keep: Path | None = None,
    overrides: dict[str, object] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The whole evaluation of one set, as the JSON `verbatim eval retrieval --json` prints."""
    eval_set = EvalSet.open(set_dir)
    queries = eval_set.queries()
    with temporary_library(eval_set, like=like, keep=keep, consolidated=True) as built:
        library = built.library
        options = ranking_options(library, **(overrides or {}))
        results, latency = run_queries(library, queries, options=options, progress=progress)
        stats = index_stats(library.store)
        info = {
            "name": eval_set.name,
            "path": str(eval_set.path),
            "recordings": built.recordings,
            "chunks": stats["chunks"],
            "queries": len(queries),
            "evaluated": sum(1 for q in queries if q.answerable and q.evidence),
            "ingest_s": round(built.ingest_seconds, 2),
            "reused_store": built.reused,
            "embedding_model": library.models.embedding_model_name(),
            "options": {k: v for k, v in vars(options).items()},
        }
    return {"sets": [info], "results": results, "latency_ms": latency}
