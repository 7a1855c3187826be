"""A small, invented consultant's library for screenshots: three clients over three weeks.

Written for this project (no real people or clients). Notes marked `spoken` are synthesised with
espeak-ng and go through the real import → transcription path; the others are imported as
transcripts. Dates are relative to the day the screenshots are made, so timelines read naturally.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DemoNote:
    project: str
    days_ago: int
    time: str  # "HH:MM"
    title: str
    lines: tuple[str, ...]
    spoken: bool = False


NOTES = (
    DemoNote(
        "Harbourline",
        17,
        "08:40",
        "Harbourline kickoff",
        (
            "Kickoff with Harbourline this morning, notes while walking back.",
            "Priya Raman runs operations and owns the booking platform.",
            "They want the new booking flow live before the summer season.",
            "The go-live is the 6th of June, no wait, the 13th, the 6th is the board meeting.",
            "The booking data lives in Airtable for now.",
            "I'll send Priya the project plan by Friday.",
            "Budget was not discussed; Priya said finance will come back to us.",
        ),
    ),
    DemoNote(
        "Atlas",
        15,
        "17:05",
        "Atlas reporting architecture",
        (
            "Atlas reporting, architecture thoughts after the workshop.",
            "We decided against Redis for the session cache: the ops team cannot run another service.",
            "Postgres unlogged tables will do for now, we measure again in September.",
            "Tomasz Wilk will write the migration plan by Friday.",
        ),
    ),
    DemoNote(
        "Beacon",
        13,
        "09:15",
        "Beacon museum guide",
        (
            "Beacon museum audio guide, first call with Imogen.",
            "Four languages at launch: English, French, German and Dutch.",
            "The email mentioned a project worth 100k, but that was the old website, not this one.",
            "I present the phased plan to the trustees on Friday.",
        ),
    ),
    DemoNote(
        "Harbourline",
        9,
        "11:30",
        "Harbourline caching",
        (
            "Harbourline again, the booking search is slow at peak.",
            "Priya asked whether Redis would fix it; I said we would measure first.",
            "Same trade-off as Atlas: a cache nobody can operate is worse than a slow page.",
            "The booking data is moving to Postgres, Airtable was too slow.",
            "We agreed to measure the search for a week before changing anything.",
            "Quick Beacon aside, Imogen wants the French audio guide scripts and the museum floor plans.",
            "Back to Harbourline, I'll ask Tomasz Wilk to review the caching plan too.",
            "Do we need a second booking server for the summer peak?",
        ),
    ),
    DemoNote(
        "Atlas",
        6,
        "08:50",
        "Atlas migration review",
        (
            "Reviewed Tomasz's migration plan.",
            "Cut-over is a Sunday night, with a rollback window of two hours.",
            "Open question: who signs off the data retention policy.",
        ),
    ),
    DemoNote(
        "Beacon",
        3,
        "16:20",
        "Beacon trustees",
        (
            "The trustees liked the phased plan.",
            "Phase one is the east wing only, phase two adds the gardens next spring.",
        ),
        spoken=True,
    ),
    DemoNote(
        "Harbourline",
        1,
        "08:35",
        "Harbourline go-live check",
        (
            "Quick check on the Harbourline go-live.",
            "We are on track for the 13th of June.",
            "Priya wants a dry run the Monday before.",
        ),
        spoken=True,
    ),
)

# Questions for the ask screenshots: the first answer with both stated and inferred claims is shown
# (else the first with a stated claim); NOT_IN_NOTES has no answer in these notes.
QUESTIONS = (
    "What did we decide about Redis?",
    "Is the Harbourline go-live before the summer season?",
    "When is the Harbourline go-live?",
)
NOT_IN_NOTES = "Which hosting provider did we choose for Beacon?"
OWED = "What do I owe Priya?"  # answered from the commitments consolidation found
ACROSS = "Is Tomasz Wilk involved in more than one of my projects?"  # answered from a connection
SEARCH = "redis cache"
LIVE_SPEECH = (
    "Harbourline, a quick thought before the call. The dry run moves to Tuesday, because Priya is "
    "travelling on Monday. I will tell the team after lunch, and I will ask Tomasz whether the "
    "rollback plan from Atlas can be reused here. That would save us a week."
)
