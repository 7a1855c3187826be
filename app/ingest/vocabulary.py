"""What the transcriber is told to expect in a project's notes: the user's own vocabulary, the
project's name, and the names consolidation knows in the project (people, organisations, products,
memory.consolidate.known_names). Whisper gets them as its hotwords and initial prompt
(models/whisper.py), so "Hartwell" in a project named Hartwell Logistics is not heard as "heart well".

`project_vocabulary(store, project_id)` is the one list every transcription of the project uses:
new notes (app.ingest.transcription) and re-transcriptions of old ones (app.note_operations queues the
same job), each read when the job runs, so a name learnt today helps the next note.

The list is kept short: Whisper's prompt holds 223 tokens and the terms go in twice (hotwords and
prompt); a long list of rarely said names would crowd out the ones that matter. The user's terms
always go in first, then the project's name, then the known names by how many notes say them.
"""

from __future__ import annotations

from memory.consolidate.known_names import project_names
from memory.store.projects import get_project_by_id
from memory.store.store import Store

__all__ = ["MAX_CHARACTERS", "automatic_vocabulary", "project_vocabulary"]

MAX_CHARACTERS = 400  # of the joined terms: about 100 tokens, twice in the prompt, under its 223


def automatic_vocabulary(store: Store, project_id: int) -> list[str]:
    """The terms Verbatim adds by itself: the project's name, then the names its notes say."""
    return [get_project_by_id(store, project_id).name, *project_names(store, project_id)]


def project_vocabulary(store: Store, project_id: int) -> list[str]:
    """The user's vocabulary for the project, then the automatic terms, without repeats (case
    ignored), within MAX_CHARACTERS (the user's own terms are never dropped)."""
    project = get_project_by_id(store, project_id)
    own = [t.strip() for t in project.vocabulary if t.strip()]
    chosen: list[str] = []
    seen: set[str] = set()
    used = 0
    for number, term in enumerate([*own, *automatic_vocabulary(store, project_id)]):
        term = " ".join(term.split())
        key = term.casefold()
        if not term or key in seen:
            continue
        if number >= len(own) and used + len(term) + 2 > MAX_CHARACTERS:
            continue
        chosen.append(term)
        seen.add(key)
        used += len(term) + 2
    return chosen
