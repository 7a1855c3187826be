"""Background consolidation: what the app and the CLI call (the UI panels too).

After a note is indexed, a "consolidate" job (persistent, resumable: app.jobs.queue) runs
app.consolidation.stages.Consolidation on it: self-corrections, off-project stretches, facts with
validity, the digest and cross-project connections. The job worker enqueues recordings that need
it by itself (`enqueue_pending`, registered as a feeder of app.jobs.queue); `consolidate` runs it in the
foreground (`verbatim consolidate`).

Services (all read the store; none needs a model):
- `list_facts(library, project=None, recording_id=None, as_of=None, current_only=False)`
- `recording_layers(library, recording_id)`: facts, self-corrections and stretches beside a recording
- `list_connections(library, project=None, recording_id=None)`, `connection_verdict(library, id, verdict)`
- `project_digest(library, project)`
- `list_commitments(library, project=None, due_before=None, open_only=False)`: who owes what to whom
  by when, across projects, by due date
- `list_stretches(library, recording_id=None)`, `assign_stretch(library, id, project=None)`,
  `dismiss_stretch(library, id)`
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from app.consolidation.stages import MODEL_SECONDS, Consolidation, ConsolidationReport
from app.jobs.queue import JobContext, enqueue
from app.library import Library
from memory.consolidate import commitment_store as commitment_rows
from memory.consolidate import connection_store as links
from memory.consolidate import correction_store, fact_store, state
from memory.consolidate import digest as digests
from memory.consolidate import stretches as stretch_store
from memory.store.clock import parse_time, to_store_time
from memory.store.jobs import Job, open_job
from memory.store.projects import get_project
from memory.store.recordings import get_recording
from models.errors import InputError, NotFoundError

log = logging.getLogger(__name__)

KIND = "consolidate"
Progress = Callable[[float, str], None]

__all__ = ["KIND", "ConsolidationReport", "consolidate", "consolidate_recording", "enqueue_pending"]


def consolidate_recording(
    library: Library,
    recording_id: int,
    *,
    model_path: Path | None = None,
    use_model: bool = True,
    model_seconds: float = MODEL_SECONDS,
    cancelled: Callable[[], bool] | None = None,
    progress: Progress | None = None,
) -> ConsolidationReport:
    """Consolidate one recording (resuming where an earlier run stopped)."""
    return Consolidation(
        library,
        recording_id,
        model_path=model_path,
        use_model=use_model,
        model_seconds=model_seconds,
        cancelled=cancelled,
        progress=progress,
    ).run()


def pending(library: Library) -> list[int]:
    return state.pending_recordings(library.store)


def consolidate(
    library: Library,
    recording_ids: Sequence[int] | None = None,
    *,
    model_path: Path | None = None,
    use_model: bool = True,
    model_seconds: float = MODEL_SECONDS,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[ConsolidationReport]:
    """Consolidate these recordings (None: every one that needs it), oldest first, in this thread.
    `cancelled()` is asked before each recording and between its stages; the stages done stay."""
    if recording_ids is None:
        ids = pending(library)
    else:
        ids = sorted(recording_ids, key=lambda r: (get_recording(library.store, r).spoken_at, r))
    reports = []
    for number, rid in enumerate(ids):
        if progress is not None:
            progress(number, len(ids), "start")
        reports.append(
            consolidate_recording(
                library,
                rid,
                model_path=model_path,
                use_model=use_model,
                model_seconds=model_seconds,
                cancelled=cancelled,
            )
        )
    return reports


# --- the job queue -------------------------------------------------------------------------------------
def run_job(library: Library, job: Job, context: JobContext) -> str:
    if job.recording_id is None:
        raise InputError(f"job {job.id} names no recording")
    report = consolidate_recording(
        library,
        job.recording_id,
        cancelled=context.cancelled,
        progress=lambda fraction, stage: context.report(fraction, message=stage),
    )
    return (
        f"{report.facts + report.model_facts} facts, {report.corrections} self-corrections,"
        f" {report.superseded} superseded, {report.connections} connections"
    )


def enqueue_pending(library: Library) -> list[int]:
    """A job for every indexed recording whose consolidation is missing or out of date."""
    ids = []
    for rid in pending(library):
        if open_job(library.store, KIND, rid) is None and not _failed_for_current(library, rid):
            ids.append(
                enqueue(
                    library,
                    KIND,
                    recording_id=rid,
                    payload={"fingerprint": state.fingerprint(library.store, rid)},
                )
            )
    return ids


def _failed_for_current(library: Library, recording_id: int) -> bool:
    """A job that failed, or that the user cancelled, on this very version of the recording is not
    queued again by itself: `verbatim jobs retry` or a change to the note brings it back."""
    return state.failed_on(library.store, KIND, recording_id, state.fingerprint(library.store, recording_id))


# --- services -----------------------------------------------------------------------------------------
def _project_id(library: Library, project: str | None) -> int | None:
    return get_project(library.store, project).id if project else None


def list_facts(
    library: Library,
    *,
    project: str | None = None,
    recording_id: int | None = None,
    as_of: str | datetime | None = None,
    current_only: bool = False,
) -> list[fact_store.Fact]:
    when = None
    if as_of is not None:
        when = to_store_time(parse_time(as_of) if isinstance(as_of, str) else as_of)
    return fact_store.list_facts(
        library.store,
        project_id=_project_id(library, project),
        recording_id=recording_id,
        as_of=when,
        current_only=current_only,
    )


@dataclass
class RecordingLayers:
    """What consolidation knows about one recording, for a panel beside its transcript."""

    recording_id: int
    status: str
    facts: list[fact_store.Fact]
    corrections: list[correction_store.StoredCorrection]
    stretches: list[stretch_store.Stretch]
    connections: list[links.Connection]

    def to_json(self) -> dict[str, Any]:
        return {
            "recording_id": self.recording_id,
            "status": self.status,
            "facts": [f.to_json() for f in self.facts],
            "corrections": [c.to_json() for c in self.corrections],
            "stretches": [s.to_json() for s in self.stretches],
            "connections": [c.to_json() for c in self.connections],
        }


def recording_layers(library: Library, recording_id: int) -> RecordingLayers:
    rec = get_recording(library.store, recording_id)
    store = library.store
    done = state.done_stages(store, recording_id, state.fingerprint(store, recording_id))
    status = "consolidated" if len(done) == len(state_stages()) else ("partial" if done else "pending")
    return RecordingLayers(
        rec.id,
        status,
        fact_store.list_facts(store, recording_id=recording_id),
        correction_store.list_corrections(store, recording_id=recording_id),
        stretch_store.list_stretches(store, recording_id=recording_id),
        links.list_connections(store, recording_id=recording_id),
    )


def state_stages() -> tuple[str, ...]:
    from app.consolidation.stages import STAGES

    return STAGES


def list_connections(
    library: Library,
    *,
    project: str | None = None,
    recording_id: int | None = None,
    include_dismissed: bool = False,
) -> list[links.Connection]:
    return links.list_connections(
        library.store,
        project_id=_project_id(library, project),
        recording_id=recording_id,
        include_dismissed=include_dismissed,
    )


def connection_verdict(library: Library, connection_id: int, verdict: str) -> links.Connection:
    """ "accept" or "dismiss": stored, and the signal weights learn from it."""
    if verdict not in ("accept", "dismiss"):
        raise InputError(f"a verdict is accept or dismiss, not {verdict!r}")
    if links.get_connection(library.store, connection_id) is None:
        raise NotFoundError(f"no connection with id {connection_id}", fix="see 'verbatim connections'")
    links.set_verdict(library.store, connection_id, verdict == "accept")
    found = links.get_connection(library.store, connection_id)
    assert found is not None
    return found


def connection_weights(library: Library) -> dict[str, float]:
    return links.load_weights(library.store)


def project_digest(library: Library, project: str) -> list[digests.DigestItem]:
    return digests.project_digest(library.store, get_project(library.store, project).id)


def list_commitments(
    library: Library,
    *,
    project: str | None = None,
    due_before: str | date | None = None,
    open_only: bool = False,
) -> list[commitment_rows.Commitment]:
    """Commitments by due date (those with no date said last); `due_before`: a day (ISO)."""
    day = None
    if due_before is not None:
        try:
            day = due_before if isinstance(due_before, date) else date.fromisoformat(str(due_before)[:10])
        except ValueError as exc:
            raise InputError(f"not a date: {due_before!r}", fix="give a day as YYYY-MM-DD") from exc
    return commitment_rows.list_commitments(
        library.store,
        project_id=_project_id(library, project),
        due_before=day.isoformat() if day else None,
        open_only=open_only,
    )


def list_stretches(
    library: Library, *, recording_id: int | None = None, include_dismissed: bool = False
) -> list[stretch_store.Stretch]:
    found = stretch_store.list_stretches(library.store, recording_id=recording_id)
    return [s for s in found if include_dismissed or s.status != "dismissed"]


def _stretch(library: Library, stretch_id: int) -> stretch_store.Stretch:
    found = [s for s in stretch_store.list_stretches(library.store) if s.id == stretch_id]
    if not found:
        raise NotFoundError(f"no stretch with id {stretch_id}", fix="see 'verbatim stretches'")
    return found[0]


def _reconsolidate(library: Library, recording_id: int) -> None:
    """The recording's layers depend on which project each stretch is about: rebuild them."""
    state.reset(library.store, recording_id)
    if open_job(library.store, KIND, recording_id) is None:
        enqueue(
            library,
            KIND,
            recording_id=recording_id,
            payload={"fingerprint": state.fingerprint(library.store, recording_id)},
        )


def assign_stretch(library: Library, stretch_id: int, project: str | None = None) -> stretch_store.Stretch:
    """Link a stretch to its suggested project (or to `project`); the recording stays whole."""
    stretch = _stretch(library, stretch_id)
    target = get_project(library.store, project).id if project else stretch.project_id
    stretch_store.decide_stretch(library.store, stretch_id, status="assigned", project_id=target)
    _reconsolidate(library, stretch.recording_id)
    return _stretch(library, stretch_id)


def dismiss_stretch(library: Library, stretch_id: int) -> stretch_store.Stretch:
    stretch = _stretch(library, stretch_id)
    stretch_store.decide_stretch(library.store, stretch_id, status="dismissed")
    _reconsolidate(library, stretch.recording_id)
    return _stretch(library, stretch_id)
