"""How common a word is follows every change to the passages, within one process.

The counts are kept in memory between questions. They were keyed by the largest passage id and
the number of passages, which repeat when the newest passage is written again (SQLite gives the
new row the id just deleted) and when a note moves to another project (its passages keep their
ids): the app then weighed the new words at nothing and saw the moved note's project as empty,
and answered "not in your notes" until it restarted.
"""

from __future__ import annotations

from memory.search import index
from memory.search.chunking import chunk_segments
from memory.store import note_ops, projects, recordings
from memory.store.recordings import SegmentIn
from memory.store.store import Store
from memory.store.word_stats import word_stats


def _note(store: Store, project: str, texts: list[str]) -> int:
    pid = projects.add_project(store, project, exist_ok=True).id
    rid = recordings.create_recording(
        store, project_id=pid, spoken_at="2026-03-02T09:00:00", source="transcript"
    )
    recordings.append_segments(
        store, rid, [SegmentIn(i * 10.0, i * 10.0 + 8, t) for i, t in enumerate(texts)]
    )
    _index(store, rid)
    return rid


def _index(store: Store, rid: int) -> None:
    """The note's passages written again from its segments as they read now (what re-indexing
    after an edit does: the stale passages out, the new ones in, in one transaction)."""
    rec = recordings.get_recording(store, rid)
    index.write_chunks(
        store,
        recording_id=rid,
        project_id=rec.project_id,
        spoken_at=rec.spoken_at,
        remove=[c.id for c in index.recording_chunks(store, rid)],
        add=chunk_segments(recordings.list_segments(store, rid)),
        vectors={},
    )


def test_a_word_of_the_newest_passage_written_again_is_counted(store: Store) -> None:
    _note(store, "Atlas", ["The workshop is on Tuesday in Leeds."])
    rid = _note(store, "Atlas", ["Maria will bring the slides."])
    before = [c.id for c in index.recording_chunks(store, rid)]
    assert word_stats(store, ["banner"]).count("banner") == 0
    segment = recordings.list_segments(store, rid)[0]
    recordings.save_edit(store, segment.id, "Maria will bring the printed banners.")
    _index(store, rid)
    assert [c.id for c in index.recording_chunks(store, rid)] == before  # the same id, new words
    assert word_stats(store, ["banner"]).count("banner") == 1
    assert word_stats(store, ["slide"]).count("slide") == 0


def test_a_note_moved_to_another_project_counts_there(store: Store) -> None:
    _note(store, "Atlas", ["The workshop is on Tuesday in Leeds."])
    rid = _note(store, "Inbox", ["The harbour survey costs forty thousand pounds."])
    atlas = projects.get_project(store, "Atlas").id
    assert word_stats(store, ["harbour"], [atlas]).count("harbour") == 0
    note_ops.move(store, rid, atlas)
    moved = word_stats(store, ["harbour"], [atlas])
    assert moved.passages == 2 and moved.count("harbour") == 1


def test_counts_are_read_again_only_when_a_passage_changes(store: Store) -> None:
    from memory.store import word_stats as module

    _note(store, "Atlas", ["The workshop is on Tuesday in Leeds."])
    word_stats(store, ["workshop"])
    first = module._counts[store]
    recordings.create_recording(
        store, project_id=projects.get_project(store, "Atlas").id, spoken_at="2026-03-03", source="transcript"
    )
    word_stats(store, ["workshop"])
    assert module._counts[store] is first  # a write that touches no passage keeps the counts
