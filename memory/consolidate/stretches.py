"""Asides: the parts of a recording that are about another project.

A note wanders ("Oh, before I forget, Tessera, Oren moved our first workshop ..."; "Kurz zu
Norrvik, ..."). An aside is the run of sentences about another project: it starts where the speaker
names that project, or announces a change of topic and names one of its people or things (known
from that project's notes: memory/text/name_book.py `library_names`), while nothing of the note's own
project is said; it goes on through the sentences that say more of that project or nothing of
either, and ends where the speaker comes back ("back to Norrvik", "zurück zu Kranich") or says
something of the own project again. Without such a return it ends at its last sentence about the
other project. Never the whole note: an aside leaves at least half of the note's sentences.

The recording stays whole in its project, and so does everything found in it (facts, digest items,
connections) until the user assigns the aside; an assigned aside's passages are that project's.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from memory.store.store import Store, now_iso
from memory.text.doc import Doc
from memory.text.entities import NAME_KINDS
from memory.text.name_book import NameBook, library_names
from memory.text.name_words import common_word
from memory.text.numbers import word_list
from memory.text.said_values import Entity

MAX_QUIET = 2  # sentences saying nothing of either project that an aside may run through
OPENING_WORDS = 6  # a project named this early in a sentence is what the sentence is about
# Words of a project's name that name nothing in particular.
_GENERIC_NAME_WORDS = frozenset(
    word_list("project client the and for new old notes note work team der die das und projekt kunde")
)
# The speaker announcing a change of topic, at the start of a sentence.
_START = re.compile(
    r"^\W*(?:\w+\W+){0,3}?(?:aside|quick\s+(?:thing|note|one|word|update)|switching\s+to|while\s+i\s+remember|"
    r"before\s+i\s+forget|by\s+the\s+way|on\s+another\s+note|side\s+note|(?:\w+\s+)?thing,|"
    r"übrigens|kurz\s+zu[rm]?|apropos|nebenbei|noch\s+was\s+zu[rm]?)(?!\w)",
    re.I,
)
# ... and coming back.
_RETURN = re.compile(
    r"^\W*(?:\w+\W+){0,2}?(?:back\s+to|anyway|zurück\s+zu[rm]?|wieder\s+zu[rm]?|jedenfalls)(?!\w)", re.I
)
# ... or coming back at the end of the aside's own sentence ("Van Aalst, the ledger export still
# hasn't turned up, anyway, back to Brackenridge"): the words after it are not the aside's.
_RETURN_LATER = re.compile(
    r"[,;:–—]\s*(?:\w+\W+){0,2}?(?:back\s+to|zurück\s+zu[rm]?|wieder\s+zu[rm]?)(?!\w)", re.I
)
_WORD = re.compile(r"\w[\w'’-]*")


@dataclass(frozen=True)
class Stretch:
    id: int
    recording_id: int
    first_idx: int
    last_idx: int
    start: float
    end: float
    project_id: int
    project: str
    score: float
    status: str
    text: str = ""

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def project_words(store: Store) -> dict[int, frozenset[str]]:
    """Each project's name words (its name, slug and vocabulary), lower case."""
    out = {}
    for row in store.all("SELECT id, name, slug, vocabulary FROM projects ORDER BY id"):
        text = " ".join([row["name"], row["slug"].replace("-", " "), row["vocabulary"] or ""])
        words = {w.lower() for w in _WORD.findall(text)}
        out[int(row["id"])] = frozenset(w for w in words if len(w) > 2 and w not in _GENERIC_NAME_WORDS)
    return out


@dataclass
class _Sentence:
    start: int
    end: int
    evidence: defaultdict[int, float]  # project → how much the sentence says of it
    named: set[int]  # projects named by their name, capitalised, at the start of the sentence
    starts: bool  # the speaker announces a change of topic
    returns: bool  # ... or comes back
    closes: bool = False  # ... or comes back at its end (what it says is read up to there)


