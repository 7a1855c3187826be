"""Commitments end to end on a real library file: notes written for this test (English and German,
none from the eval sets) imported through the normal path, consolidated by the rules, then read
through the service, the digest and the CLI.

Asserted: who owes what to whom, the due date resolved against the day each note was spoken, that a
hypothetical, a question and a hedge are no commitments, that a later note marks one done (and a
"still hasn't sent" does not), that a repeat is listed once, and that every quote is raw words.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date

import pytest

from app.ask import AskRequest, ask
from app.consolidation.service import consolidate, list_commitments, project_digest
from app.ingest.imports import import_corpus
from app.library import Library
from app.paths import DataDir
from bench.evals.ask_eval import quote_violations
from memory.answer.answers import Answer
from memory.consolidate import state
from memory.consolidate.commitment_store import Commitment
from memory.store.recordings import find_recording_by_external_id, list_segments
from memory.text.quotes import ClaimKind
from tests.conftest import MODELS_DIR, require_models
from tests.support.cli import run

pytestmark = pytest.mark.slow  # a library indexed with the embedding model, built once


def _note(note_id: str, project: str, spoken_at: str, lines: list[str]) -> dict[str, object]:
    segments = [
        {"id": f"{note_id}:{i + 1}", "start": 4.0 * i, "end": 4.0 * i + 3.8, "text": line}
        for i, line in enumerate(lines)
    ]
    return {"id": note_id, "project": project, "title": note_id, "spoken_at": spoken_at, "segments": segments}


NOTES = [
    _note(  # a Wednesday
        "orchard-1",
        "Orchard Bank",
        "2026-03-04T09:00:00",
        [
            "Morning, notes from the Orchard Bank steering call.",
            "I'll send Jana Novak the pricing deck by Monday.",
            "Tomasz owes us the load-test results by the end of next week.",
            "If the board approves the budget, I'll send Jana the contract by Friday.",
            "Would you send me the invoice by Friday?",
            "Maybe I'll draft the roadmap for Tomasz by Thursday.",
            "Rui said he'll share the architecture diagram with us by the end of the month.",
            "And what I owe Leona is the revised risk register, by Thursday the 12th.",
            "Amir owes us the test accounts for the portal, he said by the end of next week.",
        ],
    ),
    _note(  # a Thursday, in German
        "fischer-1",
        "Fischer Logistik",
        "2026-03-05T10:00:00",
        [
            "Kurzes Update zu Fischer Logistik, das Lager ist fast fertig.",
            "Ich schicke Frau Berger das Angebot bis Freitag.",
            "Herr Krause liefert uns die Stammdaten Ende nächster Woche.",
            "Wenn der Vorstand zustimmt, schicke ich Frau Berger den Vertrag bis Montag.",
            "Wir schicken dem Kunden den Abschlussbericht bis Mitte Oktober.",
        ],
    ),
    _note(
        "orchard-2",
        "Orchard Bank",
        "2026-03-10T08:30:00",
        [
            "Quick Orchard Bank follow-up before the workshop.",
            "The pricing deck went out to Jana yesterday.",
            "Tomasz still hasn't sent the load-test results.",
        ],
    ),
    _note(
        "orchard-3",
        "Orchard Bank",
        "2026-03-12T17:00:00",
        ["Orchard again, Tomasz still owes us the load-test results, he now says Wednesday."],
    ),
    _note(
        "fischer-2",
        "Fischer Logistik",
        "2026-03-16T11:00:00",
        [
            "Noch mal Fischer Logistik, kurz zum Stand.",
            "Die Stammdaten von Herrn Krause sind endlich da, mit zwei Tagen Verspätung.",
        ],
    ),
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    root = tmp_path_factory.mktemp("commitments-library")
    corpus = root / "notes.jsonl"
    corpus.write_text("\n".join(json.dumps(n) for n in NOTES) + "\n", "utf-8")
    library = Library(DataDir(root / "library", MODELS_DIR))
    assert {r.status for r in import_corpus(library, corpus)} == {"imported"}
    consolidate(library, use_model=False)
    yield library
    library.close()


def _find(found: list[Commitment], words: str) -> Commitment:
    matches = [c for c in found if words in c.quote]
    assert len(matches) == 1, (words, [c.quote for c in found])
    return matches[0]


def test_english_commitments_have_who_what_to_whom_and_a_due_date_from_the_day_spoken(
    library: Library,
) -> None:
    found = list_commitments(library, project="Orchard Bank")
    deck = _find(found, "pricing deck by Monday")
    assert (deck.who, deck.to_whom, deck.what) == ("me", "Jana Novak", "the pricing deck")
    assert deck.due_date == "2026-03-09"  # the Monday after Wednesday 4 March
    assert deck.due_text == "by Monday"
    results = _find(found, "owes us the load-test results")
    assert (results.who, results.to_whom, results.what) == ("Tomasz", "us", "the load-test results")
    assert results.due_date == "2026-03-13"  # the Friday of the week after
    diagram = _find(found, "architecture diagram")
    assert (diagram.who, diagram.to_whom, diagram.due_date) == ("Rui", "us", "2026-03-31")


def test_what_is_owed_and_by_when_may_be_said_around_the_promise(library: Library) -> None:
    found = list_commitments(library, project="Orchard Bank")
    register = _find(found, "what I owe Leona")  # a pseudo-cleft: the thing follows "is"
    assert (register.who, register.to_whom, register.what) == ("me", "Leona", "the revised risk register")
    assert register.due_date == "2026-03-12"
    accounts = _find(found, "Amir owes us the test accounts")  # the deadline in the next clause
    assert (accounts.who, accounts.to_whom, accounts.due_date) == ("Amir", "us", "2026-03-13")


def test_german_commitments_are_read_by_rules(library: Library) -> None:
    found = list_commitments(library, project="Fischer Logistik")
    offer = _find(found, "das Angebot bis Freitag")
    assert (offer.who, offer.to_whom, offer.what) == ("me", "Frau Berger", "das Angebot")
    assert offer.due_date == "2026-03-06"  # the Friday after Thursday 5 March
    data = _find(found, "Stammdaten Ende nächster Woche")
    assert (data.who, data.to_whom, data.due_date) == ("Herr Krause", "us", "2026-03-13")
    report = _find(found, "Abschlussbericht bis Mitte Oktober")
    assert (report.who, report.to_whom, report.due_date) == ("us", "dem Kunden", "2026-10-15")
    assert {c.language for c in found} == {"de"}


def test_hypotheticals_questions_and_hedges_are_not_commitments(library: Library) -> None:
    quotes = " | ".join(c.quote for c in list_commitments(library))
    for words in ("the contract", "the invoice", "the roadmap", "den Vertrag"):
        assert words not in quotes
    assert len(list_commitments(library)) == 8


def test_a_later_note_marks_a_commitment_done(library: Library) -> None:
    found = list_commitments(library)
    deck = _find(found, "pricing deck by Monday")
    assert deck.done and deck.done_quote == "The pricing deck went out to Jana yesterday"
    assert deck.done_spoken_at == "2026-03-10T08:30:00"
    assert deck.done_on(date(2026, 3, 10)) and not deck.done_on(date(2026, 3, 9))
    data = _find(found, "Stammdaten Ende nächster Woche")
    assert data.done and "Stammdaten von Herrn Krause sind endlich da" in (data.done_quote or "")
    results = _find(found, "owes us the load-test results")
    assert not results.done  # "still hasn't sent" says it is not done
    assert results.overdue(date(2026, 3, 20)) and not results.overdue(date(2026, 3, 13))
    assert [c.quote for c in list_commitments(library, open_only=True) if c.id == deck.id] == []


def test_a_repeat_is_listed_with_the_first(library: Library) -> None:
    results = [c for c in list_commitments(library) if "load-test" in c.quote]
    assert len(results) == 1 and results[0].spoken_at.startswith("2026-03-04")


def test_every_quote_is_the_raw_words_of_its_recording(library: Library) -> None:
    for c in list_commitments(library):
        raw = " ".join(s.raw_text for s in list_segments(library.store, c.recording_id))
        assert c.quote in raw
        assert [
            s.id for s in list_segments(library.store, c.recording_id) if c.quote.split()[0] in s.raw_text
        ]


def test_the_digest_shows_the_commitments_of_the_project(library: Library) -> None:
    items = [i for i in project_digest(library, "Orchard Bank") if i.kind == "commitment"]
    assert {i.quote for i in items} == {c.quote for c in list_commitments(library, project="Orchard Bank")}
    deck = next(i for i in items if "pricing deck" in i.quote)
    assert (deck.who, deck.what, deck.to_whom, deck.due, deck.done) == (
        "me", "the pricing deck", "Jana Novak", "2026-03-09", True,
    )  # fmt: skip


def test_consolidating_a_note_again_keeps_what_it_marked_done(library: Library) -> None:
    later = find_recording_by_external_id(library.store, "orchard-2")
    assert later is not None
    state.reset(library.store, later.id)
    consolidate(library, [later.id], use_model=False)
    deck = _find(list_commitments(library), "pricing deck by Monday")
    assert deck.done and deck.done_recording_id == later.id


def test_due_before_filters_by_due_date(library: Library) -> None:
    early = list_commitments(library, due_before="2026-03-10")
    assert {c.due_date for c in early} == {"2026-03-06", "2026-03-09"}


def test_the_cli_lists_commitments_by_due_date_with_overdue_marked(library: Library) -> None:
    root = str(library.data_dir.root)
    result = run("--data-dir", root, "commitments", "--as-of", "2026-03-20", "--json")
    assert result.code == 0, result.err
    listed = result.json()
    assert listed["as_of"] == "2026-03-20"
    dues = [c["due_date"] for c in listed["commitments"]]
    assert dues == sorted(dues)
    by_quote = {c["quote"]: c for c in listed["commitments"]}
    results = by_quote["Tomasz owes us the load-test results by the end of next week"]
    assert results["overdue"] and not results["done"] and results["stated"]
    text = run(
        "--data-dir", root, "commitments", "--as-of", "2026-03-20", "--open", "--project", "Orchard Bank"
    )
    assert text.code == 0
    assert "OVERDUE  Tomasz → us: the load-test results  [Orchard Bank]" in text.out
    assert "pricing deck" not in text.out  # done
    before = run("--data-dir", root, "commitments", "--as-of", "2026-03-08", "--json").json()["commitments"]
    deck = next(c for c in before if "pricing deck" in c["quote"])
    assert not deck["done"] and not deck["overdue"]  # as of the Sunday before it was due and sent
    assert run("--data-dir", root, "commitments", "--due-before", "someday").code == 1


# --- questions about commitments are answered from them (memory/answer/commitment_answers.py) -------
def _ask(library: Library, question: str, as_of: str) -> Answer:
    return ask(library, AskRequest(question, as_of=as_of, no_llm=True))


def test_what_do_i_owe_someone_quotes_the_promise_and_the_words_that_it_was_done(library: Library) -> None:
    answer = _ask(library, "What do I owe Jana?", "2026-03-20T09:00:00")
    assert answer.answer_found and answer.mode == "commitments"
    quotes = [c.text for c in answer.stated]
    assert quotes == [
        "I'll send Jana Novak the pricing deck by Monday",
        "The pricing deck went out to Jana yesterday",
    ]
    assert [c.citations[0].spoken_at[:10] for c in answer.stated] == ["2026-03-04", "2026-03-10"]
    assert quote_violations(library.store, answer) == 0
    # asked before the later note, the promise stands alone; a hypothetical promise is never one
    inferred = [c.text for c in answer.claims if c.kind == ClaimKind.INFERRED]
    assert inferred == ["you owe Jana Novak · due Monday 9 March 2026 · said done on 2026-03-10"]
    before = _ask(library, "What do I owe Jana?", "2026-03-06T09:00:00")
    assert [c.text for c in before.stated] == ["I'll send Jana Novak the pricing deck by Monday"]
    assert [c.text for c in before.claims if c.kind == ClaimKind.INFERRED] == [
        "you owe Jana Novak · due Monday 9 March 2026 · open"
    ]
    # asked without a word of owing
    supposed = _ask(library, "What's Tomasz supposed to be sending us?", "2026-03-20T09:00:00")
    assert supposed.mode == "commitments"
    assert supposed.stated[0].text == "Tomasz owes us the load-test results by the end of next week"
    late = _ask(library, "Does Tomasz owe us anything?", "2026-03-20T09:00:00")
    assert any("overdue" in c.text for c in late.claims if c.kind == ClaimKind.INFERRED)


def test_who_owes_me_keeps_the_other_side_and_a_german_question_reads_its_party(library: Library) -> None:
    owed = _ask(library, "Who owes me something on Orchard Bank?", "2026-03-20T09:00:00")
    assert owed.mode == "commitments"
    quotes = " | ".join(c.text for c in owed.stated)
    assert "Tomasz owes us the load-test results" in quotes and "architecture diagram" in quotes
    assert "I'll send" not in quotes
    assert quote_violations(library.store, owed) == 0
    # Each quote cites the stretch of its note it was said in, and is found there word for word.
    assert owed.passages and all(
        c.passage and claim.text in owed.passages[c.passage - 1].text
        for claim in owed.stated
        for c in claim.citations
    )
    # The quote says "he'll share"; the line under it says who, as the note's parse read it.
    readings = {c.text.split(" · ")[0] for c in owed.claims if c.kind == ClaimKind.INFERRED}
    assert {"Tomasz owes you", "Rui owes you"} <= readings
    german = _ask(library, "Wann liefert Herr Krause die Stammdaten?", "2026-03-20T09:00:00")
    assert [c.text for c in german.stated] == [
        "Herr Krause liefert uns die Stammdaten Ende nächster Woche",
        "Die Stammdaten von Herrn Krause sind endlich da",
    ]


def test_a_commitment_question_no_commitment_matches_is_answered_from_the_notes(library: Library) -> None:
    answer = _ask(library, "What does Priya owe me?", "2026-03-20T09:00:00")
    assert answer.mode != "commitments"


def test_whether_a_promise_was_kept_is_answered_by_the_words_that_it_was_done(library: Library) -> None:
    kept = _ask(library, "Did I send Jana the pricing deck when I said I would?", "2026-03-20T09:00:00")
    assert kept.mode == "commitments"
    assert [c.text for c in kept.stated] == [
        "I'll send Jana Novak the pricing deck by Monday",
        "The pricing deck went out to Jana yesterday",
    ]
    # no note says the results came: the passages answer, not the promise alone
    open_one = _ask(library, "Has Tomasz sent the load-test results?", "2026-03-20T09:00:00")
    assert open_one.mode != "commitments"


def test_a_full_name_asked_finds_the_promise_that_says_the_first_name(library: Library) -> None:
    answer = _ask(library, "What do I owe Leona Farrant, and by when?", "2026-03-20T09:00:00")
    assert answer.mode == "commitments"
    assert answer.stated[0].text.startswith("what I owe Leona is the revised risk register")
