"""`verbatim import | watch | record | recordings | transcript | jobs`: getting notes in, and seeing them."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path
from typing import Any

from app.commands import CliContext, CommandGroups
from app.ingest.imports import ImportResult, import_corpus, import_files
from app.ingest.recording_session import RecorderService, RecordingSession, recover_at_start
from app.ingest.watched_folders import FolderWatcher, add_watched_folder, import_if_new, remove_watched_folder
from app.instance_lock import InstanceLock
from app.jobs import queue as jobs_queue
from app.jobs import worker as jobs_worker
from app.jobs.queue import JobEvent
from app.library import Library
from app.settings import WatchedFolder
from capture.corpus import looks_like_corpus
from capture.devices import list_input_devices
from capture.watch import is_candidate
from memory.store import recordings
from memory.store.projects import get_project
from models.errors import InputError

ORDER = 20
TRANSCRIBE = "transcribe"


def clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"


class Status:
    """One self-overwriting status line on a terminal's stderr; silent when stderr is not a terminal."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.shown = False

    def show(self, text: str) -> None:
        if self.enabled:
            print(f"\r\033[K{text}", end="", file=sys.stderr, flush=True)
            self.shown = True

    def done(self) -> None:
        if self.shown:
            print(file=sys.stderr, flush=True)
            self.shown = False

    def job_event(self, event: JobEvent) -> None:
        if event.status == "running":
            eta = f", about {clock(event.eta_seconds)} left" if event.eta_seconds is not None else ""
            self.show(f"recording {event.recording_id}: transcribing {event.progress:4.0%}{eta}")
        else:
            self.done()


def _transcribe_now(library: Library, recording_ids: list[int], quiet: bool) -> list[jobs_queue.Job]:
    if not recording_ids:
        return []
    status = Status(not quiet)
    try:
        return jobs_worker.run_pending(
            library, kinds=[TRANSCRIBE], recording_ids=recording_ids, on_event=status.job_event
        )
    finally:
        status.done()


def _result_line(r: ImportResult) -> str:
    name = Path(r.path).name
    if r.status == "imported":
        length = f", {clock(r.duration)}" if r.duration else ""
        return f"imported   {name} -> recording {r.recording_id} ({r.project}{length}) {r.message}"
    if r.status == "duplicate":
        return f"duplicate  {name}: {r.message}"
    return f"failed     {name}: {r.message}"


def _import(args: argparse.Namespace, ctx: CliContext) -> int:
    library = ctx.library
    recover_at_start(library)
    paths = [Path(p) for p in args.files]
    if args.project is None:
        if not all(looks_like_corpus(p) for p in paths):
            raise InputError("which project? --project is needed (only .jsonl corpora name their own)")
        results = [r for p in paths for r in import_corpus(library, p)]
    else:
        results = import_files(library, paths, project=args.project, spoken_at=args.spoken_at)
    if not args.json:
        for r in results:
            ctx.print(_result_line(r))
    queued = [
        r.recording_id for r in results if r.status == "imported" and r.kind == "audio" and r.recording_id
    ]
    finished = [] if args.no_transcribe else _transcribe_now(library, queued, args.json)
    if args.json:
        ctx.print_json(
            {"results": [r.to_json() for r in results], "transcriptions": [j.to_json() for j in finished]}
        )
    else:
        for job in finished:
            ctx.print(
                f"recording {job.recording_id}: transcription {job.status}"
                + (f" ({job.message})" if job.message else "")
            )
    failed = any(r.status == "failed" for r in results) or any(j.status != "done" for j in finished)
    return 1 if failed else 0


def _print_import(ctx: CliContext, as_json: bool) -> Any:
    lock = threading.Lock()

    def show(result: ImportResult) -> None:
        with lock:
            if as_json:
                ctx.print_json(result.to_json())
            else:
                ctx.print(_result_line(result))

    return show


def _watch_once(library: Library, folders: list[WatchedFolder], settle: float, show: Any) -> None:
    """Import what has settled in the folders now (for scripts and cron), then return."""
    cutoff = time.time() - settle
    for folder in folders:
        root = Path(folder.path)
        if not root.is_dir():
            raise InputError(f"cannot watch {root}: it is not a folder")
        for path in sorted(p for p in root.rglob("*") if p.is_file() and is_candidate(p, root=root)):
            if path.stat().st_mtime <= cutoff:
                for result in import_if_new(library, path, folder.project):
                    show(result)


def _watch_folders(args: argparse.Namespace, ctx: CliContext) -> list[WatchedFolder]:
    library = ctx.library
    if args.folder is None:
        if not library.settings.watched_folders:
            raise InputError("no watched folders yet", fix="verbatim watch DIR --project P --save")
        return list(library.settings.watched_folders)
    if not args.project:
        raise InputError("which project? --project is needed with a folder")
    get_project(library.store, args.project)  # a typo should not start an import into a new project
    folder = Path(args.folder).expanduser().resolve()
    if not folder.is_dir():
        raise InputError(f"cannot watch {folder}: it is not a folder")
    if args.save:
        add_watched_folder(library, folder, args.project)
    return [WatchedFolder(str(folder), args.project)]


