"""`verbatim recordings | transcript | jobs`: what is in the library, and the work in progress;
`verbatim recordings delete | move | retranscribe | versions | restore-version | history`: changes to
a whole note (app.note_operations; the trash itself is `verbatim trash`)."""

from __future__ import annotations

import argparse

from app import note_operations
from app.commands import CliContext, CommandGroups
from app.commands.capture_cmds import Status, clock
from app.ingest.recording_session import recover_at_start
from app.jobs import queue as jobs_queue
from app.jobs import worker as jobs_worker
from memory.store import live_transcript, recordings
from memory.store.jobs import Job, JobStatus
from memory.store.projects import get_project
from models.errors import VerbatimError

ORDER = 21


def _recordings(args: argparse.Namespace, ctx: CliContext) -> int:
    library = ctx.library
    project_id = get_project(library.store, args.project).id if args.project else None
    found = recordings.list_recordings(
        library.store, project_id=project_id, status=args.status, limit=args.limit
    )
    if args.json:
        ctx.print_json({"recordings": [r.to_json() for r in found]})
        return 0
    if not found:
        ctx.print("no recordings yet: 'verbatim record', 'verbatim import' or 'verbatim watch' bring them in")
    for r in found:
        state = f"{r.status} {r.progress:.0%}" if r.status == "transcribing" else r.status
        state += " (recovered)" if r.recovered else ""
        label = r.title or r.first_line[:50]
        when = r.spoken_at.replace("T", " ")[:16]
        ctx.print(f"{r.id:>5}  {when}  {clock(r.duration):>8}  {r.project:<20.20}  {state:<14}  {label}")
        if r.status == "failed" and r.status_message:
            ctx.print(f"{'':>7}{r.status_message}")
    return 0


def _transcript(args: argparse.Namespace, ctx: CliContext) -> int:
    store = ctx.library.store
    rec = recordings.get_recording(store, args.recording_id)
    if args.version is not None and args.version != rec.transcript_version:
        return _earlier_transcript(args, ctx, rec)
    segments = recordings.list_segments(store, rec.id)
    provisional = "" if segments else live_transcript.live_text(store, rec.id)
    if args.json:
        items = [s.to_json() | ({"text": s.raw_text} if args.raw else {}) for s in segments]
        ctx.print_json(
            {"recording": rec.to_json(), "segments": items, "provisional_text": provisional or None}
        )
        return 0
    when = rec.spoken_at.replace("T", " ")
    ctx.print(f"recording {rec.id}: {rec.project}, {when}, {clock(rec.duration)}, {rec.status}")
    for s in segments:
        text = s.raw_text if args.raw else s.text
        mark = "*" if s.edited and not args.raw else " "
        who = f"{s.speaker}: " if s.speaker else ""
        ctx.print(f"[{clock(s.start)} - {clock(s.end)}]{mark} {who}{text}")
    if provisional:
        ctx.print(f"(provisional, from the live pass) {provisional}")
    if not segments and not provisional:
        ctx.print("(no transcript yet)" + (f": {rec.status_message}" if rec.status_message else ""))
    return 0


def _earlier_transcript(args: argparse.Namespace, ctx: CliContext, rec: recordings.Recording) -> int:
    lines = note_operations.version_segments(ctx.library, rec.id, args.version)
    if args.json:
        items = [s.to_json() | ({"text": s.raw_text} if args.raw else {}) for s in lines]
        ctx.print_json({"recording": rec.to_json(), "version": args.version, "segments": items})
        return 0
    ctx.print(
        f"recording {rec.id}: earlier transcript {args.version} (the current one is {rec.transcript_version})"
    )
    for s in lines:
        text = s.raw_text if args.raw else s.text
        mark = "*" if s.edited and not args.raw else " "
        who = f"{s.speaker}: " if s.speaker else ""
        ctx.print(f"[{clock(s.start)} - {clock(s.end)}]{mark} {who}{text}")
    return 0


# --- changes to a whole note ------------------------------------------------------------------------
def _delete(args: argparse.Namespace, ctx: CliContext) -> int:
    rec = note_operations.delete_recording(ctx.library, args.recording_id)
    trashed = note_operations.list_trash(ctx.library)
    purge_on = next((t.purge_on for t in trashed if t.recording.id == rec.id), "")
    if args.json:
        ctx.print_json({"recording": rec.to_json(), "purge_on": purge_on})
        return 0
    waiting = note_operations.open_transcription(ctx.library, rec.id)
    ctx.print(
        f"recording {rec.id} is in the trash; it is deleted for good on {purge_on}"
        f" ('verbatim trash restore {rec.id}' brings it back)"
        + (f"; its transcription (job {waiting}) waits there and runs once it is restored" if waiting else "")
    )
    return 0


def _move(args: argparse.Namespace, ctx: CliContext) -> int:
    before = recordings.get_recording(ctx.library.store, args.recording_id)
    rec = note_operations.move_recording(ctx.library, args.recording_id, args.to)
    if args.json:
        ctx.print_json({"recording": rec.to_json(), "from_project": before.project})
        return 0
    if before.project_id == rec.project_id:
        ctx.print(f"recording {rec.id} is in {rec.project} already")
    else:
        ctx.print(
            f"recording {rec.id} moved from {before.project} to {rec.project}; its passages are searchable"
            " there now, and its consolidation runs again ('verbatim jobs run', or the app)"
        )
    return 0


