"""The names the library already knows, from its other recordings (`NameBook`, read from the
stored entities by `library_names`): a name the model found in another note is a name in a new
note too, with the label it was given there and the projects whose notes say it, and a partial
name ("Priya") is the full one said in another note of the same project ("Priya Raman"). The first
word of an organisation's or a product's longer name ("Coldline" of "Coldline Catering Equipment")
is that name in a note of any project: a supplier is called by its short name wherever it turns up,
while a given name alone may be anyone outside its own project.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from memory.store.store import Store
from memory.text.name_words import LABELS, POSSESSIVE, WORD_PATTERN

_OLD_KINDS = {"technology": "product"}  # labels stored by earlier versions


@dataclass
class NameBook:
    """The names the library already knows, from its other recordings: what a new note's names are
    read against."""

    project_id: int | None = None  # the project of the recording being read
    forms: dict[str, Counter[str]] = field(default_factory=dict)  # as said → labels said with
    homes: dict[str, set[int]] = field(default_factory=dict)  # value → projects whose notes say it
    # project → first word → the names of two words or more that start with it, with their labels
    people: dict[int, dict[str, dict[str, str]]] = field(default_factory=dict)
    # first word → the names of two words or more that start with it and name no person (nor an
    # unknown kind of thing), in any project's notes
    firms: dict[str, dict[str, str]] = field(default_factory=dict)
    _index: dict[tuple[str, ...], str] | None = None

    def add(self, text: str, value: str, label: str, project: int, count: int = 1) -> None:
        label = _OLD_KINDS.get(label, label)
        self.forms.setdefault(text, Counter())[label] += count
        self.homes.setdefault(value, set()).add(project)
        words = value.split()
        if len(words) >= 2:
            known = self.people.setdefault(project, {}).setdefault(words[0], {})
            if known.get(value) in (None, "name"):
                known[value] = label
            if label not in ("person", "name"):
                self.firms.setdefault(words[0], {})[value] = label
        self._index = None

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, form) of each known form in the text, the longest first where they overlap;
        as said (case matters: "Per" is a name, "per" is not)."""
        if self._index is None:
            self._index = {tuple(WORD_PATTERN.findall(form)): form for form in self.forms}
        longest = max((len(k) for k in self._index), default=0)
        words = []
        for m in WORD_PATTERN.finditer(text):
            cut = POSSESSIVE.search(m.group(0))
            words.append((m.start(), m.end() - (len(m.group(0)) - cut.start() if cut else 0), m.group(0)))
        said = [w[:-2] if POSSESSIVE.search(w) else w for _, _, w in words]
        out, i = [], 0
        while i < len(words):
            for n in range(min(longest, len(words) - i), 0, -1):
                form = self._index.get(tuple(said[i : i + n]))
                if form is not None:
                    out.append((words[i][0], words[i + n - 1][1], form))
                    i += n
                    break
            else:
                i += 1
        return out

    def label(self, text: str) -> str:
        """The label the library gives this form, when all its labelled mentions agree."""
        labels = {k for k in self.forms.get(text, Counter()) if k != "name"}
        return labels.pop() if len(labels) == 1 else "name"

    def full_names(self, first: str) -> dict[str, str]:
        """The longer names of the recording's project that start with this word, with their labels."""
        return dict(self.people.get(self.project_id, {}).get(first, {})) if self.project_id else {}

    def firm_names(self, first: str) -> dict[str, str]:
        """The longer names of organisations and products, in any project, that start with this word
        (when it is no person's given name), with their labels."""
        return dict(self.firms.get(first, {})) if first in self.firm_words() else {}

    def firm_words(self) -> set[str]:
        """First words an organisation or a product is called by alone, in any project: not the
        given name of a person the library knows ("Ruben" of "Ruben Stalpers", even where the model
        once took him for a firm)."""
        return set(self.firms) - self.given_names()

    def given_names(self) -> set[str]:
        """Given names of any full name of a person the library knows ("priya" of "priya raman")."""
        return {
            g for people in self.people.values() for g, names in people.items() if "person" in names.values()
        }


def names_said_in(store: Store, segment_ids: Sequence[int]) -> list[str]:
    """The names consolidation read in these segments (with the library's known names, so also
    those the model alone misses: a sentence-initial "Odile would love …" it tags as an adjective)."""
    ids = sorted(set(segment_ids))
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    kinds = ",".join("?" * len(LABELS))
    return [
        str(r[0])
        for r in store.rows(
            f"SELECT DISTINCT text FROM entities WHERE segment_id IN ({marks}) AND kind IN ({kinds})",
            (*ids, *LABELS),
        )
    ]


def library_names(store: Store, recording_id: int | None = None) -> NameBook:
    """The names stored for the library's other recordings, each with the projects whose notes say
    it: a name said in an aside about another project is that project's."""
    row = store.one("SELECT project_id FROM recordings WHERE id = ?", (recording_id,))
    book = NameBook(project_id=int(row["project_id"]) if row else None)
    kinds = (*LABELS, *_OLD_KINDS)
    marks = ",".join("?" * len(kinds))
    counts: Counter[tuple[str, str, str, int]] = Counter()
    for kind, text, value, project, n in store.rows(
        "SELECT kind, text, value, project_id, count(*) FROM entities"
        f" WHERE recording_id != ? AND kind IN ({marks}) GROUP BY kind, text, value, project_id",
        (recording_id or -1, *kinds),
    ):
        counts[(str(kind), str(text), str(value), int(project))] += int(n)
    for kind, text, value, filed, home, n in store.rows(
        "SELECT e.kind, e.text, e.value, e.project_id, t.project_id, count(*) FROM stretches t"
        " JOIN segments s ON s.recording_id = t.recording_id AND s.idx BETWEEN t.first_idx AND t.last_idx"
        " JOIN entities e ON e.segment_id = s.id"
        f" WHERE t.status = 'suggested' AND t.project_id != e.project_id AND e.recording_id != ?"
        f" AND e.kind IN ({marks}) GROUP BY e.kind, e.text, e.value, e.project_id, t.project_id",
        (recording_id or -1, *kinds),
    ):
        counts[(str(kind), str(text), str(value), int(filed))] -= int(n)
        counts[(str(kind), str(text), str(value), int(home))] += int(n)
    for (kind, text, value, project), n in counts.items():
        if n > 0:
            book.add(text, value, kind, project, n)
    return book
