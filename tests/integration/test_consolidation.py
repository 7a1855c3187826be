"""Consolidation end to end on a small real store: imported through the normal path, consolidated
with the real default chat model (which is weak: nothing here depends on it being right), then read
through the services, the CLI, the job queue and the answers.

What is asserted is deterministic (the rule-based layers) or an invariant that must hold whatever
the model says: every fact quotes raw words verbatim, model facts are only stated values that are
words of their quote, every model call is logged.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.ask import AskRequest, ask
from app.consolidation.service import (
    assign_stretch,
    consolidate,
    consolidate_recording,
    enqueue_pending,
    list_connections,
    list_facts,
    list_stretches,
    project_digest,
    recording_layers,
)
from app.consolidation.stages import STAGES, Consolidation
from app.ingest.imports import import_corpus
from app.jobs import worker as jobs_worker
from app.library import Library
from app.paths import DataDir
from app.search import ranking_options, search
from bench.evals.ask_eval import quote_violations
from memory.consolidate.correction_store import list_corrections
from memory.search.hits import Hit
from memory.store.llm_log import list_calls
from memory.store.recordings import find_recording_by_external_id, get_recording, get_segments
from memory.text.quotes import normalise
from models.errors import CancelledError
from tests.conftest import MODELS_DIR, require_models
from tests.support.cli import run
from tests.support.consolidation_corpus import write_corpus

pytestmark = pytest.mark.slow  # libraries indexed with the embedding model, consolidated with the chat model


def _rid(library: Library, external_id: str) -> int:
    found = find_recording_by_external_id(library.store, external_id)
    assert found is not None
    return found.id


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    root = tmp_path_factory.mktemp("consolidation-library")
    library = Library(DataDir(root, MODELS_DIR))
    assert {r.status for r in import_corpus(library, write_corpus(root / "notes.jsonl"))} == {"imported"}
    reports = consolidate(library, model_seconds=20.0)
    assert [r.recording_id for r in reports] == sorted(r.recording_id for r in reports)  # oldest first
    yield library
    library.close()


def test_every_fact_quotes_raw_words_verbatim(notes: Library) -> None:
    facts = list_facts(notes)
    assert facts
    for fact in facts:
        segments = get_segments(notes.store, fact.segment_ids)
        raw = normalise(" ".join(s.raw_text for s in segments))
        assert normalise(fact.quote) in raw
        assert (segments[0].start, segments[-1].end) == (fact.start, fact.end)
        if fact.source == "model":  # the model may only state values that are words of the quote
            assert fact.kind == "stated" and normalise(fact.value) in normalise(fact.quote)
    assert all(c.response is not None or c.error for c in list_calls(notes.store, purpose="facts"))


def test_later_changes_supersede_earlier_facts_and_both_stay(notes: Library) -> None:
    harbour = {f.value: f for f in list_facts(notes, project="Harbour App") if f.source == "rules"}
    for old, new in (
        ("Friday the 20th of March", "Friday the 27th of March"),
        ("Priya Raman", "Ben Okoro"),
        ("Airtable", "Postgres"),
        ("30,000 pounds", "34,000 pounds"),
    ):
        assert harbour[old].superseded_by == harbour[new].id, old
        assert harbour[old].valid_until == harbour[new].spoken_at == "2026-03-02T10:00:00"
        assert harbour[new].current and harbour[old].id in harbour[new].replaced
    current = {f.value for f in list_facts(notes, project="Harbour App", current_only=True)}
    assert "Friday the 27th of March" in current and "Friday the 20th of March" not in current
    then = {f.value for f in list_facts(notes, project="Harbour App", as_of="2026-02-15T00:00:00")}
    assert "Friday the 20th of March" in then and "Friday the 27th of March" not in then


def test_self_corrections_are_linked_and_facts_use_the_meant_words(notes: Library) -> None:
    pairs = {(c.wrong_text, c.right_text.split(",")[0]) for c in list_corrections(notes.store)}
    assert ("Tuesday", "Wednesday the 4th of February") in pairs
    assert ("Montag", "Mittwoch") in pairs
    harbour = [f.value for f in list_facts(notes, project="Harbour App")]
    assert "Wednesday the 4th of February" in harbour and "Tuesday" not in harbour
    segment = get_segments(notes.store, [list_corrections(notes.store)[0].wrong_segment_id])[0]
    assert "no, sorry" in segment.raw_text  # the raw transcript keeps both


def test_hedged_numbers_are_never_stated_facts(notes: Library) -> None:
    assert not [
        f for f in list_facts(notes) if "90,000" in f.quote or (f.value_kind == "amount" and "90" in f.value)
    ]


def test_an_aside_is_a_stretch_linked_to_its_project(notes: Library) -> None:
    rid = _rid(notes, "harbour:1")
    [stretch] = list_stretches(notes, recording_id=rid)
    assert stretch.project == "Linden Bakery" and "Quick Linden aside" in stretch.text
    assert (stretch.first_idx, stretch.last_idx) == (8, 8)
    linden = {f.value for f in list_facts(notes, project="Linden Bakery")}
    assert "next week" in linden  # the aside's fact is Linden's, said in a Harbour note
    assert get_recording(notes.store, rid).segments == 10  # the recording stays whole


def test_connections_one_per_shared_thing_with_both_quotes(notes: Library) -> None:
    found = list_connections(notes)
    kinds = {c.kind: c for c in found}
    person = kinds["person"]
    assert {person.a.project, person.b.project} == {"Harbour App", "Linden Bakery"}
    assert "Tomasz Wilk" in person.a.quote and "Tomasz Wilk" in person.b.quote
    assert person.a.spoken_at <= person.b.spoken_at and person.to_json()["rationale"]["kind"] == "inferred"
    clash = kinds["calendar_clash"]
    assert "27th" in clash.a.quote and "27th" in clash.b.quote
    assert len([c for c in found if "tomasz wilk" in c.shared.lower()]) == 1  # not once per mention


def test_a_question_about_clashes_in_the_diary_is_answered_by_the_clash(notes: Library) -> None:
    # No project named, no "other client": the speaker's own diary spans every project.
    answer = ask(
        notes, AskRequest("Have I double-booked myself in March?", as_of="2026-03-10T09:00:00", no_llm=True)
    )
    assert answer.mode == "connections" and quote_violations(notes.store, answer) == 0
    stated = [c for c in answer.claims if c.kind == "stated"]
    assert {c.citations[0].project for c in stated} == {"Harbour App", "Linden Bakery"}
    assert all("27th" in c.text for c in stated)
    # A month with no clash in it is not answered by the March one.
    other = ask(
        notes, AskRequest("Any scheduling conflicts in May?", as_of="2026-03-10T09:00:00", no_llm=True)
    )
    assert other.mode != "connections"


def test_a_question_that_asks_for_a_kind_of_shared_thing_is_answered_by_that_kind(notes: Library) -> None:
    # No name in the question, only the kind of thing shared: a person
    answer = ask(
        notes,
        AskRequest(
            "Is anyone working for more than one of my clients?", as_of="2026-03-10T09:00:00", no_llm=True
        ),
    )
    assert answer.mode == "connections" and quote_violations(notes.store, answer) == 0
    stated = [c for c in answer.claims if c.kind == "stated"]
    assert stated and all("Tomasz Wilk" in c.text for c in stated)
    assert {c.citations[0].project for c in stated} == {"Harbour App", "Linden Bakery"}


def test_search_follows_a_connection_to_the_other_project(notes: Library) -> None:
    question = "Who will quote for the ferry kiosks?"

    def tomasz_in_linden(hits: list[Hit]) -> int:
        found = [i for i, h in enumerate(hits) if h.project == "Linden Bakery" and "Tomasz Wilk" in h.text]
        return found[0] if found else len(hits)

    linked = search(notes, question, k=5)
    assert linked[0].project == "Harbour App" and "ferry kiosks" in linked[0].text
    at = tomasz_in_linden(linked)
    assert at < len(linked) and "connected" in linked[at].components
    plain = search(notes, question, k=5, options=ranking_options(notes, link_share=0.0))
    assert at < tomasz_in_linden(plain)
    assert all("connected" not in h.components for h in plain)


def test_a_connection_the_question_is_not_about_lends_less(notes: Library) -> None:
    # The best passage holds the launch on the 27th, linked to Linden's opening that day; the
    # question is about the budget, so the link should lend Linden little of its score.
    question = "What is the phase one budget for the Harbour App now?"

    def linden(hits: list[Hit]) -> dict[int, float]:
        return {h.chunk_id: h.components["connected"] for h in hits if "connected" in h.components}

    unscaled = linden(search(notes, question, k=8, options=ranking_options(notes, link_meaning=0.0)))
    scaled = linden(search(notes, question, k=8))
    assert unscaled, "the 27th links the two notes"
    assert all(scaled.get(cid, 0.0) < 0.8 * score for cid, score in unscaled.items())


def test_a_word_that_only_ever_opens_a_sentence_links_nothing(tmp_path: Path) -> None:
    require_models()
    library = Library(DataDir(tmp_path, MODELS_DIR))
    notes = [
        ("a:1", "Alder", "Alder call", "2026-02-02T09:00:00",
         ["Wow, Congrats on the pilot going live today.", "Congrats again.",
          "Reminders now go out through Pingmate every morning."]),
        ("b:1", "Birch", "Birch call", "2026-02-09T09:00:00",
         ["Oh wow, Congrats on the grant coming through.", "Congrats.",
          "Their reminders also go out through Pingmate every morning."]),
    ]  # fmt: skip
    assert {r.status for r in import_corpus(library, write_corpus(tmp_path / "n.jsonl", notes))} == {
        "imported"
    }
    consolidate(library, use_model=False)
    shared = {c.shared.lower() for c in list_connections(library)}
    library.close()
    assert "pingmate" in shared  # said mid-sentence once: a name
    assert "congrats" not in shared  # capitalised only because it comes first


def test_digest_has_decisions_commitments_and_questions_newest_first(notes: Library) -> None:
    items = project_digest(notes, "Linden Bakery")
    kinds = [i.kind for i in items]
    assert {"decision", "question", "commitment"} <= set(kinds)
    assert [i.spoken_at for i in items] == sorted((i.spoken_at for i in items), reverse=True)
    harbour = project_digest(notes, "Harbour App")
    [wireframes] = [i for i in harbour if "wireframes" in i.quote]
    assert wireframes.kind == "commitment" and wireframes.who == "me" and wireframes.due == "2026-02-06"


def test_answers_prefer_the_current_value_and_say_what_it_replaced(notes: Library) -> None:
    answer = ask(
        notes, AskRequest("When is the Harbour App launch date?", as_of="2026-03-10T09:00:00", no_llm=True)
    )
    assert quote_violations(notes.store, answer) == 0
    stated = [c for c in answer.claims if c.kind == "stated"]
    first_27 = next(i for i, c in enumerate(stated) if "27th" in c.text)
    assert all("20th" not in c.text for c in stated[:first_27])  # the current value comes first
    current = stated[first_27]
    assert [r.quote for r in current.replaces] == ["The launch date is Friday the 20th of March."]
    cites = current.to_json()["citations"]
    assert [c["spoken_at"] for c in cites] == ["2026-03-02T10:00:00", "2026-02-02T09:00:00"]
    before = ask(
        notes, AskRequest("When is the Harbour App launch date?", as_of="2026-02-15T09:00:00", no_llm=True)
    )
    assert not [c for c in before.claims if "27th" in c.text]  # not known yet then


def test_resumes_at_the_next_stage_after_an_interruption(notes: Library) -> None:
    rid = _rid(notes, "linden:2")
    from memory.consolidate import state

    state.reset(notes.store, rid)
    calls = iter(range(100))
    with pytest.raises(CancelledError):
        Consolidation(notes, rid, use_model=False, cancelled=lambda: next(calls) >= 3).run()
    report = consolidate_recording(notes, rid, use_model=False)
    assert report.stages_run == list(STAGES[3:])
    assert recording_layers(notes, rid).status == "consolidated"
    assert get_recording(notes.store, rid).status == "consolidated"


def test_the_job_worker_queues_and_runs_consolidation(notes: Library) -> None:
    rid = _rid(notes, "delta:1")
    from memory.consolidate import state

    state.reset(notes.store, rid)
    queued = enqueue_pending(notes)
    assert len(queued) == 1 and enqueue_pending(notes) == []  # one open job per recording
    [job] = jobs_worker.run_pending(notes, kinds=["consolidate"])
    assert job.status == "done" and job.recording_id == rid, job.message
    assert get_recording(notes.store, rid).status == "consolidated"


def test_a_cancelled_consolidation_stays_cancelled_until_retried(notes: Library) -> None:
    rid = _rid(notes, "delta:1")
    from memory.consolidate import state

    state.reset(notes.store, rid)
    [job_id] = enqueue_pending(notes)
    assert jobs_worker.cancel_job(notes, job_id).status == "cancelled"
    assert enqueue_pending(notes) == []  # the feeder does not undo the user's cancel
    assert jobs_worker.retry_job(notes, job_id).status == "queued"
    [job] = jobs_worker.run_pending(notes, kinds=["consolidate"])
    assert job.status == "done" and get_recording(notes.store, rid).status == "consolidated"


def test_assigning_a_stretch_keeps_it_and_reconsolidates(notes: Library) -> None:
    rid = _rid(notes, "harbour:1")
    [stretch] = list_stretches(notes, recording_id=rid)
    assigned = assign_stretch(notes, stretch.id)
    assert assigned.status == "assigned" and assigned.project == "Linden Bakery"
    [job] = jobs_worker.run_pending(notes, kinds=["consolidate"])
    assert job.status == "done", job.message
    assert [s.status for s in list_stretches(notes, recording_id=rid)] == ["assigned"]


def test_cli(notes: Library, tmp_path: Path) -> None:
    root = str(notes.data_dir.root)
    facts = run("--data-dir", root, "facts", "--project", "Harbour App", "--json")
    assert facts.code == 0, facts.err
    assert {"value", "quote", "valid_from", "valid_until", "superseded_by", "kind"} <= set(
        facts.json()["facts"][0]
    )
    links = run("--data-dir", root, "connections", "--json").json()["connections"]
    verdict = run("--data-dir", root, "connections", "verdict", str(links[0]["id"]), "dismiss")
    assert verdict.code == 0 and "dismissed" in verdict.out
    assert links[0]["id"] not in [
        c["id"] for c in run("--data-dir", root, "connections", "--json").json()["connections"]
    ]
    digest = run("--data-dir", root, "digest", "--project", "Linden Bakery")
    assert digest.code == 0 and "Decisions:" in digest.out and "stated ·" in digest.out
    assert run("--data-dir", root, "stretches").code == 0
    assert run("--data-dir", root, "digest", "--project", "Nope").code == 1
    assert "nothing to consolidate" in run("--data-dir", root, "consolidate", "--no-llm").out


def test_jobs_run_consolidates_a_note_imported_from_the_cli(library: Library, tmp_path: Path) -> None:
    """A CLI-only user: `verbatim import` then `verbatim jobs run` gets the note's facts and
    self-corrections, as the app's worker would (its feeders queue the consolidation)."""
    require_models()
    note = tmp_path / "hartwell.txt"
    note.write_text(
        "The Hartwell budget is 40,000 pounds, sorry, 45,000 pounds. Priya Raman will send the contract"
        " by Friday.\n",
        encoding="utf-8",
    )
    imported = run("import", str(note), "--project", "Hartwell", "--json")
    assert imported.code == 0, imported.err
    [item] = imported.json()["results"]
    rid = item["recording_id"]
    assert run("jobs", "--open", "--json").json()["jobs"] == []  # nothing queued: the feeder does it
    ran = run("jobs", "run", "--json")
    assert ran.code == 0, ran.err
    assert [(j["kind"], j["recording_id"], j["status"]) for j in ran.json()["jobs"]] == [
        ("consolidate", rid, "done")
    ]
    assert get_recording(library.store, rid).status == "consolidated"
    [correction] = run("corrections", "--json").json()["corrections"]
    said = json.dumps(correction, ensure_ascii=False)
    assert "40,000" in said and "45,000" in said
    facts = run("facts", "--project", "Hartwell", "--json").json()["facts"]
    assert any("45,000" in f["value"] for f in facts), facts
    assert "nothing to do" in run("jobs", "run").out  # the rounds end: nothing is queued again
