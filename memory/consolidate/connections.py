"""Connections between projects: passages of two projects that name the same person,
organisation, product or vendor, regulation or other name (memory/text/entities.py), or the same
day said with its date or a time while both are about being somewhere (a calendar clash).

Nothing connects through a common word: a one-word name that is also an English word ("SAP",
"CFO", "Budget"), a given name alone ("Daniel" may be anyone), a weekday alone or a day said only
relatively. A passage inside an aside about the other project (memory/consolidate/stretches.py) is
that aside, not a connection. A connection says what it shares as far as that is known: the label
both projects' mentions agree on, else only "the same name".

Every candidate pair of segments is described by a few signals and scored by a small logistic
model (prior weights below; each accept or dismiss the user gives moves them, online). The strong
ones are kept, one per thing shared and pair of projects, so "Gwen Trevelyan" links Tidewater and
Millbrook once, not once per mention. Each connection keeps both verbatim quotes with their
projects and times, and a one-line rationale labelled inferred (its kind, what it shares as said
and the rationale's template: memory/consolidate/connection_kinds.py). The days and times a
passage names, and the words that make a shared day a clash, are read in
memory/consolidate/connection_times.py.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from memory.consolidate.connection_times import ALL_DAY, PRESENCE, days_in_common, times_said
from memory.consolidate.fact_attributes import client_named, client_word
from memory.consolidate.state import project_names
from memory.search.connected import KEEP
from memory.store.store import Store
from memory.text.name_words import LABELS, common_word

STORED_NAMES = (*LABELS, "technology")  # what the entities table calls names (technology: older rows)
FEATURES = (
    "bias", "person", "organisation", "technology", "name", "amount", "date", "clash", "time", "meaning",
    "words",
)  # fmt: skip
# A shared name alone is enough; a shared day only with both passages about being somewhere; meaning
# and shared words only order what a name or a day found.
PRIOR = {
    "bias": -4.0,
    "person": 4.5,
    "organisation": 4.5,
    "technology": 4.5,
    "name": 4.5,
    "amount": 3.0,
    "date": 1.5,
    "clash": 3.0,
    "time": 1.5,  # the same hour on the shared day: as much a sign of a clash as one side's presence
    "meaning": 1.0,
    "words": 1.0,
}
# The feature a shared name counts for, by what it is.
FEATURE_OF = {"person": "person", "organisation": "organisation", "product": "technology"}
LEARNING_RATE = 0.5
PULL_TO_PRIOR = 0.02  # L2 towards the prior: one verdict nudges, many verdicts teach
MEANING_FLOOR = 0.35  # cosine below which meaning counts for nothing


@dataclass(frozen=True)
class SegmentRef:
    segment_id: int
    recording_id: int
    project_id: int
    text: str
    start: float
    end: float
    spoken_at: str = ""
    aside: int | None = None  # the project of the suggested aside this segment is in


@dataclass
class Candidate:
    a: SegmentRef  # the new recording's segment
    b: SegmentRef  # another project's
    shared: dict[str, set[str]] = field(default_factory=dict)  # feature → values both say
    shown: dict[str, str] = field(default_factory=dict)  # value → as said
    features: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    explicit: int = 0  # dates said in full on either side (a tie-breaker)
    labels: dict[str, str] = field(default_factory=dict)  # shared name → what both projects call it
    full: int = 0  # sides that say the shared name in full ("Lukas Heinemann", not "Lukas")
    overlap: int = (
        0  # days that the times both passages name have in common ("September" and "mid-September")
    )

    @property
    def things(self) -> frozenset[str]:
        return frozenset(_thing(k, v) for k, vs in self.shared.items() for v in vs)


def _thing(kind: str, value: str) -> str:
    """What a connection shares, for telling one from another: a name is one thing whatever it is
    called (a person in one note, an organisation in the next)."""
    return f"{kind if kind in ('date', 'amount') else 'name'}:{value}"


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
    """Segments with the project they are filed under (an assigned stretch's, else the recording's)
    and the project of the suggested aside they are in, if any."""
    ids = sorted(set(segment_ids))
    out: dict[int, SegmentRef] = {}
    stretch = (
        "(SELECT t.project_id FROM stretches t WHERE t.recording_id = s.recording_id AND t.status = '{}'"
        " AND s.idx BETWEEN t.first_idx AND t.last_idx LIMIT 1)"
    )
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        for row in store.all(
            "SELECT s.id, s.recording_id, r.project_id, s.text, s.start, s.end, r.spoken_at,"
            f" {stretch.format('assigned')} AS assigned, {stretch.format('suggested')} AS aside"
            f" FROM segments s JOIN recordings r ON r.id = s.recording_id WHERE s.id IN ({marks})",
            part,
        ):
            project = (projects or {}).get(row["id"]) or row["assigned"] or row["project_id"]
            out[row["id"]] = SegmentRef(
                row["id"],
                row["recording_id"],
                project,
                row["text"],
                row["start"],
                row["end"],
                row["spoken_at"],
                row["aside"],
            )
    return out


def _in_aside(a: SegmentRef, b: SegmentRef) -> bool:
    """A passage in an aside is about the aside's project, not its note's: with the other project it
    is the aside itself, with a third one no link between the two notes' projects."""
    return a.aside is not None or b.aside is not None


