"""Fusion of the keyword and vector rankings, and the recency weight. Pure functions, no SQL.

Recency multiplies relevance by e^(−λ·Δt), Δt in days from the moment of asking (never negative:
a note dated after the question counts as just spoken).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from memory.search.hits import Hit
from memory.store.clock import parse_time


@dataclass(frozen=True)
class RankingOptions:
    candidates: int = 50  # per retriever
    fusion: str = "score"  # "rrf" | "score"
    rrf_k: float = 60.0
    keyword_weight: float = 1.0
    # MiniLM's side is the weaker one on every dev set: at 0.25 (was 0.5) hybrid recall@400 is no
    # lower on any of locomo-dev, qmsum-dev, consultant-dev and consultant-dev-2 and higher on three;
    # chosen leave-one-set-out, where it was chosen in every fold (docs/benchmarks.md, Generalisation).
    vector_weight: float = 0.25
    recency_lambda: float = 0.01  # per day
    recency_floor: float = 0.85  # weight = floor + (1 - floor) * e^(-λ·Δt): how far age can pull down
    cosine_floor: float = 0.5  # MiniLM: related passages are above this, unrelated ones near 0
    passage_words: int = 100  # re-centre each hit on its best-matching segment (0: whole chunks)
    segment_weight: float = 0.5  # share of a passage's relevance given by its best segment's cosine
    rerank_depth: int = 40  # chunks turned into passages (the rest cannot reach the top k)
    same_recording_penalty: float = 0.0  # each earlier passage of a recording lowers its next by this share
    same_project_penalty: float = 0.0  # ... and each earlier passage of its project (0: off)
    # Keyword search leaves out words in more of the passages than this (term_stats): at 0.5 the
    # ranking is unchanged (BM25 gives them no weight); lower is faster but measurably worse.
    common_share: float = 0.5
    # A passage of another note that one of the best passages is connected to (consolidation's
    # connections) scores this share of that passage, times the connection's strength (0: off).
    link_share: float = 0.9
    # ...scaled by its closeness in meaning to the question as a share of its source's, to this
    # power (0: not scaled).
    link_meaning: float = 1.0
    # A passage spoken on the days a question names ("in July", "on May 3") scores this share more
    # (memory/search/asked_dates.py; 0: off).
    date_match: float = 0.4

    def with_(self, **changes: object) -> RankingOptions:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass
class Candidate:
    chunk_id: int
    spoken_at: str
    score: float = 0.0
    components: dict[str, float] = field(default_factory=dict)


def age_days(spoken_at: str, as_of: datetime) -> float:
    return max(0.0, (as_of - parse_time(spoken_at)).total_seconds() / 86400.0)


def recency_weight(
    spoken_at: str, as_of: datetime | None, lam: float, floor: float = 0.0
) -> tuple[float, float]:
    """(weight, age in days); weight 1 when there is no time of asking or λ is 0."""
    if as_of is None:
        return 1.0, 0.0
    age = age_days(spoken_at, as_of)
    return floor + (1.0 - floor) * math.exp(-lam * age), age


def _rrf(ranking: Sequence[tuple[int, float]], k: float) -> dict[int, float]:
    return {cid: 1.0 / (k + position + 1) for position, (cid, _) in enumerate(ranking)}


def _normalised(ranking: Sequence[tuple[int, float]], floor: float = 0.0) -> dict[int, float]:
    """Scores as a share of the list's best (best = 1, negative = 0): gaps between scores survive.

    `floor` keeps a weak list weak: when even its best score is below the floor, scores are
    shares of the floor instead (a cosine of 0.1 is noise, not a best match).
    """
    if not ranking:
        return {}
    top = max(max(s for _, s in ranking), floor)
    if top <= 0:
        return {cid: 0.0 for cid, _ in ranking}
    return {cid: max(0.0, s) / top for cid, s in ranking}


def fuse(
    keyword: Sequence[tuple[int, float]], vector: Sequence[tuple[int, float]], options: RankingOptions
) -> dict[int, float]:
    """Relevance per chunk id from the two rankings (each best first)."""
    if options.fusion == "score":
        parts = (_normalised(keyword), _normalised(vector, options.cosine_floor))
    else:
        parts = (_rrf(keyword, options.rrf_k), _rrf(vector, options.rrf_k))
    weights = (options.keyword_weight if keyword else 0.0, options.vector_weight if vector else 0.0)
    total = sum(weights) or 1.0
    fused: dict[int, float] = {}
    for part, weight in zip(parts, weights, strict=True):
        for cid, value in part.items():
            fused[cid] = fused.get(cid, 0.0) + weight / total * value
    return fused


def rank(
    candidates: Sequence[Candidate],
    keyword: Sequence[tuple[int, float]],
    vector: Sequence[tuple[int, float]],
    *,
    as_of: datetime | None,
    options: RankingOptions,
) -> list[Candidate]:
    """Candidates scored (fusion × recency), best first, with the components that made the score."""
    fused = fuse(keyword, vector, options)
    keyword_pos = {cid: (i + 1, s) for i, (cid, s) in enumerate(keyword)}
    vector_pos = {cid: (i + 1, s) for i, (cid, s) in enumerate(vector)}
    out = []
    for c in candidates:
        weight, age = recency_weight(c.spoken_at, as_of, options.recency_lambda, options.recency_floor)
        relevance = fused.get(c.chunk_id, 0.0)
        components = {"relevance": relevance, "recency": weight, "age_days": round(age, 3)}
        if c.chunk_id in keyword_pos:
            components["keyword_rank"], components["bm25"] = keyword_pos[c.chunk_id]
        if c.chunk_id in vector_pos:
            components["vector_rank"], components["cosine"] = vector_pos[c.chunk_id]
        out.append(Candidate(c.chunk_id, c.spoken_at, relevance * weight, components))
    out.sort(key=lambda c: (-c.score, c.chunk_id))
    return out


def with_recency(
    score: float,
    components: dict[str, float],
    spoken_at: str,
    as_of: datetime | None,
    options: RankingOptions,
) -> tuple[float, dict[str, float]]:
    """The final score (relevance × recency weight) and the components that explain it."""
    weight, age = recency_weight(spoken_at, as_of, options.recency_lambda, options.recency_floor)
    return score * weight, {**components, "recency": weight, "age_days": round(age, 3)}


def diversify(hits: Sequence[Hit], penalty: float, project_penalty: float = 0.0) -> list[Hit]:
    """Best first, where each passage's score is lowered by `penalty` for every better passage
    already taken from its recording, and by `project_penalty` for every one from its project: a
    question about two notes (or two clients) gets both, not five pieces of one. The scores
    themselves are left as they are (the order carries the penalty)."""
    if penalty <= 0 and project_penalty <= 0:
        return list(hits)
    remaining = list(hits)
    taken: dict[int, int] = {}
    in_project: dict[int, int] = {}

    def lowered(hit: Hit) -> float:
        return (
            hit.score
            * (1 - penalty) ** taken.get(hit.recording_id, 0)
            * (1 - project_penalty) ** in_project.get(hit.project_id, 0)
        )

    out: list[Hit] = []
    while remaining:
        best = max(range(len(remaining)), key=lambda i: lowered(remaining[i]))
        hit = remaining.pop(best)
        taken[hit.recording_id] = taken.get(hit.recording_id, 0) + 1
        in_project[hit.project_id] = in_project.get(hit.project_id, 0) + 1
        out.append(hit)
    return out


def merge_per_project(overall: Sequence[Hit], per_project: Sequence[Sequence[Hit]], k: int) -> list[Hit]:
    """One list from a search of all projects and searches of single projects, for a question asked
    across projects: each project's best passage first (projects in the order of their best
    passage's score), then the rest of the all-project list, then the projects' further passages;
    a passage already taken (same recording, a segment in common) is not taken again."""
    bests = sorted((hits[0] for hits in per_project if hits), key=lambda h: (-h.score, h.chunk_id))
    out: list[Hit] = []
    for hit in [*bests, *overall, *(h for hits in per_project for h in hits[1:])]:
        if len(out) >= k:
            break
        if not any(_same_passage(hit, taken) for taken in out):
            out.append(hit)
    return out


def _same_passage(a: Hit, b: Hit) -> bool:
    if a.chunk_id == b.chunk_id:
        return True
    return a.recording_id == b.recording_id and bool(set(a.segment_ids) & set(b.segment_ids))