class _Reader:
    """What each sentence of a note says of which project."""

    def __init__(self, own: int, words: dict[int, frozenset[str]], book: NameBook) -> None:
        self.own, self.words = own, words
        self.homes: dict[str, set[int]] = {}
        for value, projects in book.homes.items():
            self.homes.setdefault(value, set()).update(projects)
        for project, people in book.people.items():
            for fulls in people.values():
                for full in fulls:
                    for token in full.split():
                        self.homes.setdefault(token, set()).add(project)
        self.here: dict[str, set[int]] = {}  # names said in this note → the projects of the parts

    def sentence(self, text: str, start: int, end: int, names: Sequence[Entity]) -> _Sentence:
        returns = bool(_RETURN.search(text))
        later = None if returns else _RETURN_LATER.search(text)
        if later is not None:
            text = text[: later.start()]
            names = [e for e in names if e.start < start + later.start()]
        evidence: defaultdict[int, float] = defaultdict(float)
        named: set[int] = set()
        said = [(n, w, w.lower()) for n, w in enumerate(_WORD.findall(text))]
        for project, words in self.words.items():
            # Capitalised, the word is the project's name, unless it is a word that opens the
            # sentence and is capitalised only for that ("School thing, ...", "Implementation is").
            hits = [
                (n, w[:1].isupper() and not (n == 0 and common_word(w))) for n, w, low in said if low in words
            ]
            if hits:
                evidence[project] += 2.0 if any(name for _, name in hits) else 1.0
                if any(name and n < OPENING_WORDS for n, name in hits):
                    named.add(project)
        for e in names:
            homes = set(self.homes.get(e.value) or set()) or {
                h for token in e.value.split() for h in self.homes.get(token, set())
            }
            homes |= self.here.get(e.value, set())
            for h in homes:
                evidence[h] += 1.0 / len(homes)
        return _Sentence(start, end, evidence, named, bool(_START.search(text)), returns, later is not None)

    def learn(self, names: Sequence[Entity], project: int) -> None:
        """These names were said in a part of this note about `project`."""
        for e in names:
            self.here.setdefault(e.value, set()).add(project)


def _opens(s: _Sentence, own: int) -> int | None:
    """The other project an aside starting at this sentence is about, if it starts one."""
    if s.evidence[own] > 0 or s.returns:
        return None
    others = [p for p in s.evidence if p != own and s.evidence[p] > 0]
    if not others:
        return None
    best = max(others, key=lambda p: (s.evidence[p], p in s.named))
    if best in s.named or (s.starts and s.evidence[best] >= 1.0):
        return best
    return None


def find_stretches(
    store: Store, recording_id: int, project_id: int, doc: Doc, names: Sequence[Entity] = ()
) -> list[tuple[int, int, int, float]]:
    """(first position, last position, project_id, score) of each aside, positions in doc.segments;
    `names`: the recording's entities (memory/text/entities.py)."""
    words = project_words(store)
    if len(words) < 2 or not doc.segments:
        return []
    reader = _Reader(project_id, words, library_names(store, recording_id))
    named = [e for e in names if e.kind in NAME_KINDS]
    sentences = doc.sentences
    runs: list[tuple[int, int, int, float]] = []  # sentence numbers
    i = 0
    while i < len(sentences):
        here = [e for e in named if sentences[i].start <= e.start < sentences[i].end]
        s = reader.sentence(sentences[i].text, sentences[i].start, sentences[i].end, here)
        project = _opens(s, project_id)
        if project is None:
            reader.learn(here, project_id)
            i += 1
            continue
        reader.learn(here, project)
        score, last, j, quiet = float(s.evidence[project]), i, i + 1, 0
        came_back = s.closes
        while j < len(sentences) and not came_back:
            there = [e for e in named if sentences[j].start <= e.start < sentences[j].end]
            t = reader.sentence(sentences[j].text, sentences[j].start, sentences[j].end, there)
            if t.returns or t.evidence[project_id] > 0 or _opens(t, project_id) not in (None, project):
                came_back = True
                break
            if t.evidence[project] > 0:
                reader.learn(there, project)
                score += t.evidence[project]
                last, quiet = j, 0
                came_back = t.closes
            elif t.closes:  # "right, that's that, back to Brackenridge": the aside ended before it
                came_back = True
                break
            else:
                quiet += 1
                if quiet > MAX_QUIET:
                    break
            j += 1
        end = j - 1 if came_back else last
        if (end - i + 1) * 2 <= len(sentences):
            runs.append((i, end, project, score))
        i = end + 1
    out: list[tuple[int, int, int, float]] = []
    for a, b, project, score in runs:
        first = doc.segment_at(sentences[a].start)
        last_seg = doc.segment_at(max(sentences[b].start, sentences[b].end - 1))
        out.append((first, last_seg, project, score))
    return out


