"""`verbatim bench all`: every benchmark in one run, against its baselines (see bench/bench_all.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.commands import CliContext, CommandGroups

ORDER = 96


def _bench_all(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.bench_all import DEFAULT_CACHE, DEFAULT_EVAL, Options, run_all

    def say(text: str) -> None:
        if not args.json:
            print(text, file=sys.stderr, flush=True)

    out = Path(args.out)
    options = Options(
        out=out,
        quick=args.quick,
        eval_dir=Path(args.eval_dir) if args.eval_dir else DEFAULT_EVAL,
        cache=Path(args.cache) if args.cache else DEFAULT_CACHE,
        markdown=Path(args.markdown) if args.markdown else _default_markdown(out),
        only=args.only or [],
    )
    summary = run_all(options, say)
    if args.json:
        ctx.print_json(summary)
    else:
        for name, stage in summary["stages"].items():
            state = stage.get("skipped") and f"skipped ({stage['skipped']})"
            state = state or (stage.get("error") and f"FAILED: {stage['error']}")
            state = state or f"{stage['wall_s']:.0f} s, peak RSS {stage['peak_rss_mb']:.0f} MB"
            ctx.print(f"{name:<28} {state}")
        ctx.print(f"written to {out} in {summary['seconds'] / 60:.1f} min")
    failed = [name for name, stage in summary["stages"].items() if stage.get("error")]
    return 1 if failed else 0


def _default_markdown(out: Path) -> Path:
    """docs/benchmarks/ → docs/benchmarks.md beside it; any other folder keeps its own copy."""
    sibling = out.parent / f"{out.name}.md"
    return sibling if out.name == "benchmarks" and sibling.is_file() else out / "benchmarks.md"


def register(groups: CommandGroups) -> None:
    a = groups.bench.add_parser(
        "all", help="every benchmark against its baselines: JSON, a markdown table and PNG plots"
    )
    a.add_argument("--out", required=True, metavar="DIR", help="where the JSON files and plots go")
    a.add_argument("--quick", action="store_true", help="tiny sizes (about two minutes): checks it runs")
    a.add_argument("--eval-dir", metavar="DIR", help="evaluation sets (default: ../shared/eval)")
    a.add_argument(
        "--cache", metavar="DIR", help="built synthetic stores, reused (default: ~/.cache/verbatim-bench)"
    )
    a.add_argument(
        "--markdown",
        metavar="FILE",
        help="markdown file whose generated block is replaced"
        " (default: docs/benchmarks.md for --out docs/benchmarks, else DIR/benchmarks.md)",
    )
    a.add_argument("--only", nargs="+", metavar="STAGE", help="run only these stages")
    a.add_argument("--json", action="store_true", help="print the summary as JSON")
    a.set_defaults(handler=_bench_all)
