"""`verbatim search` (passages that match a query) and `verbatim index` (make everything searchable)."""

from __future__ import annotations

import argparse
import sys

from app.commands import CliContext, CommandGroups
from app.ingest.indexing import index_pending
from app.search import cut_where_relevance_falls, search
from memory.search.index import index_stats
from memory.store.clock import parse_time

ORDER = 30


def _search(args: argparse.Namespace, ctx: CliContext) -> int:
    as_of = parse_time(args.as_of) if args.as_of else None
    hits = search(
        ctx.library,
        args.query,
        projects=args.project or None,
        k=args.k,
        as_of=as_of,
        since=args.since,
        until=args.until,
        mode=args.mode,
        include_archived=args.include_archived,
    )
    if not args.all:
        hits = cut_where_relevance_falls(hits)
    if args.json:
        ctx.print_json({"query": args.query, "mode": args.mode, "hits": [h.to_json() for h in hits]})
        return 0
    if not hits:
        ctx.print("no passages match; try other words, --mode vector, or a wider --project/--since scope")
        return 0
    for n, hit in enumerate(hits, start=1):
        when = hit.spoken_at[:16].replace("T", " ")
        ctx.print(f"{n}. {hit.project} · {when} · {_clock(hit.start)}–{_clock(hit.end)} · {hit.title}")
        for line in hit.text.splitlines():
            ctx.print(f"   {line}")
        parts = " ".join(f"{k}={_short(v)}" for k, v in hit.components.items())
        ctx.print(f"   score {hit.score:.4f} ({parts})")
        ctx.print()
    return 0


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return (
        f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
        if whole >= 3600
        else f"{whole // 60}:{whole % 60:02d}"
    )


def _short(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3f}"


def _index(args: argparse.Namespace, ctx: CliContext) -> int:
    def progress(fraction: float) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"\rindexing {fraction:4.0%}", end="", file=sys.stderr, flush=True)

    reports = index_pending(ctx.library, progress=progress)
    if not args.json and sys.stderr.isatty():
        print(file=sys.stderr)
    stats = index_stats(ctx.library.store)
    if args.json:
        ctx.print_json({"reports": [r.to_json() for r in reports], "index": stats})
        return 0
    recordings = sum(1 for r in reports if r.recording_id is not None)
    embedded = sum(r.embedded for r in reports)
    ctx.print(
        f"indexed {recordings} recordings ({embedded} passages embedded);"
        f" {stats['chunks']} passages searchable, {stats['embedded']} with vectors"
    )
    if stats["embedded"] < stats["chunks"]:
        ctx.print("some passages have no vector yet: keyword search finds them; check 'verbatim models'")
    return 0


def register(groups: CommandGroups) -> None:
    a = groups.top.add_parser("search", help="find passages by words and meaning, newest weighted up")
    a.add_argument("query", help="words to look for (any text; quotes and operators are just words)")
    a.add_argument("--project", action="append", metavar="P", help="only this project (repeat for several)")
    a.add_argument("--k", type=int, default=10, help="how many passages at most (default 10)")
    a.add_argument(
        "--all",
        action="store_true",
        help="all k passages, also those scoring far below the best (by default they are left out)",
    )
    a.add_argument(
        "--include-archived", action="store_true", help="also search archived projects (left out by default)"
    )
    a.add_argument("--as-of", metavar="ISO", help="time of asking for recency (default now)")
    a.add_argument("--since", metavar="DATE", help="only notes spoken at or after this date/time")
    a.add_argument("--until", metavar="DATE", help="only notes spoken up to this date (whole day)")
    a.add_argument("--mode", choices=("hybrid", "keyword", "vector"), default="hybrid")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_search)

    a = groups.top.add_parser("index", help="index every recording not yet searchable (and rebuild vectors)")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_index)
