"""Connections between projects: passages of two projects that share a person, an organisation,
a technology or vendor, an amount or a date (a calendar clash when both are about being
somewhere), or that are close in meaning and words.

Every candidate pair of segments is described by a few signals and scored by a small logistic
model (prior weights below; each accept or dismiss the user gives moves them, online). The strong
ones are kept, one per thing shared and pair of projects, so "Gwen Trevelyan" links Tidewater and
Millbrook once, not once per mention. Each connection keeps both verbatim quotes with their
projects and times, and a one-line rationale labelled inferred.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.search.connected import KEEP
from memory.store.store import Store

NAME_KINDS = ("person", "organisation", "technology", "name")
FEATURES = ("bias", "person", "organisation", "technology", "amount", "date", "clash", "meaning", "words")
PRIOR = {
    "bias": -4.0,
    "person": 4.5,
    "organisation": 4.5,
    "technology": 3.0,
    "amount": 3.0,
    "date": 1.5,
    "clash": 3.0,
    "meaning": 3.0,
    "words": 4.0,
}
LEARNING_RATE = 0.5
PULL_TO_PRIOR = 0.02  # L2 towards the prior: one verdict nudges, many verdicts teach
MEANING_FLOOR = 0.35  # cosine below which meaning counts for nothing
PRESENCE = re.compile(
    r"\b(?:on\s+site|in\s+person|i['’]ll\s+be|i\s+will\s+be|be\s+there|attend\w*|travel\w*|visit\w*|"
    r"promised|demo|present\w*|trip|vor\s+ort|persönlich|reise\w*)\b",
    re.I,
)


@dataclass(frozen=True)
class SegmentRef:
    segment_id: int
    recording_id: int
    project_id: int
    text: str
    start: float
    end: float
    spoken_at: str = ""


@dataclass
class Candidate:
    a: SegmentRef  # the new recording's segment
    b: SegmentRef  # another project's
    shared: dict[str, set[str]] = field(default_factory=dict)  # feature → values both say
    shown: dict[str, str] = field(default_factory=dict)  # value → as said
    features: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    explicit: int = 0  # dates said in full on either side (a tie-breaker)

    @property
    def things(self) -> frozenset[str]:
        return frozenset(f"{k}:{v}" for k, vs in self.shared.items() for v in vs)


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def load_weights(store: Store) -> dict[str, float]:
    weights = dict(PRIOR)
    for feature, weight in store.rows("SELECT feature, weight FROM connection_weights"):
        weights[str(feature)] = float(weight)
    return weights


def probability(features: dict[str, float], weights: dict[str, float]) -> float:
    return sigmoid(sum(weights.get(k, 0.0) * v for k, v in features.items()))


def learn(store: Store, features: dict[str, float], accepted: bool) -> dict[str, float]:
    """One step of online logistic regression (with a pull towards the prior); returns the weights."""
    weights = load_weights(store)
    error = (1.0 if accepted else 0.0) - probability(features, weights)
    for k in FEATURES:
        x = features.get(k, 0.0)
        weights[k] += LEARNING_RATE * (error * x - PULL_TO_PRIOR * (weights[k] - PRIOR[k]))
    with store.transaction():
        store.executemany(
            "INSERT INTO connection_weights (feature, weight, updates) VALUES (?, ?, 1)"
            " ON CONFLICT(feature) DO UPDATE SET weight = excluded.weight, updates = updates + 1",
            [(k, weights[k]) for k in FEATURES],
        )
    return weights


# --- candidates ------------------------------------------------------------------------------------
def _segment_refs(
    store: Store, segment_ids: Iterable[int], projects: dict[int, int] | None = None
) -> dict[int, SegmentRef]:
    ids = sorted(set(segment_ids))
    out: dict[int, SegmentRef] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        for row in store.all(
            "SELECT s.id, s.recording_id, r.project_id, s.text, s.start, s.end, r.spoken_at,"
            " (SELECT t.project_id FROM stretches t WHERE t.recording_id = s.recording_id AND"
            " t.status != 'dismissed'"
            "  AND s.idx BETWEEN t.first_idx AND t.last_idx ORDER BY t.status = 'assigned' DESC"
            " LIMIT 1) AS stretch"
            f" FROM segments s JOIN recordings r ON r.id = s.recording_id WHERE s.id IN ({marks})",
            part,
        ):
            project = (projects or {}).get(row["id"]) or row["stretch"] or row["project_id"]
            out[row["id"]] = SegmentRef(
                row["id"],
                row["recording_id"],
                project,
                row["text"],
                row["start"],
                row["end"],
                row["spoken_at"],
            )
    return out


def entity_candidates(store: Store, recording_id: int) -> dict[tuple[int, int], Candidate]:
    """Pairs of segments (this recording's, another project's) that say the same thing."""
    rows = store.all(
        "SELECT a.segment_id AS a_id, b.segment_id AS b_id, a.kind AS a_kind, b.kind AS b_kind,"
        " a.value, a.text,"
        " b.text AS b_text, a.project_id AS a_project, b.project_id AS b_project"
        " FROM entities a JOIN entities b ON b.value = a.value AND b.recording_id != a.recording_id"
        "  AND b.project_id != a.project_id"
        " WHERE a.recording_id = ? AND ("
        "  (a.kind IN ('person', 'organisation', 'technology', 'name') AND b.kind IN ('person',"
        " 'organisation',"
        "   'technology', 'name')) OR (a.kind = b.kind AND a.kind IN ('amount', 'date')))",
        (recording_id,),
    )
    candidates: dict[tuple[int, int], Candidate] = {}
    refs = _segment_refs(store, [r["a_id"] for r in rows] + [r["b_id"] for r in rows])
    for r in rows:
        a, b = refs[r["a_id"]], refs[r["b_id"]]
        if a.project_id == b.project_id:
            continue
        if r["a_kind"] not in ("amount", "date") and _only_opening(str(r["value"]), a.text, b.text):
            continue
        kind = (
            r["a_kind"]
            if r["a_kind"] in ("amount", "date")
            else _name_feature(r["a_kind"], r["b_kind"], r["value"])
        )
        c = candidates.setdefault((a.segment_id, b.segment_id), Candidate(a, b))
        c.shared.setdefault(kind, set()).add(r["value"])
        c.shown[r["value"]] = r["text"]
    return candidates


def _only_opening(value: str, *texts: str) -> bool:
    """A one-word name that opens a sentence in every passage ("Congrats, Jon!", "Looks good!"):
    capitalised because it comes first, so it links nothing."""
    if " " in value:
        return False
    opening = re.compile(rf"(?:^|[.!?…]\s+)[\"'“‘(]*{re.escape(value)}\b", re.I)
    inside = re.compile(rf"\b{re.escape(value)}\b", re.I)
    return all(len(inside.findall(t)) == len(opening.findall(t)) for t in texts)


def _name_feature(a: str, b: str, value: str) -> str:
    if "organisation" in (a, b):
        return "organisation"
    if "person" in (a, b) and len(value.split()) >= 2:
        return "person"
    return "technology"


def add_meaning_candidates(
    store: Store,
    candidates: dict[tuple[int, int], Candidate],
    pairs: Sequence[tuple[int, int, float]],
) -> None:
    """Pairs found by meaning (segment ids, cosine) join the candidates."""
    refs = _segment_refs(store, [a for a, _, _ in pairs] + [b for _, b, _ in pairs])
    for a_id, b_id, _ in pairs:
        a, b = refs.get(a_id), refs.get(b_id)
        if a is not None and b is not None and a.project_id != b.project_id:
            candidates.setdefault((a_id, b_id), Candidate(a, b))


def describe(
    candidates: dict[tuple[int, int], Candidate],
    vectors: Callable[[Sequence[SegmentRef]], dict[int, np.ndarray]],
    words: Callable[[str, str], float],
    dates_explicit: set[tuple[int, str]],
) -> None:
    """Fill each candidate's features: counts of shared things, meaning (cosine) and shared words."""
    refs = {c.a.segment_id: c.a for c in candidates.values()} | {
        c.b.segment_id: c.b for c in candidates.values()
    }
    vecs = vectors(list(refs.values()))
    for c in candidates.values():
        f = {"bias": 1.0}
        for kind in ("person", "organisation", "technology"):
            f[kind] = float(min(2, len(c.shared.get(kind, ()))))
        f["amount"] = float(min(1, len(c.shared.get("amount", ()))))
        f["date"] = float(min(1, len(c.shared.get("date", ()))))
        if f["date"]:
            f["clash"] = 0.5 * (bool(PRESENCE.search(c.a.text)) + bool(PRESENCE.search(c.b.text)))
            c.explicit = sum(
                (s.segment_id, d) in dates_explicit for s in (c.a, c.b) for d in c.shared["date"]
            )
        va, vb = vecs.get(c.a.segment_id), vecs.get(c.b.segment_id)
        cosine = float(np.dot(va, vb)) if va is not None and vb is not None else 0.0
        f["meaning"] = max(0.0, cosine - MEANING_FLOOR) / (1.0 - MEANING_FLOOR)
        f["words"] = words(c.a.text, c.b.text)
        c.features = f


