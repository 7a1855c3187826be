"""The names consolidation has found in a project's notes (people, organisations, products), most
said first: what the transcriber is told to expect in that project's next notes.

Read from the entities stage's rows (memory.text.entities): each name as it was written most often
(its surface form, e.g. "Hartwell" rather than the normalised "hartwell"), ranked by how many notes
say it, then how often. Notes in the trash have no entities left, so their names drop out.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from memory.store.store import Store

__all__ = ["NAME_LABELS", "project_names"]

# What counts as a name to spell: spaCy's PERSON, ORG and PRODUCT (and "technology", the label
# earlier versions stored for products). Places, events and unlabelled capitals stay out: they are
# more often ordinary words said with a capital than names a transcriber gets wrong.
NAME_LABELS = ("person", "organisation", "product", "technology")


def project_names(
    store: Store, project_id: int, *, labels: Sequence[str] = NAME_LABELS, limit: int = 40
) -> list[str]:
    """Up to `limit` names of the project's notes, the ones said in most notes first."""
    marks = ",".join("?" * len(labels))
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    notes: Counter[str] = Counter()
    mentions: Counter[str] = Counter()
    for text, value, recordings, count in store.rows(
        "SELECT e.text, e.value, count(DISTINCT e.recording_id), count(*) FROM entities e"
        f" WHERE e.project_id = ? AND e.kind IN ({marks}) GROUP BY e.text, e.value",
        (project_id, *labels),
    ):
        key = str(value)
        forms[key][str(text)] += int(count)
        notes[key] = max(notes[key], int(recordings))
        mentions[key] += int(count)
    ranked = sorted(forms, key=lambda v: (-notes[v], -mentions[v], v))
    return [forms[v].most_common(1)[0][0] for v in ranked[:limit]]
