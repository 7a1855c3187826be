"""`verbatim eval wer` and `verbatim bench transcription`: transcription quality and speed."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from app.commands import CliContext, CommandGroups
from bench.wer import FileScore
from bench.wer_eval import evaluate_wer
from models.errors import InputError

ORDER = 95


def _say(enabled: bool) -> Callable[[str], None]:
    def say(text: str) -> None:
        if enabled:
            print(text, file=sys.stderr, flush=True)

    return say


def _eval_wer(args: argparse.Namespace, ctx: CliContext) -> int:
    say = _say(not args.json)

    def show(f: FileScore) -> None:
        say(
            f"{f.audio:<32.32} WER {f.wer:6.1%}  ({f.errors}/{f.reference_words} words)"
            f"  {f.rtf:5.1f}x real time"
        )

    report = evaluate_wer(
        ctx.library, Path(args.manifest), model=args.model, language=args.language, on_file=show
    )
    result = report.to_json()
    if args.json:
        ctx.print_json(result)
    else:
        total = result["overall"]
        assert isinstance(total, dict)
        ctx.print(
            f"{report.model}: WER {total['wer']:.1%} over {total['reference_words']} words,"
            f" {total['rtf']:.1f}x real time ({total['audio_seconds']:.0f} s of audio; model load"
            f" {report.load_seconds:.1f} s)"
        )
    return 0


def _bench(args: argparse.Namespace, ctx: CliContext) -> int:
    from bench.transcription_bench import (
        DEFAULT_MANIFEST,
        compare,
        live_lag,
        memory_curve,
        recorder_curve,
    )
    from bench.wer import read_manifest

    manifest = Path(args.manifest) if args.manifest else DEFAULT_MANIFEST
    if not manifest.is_file():
        raise InputError(
            f"no manifest at {manifest}", fix="pass --manifest ../shared/eval/speech-dev/manifest.tsv"
        )
    say = _say(not args.json)
    library = ctx.library
    report = compare(library, manifest, 1 if args.quick else 3, say, max_seconds=60.0 if args.quick else None)
    lengths = [1.0, 4.0] if args.quick else [2.0, 10.0, 60.0]
    report.memory = memory_curve(library, manifest, lengths, say)
    report.recorder_memory = recorder_curve(library, [5.0, 30.0] if args.quick else [10.0, 120.0], say)
    longest = max(read_manifest(manifest), key=lambda row: row[0].stat().st_size)[0]
    report.live = live_lag(library, longest, 45.0 if args.quick else 180.0, say)
    s = report.summary
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "transcription.json").write_text(json.dumps(report.to_json(), indent=2))
    if args.json:
        ctx.print_json(report.to_json())
    else:
        ctx.print(
            f"{s['model']} on {s['audio_seconds']:.0f} s of speech:"
            f" product {s['speed_product']:.1f}x real time,"
            f" bare faster-whisper {s['speed_bare']:.1f}x; overhead {s['overhead_wall']:+.1%} on the clock,"
            f" {s['overhead_cpu']:+.1%} in CPU time; WER {s['wer']:.1%} (bare {s['wer_bare']:.1%})"
        )
        for point in report.memory:
            ctx.print(
                f"  {point['minutes']:>5g} min note: worker peak {point['worker_peak_mb']:.0f} MB,"
                f" app peak {point['parent_peak_mb']:.0f} MB"
            )
        for point in report.recorder_memory:
            ctx.print(f"  recorder, {point['minutes']:>5g} min: peak {point['parent_peak_mb']:.0f} MB")
        live = report.live
        ctx.print(
            f"  live pass: median {live['median_lag_s']:.1f} s behind, at most {live['max_lag_s']:.1f} s"
        )
    return 0


def register(groups: CommandGroups) -> None:
    a = groups.eval.add_parser("wer", help="word error rate and speed of transcription on a speech manifest")
    a.add_argument(
        "manifest", metavar="MANIFEST.tsv", help="audio<TAB>reference per line (speech-dev format)"
    )
    a.add_argument("--model", help="base, tiny.en, or a CTranslate2 Whisper folder (default: the library's)")
    a.add_argument("--language", help="force a language (default: detect)")
    a.add_argument("--json", action="store_true", help='{"files": [...], "overall": {"wer", "rtf"}}')
    a.set_defaults(handler=_eval_wer)

    a = groups.bench.add_parser("transcription", help="pipeline vs bare faster-whisper: speed, memory, WER")
    a.add_argument("--quick", action="store_true", help="one round, shorter notes")
    a.add_argument("--manifest", help="speech manifest (default: ../shared/eval/speech-dev/manifest.tsv)")
    a.add_argument("--out", metavar="DIR", help="also write transcription.json there")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_bench)
