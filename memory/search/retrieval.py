"""Hybrid retrieval: BM25 over FTS5 and KNN over sqlite-vec, fused, then weighted by recency.

Candidates come from each retriever within the scope (projects, date range); the fusion and the
recency weight are in memory/search/ranking.py so they can be measured and changed without SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from memory.search import asked_dates, binary_index, bm25, connected, fts, term_stats
from memory.search.hits import Hit
from memory.search.index import VECTOR_TABLE, library_size, vector_state
from memory.search.passages import build_passages, segment_cosines, without_overlap
from memory.search.ranking import Candidate, RankingOptions, diversify, rank, with_recency
from memory.store import word_stats
from memory.store.recordings import Segment
from memory.store.store import Store, StoreError
from models.errors import InputError

MODES = ("hybrid", "keyword", "vector")
MAX_QUERY_CHARS = 10_000
MAX_K = 10_000
KNN_MAX = 4096  # sqlite-vec's limit on k
EXACT_UP_TO = 20_000  # chunks searched exactly across all projects; beyond, binary first pass
OVERSAMPLE = 4  # binary candidates per wanted result: recall@10 .97 on real MiniLM vectors (qmsum-dev)
OVERSAMPLE_IN_MEMORY = 8  # the in-memory pass costs the same for any count: only rescoring grows
# From this many passages, a hybrid search runs its keyword pass on a second connection while the
# vector pass runs (SQLite and numpy release the GIL): at 100,000 the two take ~10 ms each.
PARALLEL_FROM = 5_000
# Keyword scores are taken again with the scope's statistics when a query word's idf there differs
# from the whole index's by more than this share; FTS5 then gives this many times the passages.
SKEW_TOLERANCE = 0.1
SKEWED_POOL = 4
_keyword_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="keyword-search")


@dataclass(frozen=True)
class Scope:
    """Where to look: project ids (None = all) and a spoken_at range (store time, inclusive)."""

    project_ids: tuple[int, ...] | None = None
    since: str | None = None
    until: str | None = None


@dataclass(frozen=True)
class Query:
    text: str
    vector: np.ndarray | None = None  # the query's embedding; None = keyword only
    vector_model: str | None = None  # the model that made it; must match the index
    as_of: datetime | None = None
    k: int = 10
    mode: str = "hybrid"
    options: RankingOptions = field(default_factory=RankingOptions)


def preload_vectors(store: Store) -> None:
    """What a large library's first all-project searches would read (the sign bits in memory),
    read now."""
    state = vector_state(store)
    if state is not None and library_size(store) > EXACT_UP_TO:
        binary_index.preload(store, state[0])


def check_query(text: str) -> str:
    # A command line in a non-UTF-8 terminal hands over undecodable bytes as lone surrogates,
    # which no encoder (SQLite, the tokenizers) accepts: they become U+FFFD.
    cleaned = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").strip()
    if not cleaned:
        raise InputError("the search is empty", fix='type a few words, e.g. verbatim search "beacon budget"')
    return cleaned[:MAX_QUERY_CHARS]


# --- candidates -------------------------------------------------------------------------------------
def _scope_sql(scope: Scope, alias: str) -> tuple[str, list[object]]:
    where: list[str] = []
    params: list[object] = []
    if scope.project_ids is not None:
        where.append(f"{alias}.project_id IN ({','.join('?' * len(scope.project_ids))})")
        params += list(scope.project_ids)
    if scope.since:
        where.append(f"{alias}.spoken_at >= ?")
        params.append(scope.since)
    if scope.until:
        where.append(f"{alias}.spoken_at <= ?")
        params.append(scope.until)
    return "".join(f" AND {w}" for w in where), params


def keyword_candidates(
    store: Store, text: str, scope: Scope, limit: int, *, common_share: float = RankingOptions.common_share
) -> list[tuple[int, float]]:
    """(chunk_id, BM25 score, higher is better), best first, with the statistics of the projects
    searched (memory/store/word_stats.py): within named projects (or all but the archived ones) a
    search ranks as if the others were absent, however large they are.

    Words in more than `common_share` of the passages searched are left out when rarer ones remain:
    they weigh little or nothing in BM25 and cost the most to score (memory/search/term_stats.py).
    """
    terms = fts.query_terms(text)
    if not terms or (scope.project_ids is not None and not scope.project_ids):
        return []
    stats = word_stats.word_stats(store, terms, scope.project_ids)
    terms = term_stats.selective_terms(store, terms, common_share, stats.shares)
    skewed = _skewed(store, terms, scope, stats)
    filters, params = _scope_sql(scope, "c")
    # The join to chunks costs one lookup per matching chunk (most of the time of a common-word
    # query in a large library): only a scope needs it.
    source = "chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid" if filters else "chunks_fts"
    rows = store.rows(
        f"SELECT chunks_fts.rowid, -bm25(chunks_fts) AS score FROM {source}"
        f" WHERE chunks_fts MATCH ?{filters} ORDER BY bm25(chunks_fts) LIMIT ?",
        [fts.match_expression(terms), *params, limit * SKEWED_POOL if skewed else limit],
    )
    found = [(int(cid), float(score)) for cid, score in rows]
    if not skewed:
        return found
    return bm25.rescore(store, [cid for cid, _ in found], terms, {t: stats.idf(t) for t in terms})[:limit]


def _skewed(store: Store, terms: list[str], scope: Scope, stats: word_stats.WordStats) -> bool:
    """Whether the scope's idf of some query word is far from the whole index's (FTS5's)."""
    if scope.project_ids is None:
        return False
    whole = word_stats.word_stats(store, terms)
    return any(
        abs(stats.idf(t) - whole.idf(t)) > SKEW_TOLERANCE * max(whole.idf(t), stats.idf(t)) for t in terms
    )


def vector_candidates(
    store: Store, vector: np.ndarray, scope: Scope, limit: int, *, exact: bool | None = None
) -> list[tuple[int, float]]:
    """(chunk_id, cosine similarity), best first. Project is the partition key: one scan each.

    Across all projects of a large library the float scan would pass the latency budget, so a
    binary first pass (48 bytes a vector) picks candidates and their exact cosines order them.
    `exact` forces one way or the other (None: decide by scope and size).
    """
    if scope.project_ids is not None and not scope.project_ids:
        return []
    blob = np.asarray(vector, dtype="<f4").tobytes()
    k = min(limit, KNN_MAX)
    dates, params = _date_filter(scope)
    state = vector_state(store)
    if exact is None:
        exact = scope.project_ids is not None or library_size(store) <= EXACT_UP_TO
    if not exact and state is not None and scope.project_ids is None and not dates:
        nearest = binary_index.candidates(store, vector, state[0], k * OVERSAMPLE_IN_MEMORY)
        if nearest is not None:
            return rescore(store, nearest, vector, state[0])[:k]
    if not exact and state is not None:
        column, match, wanted = "embedding_bit", "vec_quantize_binary(?)", min(k * OVERSAMPLE, KNN_MAX)
    else:
        column, match, wanted = "embedding", "?", k
    sql = f"SELECT chunk_id, distance FROM {VECTOR_TABLE} WHERE {column} MATCH {match} AND k = ?{dates}"
    found: list[tuple[int, float]] = []
    for pid in scope.project_ids if scope.project_ids is not None else [None]:
        where = (
            (sql + " AND project_id = ?", [blob, wanted, *params, pid])
            if pid
            else (sql, [blob, wanted, *params])
        )
        found += store.rows(*where)
    if column == "embedding_bit" and state is not None:
        return rescore(store, [int(r[0]) for r in found], vector, state[0])[:k]
    found.sort(key=lambda r: r[1])
    return [(int(cid), 1.0 - float(distance)) for cid, distance in found[:k]]


def _date_filter(scope: Scope) -> tuple[str, list[object]]:
    dates, params = "", list[object]()
    if scope.since:
        dates += " AND spoken_at >= ?"
        params.append(scope.since)
    if scope.until:
        dates += " AND spoken_at <= ?"
        params.append(scope.until)
    return dates, params


def rescore(
    store: Store, chunk_ids: Sequence[int], vector: np.ndarray, model: str
) -> list[tuple[int, float]]:
    """Exact cosines of candidate chunks, from the embedding cache, best first."""
    if not chunk_ids:
        return []
    marks = ",".join("?" * len(chunk_ids))
    rows = store.rows(
        "SELECT c.id, e.vector FROM chunks c JOIN embeddings e ON e.content_sha256 = c.content_sha256"
        f" AND e.model = ? WHERE c.id IN ({marks})",
        [model, *chunk_ids],
    )
    if not rows:
        return []
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype="<f4").reshape(len(rows), -1)
    sims = matrix @ np.asarray(vector, dtype=np.float32)
    order = np.argsort(-sims)
    return [(int(rows[i][0]), float(sims[i])) for i in order]