def _given_names(store: Store) -> set[str]:
    """Given names of the full names the library knows: alone, they may name anyone."""
    return {
        str(v).split()[0]
        for (v,) in store.rows(
            "SELECT DISTINCT value FROM entities WHERE kind = 'person' AND value LIKE '% %'"
        )
    }


def _said_everywhere(store: Store, values: set[str]) -> set[str]:
    """Names the notes of most projects say (three or more, and over half of them: "SteerCo",
    "Excel"): the vocabulary of the work, not a thing two projects share."""
    projects = int(store.scalar("SELECT count(*) FROM projects") or 0)
    ordered = sorted(values)
    out: set[str] = set()
    for start in range(0, len(ordered), 500):
        part = ordered[start : start + 500]
        marks = ",".join("?" * len(part))
        for value, n in store.rows(
            "SELECT e.value, count(DISTINCT e.project_id) FROM entities e"
            " JOIN segments s ON s.id = e.segment_id"
            f" WHERE e.value IN ({marks}) AND e.kind != 'date' AND NOT EXISTS (SELECT 1 FROM stretches t"
            "  WHERE t.recording_id = e.recording_id AND t.status = 'suggested'"
            "  AND s.idx BETWEEN t.first_idx AND t.last_idx) GROUP BY e.value",
            part,
        ):
            if int(n) >= 3 and 2 * int(n) > projects:
                out.add(str(value))
    return out


def _agreed_labels(store: Store, values: set[str], projects: tuple[int, int]) -> dict[str, str]:
    """What each shared name is, when the mentions in both projects say so and agree; else "name"."""
    said: dict[str, dict[int, set[str]]] = {}
    ordered = sorted(values)
    for start in range(0, len(ordered), 500):
        part = ordered[start : start + 500]
        marks = ",".join("?" * len(part))
        for value, project, kind in store.rows(
            f"SELECT DISTINCT value, project_id, kind FROM entities WHERE value IN ({marks})"
            f" AND project_id IN (?, ?) AND kind != 'date'",
            [*part, *projects],
        ):
            label = "product" if kind == "technology" else str(kind)
            said.setdefault(str(value), {}).setdefault(int(project), set()).add(label)
    out = {}
    for value in values:
        by_project = said.get(value, {})
        known = [by_project.get(p, set()) - {"name"} for p in projects]
        agreed = known[0] | known[1]
        out[value] = agreed.pop() if len(agreed) == 1 and all(known) else "name"
        if out[value] == "person" and " " not in value:
            out[value] = "name"
    return out


