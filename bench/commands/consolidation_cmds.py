"""`verbatim eval consolidation` and `verbatim bench consolidation`."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.commands import CliContext, CommandGroups

ORDER = 92


def _eval(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals.consolidation_eval import evaluate_consolidation, format_report

    report = evaluate_consolidation(
        Path(args.set_dir),
        like=ctx.library,
        audio=args.audio,
        use_model=not args.no_llm,
        model_path=Path(args.model) if args.model else None,
        with_ask=args.ask,
        keep=Path(args.keep_store) if args.keep_store else None,
    )
    return ctx.report(report, args.json, format_report)


def _bench(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals.consolidation_bench import format_bench, run_bench

    report = run_bench(
        like=ctx.library,
        set_dir=Path(args.set_dir),
        long_source=Path(args.long_source),
        minutes=args.minutes,
        model_path=Path(args.model) if args.model else None,
    )
    return ctx.report(report, args.json, format_bench)


def register(groups: CommandGroups) -> None:
    a = groups.eval.add_parser("consolidation", help="self-corrections, superseded facts, connections, traps")
    a.add_argument("set_dir", metavar="SET_DIR", help="a scenario set with corpus.jsonl and key.json")
    a.add_argument("--audio", action="store_true", help="import the audio and transcribe it (slow)")
    a.add_argument("--no-llm", action="store_true", help="rules only")
    a.add_argument("--model", metavar="PATH", help="a GGUF chat model instead of the configured one")
    a.add_argument(
        "--ask", action="store_true", help="also ask the latest-value and self-correction questions"
    )
    a.add_argument(
        "--keep-store",
        metavar="DIR",
        help="build the store in DIR and reuse it while corpus and code are unchanged",
    )
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_eval)
    a = groups.bench.add_parser("consolidation", help="time to consolidate a long note, stage by stage")
    a.add_argument("set_dir", metavar="SET_DIR", help="notes of other projects (a corpus.jsonl folder)")
    a.add_argument(
        "long_source", metavar="CORPUS", help="a corpus.jsonl whose longest recording is cut to size"
    )
    a.add_argument("--minutes", type=float, default=60.0)
    a.add_argument("--model", metavar="PATH", help="a GGUF chat model instead of the configured one")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_bench)