# --- hits ------------------------------------------------------------------------------------------
def load_hits(store: Store, chunk_ids: Sequence[int]) -> dict[int, Hit]:
    """Hits (score 0) for chunk ids, with their project, recording and covered segment ids."""
    if not chunk_ids:
        return {}
    marks = ",".join("?" * len(chunk_ids))
    rows = store.all(
        "SELECT c.id AS chunk_id, c.recording_id, c.project_id, p.name AS project, r.title, c.spoken_at,"
        " c.start, c.end, c.text, c.first_idx, c.last_idx, c.provisional"
        " FROM chunks c JOIN recordings r ON r.id = c.recording_id JOIN projects p ON p.id = c.project_id"
        f" WHERE c.id IN ({marks})",
        list(chunk_ids),
    )
    covered: dict[int, list[int]] = {}
    for chunk_id, segment_id in store.rows(
        "SELECT c.id, s.id FROM chunks c JOIN segments s ON s.recording_id = c.recording_id"
        f" AND s.idx BETWEEN c.first_idx AND c.last_idx WHERE c.id IN ({marks}) AND c.provisional = 0"
        " ORDER BY c.id, s.idx",
        list(chunk_ids),
    ):
        covered.setdefault(int(chunk_id), []).append(int(segment_id))
    hits: dict[int, Hit] = {}
    for row in rows:
        hits[row["chunk_id"]] = Hit(
            chunk_id=row["chunk_id"],
            recording_id=row["recording_id"],
            project_id=row["project_id"],
            project=row["project"],
            title=row["title"],
            spoken_at=row["spoken_at"],
            start=row["start"],
            end=row["end"],
            text=row["text"],
            segment_ids=covered.get(row["chunk_id"], []),
            score=0.0,
        )
    return hits