def entity_candidates(store: Store, recording_id: int) -> dict[tuple[int, int], Candidate]:
    """Pairs of segments (this recording's, another project's) that name the same thing."""
    names = ",".join("?" * len(STORED_NAMES))
    rows = store.all(
        "SELECT a.segment_id AS a_id, b.segment_id AS b_id, a.kind AS a_kind, a.value, a.text,"
        " b.text AS b_text"
        " FROM entities a JOIN entities b ON b.value = a.value AND b.recording_id != a.recording_id"
        "  AND b.project_id != a.project_id"
        f" WHERE a.recording_id = ? AND ((a.kind IN ({names}) AND b.kind IN ({names}))"
        "  OR (a.kind = 'date' AND b.kind = 'date'))",
        (recording_id, *STORED_NAMES, *STORED_NAMES),
    )
    # A given name alone may be anyone; a name most projects say is the vocabulary of the work.
    names_said = {str(r["value"]) for r in rows if r["a_kind"] != "date"}
    unshared = _given_names(store) | _said_everywhere(store, names_said)
    candidates: dict[tuple[int, int], Candidate] = {}
    refs = _segment_refs(store, [r["a_id"] for r in rows] + [r["b_id"] for r in rows])
    for r in rows:
        a, b = refs[r["a_id"]], refs[r["b_id"]]
        value = str(r["value"])
        if a.project_id == b.project_id or _in_aside(a, b):
            continue
        if r["a_kind"] != "date" and (
            common_word(value) or value in unshared or _only_opening(value, a.text, b.text)
        ):
            continue
        c = candidates.setdefault((a.segment_id, b.segment_id), Candidate(a, b))
        if value not in c.shown and r["a_kind"] != "date":
            c.full += sum(_said(t) == value for t in (str(r["text"]), str(r["b_text"])))
        c.shared.setdefault("date" if r["a_kind"] == "date" else "name", set()).add(value)
        c.shown[value] = r["text"]
    by_pair: dict[tuple[int, int], set[str]] = {}
    for c in candidates.values():
        by_pair.setdefault((c.a.project_id, c.b.project_id), set()).update(c.shared.get("name", ()))
    labels = {pair: _agreed_labels(store, values, pair) for pair, values in by_pair.items() if values}
    for c in candidates.values():
        for value in c.shared.pop("name", set()):
            label = labels[(c.a.project_id, c.b.project_id)][value]
            c.labels[value] = label
            c.shared.setdefault(FEATURE_OF.get(label, "name"), set()).add(value)
        if not c.shared.get("date"):
            c.overlap = days_in_common(c.a.text, c.a.spoken_at, c.b.text, c.b.spoken_at)
    # A passage that names the other project is the speaker speaking of it ("Eimear's report for
    # Bramblecroft has landed too", "Aside, Ardcolla, Bernadette's contracts are in"): a link the
    # speaker made, not one they did not see.
    projects = project_names(store)
    candidates = {pair: c for pair, c in candidates.items() if not _names_a_project(c.a, c.b, projects)}
    given = _given_name_pairs(store, recording_id)
    refs |= _segment_refs(store, {i for a_id, b_id, _ in given for i in (a_id, b_id)} - set(refs))
    for a_id, b_id, full in given:
        a, b = refs[a_id], refs[b_id]
        if a.project_id == b.project_id or _in_aside(a, b) or _names_a_project(a, b, projects):
            continue
        c = candidates.setdefault((a_id, b_id), Candidate(a, b))
        c.shared.setdefault("person", set()).add(full)
        c.shown.setdefault(full, full.title())
        c.labels[full] = "person"
        c.full += 1
    return candidates


def _names_a_project(a: SegmentRef, b: SegmentRef, projects: dict[int, str]) -> bool:
    """Either passage names a project other than its own note's: the other one (the speaker made
    the link), or a third ("One aside for the Edlinger Hof, Stefan says ..." in a note of a
    fourth project): an aside about that project, no link between the two notes' projects. A
    third project whose client is said by an English word ("Harbour Dental", "Data Platform")
    counts only as the other one: any sentence may open with that word."""
    pair = {a.project_id, b.project_id}
    return any(
        client_named(ref.text, name)
        for ref in (a, b)
        for project_id, name in projects.items()
        if project_id != ref.project_id and (project_id in pair or not common_word(client_word(name) or ""))
    )


