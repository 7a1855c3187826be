"""Make recordings searchable: chunk their segments, embed the chunks, write FTS and vectors.

Called after every committed batch of segments (final=False: only the complete chunks), at the end
of a transcription or an import (final=True: everything, then the recording is "indexed"), with
provisional=True for the live transcript when a recording stops, after an edit, and at start-up
(`index_pending`). Every call is idempotent: it compares the chunks the segments make now with the
chunks stored, removes the stale ones and adds the new ones; unchanged text is never re-embedded
(vectors are cached by content hash and model). Runs on the caller's thread: the UI calls it from
a worker. Embeds in batches; each batch is written with its chunks in one transaction.

Several threads may index the same recording at once (the job worker finishing a transcription,
start-up's `index_pending`, an edit): one at a time per recording, and each reads the recording
afresh once it has its turn. A pass that was asked for as incomplete (final=False, decided from an
older look at the recording) is made complete when the recording has since become "indexed":
otherwise it would hold back the transcript's tail and remove the final pass's chunks, leaving an
"indexed" note that search cannot find.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from app.library import Library
from memory.search import index
from memory.search.chunking import ChunkSpec, chunk_segments
from memory.store import recordings
from memory.store.store import Store
from models.errors import CancelledError, ModelError

log = logging.getLogger(__name__)

BATCH = 16  # chunks per embedding batch and write transaction (~1 s of MiniLM here)

Cancelled = Callable[[], bool]
Progress = Callable[[float], None]

_turns_lock = threading.Lock()
_turns: weakref.WeakKeyDictionary[Store, dict[int, threading.Lock]] = weakref.WeakKeyDictionary()


def _turn(library: Library, recording_id: int) -> threading.Lock:
    """The lock that gives one indexing pass at a time to a recording of this library's store."""
    with _turns_lock:
        return _turns.setdefault(library.store, {}).setdefault(recording_id, threading.Lock())


@dataclass
class IndexReport:
    recording_id: int | None
    chunks: int = 0  # chunks of the recording after this call
    added: int = 0
    removed: int = 0
    embedded: int = 0  # vectors computed by the model
    cached: int = 0  # vectors taken from the cache
    unembedded: int = 0  # chunks stored without a vector (no embedding model available)
    segments_embedded: int = 0  # segment vectors computed (they rank passages within chunks)
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return asdict(self)


class _Vectors:
    """Embeds with the library's model, through the cache; None model = keyword-only indexing."""

    def __init__(self, library: Library) -> None:
        self.store = library.store
        self.embedder = None
        self.model = ""
        try:
            embedder = library.models.embedder()
            dims = embedder.dims
            self.model = library.models.embedding_model_name()
            index.ensure_vector_table(self.store, self.model, dims)
            self.embedder = embedder
        except ModelError as exc:
            # Keyword search must keep working without the model; vectors follow on a later run.
            log.warning("indexing without vectors: %s", exc.message)

    def for_texts(
        self, items: Sequence[tuple[str, str]], report: IndexReport, cancelled: Cancelled | None
    ) -> dict[str, np.ndarray]:
        """{sha: vector} for (sha, text) pairs: from the cache, else computed (and cached)."""
        if self.embedder is None:
            return {}
        found = index.cached_vectors(self.store, (sha for sha, _ in items), self.model)
        missing = {sha: text for sha, text in items if sha not in found}
        report.cached += len({sha for sha, _ in items} & set(found))
        if missing:
            shas = list(missing)
            vectors = self.embedder.embed([missing[s] for s in shas], cancelled=cancelled)
            computed = dict(zip(shas, vectors, strict=True))
            with self.store.transaction():
                index.cache_vectors(self.store, self.model, computed)
            report.embedded += len(computed)
            found.update(computed)
        return found


def _check(cancelled: Cancelled | None) -> None:
    if cancelled is not None and cancelled():
        raise CancelledError("indexing cancelled; what was indexed so far is kept")


READ_PAGE = 5000  # segments read between two looks at the cancel flag


