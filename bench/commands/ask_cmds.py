"""`verbatim eval ask` and `verbatim bench ask`."""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from app.commands import CliContext, CommandGroups, progress_line
from models.errors import InputError

ORDER = 90


def _gate_overrides(pairs: list[str] | None) -> Any:
    """`--gate min_support=0.4`: try a relevance setting without editing code."""
    from memory.answer.relevance_gate import Gate

    gate = Gate()
    known = {f.name: type(getattr(gate, f.name)) for f in fields(Gate)}
    changes: dict[str, Any] = {}
    for pair in pairs or []:
        name, _, value = pair.partition("=")
        if name not in known or not value:
            raise InputError(f"unknown gate setting {pair!r}", fix=f"one of: {', '.join(sorted(known))}")
        try:
            changes[name] = known[name](value)
        except ValueError as exc:
            raise InputError(f"{name} needs a {known[name].__name__}, not {value!r}") from exc
    return replace(gate, **changes)


def _eval_ask(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals.ask_eval import evaluate_ask, format_report

    if args.cross:
        return _eval_ask_cross(args, ctx)
    if len(args.set_dir) != 1:
        raise InputError("several sets are evaluated together only with --cross", fix="add --cross")
    report = evaluate_ask(
        Path(args.set_dir[0]),
        like=ctx.library,
        limit=args.limit,
        no_llm=args.no_llm,
        model_path=Path(args.model) if args.model else None,
        gate=_gate_overrides(args.gate),
        keep=Path(args.keep_store) if args.keep_store else None,
        progress=progress_line("asking", not args.json and sys.stderr.isatty()),
    )
    return ctx.report(report, args.json, format_report)


def _eval_ask_cross(args: argparse.Namespace, ctx: CliContext) -> int:
    import tempfile

    from bench.evals.ask_cross import cross_validate, format_cross

    if len(args.set_dir) < 2:
        raise InputError("--cross needs at least two sets", fix="name two or more SET_DIRs")
    work = Path(args.keep_store) if args.keep_store else Path(tempfile.mkdtemp(prefix="verbatim-ask-cross-"))
    say = None if args.json else (lambda line: print(line, file=sys.stderr, flush=True))
    report = cross_validate([Path(d) for d in args.set_dir], like=ctx.library, work=work, say=say)
    return ctx.report(report, args.json, format_cross)


def _bench_ask(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals.ask_bench import format_bench, run_ask_bench

    report = run_ask_bench(
        like=ctx.library,
        chunks=args.chunks,
        questions=args.questions,
        model_path=Path(args.model) if args.model else None,
        work_dir=Path(args.work_dir) if args.work_dir else None,
        progress=None if args.json else ctx.print,
    )
    if args.out:
        import json

        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "ask.json").write_text(json.dumps(report, indent=2))
    return ctx.report(report, args.json, format_bench)


def register(groups: CommandGroups) -> None:
    a = groups.eval.add_parser("ask", help="honesty, support, abstention and latency of answers on a set")
    a.add_argument(
        "set_dir", nargs="+", metavar="SET_DIR", help="a folder with corpus.jsonl and queries.jsonl"
    )
    a.add_argument(
        "--cross",
        action="store_true",
        help="leave one set out: train answerability on the others, report on the one left out",
    )
    a.add_argument("--limit", type=int, metavar="N", help="only the first N queries")
    a.add_argument("--no-llm", action="store_true", help="extractive answers only")
    a.add_argument(
        "--model", metavar="PATH", help="a GGUF chat model to evaluate instead of the configured one"
    )
    a.add_argument(
        "--gate", action="append", metavar="NAME=VALUE", help="try a relevance setting (repeatable)"
    )
    a.add_argument(
        "--keep-store",
        metavar="DIR",
        help="build the store(s) in DIR and reuse them while corpus and code are unchanged",
    )
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_eval_ask)

    a = groups.bench.add_parser(
        "ask", help="retrieval, prompt building, first token and total: model vs --no-llm"
    )
    a.add_argument("--chunks", type=int, default=100_000, help="synthetic store size (default 100000)")
    a.add_argument("--questions", type=int, default=20, help="questions per configuration (default 20)")
    a.add_argument("--model", metavar="PATH", help="a GGUF chat model instead of the configured one")
    a.add_argument("--work-dir", metavar="DIR", help="where to build (and reuse) the synthetic store")
    a.add_argument("--out", metavar="DIR", help="also write ask.json there")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_bench_ask)
