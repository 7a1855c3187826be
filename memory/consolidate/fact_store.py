"""Facts in the store: written per recording, filed by the project they are about, read back.

Their validity (restatements and supersession) is recomputed per project by
memory/consolidate/fact_validity.py and written back to the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from memory.consolidate.facts import Fact, FactIn, check_quote
from memory.consolidate.stretches import list_stretches
from memory.store.store import Store, now_iso
from memory.text.doc import Doc
from memory.text.quotes import ClaimKind


def store_facts(
    store: Store,
    recording_id: int,
    doc: Doc,
    facts: Sequence[FactIn],
    correction_ids: Sequence[int],
    *,
    source: str | None = None,
) -> int:
    """Replace the recording's facts (of `source`, or all) with these. Returns how many were stored."""
    spoken_at = doc.spoken_at.isoformat()
    stored = 0
    with store.transaction():
        if source is None:
            store.execute("DELETE FROM facts WHERE recording_id = ?", (recording_id,))
        else:
            store.execute("DELETE FROM facts WHERE recording_id = ? AND source = ?", (recording_id, source))
        for f in facts:
            if not check_quote(doc, f):
                continue
            first = doc.segments[f.quote.first_segment]
            value_seg = doc.segment_at(f.value_start)
            store.execute(
                "INSERT INTO facts (recording_id, project_id, subject, attribute, value, value_kind,"
                " value_norm,"
                " context, kind, quote, segment_ids, first_segment_id, start, end, value_start, value_end,"
                " spoken_at, valid_from, changed, correction_id, source, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    recording_id,
                    f.project_id,
                    f.subject,
                    f.attribute,
                    f.value,
                    f.value_kind,
                    f.value_norm,
                    " ".join(sorted(f.context)),
                    f.kind,
                    f.quote.text,
                    json.dumps(list(f.quote.segment_ids)),
                    first.id,
                    f.quote.time_start,
                    f.quote.time_end,
                    f.value_start - doc.offsets[value_seg],
                    f.value_end - doc.offsets[value_seg],
                    spoken_at,
                    spoken_at,
                    int(f.changed),
                    correction_ids[f.correction]
                    if f.correction is not None and f.correction < len(correction_ids)
                    else None,
                    f.source,
                    now_iso(),
                ),
            )
            stored += 1
    return stored


def about_projects(store: Store, recording_id: int, project_id: int, idxs: Sequence[int]) -> list[int]:
    """The project each segment (by idx, in order) is about: the project of an aside about another
    project (a stretch suggested or assigned, not dismissed), else the note's. Facts are filed
    where the note is (until the user assigns the aside) but are about this project."""
    about = dict.fromkeys(idxs, project_id)
    for s in sorted(list_stretches(store, recording_id=recording_id), key=lambda s: s.status == "assigned"):
        if s.status == "dismissed":
            continue
        for idx in idxs:
            if s.first_idx <= idx <= s.last_idx:
                about[idx] = s.project_id
    return [about[i] for i in idxs]


def subject_projects(store: Store, recording_id: int) -> set[int]:
    """The projects a recording's facts are about (by their subject), for resolving validity."""
    return {
        int(r[0])
        for r in store.rows(
            "SELECT DISTINCT p.id FROM facts f JOIN projects p ON p.name = f.subject"
            " WHERE f.recording_id = ?",
            (recording_id,),
        )
    }


# --- reading ------------------------------------------------------------------------------------------
_SELECT = """
SELECT f.id, f.recording_id, f.project_id, p.name AS project, f.subject, f.attribute, f.value, f.value_kind,
       f.value_norm, f.kind, f.quote, f.segment_ids, f.start, f.end, f.spoken_at, f.valid_from, f.valid_until,
       f.superseded_by, f.restates, f.changed, f.correction_id, f.source, f.context,
       (SELECT group_concat(o.id) FROM facts o WHERE o.superseded_by = f.id) AS replaced
FROM facts f JOIN projects p ON p.id = f.project_id
"""


def _fact(row: dict[str, Any]) -> Fact:
    replaced = [int(x) for x in str(row.pop("replaced") or "").split(",") if x]
    return Fact(
        **{
            **row,
            "segment_ids": json.loads(row["segment_ids"]),
            "kind": ClaimKind(row["kind"]),
            "changed": bool(row["changed"]),
            "replaced": replaced,
        }
    )


def list_facts(
    store: Store,
    *,
    project_id: int | None = None,
    recording_id: int | None = None,
    as_of: str | None = None,
    current_only: bool = False,
    include_restatements: bool = False,
) -> list[Fact]:
    """Facts, newest first. `as_of`: what was known then (said by then, not yet superseded then).
    `project_id`: the facts filed under the project and those about it said in other projects' notes."""
    where, params = [], list[object]()
    if project_id is not None:  # filed under the project, or about it (an aside in another project's note)
        where.append("(f.project_id = ? OR f.subject = (SELECT name FROM projects WHERE id = ?))")
        params += [project_id, project_id]
    if recording_id is not None:
        where.append("f.recording_id = ?")
        params.append(recording_id)
    if as_of is not None:
        where.append("f.spoken_at <= ? AND (f.valid_until IS NULL OR f.valid_until > ?)")
        params += [as_of, as_of]
    elif current_only:
        where.append("f.valid_until IS NULL")
    if not include_restatements and recording_id is None:
        where.append("f.restates IS NULL")
    sql = (
        _SELECT
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY f.spoken_at DESC, f.start, f.id"
    )
    return [_fact(r) for r in store.all(sql, params)]


def get_fact(store: Store, fact_id: int) -> Fact | None:
    row = store.one(_SELECT + " WHERE f.id = ?", (fact_id,))
    return _fact(row) if row else None


def facts_in_segments(store: Store, segment_ids: Sequence[int]) -> list[Fact]:
    """Facts whose quote starts in one of these segments."""
    if not segment_ids:
        return []
    marks = ",".join("?" * len(segment_ids))
    return [
        _fact(r)
        for r in store.all(
            _SELECT + f" WHERE f.first_segment_id IN ({marks}) ORDER BY f.id", list(segment_ids)
        )
    ]