def _desired_chunks(
    library: Library,
    recording_id: int,
    *,
    final: bool,
    provisional: bool,
    cancelled: Cancelled | None = None,
) -> list[ChunkSpec]:
    if provisional:
        return chunk_segments(index.live_segments(library.store, recording_id), final=True)
    # Read in pages: a note of tens of megabytes has 10^5 segments, seconds of reading
    # (by windows of segment numbers, to the first empty window).
    segments: list[recordings.Segment] = []
    start = 0
    while True:
        _check(cancelled)
        page = recordings.list_segments(
            library.store, recording_id, first_idx=start, last_idx=start + READ_PAGE - 1
        )
        if not page:
            break
        segments += page
        start += READ_PAGE
    return chunk_segments(segments, final=final, cancelled=cancelled)


def index_recording(
    library: Library,
    recording_id: int,
    *,
    final: bool = True,
    provisional: bool = False,
    cancelled: Cancelled | None = None,
    progress: Progress | None = None,
) -> IndexReport:
    """Bring one recording's chunks, FTS rows and vectors up to date with its segments."""
    with _turn(library, recording_id):
        return _index_recording(
            library,
            recording_id,
            final=final,
            provisional=provisional,
            cancelled=cancelled,
            progress=progress,
        )


def _index_recording(
    library: Library,
    recording_id: int,
    *,
    final: bool,
    provisional: bool,
    cancelled: Cancelled | None,
    progress: Progress | None,
) -> IndexReport:
    began = time.perf_counter()
    store = library.store
    recording = recordings.get_recording(store, recording_id)
    if not provisional and recording.status in ("indexed", "consolidated"):
        final = True  # the transcript is complete: never hold its tail back again
    report = IndexReport(recording_id)
    if recording.trashed_at is not None:  # in the trash: out of search; a pass under way ends here
        stale = [c.id for c in index.recording_chunks(store, recording_id)]
        if stale:
            index.write_chunks(
                store,
                recording_id=recording_id,
                project_id=recording.project_id,
                spoken_at=recording.spoken_at,
                remove=stale,
                add=[],
                vectors={},
            )
        report.removed = len(stale)
        return report
    remove, add = _plan(library, recording, final=final, provisional=provisional, cancelled=cancelled)
    vectors = _Vectors(library)
    report.removed = len(remove)
    for start in range(0, max(len(add), 1), BATCH):
        _check(cancelled)
        batch = add[start : start + BATCH]
        found = vectors.for_texts([(s.content_sha256, s.text) for s in batch], report, cancelled)
        index.write_chunks(
            store,
            recording_id=recording_id,
            project_id=recording.project_id,
            spoken_at=recording.spoken_at,
            remove=remove if start == 0 else [],
            add=batch,
            vectors=found,
            provisional=provisional,
        )
        report.added += len(batch)
        report.unembedded += sum(1 for s in batch if s.content_sha256 not in found)
        if progress is not None and add:
            progress(min(1.0, (start + len(batch)) / len(add)))
    _embed_leftovers(library, vectors, recording_id, report, cancelled)
    if not provisional:
        _embed_segments(library, vectors, recording_id, report, cancelled)
    report.chunks = sum(
        1 for c in index.recording_chunks(store, recording_id) if c.provisional == provisional
    )
    changed = report.added or report.removed or recording.status not in ("indexed", "consolidated")
    if final and not provisional and changed:
        recordings.set_status(store, recording_id, "indexed", progress=1.0)
    report.seconds = time.perf_counter() - began
    return report


def _plan(
    library: Library,
    recording: recordings.Recording,
    *,
    final: bool,
    provisional: bool,
    cancelled: Cancelled | None = None,
) -> tuple[list[int], list[ChunkSpec]]:
    """(chunk ids to remove, chunks to add): what the segments make now against what is stored.

    Chunks stay when their segments and text are unchanged; a recording moved to another project
    or date has all its chunks written again (from the vector cache).
    """
    desired = _desired_chunks(
        library, recording.id, final=final, provisional=provisional, cancelled=cancelled
    )
    existing = index.recording_chunks(library.store, recording.id)
    where = (recording.project_id, recording.spoken_at)
    moved = {c.id for c in existing if (c.project_id, c.spoken_at) != where}
    same_kind = [c for c in existing if c.provisional == provisional and c.id not in moved]
    wanted = {(s.first_idx, s.last_idx, s.content_sha256) for s in desired}
    remove = [c.id for c in same_kind if c.key not in wanted] + sorted(moved)
    have = {c.key for c in same_kind if c.key in wanted}
    add = [s for s in desired if (s.first_idx, s.last_idx, s.content_sha256) not in have]
    if not provisional:
        remove += _superseded_provisional(existing, desired, final=final, moved=moved)
    return remove, add


