"""`verbatim recordings | transcript | jobs`: what is in the library, and the work in progress."""

from __future__ import annotations

import argparse

from app.commands import CliContext, CommandGroups
from app.commands.capture_cmds import Status, clock
from app.ingest.recording_session import recover_at_start
from app.jobs import queue as jobs_queue
from app.jobs import worker as jobs_worker
from memory.store import live_transcript, recordings
from memory.store.projects import get_project

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
    try:
        finished = jobs_worker.run_pending(library, on_event=status.job_event)
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

    a = top.add_parser("transcript", help="print a recording's transcript with times")
    a.add_argument("recording_id", type=int, metavar="RECORDING_ID")
    a.add_argument("--raw", action="store_true", help="the words as transcribed, without your edits")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_transcript)

    a = top.add_parser("jobs", help="background work (transcriptions): list, run, cancel, retry")
    a.add_argument("--json", action="store_true")
    a.add_argument("--open", action="store_true", help="only queued and running jobs")
    a.add_argument("--limit", type=int, default=50)
    a.set_defaults(handler=_jobs)
    sub = a.add_subparsers(title="actions", metavar="ACTION")
    b = sub.add_parser("run", help="run the queued jobs here until none is left (resumes interrupted ones)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_jobs_run)
    b = sub.add_parser("cancel", help="cancel a queued job, or stop a running one")
    b.add_argument("job_id", type=int, metavar="ID")
    b.set_defaults(handler=_jobs_cancel)
    b = sub.add_parser("retry", help="run a failed or cancelled job again (it resumes where it stopped)")
    b.add_argument("job_id", type=int, metavar="ID")
    b.set_defaults(handler=_jobs_retry)