# --- choosing and storing --------------------------------------------------------------------------
def _pair(c: Candidate) -> str:
    a, b = sorted((c.a.project_id, c.b.project_id))
    return f"{a}-{b}"


def dedupe_key(c: Candidate) -> str:
    if c.things:
        return f"{_pair(c)}|" + "|".join(sorted(c.things))
    a, b = sorted((c.a.segment_id, c.b.segment_id))
    return f"{_pair(c)}|meaning:{a}-{b}"


def covered_things(store: Store, project_ids: Iterable[int]) -> dict[str, set[str]]:
    """For each project pair, what its stored connections already share (and the segments they use)."""
    ids = sorted(set(project_ids))
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    out: dict[str, set[str]] = {}
    for key, a_segs, b_segs in store.rows(
        f"SELECT dedupe_key, a_segment_ids, b_segment_ids FROM connections WHERE a_project_id IN ({marks})"
        f" OR b_project_id IN ({marks})",
        [*ids, *ids],
    ):
        pair, _, rest = str(key).partition("|")
        things = out.setdefault(pair, set())
        things.update(t for t in rest.split("|") if not t.startswith("meaning:"))
        things.update(f"segment:{s}" for s in json.loads(a_segs) + json.loads(b_segs))
    return out


def choose(
    candidates: Iterable[Candidate], weights: dict[str, float], covered: dict[str, set[str]]
) -> list[Candidate]:
    """The strong candidates, one per thing shared and pair of projects (and one per segment pair)."""
    scored = []
    for c in candidates:
        c.score = probability(c.features, weights)
        if c.score >= KEEP:
            scored.append(c)
    # Scores within a few hundredths are a tie: the date said in full, then the newest passage of
    # the other project (what is known now about the shared thing) win it.
    scored.sort(key=lambda c: (c.b.spoken_at, c.b.start), reverse=True)
    scored.sort(key=lambda c: (-round(c.score, 1), -c.explicit, -len(c.things)))
    chosen: list[Candidate] = []
    for c in scored:
        seen = covered.setdefault(_pair(c), set())
        if c.things and c.things <= seen:
            continue
        if not c.things and {f"segment:{c.a.segment_id}", f"segment:{c.b.segment_id}"} & seen:
            continue
        chosen.append(c)
        seen.update(c.things)
        seen.update({f"segment:{c.a.segment_id}", f"segment:{c.b.segment_id}"})
    return chosen


def kind_of(c: Candidate) -> str:
    for kind in ("person", "organisation", "technology", "amount"):
        if c.shared.get(kind):
            return kind
    if c.shared.get("date"):
        return "calendar_clash" if c.features.get("clash", 0.0) >= 1.0 else "date"
    return "meaning"


def shared_text(c: Candidate) -> str:
    return ", ".join(c.shown.get(v, v) for kind in c.shared for v in sorted(c.shared[kind]))


def template_rationale(c: Candidate, common_words: Sequence[str]) -> str:
    kind = kind_of(c)
    said = shared_text(c)
    if kind == "calendar_clash":
        return f"Both notes are about being somewhere on the same day ({said}): a possible calendar clash."
    if kind == "date":
        return f"Both notes name the same date ({said})."
    if kind == "amount":
        return f"Both notes name the same amount ({said})."
    if kind in ("person", "organisation", "technology"):
        return f"Both projects involve {said}."
    if common_words:
        return f"Both notes talk about {', '.join(common_words[:4])}."
    return "The two passages are close in meaning."
