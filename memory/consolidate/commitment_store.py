"""Commitments stored, matched with what later notes say, and listed (memory/consolidate/commitments.py
finds them).

A recording's rows (its commitments and its deliveries) are replaced whenever its "commitments"
stage runs; then the commitments within a year either side of the note are matched again:
- a commitment that repeats an earlier one still open between the same people, about the same thing,
  with the same due date or said as still owed ("Markus still owes us the data dump") **restates** it:
  it is listed with the first, not again;
- a delivery of a later note (within a year) marks a commitment **done** when it shares two content
  words with what was owed (or with what a restatement called it), or one and a party (the same giver
  or receiver, or a party's name said in it): "The playbook draft went to Oren" does "I'll send Oren
  a first draft of the playbook"; the earliest such delivery is the one kept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from memory.consolidate.commitment_text import MINE, Found
from memory.store.store import Store, now_iso
from memory.text.doc import Doc
from memory.text.numbers import word_list
from memory.text.relevance import STOPWORDS, stems
from memory.text.said_values import NUMBER_WORDS
from memory.text.stems import stem, text_language

WINDOW = timedelta(days=365)  # how far apart a commitment and what marks it done (or repeats it) may be
_TITLES = frozenset({"dr", "mr", "mrs", "ms", "prof", "frau", "herr", "doktor"})
_PREPOSITIONS = frozenset(
    word_list("of for from with about on to at in by aus für von vom zum zur mit über an auf bei im")
)
_PRONOUNS = frozenset(word_list("he she him her they them er sie ihm ihr ihnen"))
_VAGUE = frozenset({"it", "thing", "things", "stuff", "one", "that", "this", "them", "es", "das"})

_SELECT = """
SELECT c.id, c.recording_id, c.project_id, p.name AS project, r.title, c.quote, c.segment_ids, c.start,
       c.end, c.who, c.what, c.to_whom, c.due_text, c.due_date, c.spoken_at, c.language, c.done_by,
       d.quote AS done_quote, d.recording_id AS done_recording_id, d.start AS done_start,
       d.spoken_at AS done_spoken_at, dp.name AS done_project, d.segment_ids AS done_segment_ids,
       d.end AS done_end
