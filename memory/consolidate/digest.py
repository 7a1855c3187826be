"""A project's digest: decisions, commitments (who, what, by when) and open questions.

Each item is one sentence the user said, verbatim, found by cue words ("we agreed", "go with",
"I'll send ... by Friday", "I need to check", "whether", a question mark), with its date and
time into the recording; a commitment's deadline is the date it names (resolved like every date).
Hedged sentences ("I might suggest ...") are neither decisions nor commitments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memory.consolidate.facts import HEDGE_SENTENCE
from memory.store.store import Store, now_iso
from memory.text.doc import Doc
from memory.text.entities import Entity

DECISION = re.compile(
    r"\b(?:(?:we|they)(?:['’]ve|\s+have)?\s+decided|decided\s+to|we\s+agreed|agreed\s+(?:to|on|that|it)|"
    r"go(?:ing)?\s+with|my\s+recommendation\s+(?:will\s+be|is)|(?:we|they)['’]re\s+(?:switching|dropping|moving)|"
    r"(?:we|they)\s+are\s+(?:switching|dropping|moving)|signed|approved|confirmed|the\s+decision\s+is|"
    r"entschieden|beschlossen|vereinbart)\b",
    re.I,
)
COMMITMENT = re.compile(
    r"\b(?:i['’]ll|i\s+will|i\s+said\s+i['’]d|i['’]ve\s+promised|i\s+promised|i\s+need\s+to|i\s+have\s+to|"
    r"i['’]ve\s+got\s+to|has\s+to\s+go|actions?(?:\s+are)?\s*[,:]|"
    r"[A-Z][a-z]+\s+(?:will|is\s+going\s+to)\s+(?:send|draft|deliver|bring|do|get|share)|ich\s+werde|ich\s+muss)",
    re.I,
)
QUESTION = re.compile(
    r"\?|\b(?:i\s+don['’]t\s+know|not\s+sure|need\s+to\s+check|open\s+question|unclear|asked\s+whether|"
    r"whether|wants\s+to\s+know|still\s+no\s+news|waiting\s+(?:for|on)|haven['’]t\s+(?:replied|heard)|"
    r"hasn['’]t\s+replied|tbd|to\s+be\s+confirmed|keine\s+ahnung|unklar|noch\s+offen)\b",
    re.I,
)
KINDS = ("decision", "commitment", "question")


@dataclass(frozen=True)
class DigestItem:
    id: int
    recording_id: int
    project_id: int
    project: str
    kind: str
    quote: str
    segment_ids: list[int]
    start: float
    end: float
    who: str | None
    due: str | None
    spoken_at: str
    title: str = ""

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["stated"] = True
        return out


def _who(text: str, entities: Sequence[Entity], start: int) -> str | None:
    lowered = text.lower()
    if re.search(
        r"\bi(?:['’]ll|\s+will|\s+said|['’]ve|\s+promised|\s+need|\s+have)\b|\bich\b|actions?\b", lowered
    ):
        return "me"
    people = [e for e in entities if e.kind in ("person", "name") and e.start >= start]
    return people[0].text if people else None


def _due(entities: Sequence[Entity], spoken_date: str) -> str | None:
    future = [
        e
        for e in entities
        if e.kind == "date" and e.grain in ("day", "week", "month") and e.value >= spoken_date[: len(e.value)]
    ]
    return future[0].value if future else None


def digest_items(
    doc: Doc, entities: Sequence[Entity], projects: Sequence[int]
) -> list[tuple[str, int, int, str | None, str | None, int]]:
    """(kind, start, end, who, due, project) of each digest sentence of the recording."""
    found = []
    spoken_date = doc.spoken_at.date().isoformat()
    for sentence in doc.sentences:
        text = sentence.text
        hedged = bool(HEDGE_SENTENCE.search(text))
        here = [e for e in entities if sentence.start <= e.start < sentence.end]
        if QUESTION.search(text):
            kind = "question"
        elif hedged:
            continue
        elif COMMITMENT.search(text):
            kind = "commitment"
        elif DECISION.search(text):
            kind = "decision"
        else:
            continue
        who = _who(text, here, sentence.start) if kind == "commitment" else None
        due = _due(here, spoken_date) if kind == "commitment" else None
        project = projects[doc.segment_at(sentence.start)]
        found.append((kind, sentence.start, sentence.end, who, due, project))
    return found


def store_digest(
    store: Store,
    recording_id: int,
    doc: Doc,
    items: Sequence[tuple[str, int, int, str | None, str | None, int]],
) -> None:
    with store.transaction():
        store.execute("DELETE FROM digest_items WHERE recording_id = ?", (recording_id,))
        for kind, start, end, who, due, project in items:
            span = doc.span(start, end)
            store.execute(
                "INSERT INTO digest_items (recording_id, project_id, kind, quote, segment_ids,"
                " start, end, who, due,"
                " spoken_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    recording_id,
                    project,
                    kind,
                    span.text,
                    json.dumps(list(span.segment_ids)),
                    span.time_start,
                    span.time_end,
                    who,
                    due,
                    doc.spoken_at.isoformat(),
                    now_iso(),
                ),
            )


def project_digest(
    store: Store, project_id: int, *, kinds: Sequence[str] = KINDS, limit: int | None = None
) -> list[DigestItem]:
    """Newest first (by when it was said, then by where in the recording)."""
    marks = ",".join("?" * len(kinds))
    rows = store.all(
        "SELECT d.id, d.recording_id, d.project_id, p.name AS project, d.kind, d.quote,"
        " d.segment_ids, d.start,"
        " d.end, d.who, d.due, d.spoken_at, r.title FROM digest_items d JOIN projects p ON p.id ="
        " d.project_id"
        f" JOIN recordings r ON r.id = d.recording_id WHERE d.project_id = ? AND d.kind IN ({marks})"
        " ORDER BY d.spoken_at DESC, d.start DESC LIMIT ?",
        [project_id, *kinds, limit if limit is not None else -1],
    )
    return [DigestItem(**{**r, "segment_ids": json.loads(r["segment_ids"])}) for r in rows]
