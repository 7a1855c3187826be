"""A small library of dictated notes for the consolidation tests: two projects that share a sign
maker and a day, a third in German, self-corrections, a later note that changes four facts, a
hedged number, an aside about another project, a decision, commitments and an open question."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.ingest.imports import import_corpus
from app.library import Library
from app.paths import DataDir
from tests.conftest import MODELS_DIR

NOTES = [
    (
        "harbour:1",
        "Harbour App",
        "Harbour App kickoff",
        "2026-02-02T09:00:00",
        [
            "Kickoff notes for the Harbour App, the client is the Kestrel Ferry Company.",
            "My contact is Priya Raman, she runs the digital team.",
            "The launch date is Friday the 20th of March.",
            "We keep the timetable data in Airtable for now.",
            "The budget for phase one is 30,000 pounds.",
            "The design review is on Tuesday, no, sorry, Wednesday the 4th of February.",
            "Apparently their rival spent 90,000 on a similar app.",
            "I'll send Priya the wireframes by Friday.",
            "Quick Linden aside, the bakery wants the oven quotes and the menu boards next week.",
            "Back to the harbour app, Tomasz Wilk from Brightline Signs will quote for the ferry kiosks.",
        ],
    ),
    (
        "linden:1",
        "Linden Bakery",
        "Linden Bakery ovens",
        "2026-02-10T16:00:00",
        [
            "Linden Bakery notes, the ovens and the menu boards are the big topics.",
            "The owner is Marta Quist, she wants to open a second shop with new ovens.",
            "Tomasz Wilk from Brightline Signs is doing the shop signs and the menu boards as well.",
            "We agreed to use Square for the tills.",
            "Do we need a food hygiene audit before the opening?",
        ],
    ),
    (
        "harbour:2",
        "Harbour App",
        "Harbour App update",
        "2026-03-02T10:00:00",
        [
            "Harbour app update, the launch has moved, it's now Friday the 27th of March.",
            "The timetable data is moving to Postgres, Airtable was too slow.",
            "My contact from now on is Ben Okoro, Priya has left the company.",
            "The budget for phase one is now 34,000 pounds.",
            "Ben wants me there in person for the launch demo on the 27th.",
        ],
    ),
    (
        "linden:2",
        "Linden Bakery",
        "Linden Bakery opening",
        "2026-03-05T08:30:00",
        [
            "Linden Bakery, the second shop opens on Friday the 27th of March.",
            "I promised Marta I'll be on site at the new shop all day on Friday the 27th of March.",
            "The ovens arrive the week before, the engineer is booked.",
        ],
    ),
    (
        "delta:1",
        "Delta Verwaltung",
        "Delta Termin",
        "2026-03-09T08:00:00",
        [
            "Kurze Notiz zum Projekt Delta mit der Stadtverwaltung.",
            "Der Termin mit Delta ist am Montag, nein, warte, ich meinte Mittwoch.",
            "Frau Becker schickt vorher die Unterlagen.",
        ],
    ),
]


def write_corpus(path: Path, notes: list[tuple[str, str, str, str, list[str]]] | None = None) -> Path:
    """A corpus.jsonl of `notes` (these consolidation notes by default): one recording per note,
    one segment per text, timed at 2.5 words a second like the eval sets' text-only corpora."""
    lines = []
    for rid, project, title, spoken_at, texts in NOTES if notes is None else notes:
        start, segments = 0.0, []
        for i, text in enumerate(texts):
            end = start + len(text.split()) / 2.5
            segments.append(
                {"id": f"{rid}:s{i}", "start": round(start, 2), "end": round(end, 2), "text": text}
            )
            start = end + 0.3
        lines.append(
            json.dumps(
                {"id": rid, "project": project, "title": title, "spoken_at": spoken_at, "segments": segments}
            )
        )
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


@contextmanager
def imported_library(root: Path, notes: list[tuple[str, str, str, str, list[str]]]) -> Iterator[Library]:
    """A real library in `root` with `notes` imported (and indexed) the way a user imports them, using
    the shipped models (the caller checks they are there: tests.conftest.require_models)."""
    library = Library(DataDir(root, MODELS_DIR))
    try:
        results = import_corpus(library, write_corpus(root / "notes.jsonl", notes))
        assert {r.status for r in results} == {"imported"}
        yield library
    finally:
        library.close()
