"""Indexing: chunks, FTS rows, vectors and the embedding cache stay in step with the segments."""

from __future__ import annotations

import shutil
from datetime import datetime

import numpy as np
import pytest

from app.ingest.indexing import embed_missing, index_pending, index_recording
from app.library import Library
from app.paths import DataDir
from app.search import search
from app.settings import Settings
from memory.search import index
from memory.search.chunking import ChunkSpec, chunk_segments
from memory.store import projects, recordings
from memory.store.recordings import SegmentIn
from memory.store.store import Store
from models.catalogue import Role
from tests.conftest import require_models
from tests.support.retrieval_corpus import add_note, build_library


def unit(seed: int, dims: int = 8) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=dims).astype(np.float32)
    return v / np.linalg.norm(v)


def stored_recording(store: Store, n_segments: int = 12, project: str = "P") -> int:
    pid = projects.add_project(store, project, exist_ok=True).id
    rid = recordings.create_recording(
        store, project_id=pid, spoken_at="2026-01-05T10:00:00", source="transcript"
    )
    words = " ".join(f"word{i}" for i in range(20))
    recordings.append_segments(
        store, rid, [SegmentIn(i * 10.0, i * 10.0 + 8, f"{words} topic{i}", "Ann") for i in range(n_segments)]
    )
    return rid


# --- memory layer, in-memory store -------------------------------------------------------------------
def _indexed_recording(store: Store) -> list[ChunkSpec]:
    """A stored recording's chunks written with a vector each; the chunks."""
    rid = stored_recording(store)
    specs = chunk_segments(recordings.list_segments(store, rid))
    vectors = {s.content_sha256: unit(i) for i, s in enumerate(specs)}
    index.write_chunks(
        store,
        recording_id=rid,
        project_id=1,
        spoken_at="2026-01-05T10:00:00",
        remove=[],
        add=specs,
        vectors=vectors,
    )
    return specs


def test_vector_table_records_its_model_and_a_new_model_rebuilds_it(store: Store) -> None:
    assert index.vector_state(store) is None
    assert index.ensure_vector_table(store, "model-a", 8) is True
    assert index.ensure_vector_table(store, "model-a", 8) is False
    specs = _indexed_recording(store)
    assert index.index_stats(store) == {"chunks": len(specs), "embedded": len(specs), "provisional": 0}
    assert store.scalar(f"SELECT count(*) FROM {index.VECTOR_TABLE}") == len(specs)

    assert index.ensure_vector_table(store, "model-b", 16) is True
    assert index.vector_state(store) == ("model-b", 16)
    assert index.index_stats(store)["embedded"] == 0
    assert store.scalar(f"SELECT count(*) FROM {index.VECTOR_TABLE}") == 0


