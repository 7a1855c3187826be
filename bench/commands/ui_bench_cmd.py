"""`verbatim bench app-start`: time from launching the desktop window to an interactive window.

Builds (once, then reuses) a synthetic library of N recordings over a dozen projects and three
years, then starts the window in fresh processes (`python -m ui.dev.bench_start`), alternating with
two baselines measured in the same run: the same window on an empty library, and a bare Qt
window. No Qt is imported here: the window runs in the child processes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from app.commands import CliContext, CommandGroups
from app.library import Library
from app.paths import DataDir
from memory.store import projects, recordings
from memory.store.recordings import SegmentIn

ORDER = 95
_PROJECTS_TEXT = """Harbourline Atlas Beacon Northwind Orchard Quarry Riverside Summit Tidewater Vantage
    Willow Zenith"""
PROJECTS = _PROJECTS_TEXT.split()
_WORDS_TEXT = """we decided the migration budget client workshop deadline postgres redis cache review team
    proposal timeline risk owner next steps follow up contract scope invoice meeting"""
WORDS = _WORDS_TEXT.split()


def build_library(root: Path, *, count: int, segments: int, seed: int = 7) -> Path:
    """A library with `count` recordings of `segments` segments each, reused when it exists."""
    marker = root / f"built-{count}-{segments}.json"
    if marker.is_file():
        return root
    rng = random.Random(seed)
    data_dir = DataDir(root, Path(os.environ.get("VERBATIM_MODELS_DIR", root / "models")))
    with Library(data_dir) as library:
        store = library.store
        ids = [projects.add_project(store, name, exist_ok=True).id for name in PROJECTS]
        end = datetime.now().replace(microsecond=0)
        span = timedelta(days=3 * 365).total_seconds()
        batch = 500
        for first in range(0, count, batch):
            with store.transaction():
                for n in range(first, min(count, first + batch)):
                    spoken = end - timedelta(seconds=rng.uniform(0, span))
                    length = rng.uniform(20 * 60, 60 * 60)
                    rec = recordings.create_recording(
                        store,
                        project_id=rng.choice(ids),
                        spoken_at=spoken.isoformat(),
                        source="import",
                        status="indexed",
                        duration=length,
                        source_name=f"note-{n}.m4a",
                    )
                    step = length / segments
                    lines = [_sentence(rng) for _ in range(segments)]
                    recordings.append_segments(
                        store, rec, [SegmentIn(i * step, (i + 1) * step, t) for i, t in enumerate(lines)]
                    )
    marker.write_text(json.dumps({"recordings": count, "segments": segments}))
    return root


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choices(WORDS, k=14)).capitalize() + "."


def _sample(mode: str, data_dir: Path | None, env: dict[str, str]) -> dict[str, Any]:
    command = [sys.executable, "-m", "ui.dev.bench_start", "--mode", mode]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir)]
    spawned = time.time()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=180, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"the window did not start ({mode}): {done.stderr.strip()[-400:]}")
    result = json.loads(lines[-1])
    marks = result["marks"]
    result["interactive_s"] = marks["interactive"] - spawned
    result["shown_s"] = marks["window_shown"] - spawned
    return result


def _summary(samples: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "interactive_s_median": round(statistics.median(s["interactive_s"] for s in samples), 3),
        "interactive_s_max": round(max(s["interactive_s"] for s in samples), 3),
        "shown_s_median": round(statistics.median(s["shown_s"] for s in samples), 3),
        "loop_lag_ms_max": round(max(s["marks"]["loop_lag_ms_max"] for s in samples), 1),
        "peak_rss_mb_median": round(statistics.median(s["peak_rss_mb"] for s in samples), 1),
        "samples": len(samples),
    }


def _bench(args: argparse.Namespace, ctx: CliContext) -> int:
    work = Path(args.work_dir or Path(tempfile.gettempdir()) / "verbatim-bench-app-start")
    began = time.perf_counter()
    big = build_library(work / f"library-{args.recordings}", count=args.recordings, segments=args.segments)
    build_s = time.perf_counter() - began
    empty = work / "library-empty"
    empty.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    runs: dict[str, list[dict[str, Any]]] = {"bare": [], "empty": [], "full": []}
    for _ in range(args.repeat):  # interleaved, so machine noise hits every variant alike
        runs["bare"].append(_sample("bare", None, env))
        runs["empty"].append(_sample("app", empty, env))
        runs["full"].append(_sample("app", big, env))
    report = {
        "recordings": args.recordings,
        "segments_per_recording": args.segments,
        "database_mb": round((big / "verbatim.db").stat().st_size / 1e6, 1),
        "build_s": round(build_s, 1),
        "platform": env["QT_QPA_PLATFORM"],
        "timeline_recordings_loaded": runs["full"][-1].get("recordings_loaded"),
        "results": {name: _summary(samples) for name, samples in runs.items()},
    }
    if args.json:
        ctx.print_json(report)
        return 0
    size = report["database_mb"]
    ctx.print(f"{args.recordings:,} recordings ({size} MB database), {args.repeat} starts each:")
    labels = {
        "bare": "bare Qt window",
        "empty": "Verbatim, empty library",
        "full": f"Verbatim, {args.recordings:,} recordings",
    }
    for name, label in labels.items():
        s = report["results"][name]
        ctx.print(
            f"  {label:<34} interactive {s['interactive_s_median']:.2f} s (max {s['interactive_s_max']:.2f})"
            f"  shown {s['shown_s_median']:.2f} s  loop lag ≤ {s['loop_lag_ms_max']:.0f} ms"
            f"  peak RSS {s['peak_rss_mb_median']:.0f} MB"
        )
    return 0


def register(groups: CommandGroups) -> None:
    a = groups.bench.add_parser("app-start", help="time from launch to an interactive desktop window")
    a.add_argument("--recordings", type=int, default=10_000)
    a.add_argument("--segments", type=int, default=40, help="segments per synthetic recording")
    a.add_argument("--repeat", type=int, default=5)
    a.add_argument("--work-dir", help="where the synthetic libraries are built and kept")
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_bench)