def _watch(args: argparse.Namespace, ctx: CliContext) -> int:
    library = ctx.library
    if args.list:
        for w in library.settings.watched_folders:
            ctx.print(f"{w.path}  ->  {w.project}")
        return 0
    if args.remove:
        found = remove_watched_folder(library, Path(args.remove))
        ctx.print("removed" if found else "that folder was not watched")
        return 0 if found else 1
    folders = _watch_folders(args, ctx)
    recover_at_start(library)
    show = _print_import(ctx, args.json)
    if args.once:
        _watch_once(library, folders, args.settle, show)
        if not args.no_transcribe:
            _transcribe_now(
                library,
                [
                    j.recording_id
                    for j in jobs_queue.list_jobs(library, include_finished=False)
                    if j.recording_id
                ],
                args.json,
            )
        return 0
    worker = None if args.no_transcribe else jobs_worker.JobWorker(library, kinds=[TRANSCRIBE]).start()

    def imported(result: ImportResult) -> None:
        show(result)
        if worker is not None:
            worker.wake()

    watcher = FolderWatcher(library, folders, on_result=imported, settle=args.settle)
    if not args.json:
        ctx.print("watching " + ", ".join(f.path for f in folders) + " (Ctrl+C stops)")
    watcher.start()
    try:
        while not watcher.wait(0.5):
            if watcher.errors and len(watcher.errors) == len(folders):
                raise InputError("; ".join(watcher.errors.values()))
    except KeyboardInterrupt:
        pass
    finally:
        watcher.stop()
        if worker is not None:
            worker.stop()
    return 0


def _meter(level: float, width: int = 12) -> str:
    filled = min(width, round(min(1.0, level * 4) * width))  # speech RMS sits around 0.05-0.25
    return "#" * filled + "." * (width - filled)


def _record_loop(session: RecordingSession, duration: float | None, quiet: bool) -> None:
    status = Status(not quiet)
    try:
        while (duration is None or session.elapsed < duration) and not session.failed:
            tail = session.live_text()[-50:]
            warning = f"  ! {session.problem}" if session.problem else ""
            status.show(f"recording {clock(session.elapsed)}  [{_meter(session.level)}]  {tail}{warning}")
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass  # Ctrl+C is how a terminal user stops
    finally:
        status.done()


def _record(args: argparse.Namespace, ctx: CliContext) -> int:
    if args.list_devices:
        devices = list_input_devices()
        if args.json:
            ctx.print_json({"devices": [d.__dict__ for d in devices]})
        for d in [] if args.json else devices:
            default = "  default" if d.is_default else ""
            ctx.print(f"{d.index:>3}  {d.name}  ({d.channels} ch, {d.default_samplerate:.0f} Hz){default}")
        return 0
    if not args.project:
        raise InputError("which project? --project is needed")
    library = ctx.library
    with InstanceLock(library.data_dir.root, "verbatim record"):  # one recorder per library
        return _record_locked(args, ctx, library)


def _record_locked(args: argparse.Namespace, ctx: CliContext, library: Library) -> int:
    recover_at_start(library)
    session = RecorderService(library).start(
        args.project, device=args.device, live_transcript=not args.no_live
    )
    if not args.json:
        ctx.print(f"recording into {args.project} from {session.device_name} (Ctrl+C stops)")
    _record_loop(session, args.duration, args.json)
    recording_id = session.stop()
    rec = recordings.get_recording(library.store, recording_id)
    if not args.json:
        ctx.print(f"saved recording {recording_id} ({clock(rec.duration)})")
    finished = [] if args.no_transcribe else _transcribe_now(library, [recording_id], args.json)
    rec = recordings.get_recording(library.store, recording_id)
    if args.json:
        ctx.print_json({"recording": rec.to_json(), "transcriptions": [j.to_json() for j in finished]})
    elif finished:
        ctx.print(f"recording {recording_id}: {rec.status} ({rec.segments} segments)")
    return 0 if all(j.status == "done" for j in finished) else 1


def register(groups: CommandGroups) -> None:
    top = groups.top
    a = top.add_parser(
        "import", help="import audio (wav flac mp3 m4a ogg opus webm) or transcripts; transcribe"
    )
    a.add_argument("files", nargs="+", metavar="FILE", help="files or folders; .txt .md .vtt .srt .jsonl too")
    a.add_argument("--project", help="the project they belong to (created if new)")
    a.add_argument(
        "--spoken-at", metavar="ISO", help="when they were spoken (default: file metadata, else mtime)"
    )
    a.add_argument(
        "--no-transcribe", action="store_true", help="only queue the transcription ('verbatim jobs run')"
    )
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_import)

    a = top.add_parser("watch", help="import new files from a folder as they arrive (Ctrl+C stops)")
    a.add_argument(
        "folder", nargs="?", metavar="DIR", help="folder to watch (default: the saved watched folders)"
    )
    a.add_argument("--project", help="project for the files of DIR")
    a.add_argument("--save", action="store_true", help="remember DIR: the app watches it too")
    a.add_argument("--list", action="store_true", help="show the saved watched folders")
    a.add_argument("--remove", metavar="DIR", help="stop watching a saved folder")
    a.add_argument("--once", action="store_true", help="import what is there now, then exit")
    a.add_argument(
        "--settle", type=float, default=2.0, metavar="S", help="seconds a file must stay unchanged"
    )
    a.add_argument("--no-transcribe", action="store_true", help="only queue the transcriptions")
    a.add_argument("--json", action="store_true", help="one JSON object per imported file")
    a.set_defaults(handler=_watch)

    a = top.add_parser("record", help="record from the microphone into a project, then transcribe")
    a.add_argument("--project", help="the project the note belongs to")
    a.add_argument("--device", help="input device number or name (see --list-devices)")
    a.add_argument("--duration", type=float, metavar="S", help="stop after S seconds (default: Ctrl+C)")
    a.add_argument("--list-devices", action="store_true", help="show the input devices")
    a.add_argument("--no-live", action="store_true", help="no live transcript while recording")
    a.add_argument("--no-transcribe", action="store_true", help="only queue the transcription")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_record)
