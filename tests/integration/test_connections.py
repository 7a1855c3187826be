"""Connections: verdicts re-weight the signals (online logistic model), choices keep one connection
per shared thing, rationales are checked; and `verbatim eval consolidation` on the development set."""

from __future__ import annotations

import json

import pytest

from app.consolidation.stages import usable_rationale
from memory.consolidate import connection_store
from memory.consolidate.connection_kinds import template_rationale
from memory.consolidate.connections import (
    PRIOR,
    Candidate,
    SegmentRef,
    choose,
    load_weights,
    probability,
)
from memory.store.store import Store
from tests.conftest import eval_set, require_models
from tests.support.cli import run


def _candidate(a_id: int, b_id: int, shared: dict[str, set[str]], **features: float) -> Candidate:
    a = SegmentRef(
        a_id, 1, 1, "Tomasz Wilk from Brightline Signs will quote for the kiosks.", 0.0, 4.0, "2026-02-02"
    )
    b = SegmentRef(
        b_id, 2, 2, "Tomasz Wilk from Brightline Signs is doing the signs.", 0.0, 4.0, "2026-02-10"
    )
    c = Candidate(a, b, shared, {v: v.title() for vs in shared.values() for v in vs})
    c.features = {"bias": 1.0, **features}
    return c


def test_one_connection_per_shared_thing_and_pair_of_projects() -> None:
    both = _candidate(
        1, 10, {"person": {"tomasz wilk"}, "organisation": {"brightline signs"}}, person=1, organisation=1
    )
    one = _candidate(1, 11, {"organisation": {"brightline signs"}}, organisation=1)
    again = _candidate(2, 12, {"person": {"tomasz wilk"}}, person=1)
    weak = _candidate(3, 13, {"date": {"2026-03-27"}}, date=1)
    chosen = choose([one, again, weak, both], dict(PRIOR), {})
    assert chosen == [both]  # the others share nothing it does not; a bare date is too weak
    assert "Tomasz Wilk" in template_rationale(both, [])
    unknown = _candidate(4, 14, {"name": {"redis"}}, name=1)
    # A name of unknown kind is said as itself, never as "the same name" or a guessed kind.
    assert template_rationale(unknown, []) == "Both projects name Redis."


def test_verdicts_reweight_the_signals(store: Store) -> None:
    features = {"bias": 1.0, "date": 1.0, "clash": 1.0}
    before = probability(features, load_weights(store))
    for _ in range(5):
        connection_store.learn(store, features, accepted=False)
    after = load_weights(store)
    assert probability(features, after) < before
    assert after["clash"] < PRIOR["clash"] and after["person"] == PRIOR["person"]  # unused signals stay
    for _ in range(5):
        connection_store.learn(store, features, accepted=True)
    assert probability(features, load_weights(store)) > probability(features, after)


def test_a_model_rationale_is_kept_only_when_it_says_nothing_new() -> None:
    c = _candidate(1, 10, {"person": {"tomasz wilk"}}, person=1)
    names = {1: "Harbour App", 2: "Linden Bakery"}
    assert usable_rationale("Tomasz Wilk from Brightline Signs works on both projects.", c, names)
    assert usable_rationale("Tomasz was paid 40,000 euros by both clients.", c, names) is None
    assert usable_rationale('{"claims": []}', c, names) is None


@pytest.mark.slow
def test_eval_consolidation_on_the_development_set() -> None:
    require_models()
    path = eval_set("consultant-dev")
    result = run("eval", "consolidation", str(path), "--no-llm", "--json")
    assert result.code == 0, result.err
    report = result.json()
    assert {"self_corrections", "superseded", "connections", "traps_stated"} <= set(report)
    for part in ("self_corrections", "superseded", "connections"):
        assert {"precision", "recall"} <= set(report[part])
        assert 0.0 <= report[part]["precision"] <= 1.0 and 0.0 <= report[part]["recall"] <= 1.0
    key = json.loads((path / "key.json").read_text())
    assert report["self_corrections"]["key"] == len(key["self_corrections"])
    assert report["traps_stated"] == 0  # hedged, conditional and second-hand sentences give no facts
    # The rules alone find most planted corrections and changes (deterministic: no model).
    assert report["self_corrections"]["recall"] >= 0.7 and report["superseded"]["recall"] >= 0.5
