"""Off-project stretches: the parts of a recording that are about another project.

A long note wanders ("quick Wrenfield aside, Tobias says the dry run went cleanly"). Each segment
is scored against every project by how typical its words are of that project's other notes (a
smoothed unigram model per project, the recording itself standing in for its own project when it
is the first) and by the project names it says; a two-state-per-project path through the
segments (Viterbi, with a cost for every switch) keeps short noise from flipping the project. A
run of segments whose best project is not the recording's own, by a clear margin, is a stretch.
The recording stays whole in its project; the stretch is linked, suggested, and the user assigns
or dismisses it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from memory.store.store import Store, now_iso
from memory.text.doc import Doc
from memory.text.quotes import tokens
from memory.text.relevance import STOPWORDS, stem

PROFILE_SEGMENTS = 3000  # most recent segments per project: enough to know its words
SMOOTHING = 300.0  # Dirichlet prior weight (in words) towards the whole library's word use
SWITCH_COST = 20.0  # nats: an unannounced change of project needs strong evidence at each end
SHIFT_COST = 1.0  # where the speaker announces a change of topic ("quick aside", "back to ...")
NAME_BONUS = 4.0  # nats for saying a project's name
CUE_BONUS = 4.0  # nats for the best other project where the speaker announces a change of topic
MIN_MARGIN = 3.0  # nats a stretch must win by, summed over its segments
_GENERIC_NAME_WORDS = frozenset(
    ["project", "client", "the", "and", "for", "new", "old", "notes", "note", "work", "team"]
)


def content_stems(text: str) -> list[str]:
    return [
        stem(t.norm)
        for t in tokens(text)
        if t.norm not in STOPWORDS and len(t.norm) > 2 and not t.norm.isdigit()
    ]


@dataclass(frozen=True)
class ProjectWords:
    project_id: int
    name: str
    counts: Counter[str]
    total: int
    name_stems: frozenset[str]


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


def project_profiles(store: Store, *, exclude_recording: int) -> list[ProjectWords]:
    """Each project's word counts from its other notes, with stretches counted where they belong."""
    profiles = []
    for row in store.all("SELECT id, name, slug, vocabulary FROM projects ORDER BY id"):
        texts = store.rows(
            "SELECT s.text FROM segments s JOIN recordings r ON r.id = s.recording_id"
            " LEFT JOIN stretches t ON t.recording_id = r.id AND t.status != 'dismissed'"
            "   AND s.idx BETWEEN t.first_idx AND t.last_idx"
            " WHERE coalesce(t.project_id, r.project_id) = ? AND r.id != ?"
            " ORDER BY r.spoken_at DESC, s.idx LIMIT ?",
            (row["id"], exclude_recording, PROFILE_SEGMENTS),
        )
        counts: Counter[str] = Counter()
        for (text,) in texts:
            counts.update(content_stems(text))
        names = content_stems(" ".join([row["name"], row["slug"].replace("-", " "), row["vocabulary"]]))
        profiles.append(
            ProjectWords(
                row["id"],
                row["name"],
                counts,
                sum(counts.values()),
                frozenset(n for n in names if n not in _GENERIC_NAME_WORDS),
            )
        )
    return profiles


def _emissions(doc: Doc, own: int, profiles: Sequence[ProjectWords]) -> list[dict[int, float]]:
    """Per segment, each project's log-likelihood of its words (own project: leave-window-out)."""
    seg_words = [content_stems(s.raw_text) for s in doc.segments]
    recording = Counter(w for words in seg_words for w in words)
    background = Counter(recording)
    for p in profiles:
        background.update(p.counts)
    bg_total = max(1, sum(background.values()))
    out = []
    for i, words in enumerate(seg_words):
        window = Counter(w for words_ in seg_words[max(0, i - 1) : i + 2] for w in words_)
        scores: dict[int, float] = {}
        for p in profiles:
            counts, total = p.counts, p.total
            if p.project_id == own:
                counts = counts + (recording - window)
                total = sum(counts.values())
            ll = 0.0
            for w in words:
                prior = (background[w] + 0.5) / (bg_total + 0.5)
                ll += math.log((counts.get(w, 0) + SMOOTHING * prior) / (total + SMOOTHING))
            if p.name_stems & set(words):
                ll += NAME_BONUS
            scores[p.project_id] = ll
        out.append(scores)
    return out


_TOPIC_SHIFT = re.compile(
    r"\b(?:aside|quick\s+(?:thing|note|one|word)|switching\s+to|while\s+I\s+remember|by\s+the\s+way|"
    r"on\s+another\s+note|back\s+to|(?:\w+\s+)?thing(?=,)|übrigens|zurück\s+zu|kurz\s+zu|apropos)\b",
    re.I,
)


def _viterbi(emissions: list[dict[int, float]], own: int, shifts: Sequence[bool]) -> list[int]:
    """The most likely project of each segment; switching costs less where the speaker says so."""
    if not emissions:
        return []
    states = list(emissions[0])
    best = {s: emissions[0][s] - (0.0 if s == own else SWITCH_COST) for s in states}
    back: list[dict[int, int]] = []
    for e, shift in zip(emissions[1:], shifts[1:], strict=True):
        step, new = {}, {}
        cost = SHIFT_COST if shift else SWITCH_COST
        for s in states:
            prev = max(states, key=lambda q: best[q] - (0.0 if q == s else cost))
            new[s] = best[prev] - (0.0 if prev == s else cost) + e[s]
            step[s] = prev
        back.append(step)
        best = new
    state = max(states, key=lambda s: best[s] - (0.0 if s == own else SWITCH_COST))
    path = [state]
    for step in reversed(back):
        state = step[state]
        path.append(state)
    return path[::-1]


def find_stretches(
    store: Store, recording_id: int, project_id: int, doc: Doc
) -> list[tuple[int, int, int, float]]:
    """(first position, last position, project_id, margin) of each off-project run of segments."""
    profiles = project_profiles(store, exclude_recording=recording_id)
    if len(profiles) < 2 or not doc.segments:
        return []
    emissions = _emissions(doc, project_id, profiles)
    shifts = [bool(_TOPIC_SHIFT.search(s.raw_text[:80])) for s in doc.segments]
    for shift, scores in zip(shifts, emissions, strict=True):
        other = max((p for p in scores if p != project_id), key=lambda p: scores[p])
        if shift and scores[other] > scores[project_id]:
            scores[other] += CUE_BONUS
    path = _viterbi(emissions, project_id, shifts)
    runs: list[tuple[int, int, int, float]] = []
    i = 0
    while i < len(path):
        j = i
        while j + 1 < len(path) and path[j + 1] == path[i]:
            j += 1
        if path[i] != project_id:
            margin = sum(emissions[k][path[i]] - emissions[k][project_id] for k in range(i, j + 1))
            if margin >= MIN_MARGIN:
                runs.append((i, j, path[i], margin))
        i = j + 1
    return runs


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
    where, params = [], list[object]()
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
    """Segment idx → the project it is about: an assigned or suggested stretch's, else the recording's."""
    result = dict.fromkeys(idxs, project_id)
    for row in store.all(
        "SELECT first_idx, last_idx, project_id FROM stretches WHERE recording_id = ? AND status !="
        " 'dismissed'"
        " ORDER BY status = 'assigned'",
        (recording_id,),
    ):
        for idx in idxs:
            if row["first_idx"] <= idx <= row["last_idx"]:
                result[idx] = row["project_id"]
    return result
