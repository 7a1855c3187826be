"""`verbatim backup`, `verbatim restore` and `verbatim export`: the way out of the library."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from app.commands import CliContext, CommandGroups

ORDER = 80


class _ProgressLine:
    """Bytes done, on stderr: redrawn in a terminal, a line per tenth otherwise."""

    def __init__(self, verb: str, quiet: bool) -> None:
        self.verb, self.quiet = verb, quiet
        self.tty = sys.stderr.isatty()
        self._last, self._tenth = 0.0, -1

    def __call__(self, done: int, total: int) -> None:
        if self.quiet or total <= 0:
            return
        fraction = done / total
        now = time.monotonic()
        text = f"{self.verb}: {fraction:4.0%} ({done / 1e6:.1f} of {total / 1e6:.1f} MB)"
        if self.tty and (now - self._last > 0.2 or done >= total):
            self._last = now
            print(f"\r{text}", end="\n" if done >= total else "", file=sys.stderr, flush=True)
        elif not self.tty and int(fraction * 10) > self._tenth:
            self._tenth = int(fraction * 10)
            print(text, file=sys.stderr, flush=True)


def _backup(args: argparse.Namespace, ctx: CliContext) -> int:
    if args.daily_keep is not None:
        return _set_daily_keep(args, ctx)
    if args.daily:
        return _daily(args, ctx)
    if not args.out:
        ctx.print("name the backup file with --out FILE (or use --daily)")
        return 2
    from app.backup.create import create_backup

    report = create_backup(
        ctx.library,
        Path(args.out),
        force=args.force,
        audio=not args.no_audio,
        progress=_ProgressLine("backing up", args.json),
    )
    if args.json:
        ctx.print_json(report.to_json())
        return 0
    counts = report.counts
    ctx.print(
        f"backup written: {report.path} ({report.bytes / 1e6:.1f} MB, {counts['projects']} projects,"
        f" {counts['recordings']} recordings, {counts['segments']} segments, {report.seconds:.1f} s)"
    )
    if report.missing_audio:
        ctx.print(f"note: {len(report.missing_audio)} recordings had no audio file to back up")
    return 0


def _daily(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.backup.daily import daily_backups, daily_path, make_daily_backup

    report = make_daily_backup(ctx.library)
    kept = [str(p) for p in daily_backups(ctx.library)]
    if args.json:
        ctx.print_json({"made": report.to_json() if report else None, "kept": kept})
    elif ctx.library.settings.daily_backups_keep <= 0:
        ctx.print("daily backups are off (turn them on with 'verbatim backup --daily-keep 7')")
    else:
        made = f"made {report.path}" if report else f"{daily_path(ctx.library)} exists already"
        ctx.print(f"{made}; {len(kept)} daily backups kept")
    return 0


def _set_daily_keep(args: argparse.Namespace, ctx: CliContext) -> int:
    from models.errors import InputError

    if args.daily_keep < 0:
        raise InputError("--daily-keep takes 0 (off) or a number of days")
    ctx.library.settings.daily_backups_keep = args.daily_keep
    ctx.library.save_settings()
    if args.json:
        ctx.print_json({"daily_backups_keep": args.daily_keep})
    elif args.daily_keep == 0:
        ctx.print("daily backups are off")
    else:
        ctx.print(f"daily backups on: the last {args.daily_keep} are kept in {ctx.data_dir.backups_dir}")
    return 0


def _restore(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.backup.restore import restore_backup

    target = Path(args.into) if args.into else ctx.data_dir.root
    report = restore_backup(
        Path(args.file), target, force=args.force, progress=_ProgressLine("checking", args.json)
    )
    if args.json:
        ctx.print_json(report.to_json())
        return 0
    counts = report.counts
    ctx.print(
        f"restored {report.backup} into {report.target}: {counts['projects']} projects,"
        f" {counts['recordings']} recordings, {counts['segments']} segments ({report.seconds:.1f} s)"
    )
    if report.set_aside:
        ctx.print(f"the library that was there is kept in {report.set_aside}")
    return 0


def _export(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.backup.export import export_library

    report = export_library(
        ctx.library,
        Path(args.out),
        fmt=args.format,
        project=args.project,
        force=args.force,
        audio=not args.no_audio,
    )
    if args.json:
        ctx.print_json(report.to_json())
    else:
        ctx.print(
            f"exported {report.recordings} recordings of {report.projects} projects as {args.format}"
            f" to {report.path} ({report.files} files)"
        )
    return 0


def register(groups: CommandGroups) -> None:
    p = groups.top.add_parser(
        "backup", help="the whole library (database, audio, settings) in one checked file"
    )
    p.add_argument("--out", metavar="FILE", help="where to write it, e.g. ~/verbatim.verbatim-backup")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.add_argument(
        "--no-audio", action="store_true", help="database and settings only (restores where the audio is)"
    )
    p.add_argument("--daily", action="store_true", help="make today's daily backup now (if not made yet)")
    p.add_argument("--daily-keep", type=int, metavar="N", help="keep the last N daily backups (0: off)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_backup)

    p = groups.top.add_parser("restore", help="check a backup (or a JSON export), then restore it")
    p.add_argument("file", metavar="FILE", help="a backup file, or the folder of a JSON export")
    p.add_argument("--into", metavar="DIR", help="library folder to restore into (default: this library)")
    p.add_argument(
        "--force", action="store_true", help="replace a library that is not empty (it is kept aside)"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_restore)

    p = groups.top.add_parser("export", help="an Obsidian vault (markdown) or a JSON dump of the library")
    p.add_argument("--format", choices=("markdown", "json"), default="markdown")
    p.add_argument("--out", metavar="DIR", required=True, help="a new or empty folder")
    p.add_argument("--project", metavar="P", help="only this project")
    p.add_argument("--no-audio", action="store_true", help="leave the audio files out")
    p.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_export)
