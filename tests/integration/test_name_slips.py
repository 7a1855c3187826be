"""A name said by mistake and put right ("Fenella wants, ugh, wrong client, Lorna wants …"): a
self-correction, also first in a sentence when the library knows the name from another note, and
no connection to that person's project. A small real library of notes written for this test,
consolidated by the rules alone."""

from __future__ import annotations

from pathlib import Path

from app.consolidation.service import consolidate, list_connections
from memory.consolidate.correction_store import list_corrections
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library

NOTES = [
    (
        "wren:1",
        "Wren Logistics",
        "Wren kickoff",
        "2026-03-02T09:00:00",
        [
            "Wren Logistics kickoff, the leadership programme for the depot managers.",
            "The sponsor is Fenella Crabtree, the people director, and she signs off the modules.",
            "The first cohort is twenty managers.",
        ],
    ),
    (
        "oriel:1",
        "Oriel Homes",
        "Oriel HR system",
        "2026-03-09T09:00:00",
        [
            "Oriel Homes notes, the new HR system.",
            "My contact there is Lorna Beckwith, the HR director.",
            "On the references, Fenella wants, ugh, wrong client, Lorna wants reference calls done"
            " before the board meets.",
            "The demos are in April.",
        ],
    ),
    (
        "kiln:1",
        "Kiln Bakery",
        "Kiln ovens",
        "2026-03-10T09:00:00",
        [
            "Kiln Bakery notes, the new ovens.",
            "My contact is Dervla Hart, the owner.",
            # first in its sentence: a capital says nothing there, the library's names do
            "Fenella asked, sorry, wrong client, Dervla asked for the oven quote by Friday.",
        ],
    ),
]


def test_a_known_name_said_by_mistake_is_corrected_and_links_nothing(tmp_path: Path) -> None:
    require_models()
    with imported_library(tmp_path, NOTES) as library:
        consolidate(library, use_model=False)
        names = [c for c in list_corrections(library.store) if c.kind == "name"]
        slips = sorted((c.wrong_text.split()[0], c.right_text.split()[0]) for c in names)
        assert slips == [("Fenella", "Dervla"), ("Fenella", "Lorna")]
        assert not any("Fenella" in c.a.quote + c.b.quote for c in list_connections(library))