def _retranscribe(args: argparse.Namespace, ctx: CliContext) -> int:
    library = ctx.library
    job_id = note_operations.retranscribe(library, args.recording_id, model=args.model)
    rec = recordings.get_recording(library.store, args.recording_id)
    finished = []
    if args.run:  # the transcription (which indexes), then the consolidation of the new words
        status = Status(not args.json)
        try:
            finished = jobs_worker.run_pending(library, recording_ids=[rec.id], on_event=status.job_event)
            if recordings.get_recording(library.store, rec.id).status == "indexed":
                note_operations.queue_consolidation(library, rec.id)
                finished += jobs_worker.run_pending(
                    library, recording_ids=[rec.id], on_event=status.job_event
                )
        finally:
            status.done()
        rec = recordings.get_recording(library.store, args.recording_id)
    if args.json:
        ctx.print_json(
            {
                "recording": rec.to_json(),
                "job_id": job_id,
                "earlier_versions": [
                    v.to_json() for v in note_operations.transcript_versions(library, rec.id)
                ],
                "jobs": [j.to_json() for j in finished],
            }
        )
    elif args.run and (stopped := _stopped_transcription(finished, job_id)) is not None:
        raise VerbatimError(_not_retranscribed(rec, stopped))
    elif args.run:
        ctx.print(f"recording {rec.id}: transcript {rec.transcript_version} is current ({rec.status});"
                  f" the earlier one is kept ('verbatim recordings versions {rec.id}')")  # fmt: skip
    else:
        ctx.print(
            f"recording {rec.id}: re-transcription queued as job {job_id} ('verbatim jobs run' does it here,"
            f" or the app); the current transcript is kept as an earlier version"
        )
    return 0 if all(j.status == "done" for j in finished) else 1


def _stopped_transcription(finished: list[Job], job_id: int) -> Job | None:
    return next((j for j in finished if j.id == job_id and j.status != JobStatus.DONE), None)


def _not_retranscribed(rec: recordings.Recording, job: Job) -> str:
    """One line: what failed, which transcript is current, what to do."""
    what = "failed" if job.status == JobStatus.FAILED else "was cancelled"
    why = " ".join((job.message or "no reason given").split())
    earlier = job.payload.get("earlier_version")
    if earlier is not None and rec.transcript_version == earlier:
        kept = f"transcript {earlier} is still current, unchanged"
    else:
        kept = f"the note keeps the {rec.segments} lines it has"
    return (
        f"re-transcribing recording {rec.id} {what}: {why}; {kept};"
        f" fix that, then 'verbatim jobs retry {job.id}' (or re-transcribe with another model:"
        f" 'verbatim recordings retranscribe {rec.id} --model base')"
    )


def _versions(args: argparse.Namespace, ctx: CliContext) -> int:
    library = ctx.library
    rec = recordings.get_recording(library.store, args.recording_id)
    earlier = note_operations.transcript_versions(library, rec.id)
    if args.json:
        ctx.print_json(
            {
                "recording_id": rec.id,
                "current": {"version": rec.transcript_version, "model": rec.model, "segments": rec.segments},
                "earlier": [v.to_json() for v in earlier],
            }
        )
        return 0
    ctx.print(f"{rec.transcript_version:>3}  current   {rec.model or '':<24} {rec.segments} lines")
    for v in reversed(earlier):
        ctx.print(
            f"{v.version:>3}  {v.replaced_at[:10]}  {v.model or '':<24} {v.segments} lines  ({v.reason})"
        )
    if not earlier:
        ctx.print("no earlier transcripts")
    return 0


def _restore_version(args: argparse.Namespace, ctx: CliContext) -> int:
    rec = note_operations.restore_transcript(ctx.library, args.recording_id, args.version)
    if args.json:
        ctx.print_json({"recording": rec.to_json()})
        return 0
    ctx.print(
        f"recording {rec.id}: transcript {rec.transcript_version} is current again; the one it replaced is"
        " kept as an earlier version"
    )
    return 0


def _history(args: argparse.Namespace, ctx: CliContext) -> int:
    found = note_operations.note_history(ctx.library, args.recording_id)
    if args.json:
        ctx.print_json({"recording_id": args.recording_id, "history": found})
        return 0
    for item in found:
        details = ", ".join(f"{k} {v}" for k, v in item["details"].items() if v is not None)  # type: ignore[attr-defined]
        ctx.print(f"{str(item['created_at']).replace('T', ' ')}  {item['action']:<20} {details}")
    if not found:
        ctx.print("nothing has been done to this note since it was stored")
    return 0


