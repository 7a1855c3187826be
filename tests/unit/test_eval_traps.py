"""`eval consolidation` counts an inference trap as stated only when a stated fact's value is among
the trap's words: a fact quotes its whole sentence, and a value said beside the trap in that
sentence is what the note states (sentences written for this test)."""

from __future__ import annotations

from types import SimpleNamespace

from bench.evals.consolidation_eval import Locator
from memory.store import projects, recordings
from memory.store.store import Store

SENTENCE = (
    "Ralf would love to be picking in the hall before Christmas, he said that twice, "
    "but realistically the first pick stays in January."
)
TRAP = "Ralf would love to be picking in the hall before Christmas"


def test_a_value_beside_the_trap_is_not_the_trap(store: Store) -> None:
    project = projects.add_project(store, "kestlinger")
    rid = recordings.create_recording(
        store, project_id=project.id, spoken_at="2027-10-04T09:00:00", source="transcript"
    )
    [segment] = recordings.append_segments(store, rid, [recordings.SegmentIn(0.0, 9.0, SENTENCE)])
    locate = Locator(SimpleNamespace(store=store))  # type: ignore[arg-type]
    assert not locate.value_in(rid, SENTENCE, "in January", TRAP, segment)
    assert locate.value_in(rid, SENTENCE, "before Christmas", TRAP, segment)
    # a value whose place in its quote cannot be told counts when the quotes overlap
    assert locate.value_in(rid, SENTENCE, "Yule", TRAP, segment)
    assert not locate.value_in(
        rid, "but realistically the first pick stays in January", "in January", TRAP, segment
    )
