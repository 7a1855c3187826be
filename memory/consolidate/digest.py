"""A project's digest: decisions, commitments (who, what, to whom, by when) and open questions.

Decisions and open questions are sentences the user said, verbatim, found by cue words ("we
agreed", "go with", "I need to check", "whether", a question mark), with their date and time into
the recording; hedged sentences ("I might suggest ...") are no decisions. Commitments are those of
the commitments stage (memory/consolidate/commitments.py, read through commitment_store): each
with its quote, who owes what to whom, the due date and whether a later note said it was done.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memory.consolidate.commitment_store import Commitment, list_commitments
from memory.consolidate.facts import HEDGE_SENTENCE
from memory.store.store import Store, now_iso
from memory.text.doc import Doc
from memory.text.said_values import Entity

DECISION = re.compile(
    r"\b(?:(?:we|they)(?:['’]ve|\s+have)?\s+decided|decided\s+to|we\s+agreed|agreed\s+(?:to|on|that|it)|"
    r"go(?:ing)?\s+with|my\s+recommendation\s+(?:will\s+be|is)|(?:we|they)['’]re\s+(?:switching|dropping|moving)|"
    r"(?:we|they)\s+are\s+(?:switching|dropping|moving)|signed|approved|confirmed|the\s+decision\s+is|"
    r"entschieden|beschlossen|vereinbart)\b",
    re.I,
)
QUESTION = re.compile(
    r"\?|\b(?:i\s+don['’]t\s+know|not\s+sure|need\s+to\s+check|open\s+question|unclear|asked\s+whether|"
    r"whether|wants\s+to\s+know|still\s+no\s+news|waiting\s+(?:for|on)|haven['’]t\s+(?:replied|heard)|"
    r"hasn['’]t\s+replied|tbd|to\s+be\s+confirmed|keine\s+ahnung|unklar|noch\s+offen)\b",
    re.I,
)
KINDS = ("decision", "commitment", "question")
FOUND_KINDS = ("decision", "question")  # commitments come from the commitments table


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
    what: str | None = None  # commitments: what is owed, to whom, and whether it was done
    to_whom: str | None = None
    done: bool = False

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["stated"] = True
        return out


def digest_items(
    doc: Doc, entities: Sequence[Entity], projects: Sequence[int]
) -> list[tuple[str, int, int, str | None, str | None, int]]:
    """(kind, start, end, who, due, project) of each decision and open question of the recording
    (`who` and `due` are None: they are a commitment's, and commitments are found by their own stage)."""
    found: list[tuple[str, int, int, str | None, str | None, int]] = []
    for sentence in doc.sentences:
        text = sentence.text
        if QUESTION.search(text):
            kind = "question"
        elif HEDGE_SENTENCE.search(text) or not DECISION.search(text):
            continue
        else:
            kind = "decision"
        project = projects[doc.segment_at(sentence.start)]
        found.append((kind, sentence.start, sentence.end, None, None, project))
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
    found = [k for k in kinds if k in FOUND_KINDS]
    marks = ",".join("?" * len(found))
    rows = store.all(
        "SELECT d.id, d.recording_id, d.project_id, p.name AS project, d.kind, d.quote,"
        " d.segment_ids, d.start,"
        " d.end, d.who, d.due, d.spoken_at, r.title FROM digest_items d JOIN projects p ON p.id ="
        " d.project_id"
        f" JOIN recordings r ON r.id = d.recording_id WHERE d.project_id = ? AND d.kind IN ({marks})"
        " ORDER BY d.spoken_at DESC, d.start DESC",
        [project_id, *found],
    )
    items = [DigestItem(**{**r, "segment_ids": json.loads(r["segment_ids"])}) for r in rows]
    if "commitment" in kinds:
        items += [_commitment_item(c) for c in list_commitments(store, project_id=project_id)]
    items.sort(key=lambda i: (i.spoken_at, i.start), reverse=True)
    return items[:limit] if limit is not None else items


def _commitment_item(c: Commitment) -> DigestItem:
    return DigestItem(
        c.id, c.recording_id, c.project_id, c.project, "commitment", c.quote, c.segment_ids, c.start,
        c.end, c.who, c.due_date, c.spoken_at, c.title, c.what, c.to_whom, c.done,
    )  # fmt: skip
