"""Search the library: the passages that best match a query, in scope, weighed by recency.

`search` is what `verbatim search`, the desktop search box and `ask` use. Keyword search works
without the embedding model; hybrid search falls back to keywords (and says so in each hit's
components) when the vector index is missing or was built with another model.
"""

from __future__ import annotations

import logging
from datetime import datetime

import numpy as np

from app.library import Library
from memory.search.hits import Hit
from memory.search.index import vector_state
from memory.search.ranking import RankingOptions
from memory.search.retrieval import MODES, Query, Scope, check_query, retrieve
from memory.store import projects as project_store
from memory.store.clock import parse_time, to_store_time
from models.errors import InputError, ModelError

log = logging.getLogger(__name__)

# The search page and `verbatim search` stop where relevance falls away: a passage scoring under
# this share of the best one is left out (the first is always shown). Chosen leave one set out by
# `verbatim eval search-cut` (recall-weighted F2; chosen in each of the four folds; held out it keeps
# 81 % of the evidence passages of the 20 in 5 passages on average; docs/benchmarks.md,
# Generalisation). `ask` reads every passage.
RESULTS_CUT = 0.7


def ranking_options(library: Library, **overrides: object) -> RankingOptions:
    """The product's ranking settings, with the library's recency λ."""
    options = RankingOptions(recency_lambda=float(library.settings.recency_lambda_per_day))
    return options.with_(**overrides) if overrides else options


def resolve_scope(
    library: Library,
    projects: list[str] | None,
    since: str | None,
    until: str | None,
    *,
    include_archived: bool = False,
) -> Scope:
    """Where a search looks. Without named projects: every project that is not archived (an
    archived one is put away: its notes stay, but search and answers leave it out unless
    `include_archived`); a project named explicitly is searched archived or not."""
    project_ids = None
    if projects:
        project_ids = tuple(dict.fromkeys(project_store.get_project(library.store, p).id for p in projects))
    elif not include_archived:
        every = project_store.list_projects(library.store, include_archived=True)
        if any(p.archived_at is not None for p in every):
            project_ids = tuple(p.id for p in every if p.archived_at is None)
    since_at = to_store_time(parse_time(since)) if since else None
    until_at = _end_of(until) if until else None
    if since_at and until_at and since_at > until_at:
        raise InputError(f"the date range is empty: {since} is after {until}")
    return Scope(project_ids, since_at, until_at)


def _end_of(text: str) -> str:
    """`--until 2026-03-02` means to the end of that day."""
    parsed = parse_time(text)
    if len(text.strip()) <= 10:
        parsed = parsed.replace(hour=23, minute=59, second=59)
    return to_store_time(parsed)


def search(
    library: Library,
    query: str,
    *,
    projects: list[str] | None = None,
    k: int = 10,
    as_of: datetime | None = None,
    since: str | None = None,
    until: str | None = None,
    mode: str = "hybrid",
    options: RankingOptions | None = None,
    include_archived: bool = False,
) -> list[Hit]:
    """The `k` best passages for `query` (mode: hybrid | keyword | vector), best first; archived
    projects only when named or `include_archived`."""
    if mode not in MODES:
        raise InputError(f"unknown search mode {mode!r}", fix=f"use one of {', '.join(MODES)}")
    text = check_query(query)
    scope = resolve_scope(library, projects, since, until, include_archived=include_archived)
    when = as_of if as_of is not None else datetime.now()
    if when.tzinfo is not None:
        when = parse_time(when.isoformat())
    vector, model = None, None
    if mode != "keyword":
        vector, model = _query_vector(library, text, required=mode == "vector")
    q = Query(
        text=text,
        vector=vector,
        vector_model=model,
        as_of=when,
        k=k,
        mode=mode,
        options=options or ranking_options(library),
    )
    return retrieve(library.store, q, scope)


def _query_vector(library: Library, text: str, *, required: bool) -> tuple[np.ndarray | None, str | None]:
    """The query's embedding and model name, or (None, None) when vectors cannot be used."""
    state = vector_state(library.store)
    model = library.models.embedding_model_name()
    if state is None or state[0] != model:
        if required:
            return None, model  # retrieve() explains what to do
        return None, None
    try:
        return library.models.embedder().embed([text])[0], model
    except ModelError as exc:
        if required:
            raise
        log.warning("searching by keywords only: %s", exc.message)
        return None, None


def cut_where_relevance_falls(hits: list[Hit], share: float = RESULTS_CUT) -> list[Hit]:
    """The passages worth showing: the best, and every other scoring at least `share` of it."""
    if not hits:
        return []
    floor = share * max(h.score for h in hits)
    return [h for n, h in enumerate(hits) if n == 0 or h.score >= floor]