def store_stretches(
    store: Store, recording_id: int, doc: Doc, runs: Sequence[tuple[int, int, int, float]]
) -> None:
    """Replace the recording's suggested stretches; a user's decision on the same run is kept."""
    with store.transaction():
        decided = {
            (r["first_idx"], r["last_idx"], r["project_id"])
            for r in store.all(
                "SELECT first_idx, last_idx, project_id FROM stretches WHERE recording_id = ? AND"
                " status != 'suggested'",
                (recording_id,),
            )
        }
        store.execute(
            "DELETE FROM stretches WHERE recording_id = ? AND status = 'suggested'", (recording_id,)
        )
        for a, b, project_id, margin in runs:
            first, last = doc.segments[a], doc.segments[b]
            if (first.idx, last.idx, project_id) in decided:
                continue
            store.execute(
                "INSERT INTO stretches (recording_id, first_idx, last_idx, start, end, project_id,"
                " score, status,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'suggested', ?)",
                (
                    recording_id,
                    first.idx,
                    last.idx,
                    first.start,
                    last.end,
                    project_id,
                    round(margin, 3),
                    now_iso(),
                ),
            )


_SELECT = (
    "SELECT t.id, t.recording_id, t.first_idx, t.last_idx, t.start, t.end, t.project_id, p.name AS project,"
    " t.score, t.status FROM stretches t JOIN projects p ON p.id = t.project_id"
)


def list_stretches(
    store: Store, *, recording_id: int | None = None, status: str | None = None
) -> list[Stretch]:
    where, params = (
        ["t.recording_id NOT IN (SELECT id FROM recordings WHERE trashed_at IS NOT NULL)"],
        list[object](),
    )
    if recording_id is not None:
        where.append("t.recording_id = ?")
        params.append(recording_id)
    if status is not None:
        where.append("t.status = ?")
        params.append(status)
    sql = (
        _SELECT + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY t.recording_id, t.first_idx"
    )
    out = []
    for row in store.all(sql, params):
        texts = store.rows(
            "SELECT text FROM segments WHERE recording_id = ? AND idx BETWEEN ? AND ? ORDER BY idx",
            (row["recording_id"], row["first_idx"], row["last_idx"]),
        )
        out.append(Stretch(**row, text=" ".join(t for (t,) in texts)))
    return out


def decide_stretch(store: Store, stretch_id: int, *, status: str, project_id: int | None = None) -> None:
    """Assign a stretch (to its suggested project, or to `project_id`) or dismiss it."""
    with store.transaction():
        if project_id is not None:
            store.execute("UPDATE stretches SET project_id = ? WHERE id = ?", (project_id, stretch_id))
        store.execute(
            "UPDATE stretches SET status = ?, decided_at = ? WHERE id = ?", (status, now_iso(), stretch_id)
        )


def effective_projects(
    store: Store, recording_id: int, project_id: int, idxs: Sequence[int]
) -> dict[int, int]:
    """Segment idx → the project it is filed under: an assigned stretch's, else the recording's (a
    suggested aside stays in the note's project until the user assigns it)."""
    result = dict.fromkeys(idxs, project_id)
    for row in store.all(
        "SELECT first_idx, last_idx, project_id FROM stretches WHERE recording_id = ?"
        " AND status = 'assigned'",
        (recording_id,),
    ):
        for idx in idxs:
            if row["first_idx"] <= idx <= row["last_idx"]:
                result[idx] = row["project_id"]
    return result