FROM commitments c
JOIN projects p ON p.id = c.project_id
JOIN recordings r ON r.id = c.recording_id
LEFT JOIN commitments d ON d.id = c.done_by
LEFT JOIN projects dp ON dp.id = d.project_id
"""


@dataclass(frozen=True)
class Commitment:
    """Who owes what to whom by when, as said; `done_*`: the later words that say it was done."""

    id: int
    recording_id: int
    project_id: int
    project: str
    title: str
    quote: str
    segment_ids: list[int]
    start: float
    end: float
    who: str  # "me"/"us" is the user
    what: str
    to_whom: str | None
    due_text: str | None
    due_date: str | None  # ISO day
    spoken_at: str
    language: str
    done_by: int | None = None
    done_quote: str | None = None
    done_recording_id: int | None = None
    done_start: float | None = None
    done_spoken_at: str | None = None
    done_project: str | None = None
    done_segment_ids: list[int] | None = None
    done_end: float | None = None

    @property
    def done(self) -> bool:
        return self.done_by is not None

    @property
    def mine(self) -> bool:
        """The user owes it (rather than is owed it)."""
        return self.who in MINE

    def done_on(self, day: date) -> bool:
        """Said to be done by the end of `day`."""
        return self.done_spoken_at is not None and self.done_spoken_at[:10] <= day.isoformat()

    def overdue(self, today: date) -> bool:
        return not self.done_on(today) and self.due_date is not None and self.due_date < today.isoformat()

    def to_json(self, today: date | None = None) -> dict[str, Any]:
        out = asdict(self)
        out["stated"] = True  # the quote is the raw words, verbatim
        out["done"] = self.done if today is None else self.done_on(today)
        if today is not None:
            out["overdue"] = self.overdue(today)
        return out


@dataclass
class _Row:
    id: int
    kind: str
    who: str
    what: str
    to_whom: str | None
    due_date: str | None
    quote: str
    spoken_at: str
    still: bool
    restates: int | None
    done_by: int | None
    words: set[str] = field(default_factory=set)  # content stems of what (and of its restatements)
    heads: set[str] = field(default_factory=set)  # stems of the thing's head noun ("a draft of X": draft)


def store_commitments(
    store: Store, recording_id: int, doc: Doc, found: Sequence[Found], projects: Sequence[int]
) -> int:
    """Replace the recording's commitments and deliveries (`projects[i]`: the project segment i is
    about), then match the commitments around it again. Returns how many commitments it holds."""
    spoken = doc.spoken_at.isoformat()
    with store.transaction():
        store.execute("DELETE FROM commitments WHERE recording_id = ?", (recording_id,))
        for f in found:
            span = doc.span(f.start, f.end)
            store.execute(
                "INSERT INTO commitments (recording_id, project_id, kind, quote, segment_ids,"
                " first_segment_id, start, end, who, what, to_whom, due_text, due_date, language, still,"
                " spoken_at, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    recording_id,
                    projects[span.first_segment],
                    f.kind,
                    span.text,
                    json.dumps(list(span.segment_ids)),
                    span.segment_ids[0],
                    span.time_start,
                    span.time_end,
                    f.who,
                    f.what,
                    f.to_whom,
                    f.due_text,
                    f.due_date,
                    f.language,
                    int(f.still),
                    spoken,
                    now_iso(),
                ),
            )
        resolve(store, doc.spoken_at)
    return sum(1 for f in found if f.kind == "commitment")


def party_names(store: Store) -> tuple[list[str], list[str]]:
    """(people the library has named, words of the projects' names): who "he" may stand for, and
    what never does."""
    people = [str(r[0]) for r in store.rows("SELECT DISTINCT value FROM entities WHERE kind = 'person'")]
    projects = [str(r[0]) for r in store.rows("SELECT name FROM projects")]
    return people, [w for name in projects for w in re.split(r"[-_\s]+", name) if len(w) >= 4]


# --- matching ----------------------------------------------------------------------------------------
def _words(text: str) -> set[str]:
    return {w for w in stems(text) if w not in STOPWORDS and w not in _VAGUE and len(w) > 2}


def head_word(what: str) -> str | None:
    """The stem of the noun a thing is: its last word before a preposition ("a first draft of the
    playbook" → draft, "den Datenabzug aus dem LVS-2000" → datenabzug, "a side-by-side comparison
    of ..." → comparison); a counted measure is not the thing ("the ten years of fish count data" →
    data)."""
    language = text_language(what)
    words = [w.strip(".,;:!?\"'()").lower() for w in what.split()]
    cut = next((i for i, w in enumerate(words) if i and w in _PREPOSITIONS), len(words))
    head = _last_noun(words[:cut])
    if head is not None and cut < len(words) and words[cut] == "of" and _counted(words[:cut]):
        rest = words[cut + 1 :]
        after = next((i for i, w in enumerate(rest) if w in _PREPOSITIONS), len(rest))
        head = _last_noun(rest[:after]) or head
    return stem(head.split("-")[-1], language) if head is not None else None


def _last_noun(words: Sequence[str]) -> str | None:
    for word in reversed(words):
        if word.replace("-", "").isalpha() and len(word) > 2 and word not in STOPWORDS and word not in _VAGUE:
            return word
    return None


def _counted(words: Sequence[str]) -> bool:
    """ "ten years", "3 boxes": the phrase's head is counted by the number before it."""
    return len(words) >= 2 and (words[-2].isdigit() or words[-2] in NUMBER_WORDS)


def _names(party: str | None) -> set[str]:
    if not party or party in MINE:
        return set()
    return {w for w in re.split(r"[\s'’-]+", party.lower()) if len(w) > 1 and w not in _TITLES}


def same_party(a: str | None, b: str | None) -> bool:
    """Whether two parties are the same: the user's side ("me", "us"), or a shared word of a name."""
    if not a or not b:
        return False
    if a in MINE or b in MINE:
        return a in MINE and b in MINE
    return bool(_names(a) & _names(b))


def _delivers(c: _Row, d: _Row) -> bool:
    """Whether delivery `d` does commitment `c`: no party said otherwise, the thing's head noun said
    (or, for a thing with none, "it", a word of it), and either a party or two words in common."""
    for mine, theirs in ((c.who, d.who), (c.to_whom, d.to_whom)):
        if _known(mine) and _known(theirs) and not same_party(mine, theirs):
            return False  # "the suppliers have sent data" does not do what I owe
    said = _words(d.what) | _words(d.quote)
    if c.heads and not c.heads & said:
        return False
    shared = len(c.words & said)
    named = {w for w in re.split(r"[\s'’.,-]+", d.quote.lower()) if w}
    parties = (
        same_party(c.who, d.who)
        or same_party(c.to_whom, d.to_whom)
        or bool((_names(c.who) | _names(c.to_whom)) & named)
    )
    return shared >= 2 or (shared >= 1 and parties)


def _known(party: str | None) -> bool:
    """Said and resolved (not an unnamed "he", "they")."""
    return bool(party) and str(party).lower() not in _PRONOUNS


def _same_thing(n: _Row, c: _Row) -> bool:
    return bool(n.words & c.words) or (n.due_date is not None and n.due_date == c.due_date)


def _original(n: _Row, earlier: Sequence[_Row]) -> _Row | None:
    """The earlier open commitment `n` says again: between the same people, about the same thing
    (or due the same day); said as still owed, the latest one between them."""
    same = [c for c in earlier if same_party(n.who, c.who) and same_party(n.to_whom, c.to_whom)]
    return next((c for c in reversed(same) if _same_thing(n, c)), same[-1] if same and n.still else None)


def _shifted(moment: datetime, by: timedelta) -> datetime:
    """`moment + by`, held at the calendar's ends (a note dated in year 1 or 9999 still consolidates)."""
    try:
        return moment + by
    except OverflowError:
        end = datetime.min if by < timedelta(0) else datetime.max
        return end.replace(tzinfo=moment.tzinfo)


def resolve(store: Store, around: datetime) -> None:
    """Match again the commitments said within a year of `around` (restated, done)."""
    lo, hi = _shifted(around, -WINDOW).isoformat(), _shifted(around, WINDOW).isoformat()
    rows = [
        _Row(**{**r, "still": bool(r["still"])})
        for r in store.all(
            "SELECT id, kind, who, what, to_whom, due_date, quote, spoken_at, still, restates, done_by"
            " FROM commitments WHERE spoken_at >= ? AND spoken_at <= ? ORDER BY spoken_at, start",
            (_shifted(around, -2 * WINDOW).isoformat(), _shifted(around, 2 * WINDOW).isoformat()),
        )
    ]
    for r in rows:
        r.words = _words(r.what)
        r.heads = {h for h in [head_word(r.what)] if h}
    promises = [r for r in rows if r.kind == "commitment"]
    deliveries = [r for r in rows if r.kind == "delivery"]
    affected = [r for r in promises if lo <= r.spoken_at <= hi]
    before = {r.id: (r.restates, r.done_by) for r in affected}
    for n in affected:  # oldest first: an original is settled before what repeats it
        n.restates = None
        earlier = [c for c in promises if _earlier(c, n) and c.restates is None]
        earlier = [c for c in earlier if not _done_before(c, n, deliveries)]
        c = _original(n, earlier)
        if c is not None:
            n.restates = c.id
            c.words |= n.words
            c.heads |= n.heads
    for c in affected:
        c.done_by = None
        if c.restates is None:
            c.done_by = next((d.id for d in deliveries if _later(c, d) and _delivers(c, d)), None)
    changed = [(r.restates, r.done_by, r.id) for r in affected if before[r.id] != (r.restates, r.done_by)]
    if changed:
        store.executemany("UPDATE commitments SET restates = ?, done_by = ? WHERE id = ?", changed)


def _earlier(c: _Row, n: _Row) -> bool:
    return c.spoken_at < n.spoken_at and _within(c.spoken_at, n.spoken_at)


def _later(c: _Row, d: _Row) -> bool:
    return d.spoken_at > c.spoken_at and _within(c.spoken_at, d.spoken_at)


def _within(a: str, b: str) -> bool:
    return datetime.fromisoformat(b) - datetime.fromisoformat(a) <= WINDOW


def _done_before(c: _Row, n: _Row, deliveries: Iterable[_Row]) -> bool:
    """Whether a delivery between `c` and `n` already did `c` (then `n` is a new commitment)."""
    return any(_later(c, d) and d.spoken_at < n.spoken_at and _delivers(c, d) for d in deliveries)


# --- reading -----------------------------------------------------------------------------------------
def list_commitments(
    store: Store,
    *,
    project_id: int | None = None,
    recording_id: int | None = None,
    due_before: str | None = None,
    open_only: bool = False,
) -> list[Commitment]:
    """Commitments (each once: a restatement is listed with the first), by due date (those with no
    date said last, by when they were said). `due_before`: an ISO day; only those due before it."""
    where: list[str] = ["c.kind = 'commitment'", "c.restates IS NULL"]
    params: list[Any] = []
    if project_id is not None:
        where.append("c.project_id = ?")
        params.append(project_id)
    if recording_id is not None:
        where.append("c.recording_id = ?")
        params.append(recording_id)
    if due_before is not None:
        where.append("c.due_date IS NOT NULL AND c.due_date < ?")
        params.append(due_before)
    if open_only:
        where.append("c.done_by IS NULL")
    rows = store.all(
        f"{_SELECT} WHERE {' AND '.join(where)}"
        " ORDER BY c.due_date IS NULL, c.due_date, c.spoken_at, c.start",
        params,
    )
    return [
        Commitment(
            **{
                **r,
                "segment_ids": json.loads(r["segment_ids"]),
                "done_segment_ids": json.loads(r["done_segment_ids"]) if r["done_segment_ids"] else None,
            }
        )
        for r in rows
    ]