def _spoken_at(store: Store, chunk_ids: Sequence[int]) -> dict[int, str]:
    if not chunk_ids:
        return {}
    marks = ",".join("?" * len(chunk_ids))
    return {
        int(i): str(t)
        for i, t in store.rows(f"SELECT id, spoken_at FROM chunks WHERE id IN ({marks})", list(chunk_ids))
    }


def retrieve(store: Store, query: Query, scope: Scope) -> list[Hit]:
    """The best `query.k` passages in scope, best first, each with its score components."""
    if query.mode not in MODES:
        raise InputError(f"unknown search mode {query.mode!r}", fix=f"use one of {', '.join(MODES)}")
    if not 1 <= query.k <= MAX_K:  # a k past SQLite's integers would fail in the query itself
        raise InputError(f"k must be between 1 and {MAX_K:,}")
    text = check_query(query.text)
    limit = max(query.options.candidates, query.k)
    keyword, vector = _candidates(store, query, text, scope, limit)
    ids = list(dict.fromkeys([cid for cid, _ in keyword] + [cid for cid, _ in vector]))
    candidates = [Candidate(cid, spoken_at) for cid, spoken_at in _spoken_at(store, ids).items()]
    options = query.options
    ranked = rank(candidates, keyword, vector, as_of=None, options=options)
    depth = query.k if options.passage_words <= 0 else max(options.rerank_depth, 2 * query.k + 5)
    ranked = ranked[:depth]
    hits = load_hits(store, [c.chunk_id for c in ranked])
    chunks = []
    for c in ranked:
        hit = hits[c.chunk_id]
        hit.score = c.score
        hit.components = {k: v for k, v in c.components.items() if k not in ("recency", "age_days")}
        chunks.append(hit)
    use_vectors = bool(vector) and query.vector is not None
    passages, pool = _passages(store, query, text, chunks, use_vectors)
    passages.sort(key=lambda h: (-h.score, h.chunk_id))
    if options.link_share > 0 and query.mode == "hybrid":
        passages, pool = _with_connected(store, query, scope, text, passages, pool, use_vectors)
    return diversify(
        without_overlap(passages, pool), options.same_recording_penalty, options.same_project_penalty
    )[: query.k]


def _candidates(
    store: Store, query: Query, text: str, scope: Scope, limit: int
) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """The keyword and the vector candidates the mode asks for; in a large library, side by side."""
    share = query.options.common_share
    if query.mode == "keyword":
        return keyword_candidates(store, text, scope, limit, common_share=share), []
    if query.mode == "vector":
        return [], _vector_or_none(store, query, scope, limit)
    reader = store.reader() if query.vector is not None and library_size(store) >= PARALLEL_FROM else None
    if reader is None:
        keyword = keyword_candidates(store, text, scope, limit, common_share=share)
        return keyword, _vector_or_none(store, query, scope, limit)
    pending = _keyword_worker.submit(keyword_candidates, reader, text, scope, limit, common_share=share)
    try:
        vector = _vector_or_none(store, query, scope, limit)
    finally:
        keyword = pending.result()  # never left running against a store being closed
    return keyword, vector


def _passages(
    store: Store,
    query: Query,
    text: str,
    chunks: list[Hit],
    use_vectors: bool,
    centres: dict[int, int] | None = None,
) -> tuple[list[Hit], dict[int, Segment]]:
    """Chunks (their relevance in .score) as passages re-centred on what matched (or on the
    segment `centres` names), weighed by recency; and the segments they come from."""
    passages, pool = build_passages(
        store,
        chunks,
        text,
        vector=query.vector if use_vectors else None,
        model=query.vector_model if use_vectors else None,
        passage_words=query.options.passage_words,
        segment_weight=query.options.segment_weight,
        centres=centres,
    )
    named = asked_dates.spans(text, query.as_of) if query.options.date_match > 0 else []
    for hit in passages:
        hit.score, hit.components = with_recency(
            hit.score, hit.components, hit.spoken_at, query.as_of, query.options
        )
        if named and asked_dates.in_spans(hit.spoken_at, named):
            hit.score *= 1 + query.options.date_match
            hit.components = {**hit.components, "date_named": 1.0}
    return passages, pool


