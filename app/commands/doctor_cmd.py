"""`verbatim doctor [--clean-audio [--delete]]`: what could stop Verbatim from working, and how to fix
it; `--clean-audio` moves audio files no note points at to the data folder's trash/audio."""

from __future__ import annotations

import argparse

from app.commands import CliContext, CommandGroups
from app.consistency import clean_orphan_audio, orphan_folder
from app.doctor import run_checks
from models.errors import InputError

ORDER = 90


def _doctor(args: argparse.Namespace, ctx: CliContext) -> int:
    if args.delete and not args.clean_audio:
        raise InputError("--delete goes with --clean-audio", fix="verbatim doctor --clean-audio --delete")
    cleaned = clean_orphan_audio(ctx.library, delete=args.delete) if args.clean_audio else []
    checks = run_checks(ctx.library, load_models=args.load)
    if args.json:
        ctx.print_json(
            {"checks": [c.to_json() for c in checks]}
            | ({"cleaned_audio": [o.to_json() for o in cleaned]} if args.clean_audio else {})
        )
    else:
        if args.clean_audio:
            where = "deleted" if args.delete else f"moved to {orphan_folder(ctx.library)}"
            ctx.print(f"audio files no note points at: {len(cleaned)} {where}")
            for o in cleaned:
                ctx.print(f"  {o.path}")
        for c in checks:
            mark = "ok  " if c.ok else ("warn" if c.severity == "warning" else "FAIL")
            ctx.print(f"[{mark}] {c.name}: {c.detail}")
            if not c.ok and c.fix:
                ctx.print(f"       fix: {c.fix}")
    return 1 if any(not c.ok and c.severity == "error" for c in checks) else 0


def register(groups: CommandGroups) -> None:
    parser = groups.top.add_parser("doctor", help="check database, models, audio and disk; print fixes")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--load", action="store_true", help="also load every model (slower)")
    parser.add_argument(
        "--clean-audio",
        action="store_true",
        help="move audio files no note points at (left by a crash) to the data folder's trash/audio",
    )
    parser.add_argument("--delete", action="store_true", help="with --clean-audio: delete them instead")
    parser.set_defaults(handler=_doctor)