def _jobs(args: argparse.Namespace, ctx: CliContext) -> int:
    found = jobs_queue.list_jobs(ctx.library, include_finished=not args.open, limit=args.limit)
    if args.json:
        ctx.print_json({"jobs": [j.to_json() for j in found]})
        return 0
    if not found:
        ctx.print("no jobs")
    for j in found:
        eta = f"  about {clock(j.eta_seconds)} left" if j.status == "running" and j.eta_seconds else ""
        what = f"recording {j.recording_id}" if j.recording_id else ""
        ctx.print(
            f"{j.id:>5}  {j.kind:<12} {what:<16} {j.status:<10} {j.progress:4.0%}{eta}  {j.message or ''}"
        )
    return 0


def _jobs_run(args: argparse.Namespace, ctx: CliContext) -> int:
    library = ctx.library
    recovered, _ = recover_at_start(library)
    if recovered and not args.json:
        ctx.print(f"recovered interrupted recordings: {', '.join(map(str, recovered))}")
    status = Status(not args.json)
    try:  # as the app's worker: what follows a job (a note's consolidation...) is queued and run too
        finished = jobs_worker.run_until_idle(library, on_event=status.job_event)
    finally:
        status.done()
    if args.json:
        ctx.print_json({"jobs": [j.to_json() for j in finished], "recovered_recordings": recovered})
    else:
        for j in finished:
            ctx.print(
                f"job {j.id} ({j.kind}, recording {j.recording_id}): {j.status}"
                + (f": {j.message}" if j.message else "")
            )
        if not finished:
            ctx.print("nothing to do")
    return 0 if all(j.status == "done" for j in finished) else 1


def _jobs_cancel(args: argparse.Namespace, ctx: CliContext) -> int:
    job = jobs_worker.cancel_job(ctx.library, args.job_id)
    ctx.print(f"job {job.id}: " + ("cancelled" if job.status == "cancelled" else "asked to stop"))
    return 0


def _jobs_retry(args: argparse.Namespace, ctx: CliContext) -> int:
    job = jobs_worker.retry_job(ctx.library, args.job_id)
    ctx.print(f"job {job.id}: queued again (run it with 'verbatim jobs run')")
    return 0


def register(groups: CommandGroups) -> None:
    top = groups.top
    a = top.add_parser("recordings", help="list recordings, newest first, with their status")
    a.add_argument("--project")
    a.add_argument("--status", choices=recordings.STATUSES)
    a.add_argument("--limit", type=int, default=None)
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_recordings)
    sub = a.add_subparsers(title="actions", metavar="ACTION")
    b = sub.add_parser("delete", help="move a note to the trash (restorable for 30 days: 'verbatim trash')")
    b.add_argument("recording_id", type=int, metavar="ID")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_delete)
    b = sub.add_parser("move", help="file a note under another project")
    b.add_argument("recording_id", type=int, metavar="ID")
    b.add_argument("--to", required=True, metavar="PROJECT")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_move)
    b = sub.add_parser(
        "retranscribe",
        help="transcribe a note again (another model, the project's vocabulary now); the current"
        " transcript is kept as an earlier version",
    )
    b.add_argument("recording_id", type=int, metavar="ID")
    b.add_argument("--model", help="base, tiny.en or a CTranslate2 Whisper folder (default: the project's)")
    b.add_argument("--run", action="store_true", help="run the job here now, instead of leaving it queued")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_retranscribe)
    b = sub.add_parser("versions", help="a note's current and earlier transcripts")
    b.add_argument("recording_id", type=int, metavar="ID")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_versions)
    b = sub.add_parser("restore-version", help="make an earlier transcript of a note current again")
    b.add_argument("recording_id", type=int, metavar="ID")
    b.add_argument("version", type=int, metavar="VERSION")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_restore_version)
    b = sub.add_parser("history", help="what was done to a note: trashed, restored, moved, re-transcribed")
    b.add_argument("recording_id", type=int, metavar="ID")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_history)

    a = top.add_parser("transcript", help="print a recording's transcript with times")
    a.add_argument("recording_id", type=int, metavar="RECORDING_ID")
    a.add_argument("--raw", action="store_true", help="the words as transcribed, without your edits")
    a.add_argument(
        "--version", type=int, help="an earlier transcript (see 'verbatim recordings versions ID')"
    )
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_transcript)

    a = top.add_parser("jobs", help="background work (transcriptions): list, run, cancel, retry")
    a.add_argument("--json", action="store_true")
    a.add_argument("--open", action="store_true", help="only queued and running jobs")
    a.add_argument("--limit", type=int, default=50)
    a.set_defaults(handler=_jobs)
    sub = a.add_subparsers(title="actions", metavar="ACTION")
    b = sub.add_parser(
        "run",
        help="run the background work here as the app does, until none is left: queued and interrupted"
        " jobs, then what they make due (a note's consolidation)",
    )
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_jobs_run)
    b = sub.add_parser("cancel", help="cancel a queued job, or stop a running one")
    b.add_argument("job_id", type=int, metavar="ID")
    b.set_defaults(handler=_jobs_cancel)
    b = sub.add_parser("retry", help="run a failed or cancelled job again (it resumes where it stopped)")
    b.add_argument("job_id", type=int, metavar="ID")
    b.set_defaults(handler=_jobs_retry)
