"""A recording's self-corrections in the library: written by the consolidate job
(`store_corrections`, replacing the recording's earlier ones) and listed by recording or by the
segments either side touches (`list_corrections`, as `StoredCorrection`), for the UI, the CLI,
answers and the evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.consolidate.correction_phrases import Correction
from memory.store.store import Store, now_iso
from memory.text.doc import Doc


def store_corrections(store: Store, recording_id: int, corrections: list[Correction], doc: Doc) -> list[int]:
    """Replace the recording's corrections with these; returns their ids, in order."""
    ids = []
    with store.transaction():
        store.execute("DELETE FROM corrections WHERE recording_id = ?", (recording_id,))
        for c in corrections:
            wrong_seg = doc.segments[c.wrong.first_segment]
            right_seg = doc.segments[c.right.first_segment]
            ids.append(
                store.execute(
                    "INSERT INTO corrections (recording_id, marker, wrong_segment_id, wrong_start, wrong_end,"
                    " wrong_text, right_segment_id, right_start, right_end, right_text, kind, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        recording_id,
                        c.marker,
                        wrong_seg.id,
                        c.wrong.seg_start,
                        c.wrong.seg_start + len(c.wrong.text),
                        c.wrong.text,
                        right_seg.id,
                        c.right.seg_start,
                        c.right.seg_start + len(c.right.text),
                        c.right.text,
                        c.kind,
                        now_iso(),
                    ),
                )
            )
    return ids


@dataclass(frozen=True)
class StoredCorrection:
    id: int
    recording_id: int
    marker: str
    kind: str
    wrong_segment_id: int
    wrong_start: int
    wrong_end: int
    wrong_text: str
    right_segment_id: int
    right_start: int
    right_end: int
    right_text: str

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


_SELECT = (
    "SELECT id, recording_id, marker, kind, wrong_segment_id, wrong_start, wrong_end, wrong_text,"
    " right_segment_id, right_start, right_end, right_text FROM corrections"
)


def list_corrections(
    store: Store, *, recording_id: int | None = None, segment_ids: list[int] | None = None
) -> list[StoredCorrection]:
    if segment_ids is not None:
        if not segment_ids:
            return []
        marks = ",".join("?" * len(segment_ids))
        rows = store.all(
            f"{_SELECT} WHERE wrong_segment_id IN ({marks}) OR right_segment_id IN ({marks}) ORDER BY id",
            [*segment_ids, *segment_ids],
        )
    elif recording_id is not None:
        rows = store.all(f"{_SELECT} WHERE recording_id = ? ORDER BY id", (recording_id,))
    else:
        rows = store.all(f"{_SELECT} ORDER BY id")
    return [StoredCorrection(**r) for r in rows]