LINK_SOURCES = 3  # the best passages whose connections to other notes are followed


@dataclass
class _Reached:
    """A chunk of another note that a connection reaches from one of the best passages."""

    score: float  # the share of its source's score it may take
    segment_id: int  # the segment the connection quotes there
    source_segment: int  # the segment it quotes in the source passage
    source_cosine: float | None  # the source passage's closest segment to the question


def _with_connected(
    store: Store,
    query: Query,
    scope: Scope,
    text: str,
    passages: list[Hit],
    pool: dict[int, Segment],
    use_vectors: bool,
) -> tuple[list[Hit], dict[int, Segment]]:
    """The passages, with those of other notes that the best ones are connected to (a person, an
    organisation, a date... shared across projects, found by consolidation: memory/consolidate/connections.py)
    raised to a share of their source's score. A question whose answer lies in two notes often
    names only one, and a second passage of the first note would take the other's place.

    A reached passage is centred on the segment the connection quotes there, and keeps its full
    share only when the connection's quote in the source is as close in meaning to the question as
    the source's best sentence: a connection made by a thing the question is not about
    ("Textwell", asked about grants) leads nowhere useful (consultant-dev cross-project .486 ->
    .569 at recall@400, locomo-dev and qmsum-dev unchanged)."""
    sources = passages[:LINK_SOURCES]
    reached: dict[int, _Reached] = {}
    links = connected.links_from_recordings(store, list({p.recording_id for p in sources}))
    for link in links:
        for source in sources:
            # The passage holds this end's quoted segment. (Matching the thing shared by name
            # anywhere in the passage was measured too: qmsum-dev's meetings share generic things,
            # "remote control", and its recall@400 fell from .122 to .099.)
            if link.segment_id in source.segment_ids:
                score = source.score * query.options.link_share * link.score
                if score > (reached[link.to_chunk].score if link.to_chunk in reached else 0.0):
                    cosine = source.components.get("segment_cosine")
                    reached[link.to_chunk] = _Reached(score, link.to_segment, link.segment_id, cosine)
    if not reached:
        return passages, pool
    present = {p.chunk_id: p for p in passages}
    missing = [cid for cid in reached if cid not in present]
    hits = [h for h in load_hits(store, missing).values() if _in_scope(h, scope)]
    centres = {cid: r.segment_id for cid, r in reached.items()}
    built, more = _passages(store, query, text, hits, use_vectors, centres)
    quoted = (
        segment_cosines(store, [r.source_segment for r in reached.values()], query.vector, query.vector_model)
        if use_vectors and query.vector is not None and query.vector_model
        else {}
    )
    out = []
    for hit in passages + built:
        if (to := reached.get(hit.chunk_id)) is not None:
            score = to.score * _closeness(quoted.get(to.source_segment), to, query.options)
            if score > hit.score:
                hit.score = score
                hit.components = {**hit.components, "connected": round(score, 4)}
        out.append(hit)
    out.sort(key=lambda h: (-h.score, h.chunk_id))
    return out, {**pool, **more}


def _closeness(cosine: float | None, reached: _Reached, options: RankingOptions) -> float:
    """How much of its share a reached passage keeps: the cosine to the question of the segment
    the connection quotes in the source, as a share of the source passage's closest segment's
    (1 when either is unknown), to the power of `options.link_meaning` (0: always all of it)."""
    if options.link_meaning <= 0 or cosine is None or not reached.source_cosine or reached.source_cosine <= 0:
        return 1.0
    return min(1.0, max(cosine, 0.0) / reached.source_cosine) ** options.link_meaning


def _in_scope(hit: Hit, scope: Scope) -> bool:
    return (
        (scope.project_ids is None or hit.project_id in scope.project_ids)
        and (not scope.since or hit.spoken_at >= scope.since)
        and (not scope.until or hit.spoken_at <= scope.until)
    )


def _vector_or_none(store: Store, query: Query, scope: Scope, pool: int) -> list[tuple[int, float]]:
    if query.vector is None:
        if query.mode == "vector":
            raise StoreError("vector search needs the embedding model", fix="run 'verbatim models provision'")
        return []
    state = vector_state(store)
    if state is None or state[0] != query.vector_model:
        if query.mode == "vector":
            raise StoreError(
                "the vector index was built with another embedding model (or not yet built)",
                fix="run 'verbatim index' to rebuild it",
            )
        return []
    return vector_candidates(store, query.vector, scope, pool)
