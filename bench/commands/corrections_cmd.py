"""`verbatim eval corrections PAIRS.jsonl|SET_DIR`: spoken self-repairs, on (disfluent, fluent)
pairs (the repair tagger's meant reading) or on a scenario set's notes (consolidation's
self-corrections against the key, with its decoys)."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.commands import CliContext, CommandGroups

ORDER = 93


def _eval(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals import corrections_eval

    path = Path(args.source)
    if path.is_dir():
        report = corrections_eval.evaluate_set(path, like=ctx.library)
        return ctx.report(report, args.json, corrections_eval.format_set_report)
    report = corrections_eval.evaluate_pairs(path)
    return ctx.report(report, args.json, corrections_eval.format_report)


def register(groups: CommandGroups) -> None:
    a = groups.eval.add_parser(
        "corrections",
        help="spoken self-repairs: the meant reading of Disfl-QA pairs, or a scenario set's self-corrections",
    )
    a.add_argument(
        "source",
        metavar="PAIRS.jsonl|SET_DIR",
        help='{"id", "disfluent", "fluent"} per line (disflqa-dev format), or a scenario set with key.json',
    )
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_eval)