def _superseded_provisional(
    existing: Sequence[index.StoredChunk], desired: Sequence[ChunkSpec], *, final: bool, moved: set[int]
) -> list[int]:
    """Live-transcript chunks that the final transcript now covers (all of them at the end)."""
    provisional = [c for c in existing if c.provisional and c.id not in moved]
    if final:
        return [c.id for c in provisional]
    covered_until = max((s.end for s in desired), default=0.0)
    return [c.id for c in provisional if c.start < covered_until]


def _embed_leftovers(
    library: Library, vectors: _Vectors, recording_id: int, report: IndexReport, cancelled: Cancelled | None
) -> None:
    """Vectors for stored chunks that have none (stored while the model was missing, or a rebuild)."""
    if vectors.embedder is None:
        return
    chunks = [c for c in index.recording_chunks(library.store, recording_id) if not c.embedded]
    for start in range(0, len(chunks), BATCH):
        _check(cancelled)
        batch = chunks[start : start + BATCH]
        found = vectors.for_texts([(c.content_sha256, c.text) for c in batch], report, cancelled)
        index.write_vectors(library.store, batch, found)


def _embed_segments(
    library: Library, vectors: _Vectors, recording_id: int, report: IndexReport, cancelled: Cancelled | None
) -> None:
    """Vectors for the segments inside the recording's final chunks (the open tail waits)."""
    if vectors.embedder is None:
        return
    store = library.store
    covered = [c.last_idx for c in index.recording_chunks(store, recording_id) if not c.provisional]
    if not covered:
        return
    todo = index.segments_to_embed(store, recording_id, vectors.model, upto_idx=max(covered))
    for start in range(0, len(todo), BATCH):
        _check(cancelled)
        batch = todo[start : start + BATCH]
        computed = vectors.embedder.embed([s.text for s in batch], cancelled=cancelled)
        index.write_segment_vectors(store, vectors.model, batch, computed)
        report.segments_embedded += len(batch)


def embed_missing(
    library: Library, *, cancelled: Cancelled | None = None, progress: Progress | None = None
) -> IndexReport:
    """Vectors for every chunk without one: after a change of embedding model, or a missing model."""
    began = time.perf_counter()
    report = IndexReport(None)
    vectors = _Vectors(library)
    if vectors.embedder is None:
        report.unembedded = index.count_unembedded(library.store)
        return report
    store = library.store
    total = max(index.count_unembedded(store), 1)
    after = 0
    while True:
        _check(cancelled)
        batch = index.unembedded_chunks(store, limit=BATCH, after_id=after)
        if not batch:
            break
        after = batch[-1].id
        found = vectors.for_texts([(c.content_sha256, c.text) for c in batch], report, cancelled)
        index.write_vectors(store, batch, found)
        if progress is not None:
            progress(min(1.0, (report.embedded + report.cached) / total))
    for recording_id in index.recordings_missing_segment_vectors(store, vectors.model):
        _embed_segments(library, vectors, recording_id, report, cancelled)
    report.unembedded = index.count_unembedded(store)
    report.seconds = time.perf_counter() - began
    return report


def index_pending(
    library: Library, cancelled: Cancelled | None = None, progress: Progress | None = None
) -> list[IndexReport]:
    """Index everything not indexed yet (run at start-up and by `verbatim index`)."""
    store = library.store
    reports = []
    pending = [
        r
        for r in recordings.list_recordings(store)
        if r.segments
        and (r.status in ("queued", "transcribing") or not index.recording_chunks(store, r.id))
        and r.status != "recording"
    ]
    for number, rec in enumerate(reversed(pending)):  # oldest first
        _check(cancelled)
        # A failed or cancelled transcription keeps what it transcribed searchable, and stays failed:
        # a complete pass would call it "indexed" (Ready) at the next start, undoing the cancel.
        complete = rec.source == "transcript" or rec.status not in ("queued", "transcribing", "failed")
        reports.append(index_recording(library, rec.id, final=complete, cancelled=cancelled))
        if progress is not None:
            progress((number + 1) / (len(pending) + 1))
    leftovers = embed_missing(library, cancelled=cancelled)
    if leftovers.embedded or leftovers.cached or leftovers.unembedded or leftovers.segments_embedded:
        reports.append(leftovers)
    if progress is not None:
        progress(1.0)
    return reports
