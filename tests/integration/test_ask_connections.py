"""Questions across projects answered from consolidation's connections (memory/answer/connection_answers.py),
on a real library file: notes written for this test (none from the eval sets), imported the normal
way and consolidated by the rules.

Asserted: a question that names what two projects share quotes both projects; a question whose
words one side says reaches the other side too; a question that says the kind of thing shared
("anybody") is answered by that kind first; a clash on a day the question names is quoted from
both notes with its reading inferred; a question about one project, or a connection the user
dismissed, does not answer from connections; every quote is raw words.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.ask import AskRequest, ask
from app.consolidation.service import consolidate
from app.library import Library
from bench.evals.ask_eval import quote_violations
from memory.answer.answers import Claim
from memory.consolidate.connection_store import list_connections, set_verdict
from memory.text.quotes import ClaimKind
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library

pytestmark = pytest.mark.slow  # a library indexed with the embedding model, built once

ASKED = "2026-05-20T09:00:00"


NOTES = [
    (
        "alder-1",
        "Alder Hospital",
        "Alder kickoff",
        "2026-04-02T09:00:00",
        [
            "Notes from the Alder Hospital kickoff, the rostering system has to go live before the winter.",
            "Their procurement lead is Ravi Chandran, careful, slow, but fair.",
            "On Tuesday the 16th of June I have to be on site at Alder all day for the cutover rehearsal.",
            "The wards still print their rotas on paper every Sunday night.",
        ],
    ),
    (
        "birch-1",
        "Birchfield Council",
        "Birchfield workshop",
        "2026-04-20T15:00:00",
        [
            "Birchfield Council, first workshop on the permits portal, lots of energy in the room.",
            "Ravi Chandran moved to the council last month, he now runs their procurement too.",
            "The council wants me in person for the launch event on Tuesday the 16th of June at nine.",
            "Their old portal was built on a content management system nobody can patch any more.",
        ],
    ),
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    with imported_library(tmp_path_factory.mktemp("ask-connections"), NOTES) as lib:
        consolidate(lib, use_model=False)
        yield lib


def _projects(claims: list[Claim]) -> set[str]:
    return {c.citations[0].project for c in claims}


def test_a_person_named_in_two_projects_is_quoted_from_both(library: Library) -> None:
    answer = ask(
        library, AskRequest("Have I met Ravi Chandran on more than one project?", as_of=ASKED, no_llm=True)
    )
    assert answer.answer_found and answer.mode == "connections"
    stated = [c for c in answer.stated if "Ravi Chandran" in c.text]
    assert _projects(stated) == {"Alder Hospital", "Birchfield Council"}
    assert any(c.kind == ClaimKind.INFERRED and "Ravi Chandran" in c.text for c in answer.claims)
    assert quote_violations(library.store, answer) == 0


def test_a_clash_on_the_day_asked_about_is_quoted_from_both_notes(library: Library) -> None:
    question = "Do I have any clashes across my projects on 16 June?"
    answer = ask(library, AskRequest(question, as_of=ASKED, no_llm=True))
    assert answer.answer_found and answer.mode == "connections"
    texts = " ".join(c.text for c in answer.stated)
    assert "cutover rehearsal" in texts and "launch event" in texts
    assert any(c.kind == ClaimKind.INFERRED and "clash" in c.text for c in answer.claims)
    assert quote_violations(library.store, answer) == 0
    # another day names no clash: the answer is not made of connections
    other = ask(
        library, AskRequest("Do I have any clashes across my projects on 3 July?", as_of=ASKED, no_llm=True)
    )
    assert other.mode != "connections"


def test_a_question_that_says_the_kind_of_thing_shared_is_answered_by_that_kind(library: Library) -> None:
    # The words "Birchfield launch event" find the clash (one side says them); "anybody" asks for a
    # person, and the person both projects share answers, not the day they share.
    question = "Is anybody at the Birchfield launch event also at another client of mine?"
    answer = ask(library, AskRequest(question, as_of=ASKED, no_llm=True))
    assert answer.answer_found and answer.mode == "connections"
    stated = [c for c in answer.stated if "Ravi Chandran" in c.text]
    assert _projects(stated) == {"Alder Hospital", "Birchfield Council"}
    assert not any("launch event" in c.text for c in answer.stated)
    assert quote_violations(library.store, answer) == 0


def test_a_question_about_one_project_is_not_answered_from_connections(library: Library) -> None:
    answer = ask(library, AskRequest("Who runs procurement at Birchfield Council?", as_of=ASKED, no_llm=True))
    assert answer.mode != "connections"


def test_a_dismissed_connection_does_not_answer(library: Library) -> None:
    question = "Have I met Ravi Chandran on more than one project?"
    for c in list_connections(library.store):
        if "Ravi" in c.shared:
            set_verdict(library.store, c.id, accepted=False)
    answer = ask(library, AskRequest(question, as_of=ASKED, no_llm=True))
    assert answer.mode != "connections"