def test_a_caller_that_saw_no_table_keeps_the_vectors_another_caller_wrote_since(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two first callers (the indexing pass and an ask) both read "no vector table" before either
    built it. The later one must read again under the write lock and keep what the first wrote."""
    index.ensure_vector_table(store, "m", 8)
    specs = _indexed_recording(store)
    real = index.vector_state
    reads: list[tuple[str, int] | None] = [None]  # what the late caller read before the first one built

    def stale_first(s: Store) -> tuple[str, int] | None:
        return reads.pop() if reads else real(s)

    monkeypatch.setattr(index, "vector_state", stale_first)
    assert index.ensure_vector_table(store, "m", 8) is False
    assert store.scalar(f"SELECT count(*) FROM {index.VECTOR_TABLE}") == len(specs)
    assert index.index_stats(store)["embedded"] == len(specs)


def test_chunks_are_in_fts_and_vectors_and_leave_both_when_their_recording_goes(store: Store) -> None:
    index.ensure_vector_table(store, "m", 8)
    rid = stored_recording(store)
    specs = chunk_segments(recordings.list_segments(store, rid))
    vectors = {s.content_sha256: unit(i) for i, s in enumerate(specs)}
    ids = index.write_chunks(
        store,
        recording_id=rid,
        project_id=1,
        spoken_at="2026-01-05T10:00:00",
        remove=[],
        add=specs,
        vectors=vectors,
    )
    assert store.scalar("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'topic3'") == 1
    with store.transaction():
        store.execute("DELETE FROM segments WHERE recording_id = ?", (rid,))
        store.execute("DELETE FROM recordings WHERE id = ?", (rid,))
    assert store.scalar("SELECT count(*) FROM chunks") == 0
    assert store.scalar("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'topic3'") == 0
    assert store.scalar(f"SELECT count(*) FROM {index.VECTOR_TABLE}") == 0
    assert ids


def test_the_embedding_cache_returns_exactly_what_was_stored(store: Store) -> None:
    vectors = {"a" * 64: unit(1), "b" * 64: unit(2)}
    with store.transaction():
        index.cache_vectors(store, "m", vectors)
    found = index.cached_vectors(store, ["a" * 64, "b" * 64, "c" * 64], "m")
    assert set(found) == {"a" * 64, "b" * 64}
    assert np.array_equal(found["a" * 64], vectors["a" * 64])
    assert index.cached_vectors(store, ["a" * 64], "other-model") == {}


# --- app layer, real SQLite file and the real MiniLM --------------------------------------------------
@pytest.fixture
def models() -> None:
    require_models()


@pytest.mark.slow
def test_index_recording_makes_a_recording_searchable_and_is_idempotent(
    library: Library, models: None
) -> None:
    rid = add_note(
        library,
        "Millbrook",
        "2026-04-14T09:15:00",
        [(None, f"Sentence {i} about boilers and heat pumps in the dye house.") for i in range(30)],
    )
    report = index_recording(library, rid, final=True)
    segs = recordings.list_segments(library.store, rid)
    chunks = index.recording_chunks(library.store, rid)
    assert report.added == len(chunks) == report.embedded and report.unembedded == 0
    assert [i for c in chunks for i in range(c.first_idx, c.last_idx + 1)] == [s.idx for s in segs]
    assert all(c.embedded for c in chunks)
    assert recordings.get_recording(library.store, rid).status == "indexed"
    again = index_recording(library, rid, final=True)
    assert (again.added, again.removed, again.embedded, again.chunks) == (0, 0, 0, len(chunks))
    assert search(library, "dye house boilers", k=3)[0].recording_id == rid


@pytest.mark.slow
def test_progressive_indexing_embeds_each_chunk_text_once(library: Library, models: None) -> None:
    store = library.store
    pid = projects.add_project(store, "Live").id
    rid = recordings.create_recording(
        store, project_id=pid, spoken_at="2026-02-01T09:00:00", source="import", status="transcribing"
    )
    lines = [
        f"Batch {b} line {i}: the warehouse robots need a new charging schedule."
        for b in range(6)
        for i in range(5)
    ]
    embedded = 0
    for b in range(6):
        recordings.append_segments(store, rid, [SegmentIn(0, 1, t) for t in lines[b * 5 : b * 5 + 5]])
        report = index_recording(library, rid, final=False)
        embedded += report.embedded
        assert report.removed == 0  # closed chunks never change while the transcript grows
        assert recordings.get_recording(store, rid).status == "transcribing"
        # The open tail waits for more segments or the final pass.
        assert sum(c.last_idx - c.first_idx + 1 for c in index.recording_chunks(store, rid)) < (b + 1) * 5
    final = index_recording(library, rid, final=True)
    embedded += final.embedded
    texts = {c.content_sha256 for c in index.recording_chunks(store, rid)}
    assert embedded <= len(texts) + 1  # at most the last chunk is re-embedded (a merged tail)
    assert recordings.get_recording(store, rid).status == "indexed"


@pytest.mark.slow
def test_an_edit_rechunks_and_only_the_changed_chunk_is_embedded_again(
    library: Library, models: None
) -> None:
    rid = add_note(
        library,
        "Tidewater",
        "2026-03-02T08:40:00",
        [(None, f"Line {i} of the museum kickoff notes about galleries and tracks.") for i in range(24)],
    )
    index_recording(library, rid)
    before = {c.content_sha256 for c in index.recording_chunks(library.store, rid)}
    segment = recordings.list_segments(library.store, rid)[3]
    recordings.save_edit(library.store, segment.id, "The contact is Imogen Ferreira, spelled with two r.")
    report = index_recording(library, rid)
    after = {c.content_sha256 for c in index.recording_chunks(library.store, rid)}
    assert report.removed == 1 and report.added == 1 and report.embedded == 1
    assert report.segments_embedded == 1  # the edited sentence's own vector, nothing else
    assert len(after - before) == 1
    hits = search(library, "Ferreira", mode="keyword")
    assert hits and segment.id in hits[0].segment_ids
    assert recordings.list_segments(library.store, rid)[3].raw_text.startswith("Line 3")


@pytest.mark.slow
def test_provisional_chunks_are_searchable_then_replaced_by_the_final_pass(
    library: Library, models: None
) -> None:
    store = library.store
    pid = projects.add_project(store, "Live").id
    rid = recordings.create_recording(
        store, project_id=pid, spoken_at="2026-02-01T09:00:00", source="microphone", status="recording"
    )
    store.executemany(
        "INSERT INTO live_segments (recording_id, idx, start, end, text) VALUES (?, ?, ?, ?, ?)",
        [
            (rid, 0, 0.0, 3.0, "Call the harbour master about the pontoon permit."),
            (rid, 1, 3.0, 6.0, "Budget is tight."),
        ],
    )
    report = index_recording(library, rid, provisional=True)
    assert report.added == 1
    hit = search(library, "pontoon permit", mode="keyword")[0]
    assert hit.recording_id == rid and hit.segment_ids == []
    recordings.append_segments(
        store,
        rid,
        [
            SegmentIn(0, 3, "Call the harbour master about the pontoon permit."),
            SegmentIn(3, 6, "Budget is tight."),
        ],
    )
    index_recording(library, rid, final=True)
    chunks = index.recording_chunks(store, rid)
    assert [c.provisional for c in chunks] == [False]
    assert len(search(library, "pontoon permit", mode="keyword")[0].segment_ids) == 2


@pytest.mark.slow
def test_a_new_embedding_model_rebuilds_the_vectors_with_progress(
    library: Library, models: None, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    build_library(library)
    n = index.index_stats(library.store)["chunks"]
    other = tmp_path / "other-minilm.gguf"
    shutil.copy(library.models.path_for(Role.EMBEDDING), other)
    library.models.register(Role.EMBEDDING, other)
    seen: list[float] = []
    report = embed_missing(library, progress=seen.append)
    assert index.vector_state(library.store) == ("other-minilm.gguf", 384)
    assert report.embedded == n and index.index_stats(library.store)["embedded"] == n
    assert seen and seen[-1] == 1.0
    hits = search(library, "heat recovery on effluent", mode="vector", as_of=datetime(2026, 4, 15))
    assert hits[0].project == "Millbrook"


@pytest.mark.slow
def test_without_an_embedding_model_keyword_search_works_and_vectors_follow(
    data_dir: DataDir, models: None, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(models={"embedding": str(tmp_path / "missing.gguf")})
    settings.save(data_dir.settings_path)
    with Library(data_dir) as without_model:
        ids = build_library(without_model)
        assert index.index_stats(without_model.store)["embedded"] == 0
        assert search(without_model, "Owain Pritchard")[0].project == "Millbrook"
    Settings().save(data_dir.settings_path)
    with Library(data_dir) as library:
        reports = index_pending(library)
        stats = index.index_stats(library.store)
        assert stats["embedded"] == stats["chunks"] and sum(r.embedded for r in reports) == stats["chunks"]
        assert all(recordings.get_recording(library.store, i).status == "indexed" for i in ids)
        hits = search(library, "heat recovery on effluent", mode="vector", as_of=datetime(2026, 4, 15))
        assert hits[0].project == "Millbrook"


@pytest.mark.slow
def test_a_late_incomplete_pass_never_undoes_the_final_one(library: Library, models: None) -> None:
    """Start-up's `index_pending` saw the note while it was transcribing and asked for an incomplete
    pass; the job worker's final pass ran first. The note must stay findable (the UI flow's race)."""
    store = library.store
    pid = projects.add_project(store, "Atlas").id
    rid = recordings.create_recording(
        store, project_id=pid, spoken_at="2026-02-01T09:00:00", source="import", status="transcribing"
    )
    recordings.append_segments(
        store,
        rid,
        [SegmentIn(0, 4, "The budget review is on Friday."), SegmentIn(4, 9, "The workshop is on Tuesday.")],
    )
    index_recording(library, rid, final=True)
    final_chunks = index.recording_chunks(store, rid)
    assert final_chunks and recordings.get_recording(store, rid).status == "indexed"

    late = index_recording(library, rid, final=False)  # the stale view: "still transcribing"
    assert late.removed == 0 and index.recording_chunks(store, rid) == final_chunks
    assert search(library, "When is the workshop?", k=3)[0].recording_id == rid


@pytest.mark.slow
def test_passes_over_one_recording_from_several_threads_take_turns(library: Library, models: None) -> None:
    import threading

    rid = add_note(
        library,
        "Millbrook",
        "2026-04-14T09:15:00",
        [(None, f"Sentence {i} about boilers and heat pumps in the dye house.") for i in range(40)],
    )
    reports = []
    threads = [
        threading.Thread(target=lambda: reports.append(index_recording(library, rid, final=True)))
        for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    chunks = index.recording_chunks(library.store, rid)
    # One pass did the work; the others found it done (no duplicate or missing chunks).
    assert sorted(r.added for r in reports) == [0, 0, len(chunks)]
    covered = [i for c in chunks for i in range(c.first_idx, c.last_idx + 1)]
    assert covered == [s.idx for s in recordings.list_segments(library.store, rid)]
