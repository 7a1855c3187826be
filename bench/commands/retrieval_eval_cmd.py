"""`verbatim eval retrieval SET_DIR... [--cross]` and `verbatim bench search`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from app.commands import CliContext, CommandGroups, progress_line
from models.errors import InputError

ORDER = 91


def _parse_overrides(pairs: list[str] | None) -> dict[str, object]:
    """`--option keyword_weight=0.8`: try a ranking change without editing code."""
    from memory.search.ranking import RankingOptions

    known = {name: type(value) for name, value in vars(RankingOptions()).items()}
    found: dict[str, object] = {}
    for pair in pairs or []:
        name, _, value = pair.partition("=")
        if name not in known or not value:
            raise InputError(f"unknown ranking option {pair!r}", fix=f"one of: {', '.join(sorted(known))}")
        try:
            found[name] = (
                known[name](value) if known[name] is not bool else value.lower() in ("1", "true", "yes")
            )
        except ValueError as exc:
            raise InputError(f"{name} needs a {known[name].__name__}, not {value!r}") from exc
    return found


def _eval_retrieval(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals.retrieval_eval import evaluate_retrieval

    if args.cross:
        from bench.evals.retrieval_cross import cross_validate, format_cross

        say = None if args.json else ctx.print
        report = cross_validate(
            [Path(d) for d in args.set_dir],
            like=ctx.library,
            work=Path(args.keep_store) if args.keep_store else None,
            fixed=_parse_overrides(args.option),
            say=say,
        )
        return ctx.report(report, args.json, format_cross)
    if len(args.set_dir) != 1:
        raise InputError("several sets are evaluated together only with --cross", fix="add --cross")
    report = evaluate_retrieval(
        Path(args.set_dir[0]),
        like=ctx.library,
        keep=Path(args.keep_store) if args.keep_store else None,
        overrides=_parse_overrides(args.option),
        progress=progress_line("querying", not args.json and sys.stderr.isatty()),
    )
    return ctx.report(report, args.json, format_report)


def _eval_search_cut(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals.search_cut import cross_validate, format_cut

    report = cross_validate(
        [Path(d) for d in args.set_dir],
        like=ctx.library,
        work=Path(args.keep_store) if args.keep_store else None,
        say=None if args.json else ctx.print,
    )
    return ctx.report(report, args.json, format_cut)


def format_report(report: dict[str, Any]) -> list[str]:
    info = report["sets"][0]
    lines = [
        f"{info['name']}: {info['recordings']} recordings, {info['chunks']} passages, "
        f"{info['evaluated']} of {info['queries']} queries evaluated (answerable);"
        f" ingest {info['ingest_s']:.1f} s" + (" (store reused)" if info["reused_store"] else ""),
        "",
        f"{'mode':<8} {'scope':<8} {'recall@400':>10} {'recall@1000':>11} {'hit@400':>8} {'MRR':>6}",
    ]
    results = report["results"]
    for mode, scopes in results.items():
        for scope, r in scopes.items():
            lines.append(
                f"{mode:<8} {scope:<8} {r['recall@400']:>10.3f} {r['recall@1000']:>11.3f}"
                f" {r['hit@400']:>8.3f} {r['mrr']:>6.3f}"
            )
    lines += [
        "",
        "recall@400 by category (all projects):",
        f"{'category':<16}" + "".join(f"{m:>9}" for m in results),
    ]
    categories = results["hybrid"]["all"]["by_category"]
    for category, r in categories.items():
        row = "".join(f"{results[m]['all']['by_category'][category]['recall@400']:>9.3f}" for m in results)
        lines.append(f"{str(category)[:15]:<16}{row}   ({r['queries']} queries)")
    lines += ["", "latency ms (p50 / p95; hybrid and vector include embedding the query):"]
    for name, v in report["latency_ms"].items():
        lines.append(f"  {name:<16} {v['p50']:>8.1f} / {v['p95']:.1f}")
    return lines


def _bench_search(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals.search_bench import run_search_bench

    report = run_search_bench(
        chunk_counts=args.chunks,
        quick=args.quick,
        work_dir=Path(args.work_dir) if args.work_dir else None,
        progress=ctx.print if not args.json else None,
    )
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "search.json").write_text(json.dumps(report, indent=2))
    if args.json:
        ctx.print_json(report)
    return 0


def register(groups: CommandGroups) -> None:
    a = groups.eval.add_parser(
        "retrieval", help="evidence recall of search on an evaluation set (fresh store)"
    )
    a.add_argument(
        "set_dir", metavar="SET_DIR", nargs="+", help="a folder with corpus.jsonl and queries.jsonl"
    )
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.add_argument(
        "--cross",
        action="store_true",
        help="choose the ranking settings on all sets but one and report the one left out, for each set",
    )
    a.add_argument(
        "--keep-store",
        metavar="DIR",
        help="build the store in DIR and reuse it while the corpus is unchanged (with --cross: one per set)",
    )
    a.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="try a ranking option (repeatable)"
    )
    a.set_defaults(handler=_eval_retrieval)

    a = groups.eval.add_parser(
        "search-cut", help="where search results stop (a share of the best score), leave one set out"
    )
    a.add_argument("set_dir", metavar="SET_DIR", nargs="+", help="two or more evaluation sets")
    a.add_argument("--keep-store", metavar="DIR", help="build each set's store in DIR and reuse it")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_eval_search_cut)

    a = groups.bench.add_parser(
        "search", help="hybrid search latency on a synthetic store vs numpy brute force"
    )
    a.add_argument("--chunks", type=int, nargs="+", default=[100_000], help="store sizes (default 100000)")
    a.add_argument("--quick", action="store_true", help="fewer queries, smaller store, no 1M")
    a.add_argument(
        "--work-dir", metavar="DIR", help="where to build the synthetic stores (default: temporary)"
    )
    a.add_argument("--out", metavar="DIR", help="also write search.json there")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_bench_search)
