"""`verbatim consolidate`, `facts`, `corrections`, `connections`, `digest`, `commitments` and `stretches`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.commands import CliContext, CommandGroups
from models.errors import InputError

ORDER = 45


def _when(text: str) -> str:
    return text.replace("T", " ")[:16]


def _clock(seconds: float) -> str:
    from models.prompts import clock

    return clock(seconds)


def _consolidate(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.consolidation.service import consolidate

    if args.recording_ids and args.all:
        raise InputError("give recording ids or --all, not both")
    ids = args.recording_ids or None

    def progress(number: int, total: int, _: str) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"\rconsolidating {number + 1}/{total}", end="", file=sys.stderr, flush=True)

    reports = consolidate(
        ctx.library,
        ids,
        model_path=Path(args.model) if args.model else None,
        use_model=not args.no_llm,
        model_seconds=args.model_seconds,
        progress=progress,
    )
    if not args.json and sys.stderr.isatty() and reports:
        print(file=sys.stderr)
    if args.json:
        ctx.print_json({"reports": [r.to_json() for r in reports]})
        return 0
    if not reports:
        ctx.print("nothing to consolidate")
    for r in reports:
        ctx.print(
            f"recording {r.recording_id}: {r.facts} facts (+{r.model_facts} from the model), {r.corrections}"
            f" self-corrections, {r.stretches} off-project stretches, {r.superseded} superseded,"
            f" {r.digest_items} digest items, {r.connections} new connections ({r.seconds:.1f} s)"
        )
    return 0


def _facts(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.consolidation.service import list_facts

    found = list_facts(
        ctx.library,
        project=args.project,
        recording_id=args.recording,
        as_of=args.as_of,
        current_only=args.current,
    )
    if args.json:
        ctx.print_json({"facts": [f.to_json() for f in found]})
        return 0
    if not found:
        ctx.print("no facts yet: they appear after consolidation ('verbatim consolidate')")
    for f in found:
        state = "current" if f.current else f"until {_when(f.valid_until or '')}"
        ctx.print(f"[{f.id}] {f.project} · {f.attribute}: {f.value}  ({f.kind}, {state})")
        ctx.print(
            f"     “{f.quote}”  {_when(f.spoken_at)} · at {_clock(f.start)} · recording {f.recording_id}"
        )
    return 0


def _corrections(args: argparse.Namespace, ctx: CliContext) -> int:
    from memory.consolidate.correction_store import list_corrections

    found = list_corrections(ctx.library.store, recording_id=args.recording_id)
    if args.json:
        ctx.print_json({"corrections": [c.to_json() for c in found]})
        return 0
    if not found:
        ctx.print("no self-corrections found")
    for c in found:
        ctx.print(f"recording {c.recording_id}: “{c.wrong_text}” → “{c.right_text}”  ({c.marker})")
    return 0


def _connections(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.consolidation.service import list_connections

    found = list_connections(ctx.library, project=args.project, include_dismissed=args.all)
    if args.json:
        ctx.print_json({"connections": [c.to_json() for c in found]})
        return 0
    if not found:
        ctx.print("no connections yet: they appear after consolidation ('verbatim consolidate')")
    for c in found:
        verdict = f" · {c.verdict}" if c.verdict else ""
        ctx.print(f"[{c.id}] {c.a.project} ↔ {c.b.project} · {c.kind} · score {c.score:.2f}{verdict}")
        for side in (c.a, c.b):
            ctx.print(f"     “{side.quote}”")
            ctx.print(f"       stated · {side.project} · {_when(side.spoken_at)} · at {_clock(side.start)}")
        ctx.print(f"     inferred: {c.rationale}")
    return 0


def _verdict(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.consolidation.service import connection_verdict

    c = connection_verdict(ctx.library, args.connection_id, args.verdict)
    if args.json:
        ctx.print_json(c.to_json())
    else:
        ctx.print(f"connection {c.id}: {c.verdict}")
    return 0


def _digest(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.consolidation.service import project_digest

    items = project_digest(ctx.library, args.project)
    if args.json:
        ctx.print_json({"project": args.project, "items": [i.to_json() for i in items]})
        return 0
    if not items:
        ctx.print("nothing in the digest yet: it appears after consolidation ('verbatim consolidate')")
    for kind, title in (
        ("decision", "Decisions"),
        ("commitment", "Commitments"),
        ("question", "Open questions"),
    ):
        rows = [i for i in items if i.kind == kind]
        if not rows:
            continue
        ctx.print(f"{title}:")
        for i in rows:
            extra = ""
            if kind == "commitment":
                to = f" → {i.to_whom}" if i.to_whom else ""
                done = "; done" if i.done else ""
                extra = f"  [{_party(i.who)}{to}: {i.what or '?'}; by: {i.due or '-'}{done}]"
            ctx.print(f"  “{i.quote}”{extra}")
            ctx.print(
                f"     stated · {_when(i.spoken_at)} · at {_clock(i.start)} · recording {i.recording_id}"
            )
    return 0


def _commitments(args: argparse.Namespace, ctx: CliContext) -> int:
    from datetime import date

    from app.consolidation.service import list_commitments

    try:
        today = date.fromisoformat(args.as_of[:10]) if args.as_of else date.today()
    except ValueError as exc:
        raise InputError(f"not a date: {args.as_of!r}", fix="give --as-of as YYYY-MM-DD") from exc
    found = [
        c
        for c in list_commitments(ctx.library, project=args.project, due_before=args.due_before)
        if c.spoken_at[:10] <= today.isoformat() and not (args.open and c.done_on(today))
    ]
    if args.json:
        ctx.print_json({"as_of": today.isoformat(), "commitments": [c.to_json(today) for c in found]})
        return 0
    if not found:
        ctx.print("no commitments found: they appear after consolidation ('verbatim consolidate')")
    for c in found:
        state = "done" if c.done_on(today) else ("OVERDUE" if c.overdue(today) else "open")
        due = c.due_date or "no date"
        to = f" → {c.to_whom}" if c.to_whom else ""
        ctx.print(f"{due:<10}  {state:<7}  {_party(c.who)}{to}: {c.what}  [{c.project}]")
        when = f"{_when(c.spoken_at)} · at {_clock(c.start)} · recording {c.recording_id}"
        ctx.print(f"{'':<21}“{c.quote}”  {when}" + (f"  (due: {c.due_text})" if c.due_text else ""))
        if c.done_on(today) and c.done_quote:
            ctx.print(f"{'':<21}done: “{c.done_quote}”  {_when(c.done_spoken_at or '')}"
                      f" · recording {c.done_recording_id}")  # fmt: skip
    return 0


def _party(who: str | None) -> str:
    """Who owes it, as a subject: "I", "we", or the name said."""
    return {"me": "I", "us": "we"}.get(who or "", who or "?")


def _stretches(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.consolidation.service import assign_stretch, dismiss_stretch, list_stretches

    if args.assign:
        if len(args.assign) > 2 or not args.assign[0].isdigit():
            raise InputError(
                "--assign takes a stretch id and, optionally, a project", fix="--assign 3 Millbrook"
            )
        changed = [
            assign_stretch(ctx.library, int(args.assign[0]), args.assign[1] if len(args.assign) > 1 else None)
        ]
    elif args.dismiss is not None:
        changed = [dismiss_stretch(ctx.library, args.dismiss)]
    else:
        changed = list_stretches(ctx.library, recording_id=args.recording_id, include_dismissed=args.all)
    if args.json:
        ctx.print_json({"stretches": [s.to_json() for s in changed]})
        return 0
    if not changed:
        ctx.print("no off-project stretches found")
    for s in changed:
        ctx.print(
            f"[{s.id}] recording {s.recording_id} · {_clock(s.start)}–{_clock(s.end)} · about {s.project}"
            f" · {s.status}"
        )
        ctx.print(f"     {s.text[:300]}")
    return 0


def register(groups: CommandGroups) -> None:
    top = groups.top
    a = top.add_parser(
        "consolidate", help="facts, self-corrections, connections and digest, in the foreground"
    )
    a.add_argument("recording_ids", nargs="*", type=int, metavar="RECORDING_ID")
    a.add_argument("--all", action="store_true", help="every recording that needs it (the default)")
    a.add_argument("--no-llm", action="store_true", help="rules only: no chat model")
    a.add_argument("--model", metavar="PATH", help="a GGUF chat model instead of the configured one")
    a.add_argument("--model-seconds", type=float, default=90.0, help="the model's time budget per recording")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_consolidate)

    a = top.add_parser("facts", help="facts with their quotes, validity and what superseded them")
    a.add_argument("--project", metavar="P")
    a.add_argument("--as-of", metavar="ISO", help="what was known then")
    a.add_argument("--recording", type=int, metavar="ID", help="only this recording's facts")
    a.add_argument("--current", action="store_true", help="only facts not superseded")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_facts)

    a = top.add_parser("corrections", help="self-corrections: the words taken back and the words meant")
    a.add_argument("recording_id", nargs="?", type=int, metavar="RECORDING_ID")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_corrections)

    a = top.add_parser("connections", help="links between projects, with both quotes; accept or dismiss")
    a.add_argument("--project", metavar="P")
    a.add_argument("--all", action="store_true", help="include dismissed connections")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_connections)
    sub = a.add_subparsers(title="actions", metavar="ACTION")
    b = sub.add_parser("verdict", help="accept or dismiss a connection (later ranking learns from it)")
    b.add_argument("connection_id", type=int, metavar="ID")
    b.add_argument("verdict", choices=("accept", "dismiss"))
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_verdict)

    a = top.add_parser("digest", help="a project's decisions, commitments and open questions, newest first")
    a.add_argument("--project", required=True, metavar="P")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_digest)

    a = top.add_parser(
        "commitments", help="who owes what to whom by when, across projects, by due date (overdue marked)"
    )
    a.add_argument("--project", metavar="P")
    a.add_argument("--due-before", metavar="DATE", help="only those due before this day (YYYY-MM-DD)")
    a.add_argument("--open", action="store_true", help="only those no note has said are done")
    a.add_argument("--as-of", metavar="DATE", help="overdue and done as of this day (default: today)")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_commitments)

    a = top.add_parser("stretches", help="parts of recordings about another project; assign or dismiss them")
    a.add_argument("recording_id", nargs="?", type=int, metavar="RECORDING_ID")
    a.add_argument(
        "--assign", nargs="+", metavar="ID [PROJECT]", help="link stretch ID to its (or this) project"
    )
    a.add_argument("--dismiss", type=int, metavar="ID")
    a.add_argument("--all", action="store_true", help="include dismissed stretches")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_stretches)