def _given_name_pairs(store: Store, recording_id: int) -> list[tuple[int, int, str]]:
    """(this recording's segment, another project's segment, full name) where one says a person's
    given name alone ("Maggie, she's a freelancer the council uses") and the other the full name
    ("Maggie Colquhoun"), and the library knows one full name with that given name only (two
    Gareths, "Gareth Pym" and "Gareth Pryce", leave "Gareth" alone unresolved), never an English
    word ("Will", "May")."""
    full_names: dict[str, set[str]] = {}
    for (value,) in store.rows(
        "SELECT DISTINCT value FROM entities WHERE kind = 'person' AND value LIKE '% %'"
    ):
        full_names.setdefault(str(value).split()[0], set()).add(str(value))
    unique = {given: next(iter(names)) for given, names in full_names.items() if len(names) == 1}
    unique = {given: full for given, full in unique.items() if not common_word(given)}
    if not unique:
        return []
    names = ",".join("?" * len(STORED_NAMES))
    alone = store.all(  # a one-word mention that no note resolved to a full name
        f"SELECT segment_id, recording_id, project_id, value FROM entities WHERE kind IN ({names}, 'person')"
        " AND value NOT LIKE '% %'",
        STORED_NAMES,
    )
    full = store.all(
        "SELECT segment_id, recording_id, project_id, value FROM entities WHERE kind = 'person'"
        " AND value LIKE '% %' AND text LIKE '% %'"  # said in full there
    )
    by_full: dict[str, list[dict[str, Any]]] = {}
    for row in full:
        by_full.setdefault(str(row["value"]), []).append(row)
    out = []
    for one in alone:
        name = unique.get(str(one["value"]))
        for other in by_full.get(name or "", []):
            if one["project_id"] == other["project_id"]:
                continue
            if recording_id == one["recording_id"]:
                out.append((int(one["segment_id"]), int(other["segment_id"]), str(name)))
            elif recording_id == other["recording_id"]:
                out.append((int(other["segment_id"]), int(one["segment_id"]), str(name)))
    return out


def _said(text: str) -> str:
    return " ".join(w.lower().strip("'’-") for w in text.split())


def clock_times(ref: SegmentRef) -> frozenset[str]:
    return times_said(ref.text, ref.spoken_at)


def _only_opening(value: str, *texts: str) -> bool:
    """A one-word name that opens a sentence in every passage ("Congrats, Jon!", "Looks good!"):
    capitalised because it comes first, so it links nothing."""
    if " " in value:
        return False
    opening = re.compile(rf"(?:^|[.!?…]\s+)[\"'“‘(]*{re.escape(value)}\b", re.I)
    inside = re.compile(rf"\b{re.escape(value)}\b", re.I)
    return all(len(inside.findall(t)) == len(opening.findall(t)) for t in texts)


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
        for kind in ("person", "organisation", "technology", "name"):
            f[kind] = float(min(2, len(c.shared.get(kind, ()))))
        f["date"] = float(min(1, len(c.shared.get("date", ()))))
        if f["date"]:
            whole = [bool(ALL_DAY.search(s.text)) for s in (c.a, c.b)]
            present = [bool(PRESENCE.search(s.text)) or w for s, w in zip((c.a, c.b), whole, strict=True)]
            f["clash"] = 0.5 * sum(present)
            f["time"] = float(bool(clock_times(c.a) & clock_times(c.b)) or any(whole))
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
        things.update(
            _thing(*t.split(":", 1)) for t in rest.split("|") if ":" in t and not t.startswith("meaning:")
        )
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
    # The passages that share most come first; among those sharing the same, the date said in full,
    # the same time named on both sides, the name said in full, then the newest passage of the other
    # project (what is known now about the shared thing), then the closer in meaning and words.
    scored.sort(key=lambda c: -c.score)
    scored.sort(key=lambda c: (c.b.spoken_at, c.b.start), reverse=True)
    scored.sort(key=lambda c: (-len(c.things), -c.explicit, -max(0, c.overlap), -c.full))
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
