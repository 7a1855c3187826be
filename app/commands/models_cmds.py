"""`verbatim models`: list, provision and register models."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.commands import CliContext, CommandGroups
from app.model_status import all_model_status, provision, register_model
from models.catalogue import Role

ORDER = 80


def _human(size: int) -> str:
    return f"{size / 1024**2:.0f} MB" if size else "-"


def _list(args: argparse.Namespace, ctx: CliContext) -> int:
    statuses = all_model_status(ctx.library, verify=not args.no_verify, load=not args.no_load)
    if args.json:
        ctx.print_json({"models": [s.to_json() for s in statuses]})
    else:
        for s in statuses:
            state = "ok" if s.present and s.sha256_verified and s.loads is not False else "PROBLEM"
            ctx.print(f"{s.role:<19} {s.name:<28} {_human(s.size):>7}  {state}  {s.path}")
            if s.problem:
                ctx.print(f"{'':<19} {s.problem}" + (f" (fix: {s.fix})" if s.fix else ""))
    bad = [s for s in statuses if not (s.present and s.sha256_verified and s.loads is not False)]
    return 1 if bad else 0


def _provision(args: argparse.Namespace, ctx: CliContext) -> int:
    written = provision(ctx.library, progress=None if args.quiet else ctx.print)
    if not args.quiet:
        ctx.print(
            f"models ready in {ctx.library.data_dir.models_dir}"
            + (f" (wrote {', '.join(written)})" if written else "")
        )
    return 0


def _add(args: argparse.Namespace, ctx: CliContext) -> int:
    status = register_model(ctx.library, Path(args.path), Role(args.role.replace("-", "_")))
    if args.json:
        ctx.print_json(status.to_json())
    else:
        ctx.print(f"{status.role}: now using {status.path} ({_human(status.size)}, loads: {status.loads})")
    return 0 if status.loads else 1


def _reset(args: argparse.Namespace, ctx: CliContext) -> int:
    ctx.library.models.reset(Role(args.role.replace("-", "_")))
    ctx.print(f"{args.role}: back to the shipped default")
    return 0


def register(groups: CommandGroups) -> None:
    parser = groups.top.add_parser("models", help="show each model role: file, size, sha256 check, loads")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--no-verify", action="store_true", help="skip the sha256 check (faster)")
    parser.add_argument("--no-load", action="store_true", help="do not try to load each model")
    parser.set_defaults(handler=_list)
    sub = parser.add_subparsers(title="actions", metavar="ACTION")

    p = sub.add_parser("provision", help="build the shipped models into the models folder (idempotent)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(handler=_provision)

    roles = [r.value.replace("_", "-") for r in Role]
    p = sub.add_parser("add", help="use your own CTranslate2 Whisper folder or GGUF file for a role")
    p.add_argument("path", help="model folder (transcription) or .gguf file (embedding, chat)")
    p.add_argument("--role", required=True, choices=roles)
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_add)

    p = sub.add_parser("reset", help="go back to the shipped model for a role")
    p.add_argument("--role", required=True, choices=roles)
    p.set_defaults(handler=_reset)
