"""Connections by named things and asides by the sentences about another project, on a small real
library (notes written for these tests, one in German), consolidated by the rules alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.consolidation.service import consolidate, list_connections, list_stretches
from app.ingest.imports import import_corpus
from app.library import Library
from app.paths import DataDir
from memory.consolidate.stretches import effective_projects
from memory.store.recordings import find_recording_by_external_id, get_recording
from tests.conftest import MODELS_DIR, require_models
from tests.support.consolidation_corpus import write_corpus

pytestmark = pytest.mark.slow  # a library indexed with the embedding model, built once

NOTES = [
    (
        "alder:1",
        "Alder Surgery",
        "Alder kickoff",
        "2026-02-02T08:00:00",
        [
            "Kickoff at Alder Surgery, notes for the online booking project.",
            "My contact is Selma Okonkwo, the practice manager, very organised.",
            "They keep the patient records in Quillmark, and the contract runs to June.",
            "Okay, Fenwick thing, the bottling line there is fixed, so that is off my list.",
            "Back to the surgery, the practice runs SAP for finance and the budget is tight.",
            "I'll be on site at Harlow Ridge on Tuesday for the reception training.",
            "That's it for today.",
        ],
    ),
    (
        "fenwick:1",
        "Fenwick Brewery",
        "Fenwick canning line",
        "2026-02-02T17:00:00",
        [
            "Fenwick Brewery notes, the new canning line is the big topic.",
            "The head brewer is Arvid Lindqvist, he runs the canning trial.",
            "Their stock system is Quillmark as well, so the same vendor again.",
            "Quick Alder aside, Selma Okonkwo wants the booking demo moved to Friday.",
            "And she asked for the pricing sheet as well.",
            "Back to Fenwick, I'll be on site at Harlow Ridge on Tuesday for the canning trial.",
            "SAP is their finance system too.",
            "The tasting review is on the 14th of March at ten, and I'll be there in person.",
        ],
    ),
    (
        "alder:2",
        "Alder Surgery",
        "Alder update",
        "2026-02-16T09:00:00",
        [
            "Alder Surgery update, the booking pilot starts next month.",
            "On the 14th of March at two I present to the partners in person.",
            "Selma says the Quillmark export works now.",
            "Selma wants to apply to the Northern Brewery Heritage Fund for the new waiting room.",
        ],
    ),
    (
        "brandt:1",
        "Brandt Spedition",
        "Brandt Termin",
        "2026-02-20T08:00:00",
        [
            "Notizen zum Termin bei der Spedition Brandt in Lübeck, es ging um das neue Lager.",
            "Mein Ansprechpartner ist Henrik Albers, der IT-Leiter, ein ruhiger Typ.",
            "Die Geschäftsführung will bis Ende März eine Entscheidung.",
            "Kurz zu Fenwick, Arvid Lindqvist hat den Termin für die Abfüllung bestätigt.",
            "Zurück zu Brandt, das Budget liegt bei 90.000 Euro.",
            "Henrik schickt uns die Daten bis Freitag.",
        ],
    ),
    (
        "alder:3",
        "Alder Surgery",
        "Alder reminders",
        "2026-02-25T09:00:00",
        [
            "Alder Surgery, the text reminders are the topic today.",
            "Selma wants the reminders to go out two days before each appointment.",
            "Oh, Brandt, Henrik Albers rang, the warehouse budget went up to 95.000 euros.",
            "And Henrik still owes us the stock data, now he says next week.",
            "Right, back to Alder, the reminder wording needs the partners' sign-off.",
            "Okay, done.",
        ],
    ),
    (
        "fenwick:2",
        "Fenwick Brewery",
        "Fenwick tours",
        "2026-02-26T09:00:00",
        [
            "Fenwick update from the taproom, short one.",
            "The online booking for the brewery tours goes live next month, with text reminders.",
            "The booking pilot and the reminders need the same careful testing as any booking project.",
            "The Northern Brewery Heritage Fund might pay for the new tour signs.",
            "That's the update.",
        ],
    ),
    (
        "kestrel:1",
        "Kestrel Dental",
        "Kestrel imaging",
        "2026-03-02T09:00:00",
        [
            "Kestrel Dental notes, the new imaging suite is the topic.",
            "The project lead on their side is Maggie Colquhoun, she trained in Leeds.",
            "The imaging vendor's account manager is Gareth Pym.",
            "The imaging go-live review is on Thursday the 9th of April, two in the afternoon.",
        ],
    ),
    (
        "rowan:1",
        "Rowan Library",
        "Rowan archive move",
        "2026-03-04T09:00:00",
        [
            "Rowan Library notes, the archive move is the topic.",
            "The move itself is run by Maggie, the freelance coordinator the council uses.",
            "The shelving supplier's contact is Gareth Pryce.",
            # names the other project mid-sentence: the speaker made this link (no aside, no connection)
            "I still owe the invoice to Arvid Lindqvist for the Fenwick work from January, by the way.",
            "I present the archive plan to the trustees on Thursday the 9th of April at two o'clock.",
        ],
    ),
    (
        "fenwick:3",
        "Fenwick Brewery",
        "Fenwick labels",
        "2026-03-05T09:00:00",
        [
            "Fenwick Brewery, the new labels.",
            "Gareth rang about the label printer this morning.",
        ],
    ),
    (
        "kestrel:2",
        "Kestrel Dental",
        "Kestrel scanner",
        "2026-03-10T09:00:00",
        [
            "Kestrel Dental update, the imaging suite again.",
            "Oh, before I forget, Rowan Library, the shelving delivery is late again, anyway, back to"
            " Kestrel.",
            "The new scanner arrives on Monday.",
            "The nurses want training first.",
        ],
    ),
    (
        "tansy:0",
        "Tansy Cafe",
        "Tansy menu",
        "2026-03-08T09:00:00",
        [
            "Tansy Cafe notes, the new menu.",
            "Side note, the chef rang this morning, the Sorrel kitchen review has moved to Thursday.",
            "The menu boards go up tomorrow.",
            "The staff like the new coffee.",
        ],
    ),
    (
        "sorrel:1",
        "Sorrel Hotel",
        "Sorrel stock audit",
        "2026-03-06T09:00:00",
        [
            "Sorrel Hotel notes, the kitchen review.",
            "The cold-side kit comes from Brindlecote Catering Equipment, the chef knows their rep.",
            "I'm running the stock audit at the hotel on Friday the 5th of June, the whole day, from the"
            " morning delivery to the last service.",
        ],
    ),
    (
        "tansy:1",
        "Tansy Cafe",
        "Tansy refit",
        "2026-03-09T09:00:00",
        [
            "Tansy Cafe notes, the refit is nearly done.",
            "The walk-in fridge is late, Brindlecote say their factory is backed up.",
            "The reopening is now Friday the 5th of June.",
        ],
    ),
    ("linnet:1", "Linnet Foods", "Linnet audit", "2026-03-10T09:00:00", [
        "Linnet Foods notes, the food safety audit.",
        "Our food safety auditor is Corinna Vasquez, she starts on Monday.",
    ]),
    ("tremayne:1", "tremayne-hall", "Tremayne doors", "2026-03-10T14:00:00", [
        "Tremayne Hall notes, the fire doors are the topic.",
    ]),
    ("pellow:1", "Pellow Garage", "Pellow forecourt", "2026-03-11T09:00:00", [
        "Pellow Garage notes, the forecourt lighting.",
        "One thing for the Tremayne Hall, Corinna Vasquez asked about the fire doors.",
        "The lighting quote is due on Thursday.",
    ]),
    ("weissenstauf:1", "weissenstauf-clinic", "Weissenstauf lab", "2026-03-12T09:00:00", [
        "Weissenstauf clinic notes, the lab move.",
    ]),
    ("orrin:1", "Orrin Bakery", "Orrin ovens", "2026-03-12T14:00:00", [
        "Orrin Bakery notes, the new ovens.",
        "Our electrician is Halvard Brekke, he wires the ovens next week.",
    ]),
    ("lantern:1", "Lantern Dental", "Lantern chairs", "2026-03-13T08:00:00", [
        "Lantern Dental notes, the new chairs arrive in April.",
    ]),
    ("moss:1", "Moss Farm", "Moss shop", "2026-03-13T08:30:00", [
        "Moss Farm notes, the farm shop refit.",
        "Their vet is Ingrid Solberg, she signs off the animal welfare plan.",
    ]),
    ("pike:1", "Pike Bakery", "Pike show", "2026-03-13T08:45:00", [
        "Pike Bakery notes, the county show.",
        "Lantern parade week is busy for them, and Ingrid Solberg is judging the bread at the show.",
    ]),
    ("quarrel:1", "Quarrel Signs", "Quarrel workshop", "2026-03-13T09:00:00", [
        "Quarrel Signs notes, the workshop move.",
        "For Weißenstauf, Halvard Brekke sent the cable plan for the lab.",
    ]),
]  # fmt: skip


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    root = tmp_path_factory.mktemp("asides-library")
    library = Library(DataDir(root, MODELS_DIR))
    assert {r.status for r in import_corpus(library, write_corpus(root / "notes.jsonl", NOTES))} == {
        "imported"
    }
    consolidate(library, use_model=False)
    yield library
    library.close()


def _rid(library: Library, external_id: str) -> int:
    found = find_recording_by_external_id(library.store, external_id)
    assert found is not None
    return found.id


def _asides(library: Library, external_id: str) -> list[tuple[int, int, str]]:
    return [
        (s.first_idx, s.last_idx, s.project)
        for s in list_stretches(library, recording_id=_rid(library, external_id))
    ]


def test_an_aside_is_the_sentences_about_the_other_project(library: Library) -> None:
    # announced ("Quick Alder aside"), going on with "she" until "Back to Fenwick"
    assert _asides(library, "fenwick:1") == [(3, 4, "Alder Surgery")]


def test_an_aside_about_a_project_with_no_notes_yet_is_found_by_its_name(library: Library) -> None:
    assert _asides(library, "alder:1") == [(3, 3, "Fenwick Brewery")]


def test_an_english_note_has_asides_about_a_german_project_announced_by_its_name(library: Library) -> None:
    # no cue word: the project named first, its person known from its (German) note, "he" going on
    assert _asides(library, "alder:3") == [(2, 3, "Brandt Spedition")]


def test_an_aside_that_comes_back_at_the_end_of_its_own_sentence_is_that_sentence(library: Library) -> None:
    # "…, anyway, back to Kestrel": the own project named after the return is not the aside's
    assert _asides(library, "kestrel:2") == [(1, 1, "Rowan Library")]


def test_a_side_note_about_another_project_is_an_aside(library: Library) -> None:
    # announced ("Side note"), the other project named only late in the sentence
    assert _asides(library, "tansy:0") == [(1, 1, "Sorrel Hotel")]


def test_words_typical_of_another_project_are_no_aside(library: Library) -> None:
    assert _asides(library, "fenwick:2") == []  # bookings and reminders, but nothing of Alder named


def test_a_german_note_has_asides_about_the_people_of_an_english_project(library: Library) -> None:
    assert _asides(library, "brandt:1") == [(3, 3, "Fenwick Brewery")]


def test_until_assigned_an_aside_stays_in_the_notes_project(library: Library) -> None:
    rid = _rid(library, "fenwick:1")
    own = get_recording(library.store, rid).project_id
    assert set(effective_projects(library.store, rid, own, range(8)).values()) == {own}


def test_a_passage_in_an_aside_connects_nothing(library: Library) -> None:
    shared = [c.shared.lower() for c in list_connections(library)]
    assert not [s for s in shared if "selma" in s or "arvid" in s]


def test_connections_share_a_named_thing_and_say_only_what_they_know(library: Library) -> None:
    found = list_connections(library)
    quillmark = [c for c in found if "quillmark" in c.shared.lower()]
    assert len(quillmark) == 1  # once per thing and pair of projects
    ridge = [c for c in found if "harlow ridge" in c.shared.lower()]
    assert ridge and all(c.kind != "person" for c in ridge)  # a place is no person


def test_a_name_that_says_an_english_word_of_a_project_name_still_connects(library: Library) -> None:
    # "Fenwick Brewery" names a project, but the "Northern Brewery Heritage Fund" is not that
    # project's own name: two projects that name it share it.
    fund = [c for c in list_connections(library) if "heritage fund" in c.shared.lower()]
    assert len(fund) == 1
    assert {"Alder Surgery", "Fenwick Brewery"} == {fund[0].a.project, fund[0].b.project}


def test_no_connection_through_a_common_word_or_a_weekday_alone(library: Library) -> None:
    found = list_connections(library)
    assert not [c for c in found if "sap" in c.shared.lower().split(", ")]
    assert not [c for c in found if "tuesday" in c.shared.lower()]


def test_the_same_day_said_with_its_date_and_a_time_is_a_calendar_clash(library: Library) -> None:
    clashes = [
        c for c in list_connections(library) if c.kind == "calendar_clash" and "14th of March" in c.a.quote
    ]
    assert len(clashes) == 1 and all("14th of March" in q for q in (clashes[0].a.quote, clashes[0].b.quote))


def test_the_same_day_and_hour_in_two_projects_is_a_calendar_clash(library: Library) -> None:
    # one side says being there ("I present"), and both the same hour, said two ways
    clashes = [c for c in list_connections(library) if "9th of April" in c.a.quote + c.b.quote]
    assert len(clashes) == 1 and clashes[0].kind == "calendar_clash"
    assert {clashes[0].a.project, clashes[0].b.project} == {"Kestrel Dental", "Rowan Library"}
    assert "same hour" in clashes[0].rationale and "14:00" in clashes[0].rationale  # says which hour


def test_a_day_taken_up_whole_in_one_project_clashes_with_anything_that_day_in_another(
    library: Library,
) -> None:
    # only one side says being there, and no hour: "the whole day" is every hour of it
    clashes = [c for c in list_connections(library) if "5th of June" in c.a.quote + c.b.quote]
    assert len(clashes) == 1 and clashes[0].kind == "calendar_clash"
    assert {clashes[0].a.project, clashes[0].b.project} == {"Sorrel Hotel", "Tansy Cafe"}


def test_an_organisation_called_by_its_first_word_in_another_project_is_the_same_one(
    library: Library,
) -> None:
    # the model reads no name in "Brindlecote say ...": the library knows the firm from Sorrel's note
    found = [c for c in list_connections(library) if "brindlecote" in c.shared.lower()]
    assert len(found) == 1 and found[0].kind == "organisation"
    assert {found[0].a.project, found[0].b.project} == {"Sorrel Hotel", "Tansy Cafe"}
    assert "Brindlecote say" in found[0].b.quote


def test_a_given_name_is_resolved_within_a_german_note(library: Library) -> None:
    rows = library.store.rows(
        "SELECT text, value FROM entities WHERE recording_id = ? AND text = 'Henrik'",
        (_rid(library, "brandt:1"),),
    )
    assert rows and {v for _, v in rows} == {"henrik albers"}


def test_a_given_name_alone_connects_to_the_only_full_name_it_can_be(library: Library) -> None:
    # "Maggie" alone in one project, "Maggie Colquhoun" in another, and no other Maggie: the same
    # person. "Gareth" alone may be Gareth Pym or Gareth Pryce: no connection through it.
    found = list_connections(library)
    maggie = [c for c in found if "maggie colquhoun" in c.shared.lower()]
    assert len(maggie) == 1 and maggie[0].kind == "person"
    assert {maggie[0].a.project, maggie[0].b.project} == {"Kestrel Dental", "Rowan Library"}
    assert not [c for c in found if "gareth" in c.shared.lower()]


def test_a_passage_that_names_the_other_project_connects_nothing(library: Library) -> None:
    # "… to Arvid Lindqvist for the Fenwick work …" in a Rowan note: the speaker links them aloud
    pairs = [{c.a.project, c.b.project} for c in list_connections(library) if "arvid" in c.shared.lower()]
    assert {"Rowan Library", "Fenwick Brewery"} not in pairs


def test_a_passage_that_names_a_third_project_connects_nothing(library: Library) -> None:
    # "One thing for the Tremayne Hall, Corinna Vasquez asked …" in a Pellow note, and "For
    # Weißenstauf, Halvard Brekke sent …" (the project's folder name spells it weissenstauf) in a
    # Quarrel note: asides about a third project, no link between the two notes' projects
    shared = [c.shared.lower() for c in list_connections(library)]
    assert not [s for s in shared if "corinna" in s or "halvard" in s]


def test_an_english_word_that_opens_a_sentence_is_no_third_project(library: Library) -> None:
    # "Lantern parade week …" in a Pike note does not speak of Lantern Dental: Ingrid Solberg links
    # Moss Farm and Pike Bakery
    pairs = [{c.a.project, c.b.project} for c in list_connections(library) if "ingrid" in c.shared.lower()]
    assert {"Moss Farm", "Pike Bakery"} in pairs
