"""`verbatim eval assertions SENTENCES.jsonl`: whether what a sentence does not assert (a condition,
a guess, a question, another party's figure ...) stays out of the stated facts, and what it does
assert gets in (bench/assertion-sentences)."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.commands import CliContext, CommandGroups

ORDER = 94


def _eval(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.evals import assertions_eval

    report = assertions_eval.evaluate(Path(args.sentences))
    return ctx.report(report, args.json, assertions_eval.format_report)


def register(groups: CommandGroups) -> None:
    a = groups.eval.add_parser(
        "assertions",
        help="values asserted or not (conditions, guesses, questions) read as stated facts or not",
    )
    a.add_argument(
        "sentences",
        metavar="SENTENCES.jsonl",
        help='{"id", "text", "asserted", "value", "kind"} per line (bench/assertion-sentences)',
    )
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_eval)
