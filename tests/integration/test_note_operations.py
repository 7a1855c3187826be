"""Delete to the trash, restore, empty the trash, move to another project: through the CLI on a real
library (text and audio imports, real indexing with the shipped embedding model, consolidation
without the chat model), checking every place a note shows up."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app import note_operations
from app.ask import AskRequest, ask
from app.consistency import library_problems
from app.consolidation.service import consolidate
from app.edits import save_edit
from app.library import Library
from app.paths import DataDir
from memory.search import index
from memory.search.chunking import chunk_segments
from memory.store import note_ops, recordings
from tests.conftest import require_models
from tests.support.audio_helpers import speech_file
from tests.support.cli import Result, run

pytestmark = pytest.mark.slow  # the shipped embedding model indexes every note

NOTES = {
    "a": ("Hartwell", "2026-03-02T09:00:00",
          "The Hartwell budget for phase one is 40,000 pounds. Maria Chen owns the pilot plan and will send"
          " it by Friday."),
    "b": ("Hartwell", "2026-03-20T09:00:00",
          "The phase one budget is now 55,000 pounds after the scope change."),
    "c": ("Scratch", "2026-03-10T09:00:00",
          "The Ashgrove warehouse uses Redis for caching. Maria Chen visited Ashgrove on Monday."),
}  # fmt: skip


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.code == 0, result.err
    return result


@pytest.fixture
def notes(library: Library, tmp_path: Path) -> dict[str, int]:
    require_models()
    ids = {}
    for project in ("Hartwell", "Scratch", "Oakridge"):
        ok("projects", "add", project)
    for key, (project, when, text) in NOTES.items():
        path = tmp_path / f"{key}.txt"
        path.write_text(text + "\n", encoding="utf-8")
        [item] = ok("import", str(path), "--project", project, "--spoken-at", when, "--json").json()[
            "results"
        ]
        ids[key] = item["recording_id"]
    consolidate(library, use_model=False)
    return ids


def _search(query: str, *scope: str, mode: str = "hybrid") -> set[int]:
    found = ok("search", query, "--all", "--mode", mode, *scope, "--json").json()["hits"]
    return {r["recording_id"] for r in found}


def _everywhere(rid: int) -> dict[str, int]:
    """Where a note shows up: lists, search, answers, facts, commitments, connections, digest."""
    listed = [r["id"] for r in ok("recordings", "--json").json()["recordings"]]
    facts = [f for f in ok("facts", "--json").json()["facts"] if f["recording_id"] == rid]
    commitments = [c for c in ok("commitments", "--json").json()["commitments"] if c["recording_id"] == rid]
    connections = [
        c for c in ok("connections", "--all", "--json").json()["connections"]
        if rid in (c["a"]["recording_id"], c["b"]["recording_id"])
    ]  # fmt: skip
    digest = [
        d for p in ("Hartwell", "Scratch") for d in ok("digest", "--project", p, "--json").json()["items"]
        if d["recording_id"] == rid
    ]  # fmt: skip
    asked = ok("ask", "What does the Ashgrove warehouse use for caching?", "--no-llm", "--json").json()
    return {
        "listed": listed.count(rid),
        "asked": int(rid in {p["recording_id"] for p in asked["passages"]}),
        "keyword": int(rid in _search("Redis warehouse budget pilot", mode="keyword")),
        "vector": int(rid in _search("what does the warehouse cache with", mode="vector")),
        "facts": len(facts),
        "commitments": len(commitments),
        "connections": len(connections),
        "digest": len(digest),
    }


def _counts() -> dict[str, int]:
    return {p["name"]: p["recordings"] for p in ok("projects", "list", "--json").json()["projects"]}


def test_a_deleted_note_leaves_everything_at_once_and_comes_back_restored(
    library: Library, notes: dict[str, int], tmp_path: Path
) -> None:
    c, a = notes["c"], notes["a"]
    before = _everywhere(c)
    assert before["listed"] == before["keyword"] == before["vector"] == before["asked"] == 1
    assert before["facts"] and before["connections"], before  # there was something to take away
    assert _everywhere(a)["commitments"] and _everywhere(a)["digest"]

    links = ok("connections", "--all", "--json").json()["connections"]
    [link] = [x for x in links if c in (x["a"]["recording_id"], x["b"]["recording_id"])]
    ok("connections", "verdict", str(link["id"]), "accept")  # a decision the trash must not lose

    deleted = ok("recordings", "delete", str(c), "--json").json()
    assert deleted["purge_on"] == (datetime.now() + timedelta(days=30)).date().isoformat()
    assert set(_everywhere(c).values()) == {0}
    assert _counts()["Scratch"] == 0
    assert library_problems(library) == []  # a trashed note's words without passages is consistent
    assert [t["id"] for t in ok("trash", "--json").json()["trash"]] == [c]
    again = ok("import", str(tmp_path / "c.txt"), "--project", "Scratch").out  # the same file: where it is
    assert f"already imported as recording {c}, which is in the trash" in again
    assert "gone on" in ok("trash", "list").out

    ok("recordings", "delete", str(a))
    assert set(_everywhere(a).values()) == {0}  # its commitment and digest item too

    ok("trash", "restore", str(c), str(a))
    assert ok("trash", "--json").json()["trash"] == []
    assert _counts() == {"Hartwell": 2, "Scratch": 1, "Oakridge": 0}
    back = _everywhere(c)
    assert back["listed"] == back["keyword"] == back["vector"] == 1  # searchable at once
    assert ok("jobs", "run", "--json").json()["jobs"]  # consolidation runs again, as queued jobs
    assert _everywhere(c) == before
    kept = [x for x in ok("connections", "--all", "--json").json()["connections"] if x["id"] == link["id"]]
    assert [x["verdict"] for x in kept] == ["accepted"]  # found again, decided
    assert [h["action"] for h in ok("recordings", "history", str(c), "--json").json()["history"]] == [
        "trashed",
        "restored",
    ]


def _budget_fact(recording_id: int) -> dict:
    [fact] = [
        f for f in ok("facts", "--json").json()["facts"]
        if f["recording_id"] == recording_id and "40,000" in f["value"]
    ]  # fmt: skip
    return fact


def test_a_fact_the_deleted_note_superseded_is_current_again(notes: dict[str, int]) -> None:
    assert _budget_fact(notes["a"])["valid_until"] == "2026-03-20T09:00:00"  # "now 55,000" replaced it
    ok("recordings", "delete", str(notes["b"]))
    assert _budget_fact(notes["a"])["valid_until"] is None
    assert "55,000" not in ok("facts", "--project", "Hartwell", "--current").out


def test_a_moved_note_is_searched_filed_and_consolidated_in_its_new_project(
    library: Library, notes: dict[str, int]
) -> None:
    b = notes["b"]
    moved = ok("recordings", "move", str(b), "--to", "Oakridge", "--json").json()
    assert (moved["from_project"], moved["recording"]["project"]) == ("Hartwell", "Oakridge")
    assert _counts() == {"Hartwell": 1, "Scratch": 1, "Oakridge": 1}
    for mode in ("keyword", "vector"):
        assert b in _search("phase one budget scope change", "--project", "Oakridge", mode=mode), mode
        assert b not in _search("phase one budget scope change", "--project", "Hartwell", mode=mode), mode
    assert {c.project_id for c in index.recording_chunks(library.store, b)} == {
        moved["recording"]["project_id"]
    }
    assert _budget_fact(notes["a"])["valid_until"] is None  # Hartwell's own budget is current again
    assert ok("jobs", "run", "--json").json()["jobs"]
    moved_facts = [f for f in ok("facts", "--json").json()["facts"] if f["recording_id"] == b]
    assert moved_facts and {f["project"] for f in moved_facts} == {"Oakridge"}
    assert "already" in ok("recordings", "move", str(b), "--to", "oakridge").out
    assert run("recordings", "move", str(b), "--to", "Nowhere").code == 1


def test_the_running_app_answers_about_a_moved_note_in_its_new_project(
    library: Library, notes: dict[str, int]
) -> None:
    """One library object throughout, as in the desktop app: the word counts it keeps between
    questions follow the move (they saw Oakridge as empty, and the answer was "not in your notes"
    until the app restarted)."""
    question = "What is the phase one budget after the scope change?"
    asked = ask(library, AskRequest(question, projects=["Hartwell"], no_llm=True))
    assert asked.answer_found and notes["b"] in {p.recording_id for p in asked.passages}
    note_operations.move_recording(library, notes["b"], "Oakridge")
    moved = ask(library, AskRequest(question, projects=["Oakridge"], no_llm=True))
    assert moved.answer_found, [p.text for p in moved.passages]
    assert {c.citations[0].recording_id for c in moved.stated} == {notes["b"]}


def test_emptying_the_trash_removes_every_row_the_audio_and_the_cached_vectors(
    library: Library, notes: dict[str, int], tmp_path: Path
) -> None:
    clip = speech_file(tmp_path, "Oakridge wants the forklift audit in May.", "oakridge.ogg")
    [item] = ok("import", str(clip), "--project", "Oakridge", "--no-transcribe", "--json").json()["results"]
    spoken = item["recording_id"]
    audio = library.data_dir.root / recordings.get_recording(library.store, spoken).audio_path  # type: ignore[operator]
    assert audio.is_file()
    c = notes["c"]
    hashes = {
        s.content_sha256 for s in chunk_segments(recordings.list_segments(library.store, c), final=True)
    }
    assert index.cached_vectors(library.store, hashes, library.models.embedding_model_name())

    ok("recordings", "delete", str(c))
    ok("recordings", "delete", str(spoken))
    assert audio.is_file()  # kept while it is in the trash
    gone = ok("trash", "empty", "--json").json()["deleted_for_good"]
    assert sorted(gone) == sorted([c, spoken])
    assert not audio.exists()
    tables = [
        name for (name,) in library.store.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
        if any(col[1] in ("recording_id", "a_recording_id", "b_recording_id")
               for col in library.store.rows(f'PRAGMA table_info("{name}")'))
    ]  # fmt: skip
    assert {"chunks", "facts", "connections", "commitments", "digest_items", "transcript_versions"} <= set(
        tables
    )
    for table in tables:
        columns = {col[1] for col in library.store.rows(f'PRAGMA table_info("{table}")')}
        for column in columns & {"recording_id", "a_recording_id", "b_recording_id"}:
            left = library.store.scalar(
                f'SELECT count(*) FROM "{table}" WHERE {column} IN (?, ?)', (c, spoken)
            )
            assert left == 0, (table, column)
    assert not index.cached_vectors(library.store, hashes, library.models.embedding_model_name())
    assert library.store.scalar("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'Redis'") == 0
    assert library_problems(library, deep=True) == []
    with pytest.raises(Exception, match="no recording"):
        recordings.get_recording(library.store, c)


def test_notes_are_deleted_for_good_after_30_days_in_the_trash(
    library: Library, notes: dict[str, int]
) -> None:
    ok("recordings", "delete", str(notes["c"]))
    later = datetime.now() + timedelta(days=29)
    assert note_operations.purge_expired(library, later) == []
    assert note_operations.purge_expired(library, later + timedelta(days=2)) == [notes["c"]]
    assert ok("trash", "--json").json()["trash"] == []
    assert [r.id for r in recordings.list_recordings(library.store, trashed=None)] == [notes["b"], notes["a"]]


def _state(library: Library) -> dict[str, object]:
    """What a backup must keep of the trash and of earlier transcripts."""
    store = library.store
    every = recordings.list_recordings(store, trashed=None)
    earlier = {r.id: note_ops.transcript_versions(store, r.id) for r in every}
    return {
        "trash": [(r.id, r.trashed_at) for r in note_ops.trashed(store)],
        "listed": [r.id for r in recordings.list_recordings(store)],
        "versions": {
            r.id: (r.transcript_version, [(v.version, v.model, v.reason) for v in earlier[r.id]])
            for r in every
        },
        "earlier_words": [
            (s.raw_text, s.text)
            for rid, versions in earlier.items() for v in versions
            for s in note_ops.version_segments(store, rid, v.version)
        ],
        "history": [note_ops.history(store, r.id) for r in every],
    }  # fmt: skip


def test_backup_restore_and_json_export_keep_the_trash_and_earlier_transcripts(
    library: Library, notes: dict[str, int], tmp_path: Path
) -> None:
    store = library.store
    a = notes["a"]
    first = recordings.list_segments(store, a)[0]
    save_edit(library, first.id, first.raw_text.replace("Hartwell", "Hartwell Logistics"))
    note_ops.start_new_transcript(store, a, model="base")  # what re-transcribing does, here on a text note
    recordings.append_segments(store, a, [recordings.SegmentIn(0.0, 4.0, "The Hartwell budget is 40,000.")])
    ok("recordings", "delete", str(notes["c"]))
    before = _state(library)
    assert before["trash"] and before["earlier_words"] and before["versions"][a][0] == 2  # type: ignore[index]

    ok("backup", "--out", str(tmp_path / "lib.verbatim-backup"))
    ok("export", "--format", "json", "--out", str(tmp_path / "export"))
    ok("export", "--format", "markdown", "--out", str(tmp_path / "vault"))
    vault = " ".join(p.read_text("utf-8") for p in (tmp_path / "vault").rglob("*.md"))
    assert "budget is now 55,000" in vault and "Redis" not in vault  # the trashed note is not exported
    for source in ("lib.verbatim-backup", "export"):
        target = tmp_path / f"restored-{source}"
        ok("restore", str(tmp_path / source), "--into", str(target))
        with Library(DataDir(target, library.data_dir.models_dir)) as restored:
            assert _state(restored) == before, source
            assert note_operations.restore_recording(restored, notes["c"]).trashed_at is None
            assert note_operations.restore_transcript(restored, a, 1).transcript_version == 1
            assert recordings.list_segments(restored.store, a)[0].text == first.raw_text.replace(
                "Hartwell", "Hartwell Logistics"
            )


def test_indexing_and_consolidation_under_way_when_a_note_is_trashed_stop_and_take_back_their_rows(
    library: Library, notes: dict[str, int]
) -> None:
    from app.consolidation.service import consolidate_recording
    from app.ingest.indexing import index_recording
    from models.errors import CancelledError

    c = notes["c"]
    ok("recordings", "delete", str(c))
    assert index_recording(library, c, final=True).chunks == 0  # a pass that started before the trash
    assert index.recording_chunks(library.store, c) == []
    with pytest.raises(CancelledError, match="trash"):
        consolidate_recording(library, c, use_model=False)
    for table in ("facts", "entities", "digest_items", "commitments", "consolidation_state"):
        assert library.store.scalar(f"SELECT count(*) FROM {table} WHERE recording_id = ?", (c,)) == 0, table


def test_a_note_deleted_for_good_leaves_no_words_in_the_model_call_log(
    library: Library, notes: dict[str, int]
) -> None:
    """The audit trail of model calls (llm_calls) keeps no prompt or response that quoted a note
    deleted for good: the calls linked to it (an answer over its passages), and those logged before
    calls were linked (found by its sentences), keep their row, redacted; other calls are kept."""
    from memory.store import llm_log

    store = library.store
    c, b = notes["c"], notes["b"]
    ok("ask", "Which", "warehouse", "uses", "Redis", "for", "caching?")
    [asked] = llm_log.list_calls(store, purpose="ask", limit=1)
    call_id = asked.id
    assert c in llm_log.call_recordings(store, call_id)  # linked to the notes its prompt quoted
    assert "Redis" in asked.prompt

    def logged(text: str, response: str, quoting: list[int]) -> int:
        prompt = llm_log.prompt_text([{"role": "user", "content": text}])
        return llm_log.log_call(
            store, purpose="facts", model="m", prompt=prompt, response=response, recording_ids=quoting
        )

    # as logged before calls were linked to notes (migration 0070): found by the note's sentence
    legacy = logged(NOTES["c"][2].split(". ")[0], '{"facts": []}', [])
    other = logged(NOTES["b"][2], "55,000 pounds", [b])
    calls_before = store.scalar("SELECT count(*) FROM llm_calls")

    ok("recordings", "delete", str(c))
    assert "Redis" in str(llm_log.get_call(store, call_id))  # in the trash: restorable, nothing redacted
    ok("trash", "empty")
    assert store.scalar("SELECT count(*) FROM llm_calls") == calls_before  # the rows stay
    for gone in (call_id, legacy):
        call = llm_log.get_call(store, gone)
        assert call is not None and (call.prompt, call.response) == (llm_log.REDACTED, None)
    assert (
        store.scalar("SELECT count(*) FROM llm_calls WHERE prompt LIKE '%Redis%' OR response LIKE '%Redis%'")
        == 0
    )
    kept = llm_log.get_call(store, other)
    assert kept is not None and "55,000" in kept.prompt and kept.response == "55,000 pounds"
    assert llm_log.call_recordings(store, other) == [b]
    assert library_problems(library) == []
