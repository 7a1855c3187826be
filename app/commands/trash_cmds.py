"""`verbatim trash [list] | restore ID | empty [ID ...]`: deleted notes, kept 30 days, restorable.

Every call first deletes for good the notes that have been in the trash for 30 days (the app
does the same at start-up)."""

from __future__ import annotations

import argparse

from app import note_operations
from app.commands import CliContext, CommandGroups
from app.commands.capture_cmds import clock

ORDER = 22


def _expired(ctx: CliContext, json_output: bool) -> list[int]:
    gone = note_operations.purge_expired(ctx.library)
    if gone and not json_output:
        ctx.print(
            f"deleted for good after {note_operations.TRASH_DAYS} days in the trash: recording"
            f"{'s' if len(gone) > 1 else ''} {', '.join(map(str, gone))}"
        )
    return gone


def _list(args: argparse.Namespace, ctx: CliContext) -> int:
    expired = _expired(ctx, args.json)
    found = note_operations.list_trash(ctx.library)
    if args.json:
        ctx.print_json({"trash": [t.to_json() for t in found], "deleted_for_good": expired})
        return 0
    if not found:
        ctx.print("the trash is empty")
    for t in found:
        r = t.recording
        label = r.title or r.first_line[:50]
        when = r.spoken_at.replace("T", " ")[:16]
        ctx.print(
            f"{r.id:>5}  {when}  {clock(r.duration):>8}  {r.project:<20.20}  gone on {t.purge_on}  {label}"
        )
    return 0


def _restore(args: argparse.Namespace, ctx: CliContext) -> int:
    _expired(ctx, args.json)
    restored = [note_operations.restore_recording(ctx.library, rid) for rid in args.recording_ids]
    if args.json:
        ctx.print_json({"restored": [r.to_json() for r in restored]})
        return 0
    for r in restored:
        waiting = note_operations.open_transcription(ctx.library, r.id)
        ctx.print(
            f"recording {r.id} is back in {r.project}; its transcription (job {waiting}) runs from where it"
            " stopped ('verbatim jobs run', or the app)"
            if waiting
            else f"recording {r.id} is back in {r.project}; it is searchable again, and its consolidation"
            " runs again ('verbatim jobs run', or the app)"
        )
    return 0


def _empty(args: argparse.Namespace, ctx: CliContext) -> int:
    expired = _expired(ctx, args.json)
    gone = note_operations.empty_trash(ctx.library, args.recording_ids or None)
    if args.json:
        ctx.print_json({"deleted_for_good": expired + gone})
        return 0
    if gone:
        ctx.print(
            f"deleted for good: recording{'s' if len(gone) > 1 else ''} {', '.join(map(str, gone))},"
            " with their audio, transcripts, passages and everything found in them"
        )
    elif not expired:
        ctx.print("the trash is empty")
    return 0


def register(groups: CommandGroups) -> None:
    a = groups.top.add_parser(
        "trash",
        help=f"deleted notes, kept {note_operations.TRASH_DAYS} days: list, restore, empty",
    )
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_list)
    sub = a.add_subparsers(title="actions", metavar="ACTION")
    b = sub.add_parser("list", help="the notes in the trash, and the day each is deleted for good")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_list)
    b = sub.add_parser("restore", help="take notes out of the trash, back into their projects")
    b.add_argument("recording_ids", type=int, nargs="+", metavar="ID")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_restore)
    b = sub.add_parser(
        "empty", help="delete notes in the trash for good (all, or the ids given), audio included"
    )
    b.add_argument("recording_ids", type=int, nargs="*", metavar="ID")
    b.add_argument("--json", action="store_true")
    b.set_defaults(handler=_empty)
