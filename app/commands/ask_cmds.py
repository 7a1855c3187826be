"""`verbatim ask`."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.commands import CliContext, CommandGroups

ORDER = 40


def _ask(args: argparse.Namespace, ctx: CliContext) -> int:
    from app.answer_text import passage_lines
    from app.ask import AskRequest, ask

    streamed = not args.json
    request = AskRequest(
        " ".join(args.question),
        projects=args.project or None,
        as_of=args.as_of,
        no_llm=args.no_llm,
        model_path=Path(args.model) if args.model else None,
        include_archived=args.include_archived,
    )
    answer = ask(ctx.library, request, on_text=ctx.print if streamed else None)
    if args.json:
        ctx.print_json(answer.to_json())
        return 0
    shown = answer.passages if not answer.answer_found else [p for p in answer.passages if p.relevant]
    if shown:
        ctx.print("")
        ctx.print("Nearest passages:" if not answer.answer_found else "Passages:")
        for line in passage_lines(shown):
            ctx.print(line)
    t = answer.timings
    source = answer.model or "no model (extractive)"
    if answer.answer_found and answer.mode == "extractive" and answer.model:
        source = f"{answer.model}: no checked claim, extractive answer"
    ctx.print(
        f"\n[{source} · retrieval {t['retrieve_ms']:.0f} ms · first text {t['first_token_ms']:.0f} ms"
        f" · total {t['total_ms']:.0f} ms]"
    )
    return 0


def register(groups: CommandGroups) -> None:
    a = groups.top.add_parser(
        "ask",
        help="ask across all projects; every claim is stated (a quote) or inferred",
        description="Answer from your notes, offline. Stated claims are checked quotes with project, date"
        " and time; inferred ones are the model's reading, marked. 'Not in your notes' when nothing"
        " relevant is found.",
    )
    a.add_argument("question", nargs="+", help="the question (quotes optional)")
    a.add_argument("--project", action="append", metavar="P", help="only this project (repeatable)")
    a.add_argument("--as-of", metavar="ISO", help="answer as of this time: later notes are left out")
    a.add_argument("--no-llm", action="store_true", help="extractive answer: the best passages, verbatim")
    a.add_argument(
        "--include-archived", action="store_true", help="also read archived projects (left out by default)"
    )
    a.add_argument("--model", metavar="PATH", help="a GGUF chat model to use instead of the configured one")
    a.add_argument("--json", action="store_true", help="machine-readable output")
    a.set_defaults(handler=_ask)
