"""`verbatim projects`: add, list, rename, archive, and per-project transcription settings."""

from __future__ import annotations

import argparse

from app import project_service as p
from app.commands import CliContext, CommandGroups

ORDER = 10


def _list(args: argparse.Namespace, ctx: CliContext) -> int:
    found = p.list_projects(ctx.library, include_archived=args.all)
    if args.json:
        ctx.print_json({"projects": [x.to_json() for x in found]})
    elif not found:
        ctx.print("no projects yet: add one with 'verbatim projects add NAME'")
    else:
        for x in found:
            last = (x.last_spoken_at or "-")[:16].replace("T", " ")
            flag = "  (archived)" if x.archived_at else ""
            ctx.print(f"{x.name:<32} {x.recordings:>5} recordings   last {last}{flag}")
    return 0


def _show(ctx: CliContext, project: p.Project, as_json: bool) -> None:
    if as_json:
        ctx.print_json(project.to_json())
    else:
        ctx.print(f"{project.name} ({project.slug})")


def _add(args: argparse.Namespace, ctx: CliContext) -> int:
    _show(ctx, p.add_project(ctx.library, args.name), args.json)
    return 0


def _rename(args: argparse.Namespace, ctx: CliContext) -> int:
    _show(ctx, p.rename_project(ctx.library, args.old, args.new), args.json)
    return 0


def _archive(args: argparse.Namespace, ctx: CliContext) -> int:
    _show(ctx, p.archive_project(ctx.library, args.name, archived=not args.undo), args.json)
    return 0


def _set(args: argparse.Namespace, ctx: CliContext) -> int:
    vocabulary = None
    if args.vocabulary is not None:
        vocabulary = [t for t in args.vocabulary.split(",")]
    project = p.set_project_options(
        ctx.library,
        args.name,
        language=args.language if args.language not in (None, "auto") else None,
        clear_language=args.language == "auto",
        vocabulary=vocabulary,
        transcription_model=args.model,
    )
    _show(ctx, project, args.json)
    return 0


def register(groups: CommandGroups) -> None:
    parser = groups.top.add_parser("projects", help="add, list, rename or archive projects")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--all", action="store_true", help="include archived projects")
    parser.set_defaults(handler=_list)
    sub = parser.add_subparsers(title="actions", metavar="ACTION")

    a = sub.add_parser("list", help="projects with their recording counts and last activity")
    a.add_argument("--json", action="store_true")
    a.add_argument("--all", action="store_true", help="include archived projects")
    a.set_defaults(handler=_list)

    a = sub.add_parser("add", help="create a project")
    a.add_argument("name")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_add)

    a = sub.add_parser("rename", help="rename a project")
    a.add_argument("old")
    a.add_argument("new")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_rename)

    a = sub.add_parser("archive", help="hide a project from the sidebar (its notes stay searchable)")
    a.add_argument("name")
    a.add_argument("--undo", action="store_true", help="bring an archived project back")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_archive)

    a = sub.add_parser("set", help="language, vocabulary and transcription model of a project")
    a.add_argument("name")
    a.add_argument("--language", help="ISO code such as en or de; 'auto' to detect")
    a.add_argument("--vocabulary", help="comma-separated names the transcriber should spell right")
    a.add_argument("--model", help="transcription model name or folder for this project")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_set)
