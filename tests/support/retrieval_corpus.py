"""A small library of dictated notes for index and retrieval tests (helpers, no tests here)."""

from __future__ import annotations

from app.library import Library
from memory.store import projects, recordings
from memory.store.recordings import SegmentIn

# (project, spoken_at, [(speaker, sentence), ...]); sentences are short so notes make several chunks.
NOTES: list[tuple[str, str, list[tuple[str | None, str]]]] = [
    (
        "Tidewater",
        "2026-03-02T08:40:00",
        [
            (None, "Monday morning, notes on the Tidewater Maritime Museum kickoff meeting."),
            (None, "They want a proper audio guide app for the galleries with Bluetooth beacons."),
            (None, "The phone knows which room you are in and starts the right track automatically."),
            (None, "My contact is Imogen Ferreira, head of visitor experience, very organised."),
            (None, "The director, Dr Anselm Kirby, said the board is nervous about the cost."),
            (None, "They want four languages at launch: English, French, German and Polish."),
            (None, "The budget ceiling is forty two thousand pounds including the beacons."),
            (None, "Beacon hardware quote from Estimote came in at about six thousand pounds."),
            (None, "We agreed a discovery phase of three weeks starting on the ninth of March."),
            (None, "Next step: send Imogen the statement of work by Thursday afternoon."),
        ],
    ),
    (
        "Millbrook",
        "2026-04-14T09:15:00",
        [
            ("Consultant", "Millbrook and Haye Textiles site visit, carbon baseline project."),
            ("Consultant", "The site engineer is Owain Pritchard, he runs the dye house boilers."),
            ("Owain", "We burn about two point four gigawatt hours of gas a year on the boilers."),
            ("Consultant", "Heat recovery on the dye house effluent could save a fifth of that."),
            ("Owain", "The board wants a payback under four years or they will not sign."),
            ("Consultant", "I will model a heat pump option and a heat exchanger option for May."),
            ("Owain", "Metering is patchy, we only have monthly gas bills for the whole site."),
            ("Consultant", "Action: install sub-meters on boiler two before the June audit."),
        ],
    ),
    (
        "Tidewater",
        "2026-05-29T16:45:00",
        [
            (None, "Friday the twenty ninth of May, end of the week, museum notes."),
            (None, "Correction on the budget: the ceiling is now fifty thousand pounds, not forty two."),
            (None, "Imogen is leaving at the end of May; her replacement is Callum Reyes."),
            (None, "All six languages are recorded; the Mandarin came in last, on Wednesday."),
            (None, "The smartphone application passed the accessibility review with two small fixes."),
        ],
    ),
]


def add_note(
    library: Library, project: str, spoken_at: str, lines: list[tuple[str | None, str]], *, title: str = ""
) -> int:
    store = library.store
    target = projects.add_project(store, project, exist_ok=True)
    rid = recordings.create_recording(
        store, project_id=target.id, spoken_at=spoken_at, source="transcript", title=title or project
    )
    segments = []
    t = 0.0
    for speaker, text in lines:
        length = len(text.split()) / 2.5
        segments.append(SegmentIn(start=t, end=t + length, text=text, speaker=speaker))
        t += length + 0.4
    recordings.append_segments(store, rid, segments)
    return rid


def build_library(library: Library, *, index: bool = True) -> list[int]:
    """The NOTES as recordings (indexed with the real embedder unless index=False)."""
    from app.ingest.indexing import index_recording

    ids = [add_note(library, p, at, lines) for p, at, lines in NOTES]
    if index:
        for rid in ids:
            index_recording(library, rid, final=True)
    return ids
