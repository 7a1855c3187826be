"""Automatic vocabulary: a project's name and the names consolidation found in its notes go to Whisper
for the project's next notes, beside the user's own terms.

Seen in use: "Hartwell" came out as "heart well" in a project named Hartwell Logistics. The names
below are invented (no model has heard them); bench/names_wer.py measures the gain on 18 sentences.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.consolidation.service import consolidate
from app.ingest.imports import import_files
from app.ingest.vocabulary import project_vocabulary
from app.jobs.worker import run_pending
from app.library import Library
from app.project_service import set_project_options
from memory.store import recordings
from memory.store.projects import get_project
from tests.support.audio_helpers import speech_file

pytestmark = pytest.mark.slow  # spaCy's parse through consolidation; the last test transcribes

EARLIER = (
    "Kickoff with Hartwell Logistics. Ilsa Brannock runs the Leeds depot and Teodor Vashti owns the"
    " budget. Kasimir Delacourt will review the contract. Ilsa Brannock wants a pilot in March.\n"
)
ELSEWHERE = "Zebedee Quartermain of Norrland Mining called about the survey.\n"


def _library_with_history(library: Library, tmp_path: Path) -> int:
    (tmp_path / "kickoff.txt").write_text(EARLIER, encoding="utf-8")
    (tmp_path / "other.txt").write_text(ELSEWHERE, encoding="utf-8")
    import_files(library, [tmp_path / "kickoff.txt"], project="Hartwell Logistics")
    import_files(library, [tmp_path / "other.txt"], project="Norrland")
    return get_project(library.store, "Hartwell Logistics").id


def test_the_projects_name_and_known_names_join_the_users_vocabulary(
    library: Library, tmp_path: Path
) -> None:
    project_id = _library_with_history(library, tmp_path)
    set_project_options(library, "Hartwell Logistics", vocabulary=["LVS-2000"])
    assert project_vocabulary(library.store, project_id) == ["LVS-2000", "Hartwell Logistics"]
    consolidate(library, use_model=False)  # what the background job does after indexing
    vocabulary = project_vocabulary(library.store, project_id)
    assert vocabulary[:2] == ["LVS-2000", "Hartwell Logistics"]  # the user's own terms first
    assert {"Ilsa Brannock", "Teodor Vashti", "Kasimir Delacourt"} <= set(vocabulary)
    assert not any("Zebedee" in term or "Norrland" in term for term in vocabulary)  # another project's
    assert len(vocabulary) == len({t.casefold() for t in vocabulary})


def test_a_new_note_in_the_project_is_transcribed_with_its_names(library: Library, tmp_path: Path) -> None:
    _library_with_history(library, tmp_path)
    consolidate(library, use_model=False)
    audio = speech_file(tmp_path, "Remind Kasimir Delacourt to invoice Hartwell Logistics.", "memo.flac")
    [note] = import_files(library, [audio], project="Hartwell Logistics")
    assert note.recording_id is not None
    run_pending(library, kinds=["transcribe"])
    heard = " ".join(s.text for s in recordings.list_segments(library.store, note.recording_id))
    # without the vocabulary whisper-base writes "Casimir de Lacort" and "heartwell logistics"
    assert "Kasimir Delacourt" in heard and "Hartwell Logistics" in heard, heard
