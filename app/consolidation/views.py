"""What the desktop app's consolidation panels read, each in one call (built on app.consolidation.service).

- `recording_panel(library, recording_id)`: a recording's facts, self-corrections, connections and
  off-project stretches, with what replaced each superseded fact and where each correction was said.
- `new_connections(library)`: connections nobody has accepted or dismissed yet, newest first.
- `commitment_groups(library, today)`: every project's commitments as of a day, by due date: overdue,
  due, with no date said, and done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from app.consolidation.service import (
    RecordingLayers,
    list_commitments,
    list_connections,
    list_facts,
    recording_layers,
)
from app.library import Library
from app.recording_service import list_segments
from memory.consolidate.commitment_store import Commitment
from memory.consolidate.connection_store import Connection, Side
from memory.consolidate.correction_store import StoredCorrection
from memory.consolidate.digest import DigestItem
from memory.consolidate.facts import Fact
from memory.consolidate.stretches import Stretch
from memory.store.ids import RecordingId

__all__ = [  # the types too: the window reads them from here, never from memory/
    "Commitment",
    "CommitmentGroups",
    "Connection",
    "DigestItem",
    "Fact",
    "RecordingPanel",
    "Side",
    "StoredCorrection",
    "Stretch",
    "commitment_groups",
    "new_connections",
    "recording_panel",
]


@dataclass
class RecordingPanel:
    layers: RecordingLayers
    replaced_by: dict[int, Fact] = field(default_factory=dict)  # superseded fact id -> its successor
    segment_starts: dict[int, float] = field(default_factory=dict)  # segment id -> second it starts


def recording_panel(library: Library, recording_id: RecordingId) -> RecordingPanel:
    layers = recording_layers(library, recording_id)
    panel = RecordingPanel(layers)
    successors = {f.superseded_by for f in layers.facts if f.superseded_by is not None}
    if successors:  # validity is resolved per project, so a successor is a fact of the same project
        for project in {f.project for f in layers.facts if f.superseded_by is not None}:
            for fact in list_facts(library, project=project):
                if fact.id in successors:
                    panel.replaced_by.update({f.id: fact for f in layers.facts if f.superseded_by == fact.id})
    if layers.corrections:
        panel.segment_starts = {s.id: s.start for s in list_segments(library, recording_id)}
    return panel


def _newest(c: Connection) -> tuple[str, str, int]:
    return (max(c.a.spoken_at, c.b.spoken_at), c.created_at, c.id)


def new_connections(library: Library, *, project: str | None = None) -> list[Connection]:
    """Undecided connections, newest first (by the later of their two notes)."""
    found = [c for c in list_connections(library, project=project) if c.verdict is None]
    return sorted(found, key=_newest, reverse=True)


@dataclass
class CommitmentGroups:
    """Commitments as of `today`, each list by due date (then by when it was said)."""

    today: date
    overdue: list[Commitment] = field(default_factory=list)
    due: list[Commitment] = field(default_factory=list)
    undated: list[Commitment] = field(default_factory=list)
    done: list[Commitment] = field(default_factory=list)

    @property
    def open(self) -> int:
        return len(self.overdue) + len(self.due) + len(self.undated)


def commitment_groups(library: Library, *, today: date | None = None) -> CommitmentGroups:
    """Every project's commitments said by `today` (default: today), grouped; done means a note of
    that day or before said so."""
    day = today or date.today()
    groups = CommitmentGroups(day)
    for c in list_commitments(library):
        if c.spoken_at[:10] > day.isoformat():
            continue
        if c.done_on(day):
            groups.done.append(c)
        elif c.overdue(day):
            groups.overdue.append(c)
        elif c.due_date is not None:
            groups.due.append(c)
        else:
            groups.undated.append(c)
    return groups
