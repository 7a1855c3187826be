"""Questions asked across projects: the detector on phrasings that are in no development set, and
the merge that gives each project's best passage a place."""

from __future__ import annotations

import pytest

from memory.answer.across import asks_about_clashes, asks_across_projects, one_per_project
from memory.answer.connection_answers import asked_kinds
from memory.answer.context import ContextPassage
from memory.search.hits import Hit
from memory.search.ranking import merge_per_project

# Written for this test, not taken from (nor paraphrased from) the consultant sets' questions.
ACROSS = [
    "Did the data retention problem show up at another customer too?",
    "Which of my clients use Salesforce?",
    "Is Priya Natarajan involved in several of my projects?",
    "Have I ever negotiated a fixed-price contract before?",
    "Do both clients rely on the same payroll provider?",
    "Has a different client asked for an ISO audit?",
    "Have I seen this outage anywhere else?",
    "Where else does Lena Marsh turn up?",
    "Does any other engagement depend on the Azure migration?",
    "Is the same vendor turning up across my projects?",
    "Are there overlaps between clients in the rollout dates?",
    "Could a delay at one customer affect the other?",
    "Would a late delivery at one customer hurt another one?",
    "Gab es das Problem schon mal bei einem anderen Kunden?",
    "Hat Frau Berger mit mehreren Projekten zu tun?",
    "Is Tomasz booked by two clients in the same week?",
    "Which three projects still use the old VPN?",
]
ONE_PROJECT = [
    "When is the steering committee for the retail client?",
    "Who signs off the budget at Harbour Foods?",
    "How many licences did the client order?",
    "What did the customer say about the go-live?",
    "Which database did we choose for the project?",
    "Did I send the proposal already?",
    "Wann ist der Termin mit dem Kunden?",
    "What did Caroline say about her project last week?",
    "What was agreed between the vendor and the client?",
    "Where is the kickoff? Who else is coming?",
    "Who else is on the steering group?",
    "One client asked for another meeting.",
    "Did the client send two invoices in March?",
    "How many clients does Hal's team support?",
]


@pytest.mark.parametrize("question", ACROSS)
def test_a_question_that_reaches_beyond_one_project_is_read_as_such(question: str) -> None:
    assert asks_across_projects(question)


@pytest.mark.parametrize("question", ONE_PROJECT)
def test_a_question_about_one_project_is_not(question: str) -> None:
    assert not asks_across_projects(question)


# The speaker's own calendar: one diary holds every project, so these reach across projects.
CLASHES = [
    "Am I supposed to be in two places at once next Tuesday?",
    "Do any of my meetings overlap on the 4th of March?",
    "Is anything colliding in my calendar next month?",
    "Have I double booked anything for the week of the workshop?",
    "Any diary clashes I should know about?",
    "Are there conflicts in my schedule around the board meeting?",
    "Habe ich im Oktober Terminüberschneidungen?",
    "Bin ich am Freitag irgendwo doppelt gebucht?",
]
NOT_CLASHES = [
    "Is there a conflict of interest with the new reseller?",
    "Does Marta clash with the finance director?",
    "Who reported the double booking bug in the portal?",
    "Did I book a double room for the offsite?",
    "What did the audit say about conflicting data?",
]


@pytest.mark.parametrize("question", CLASHES)
def test_a_question_about_the_speakers_calendar_clashing_reaches_across_projects(question: str) -> None:
    assert asks_about_clashes(question)
    assert asks_across_projects(question)


@pytest.mark.parametrize("question", NOT_CLASHES)
def test_a_conflict_that_is_not_of_the_calendar_is_no_clash_question(question: str) -> None:
    assert not asks_about_clashes(question)


# Asked across projects by the kind of thing shared, not by its name (memory/answer/connection_answers.py).
KINDS = [
    ("Does somebody from one client also turn up at another?", {"person"}),
    ("Could a vendor issue on one engagement hurt another?", {"organisation"}),
    ("Are two of my clients after the same funding?", {"fund"}),
    ("Does a regulation from one project matter for another?", {"regulation"}),
    ("What did we decide about the launch?", set()),
    # "who" alone is answered by a firm as well as a person
    ("Who is fitting the new boilers, and have I worked with them before?", {"person", "organisation"}),
]


@pytest.mark.parametrize(("question", "kinds"), KINDS)
def test_the_kind_of_shared_thing_a_question_asks_about(question: str, kinds: set[str]) -> None:
    assert asked_kinds(question) == kinds


def _hit(
    chunk: int, project: int, score: float, recording: int | None = None, segments: list[int] | None = None
) -> Hit:
    return Hit(
        chunk_id=chunk,
        recording_id=recording if recording is not None else chunk,
        project_id=project,
        project=f"p{project}",
        title="",
        spoken_at="2026-01-01T00:00:00",
        start=0.0,
        end=1.0,
        text="",
        segment_ids=segments if segments is not None else [chunk * 10],
        score=score,
    )


def test_each_project_s_best_passage_comes_first_then_the_all_project_order() -> None:
    overall = [_hit(1, 1, 0.9), _hit(2, 1, 0.8), _hit(3, 1, 0.7), _hit(4, 1, 0.6)]
    per_project = [[_hit(1, 1, 0.9), _hit(2, 1, 0.8)], [_hit(9, 2, 0.3), _hit(8, 2, 0.2)]]
    merged = merge_per_project(overall, per_project, k=5)
    assert [h.chunk_id for h in merged] == [1, 9, 2, 3, 4]


def test_a_passage_sharing_segments_with_one_taken_is_not_taken_again() -> None:
    overall = [_hit(1, 1, 0.9, recording=5, segments=[50, 51])]
    per_project = [[_hit(2, 1, 0.8, recording=5, segments=[51, 52])], [_hit(3, 2, 0.4)]]
    assert [h.chunk_id for h in merge_per_project(overall, per_project, k=10)] == [2, 3]


def test_one_per_project_puts_every_project_s_best_before_any_second() -> None:
    def passage(number: int, project: int) -> ContextPassage:
        return ContextPassage(number, number, project, f"p{project}", "", "", [], number, 0.0)

    ordered = one_per_project([passage(1, 1), passage(2, 1), passage(3, 2), passage(4, 1), passage(5, 3)])
    assert [p.number for p in ordered] == [1, 3, 5, 2, 4]
