"""`verbatim bench backup`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from app.commands import CliContext, CommandGroups

ORDER = 97


def _bench(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.backup_bench import run_bench

    say = (lambda line: None) if args.json else ctx.print
    result = run_bench(
        recordings=args.recordings,
        audio_files=args.audio_files,
        minutes=args.minutes,
        work=Path(args.work) if args.work else None,
        say=say,
    )
    if args.json:
        ctx.print_json(result)
    else:
        ctx.print(json.dumps(result, indent=2))
    return 0


def register(groups: CommandGroups) -> None:
    p = groups.bench.add_parser("backup", help="backup, restore and export time and size vs a plain copy")
    p.add_argument("--recordings", type=int, default=1000, help="recordings of 100 segments (default 1000)")
    p.add_argument("--audio-files", type=int, default=40, help="audio files (default 40)")
    p.add_argument("--minutes", type=float, default=30.0, help="minutes of FLAC audio each (default 30)")
    p.add_argument("--work", metavar="DIR", help="scratch folder (default: the system's temp folder)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_bench)
