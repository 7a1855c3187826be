"""Facts in the store: written per recording, their validity recomputed per project, read back.

Validity, oldest first: a fact that says an earlier fact's value again restates it (the earlier
one stays the origin); a fact said as a change whose attribute shares enough words (weighted by
rarity) with an earlier current fact of the same kind of value supersedes it: the earlier one gets
valid_until and superseded_by, and both stay.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memory.consolidate.facts import MIN_ATTRIBUTE_OVERLAP, Fact, FactIn, check_quote
from memory.store.store import Store, now_iso
from memory.text.doc import Doc
from memory.text.quotes import ClaimKind
from memory.text.relevance import stem


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


# --- validity: restatements and supersession ----------------------------------------------------------
@dataclass
class _Row:
    id: int
    recording_id: int
    spoken_at: str
    value_kind: str
    value_norm: str
    context: set[str]
    changed: bool
    kind: str
    restates: int | None = None
    superseded_by: int | None = None
    valid_until: str | None = None


def _unit(row: _Row) -> str:
    return row.value_norm.split(" ", 1)[1] if row.value_kind == "count" and " " in row.value_norm else ""


def _same_thing(a: _Row, b: _Row) -> bool:
    """Counts are only comparable when they count the same thing ("44 suppliers", "36 suppliers")."""
    if a.value_kind != "count":
        return True
    ua, ub = _unit(a), _unit(b)
    return ua == ub or (not ua and stem(ub) in a.context) or (not ub and stem(ua) in b.context)


def _number(row: _Row) -> str:
    return row.value_norm.split(" ", 1)[0] if row.value_kind == "count" else row.value_norm


def _overlap(a: _Row, b: _Row, weights: dict[str, float]) -> float:
    return sum(weights.get(w, 0.0) for w in a.context & b.context)


def resolve_validity(store: Store, project_id: int) -> int:
    """Recompute restatements and supersession for one project, oldest first. Returns supersessions."""
    rows = [
        _Row(
            r["id"],
            r["recording_id"],
            r["spoken_at"],
            r["value_kind"],
            r["value_norm"],
            set(r["context"].split()),
            bool(r["changed"]),
            r["kind"],
        )
        for r in store.all(
            "SELECT id, recording_id, spoken_at, value_kind, value_norm, context, changed, kind FROM facts"
            " WHERE project_id = ? ORDER BY spoken_at, id",
            (project_id,),
        )
    ]
    df = Counter(w for r in rows for w in r.context)
    weights = {w: math.log(1 + len(rows) / n) for w, n in df.items()}
    superseded = 0
    for i, new in enumerate(rows):
        earlier = [
            old
            for old in rows[:i]
            if old.value_kind == new.value_kind and _same_thing(old, new) and old.kind == ClaimKind.STATED
        ]
        same = [o for o in earlier if _number(o) == _number(new) and _overlap(o, new, weights) > 0]
        if same:
            origin = same[0]
            new.restates = origin.restates or origin.id
            continue
        if not new.changed or new.kind != ClaimKind.STATED:
            continue
        current = [
            o for o in earlier if o.valid_until is None and o.restates is None and o.spoken_at < new.spoken_at
        ]
        scored = [(_overlap(o, new, weights), o.spoken_at, o) for o in current]
        scored = [s for s in scored if s[0] >= MIN_ATTRIBUTE_OVERLAP]
        if scored:
            _, _, old = max(scored, key=lambda s: (s[0], s[1]))
            old.superseded_by, old.valid_until = new.id, new.spoken_at
            superseded += 1
    with store.transaction():
        store.executemany(
            "UPDATE facts SET restates = ?, superseded_by = ?, valid_until = ? WHERE id = ?",
            [(r.restates, r.superseded_by, r.valid_until, r.id) for r in rows],
        )
    return superseded


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
    """Facts, newest first. `as_of`: what was known then (said by then, not yet superseded then)."""
    where, params = [], list[object]()
    if project_id is not None:
        where.append("f.project_id = ?")
        params.append(project_id)
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
