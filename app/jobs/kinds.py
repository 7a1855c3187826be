"""The one table of background job kinds: the runner of each, its hooks, and what queues it by itself.

Adding a kind of job is one line here; the runners live with their work and import only
app/jobs/queue.py, so the queue and the worker never import a runner by side effect.
"""

from __future__ import annotations

from app import note_operations
from app.backup import daily
from app.consolidation import service as consolidation
from app.ingest import transcription
from app.jobs.queue import JobKind

KINDS: dict[str, JobKind] = {
    transcription.KIND: JobKind(  # a re-transcription that does not complete falls back (note_operations)
        transcription.run_job,
        on_cancel=note_operations.transcription_cancelled_before_start,
        on_requeue=note_operations.transcription_requeued,
        on_stopped=note_operations.retranscription_stopped,
    ),
    consolidation.KIND: JobKind(consolidation.run_job, feeder=consolidation.enqueue_pending),
    daily.KIND: JobKind(daily.run_job, feeder=daily.enqueue_daily),
}
