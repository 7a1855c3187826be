"""`verbatim doctor`: what could stop Verbatim from working, and how to fix it."""

from __future__ import annotations

import argparse

from app.commands import CliContext, CommandGroups
from app.doctor import run_checks

ORDER = 90


def _doctor(args: argparse.Namespace, ctx: CliContext) -> int:
    checks = run_checks(ctx.library, load_models=args.load)
    if args.json:
        ctx.print_json({"checks": [c.to_json() for c in checks]})
    else:
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
    parser.set_defaults(handler=_doctor)
