"""`verbatim bench all`: every benchmark in one run, each stage in a fresh process.

Each stage is `python -m bench.bench_stages STAGE` (or an existing `verbatim bench` command) in its own
process, so its peak resident memory (ru_maxrss of the stage and the children it waited for, from
wait4) and its CPU time are its own. Between stages nothing is shared but the cache of built
stores. Results: one JSON file per stage, summary.json, the generated block of benchmarks.md and
PNG plots, every one stating the machine, its load and the versions.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.paths import DataDir
from bench.bench_env import describe, load_average
from bench.bench_models import BENCH_WHISPER, WHISPER_SMALL
from models.catalogue import shipped_path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_EVAL = REPO.parent / "shared" / "eval"
DEFAULT_CACHE = Path.home() / ".cache" / "verbatim-bench"
Say = Callable[[str], None]


@dataclass
class Options:
    out: Path
    quick: bool = False
    eval_dir: Path = DEFAULT_EVAL
    cache: Path = DEFAULT_CACHE
    markdown: Path | None = None  # docs/benchmarks.md to update (None: out/benchmarks.md)
    only: list[str] = field(default_factory=list)


@dataclass
class Stage:
    name: str
    command: list[str]
    skipped: str = ""


def stages(options: Options) -> list[Stage]:
    """What runs, in order. --quick keeps every benchmark at tiny sizes and one Whisper model."""
    base = [sys.executable, "-m", "bench.bench_stages"]
    flags = ["--eval", str(options.eval_dir), "--cache", str(options.cache)] + (
        ["--quick"] if options.quick else []
    )
    found = []
    for label in BENCH_WHISPER:
        skipped = "--quick measures tiny.en only" if options.quick and label != "tiny.en" else ""
        found.append(Stage(f"transcription-{label}", [*base, f"transcription-{label}", *flags], skipped))
    for name in ("ingest", "search", "ask", "quality", "consolidation"):
        found.append(Stage(name, [*base, name, *flags]))
    recordings, repeat = ("300", "1") if options.quick else ("10000", "3")
    app_start = [sys.executable, "-m", "app.cli", "bench", "app-start", "--recordings", recordings]
    app_start += ["--repeat", repeat, "--work-dir", str(options.cache / "app-start"), "--json"]
    found.append(Stage("app-start", app_start))
    return found


def _stream(pipe: Any, tail: deque[str], name: str, say: Say) -> None:
    for raw in pipe:
        line = raw.decode("utf-8", "replace").rstrip()
        tail.append(line)
        say(f"[{name}] {line}")


def _first_json(text: str) -> Any:
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON on stdout")
    return json.JSONDecoder().raw_decode(text[start:])[0]


def run_stage(stage: Stage, say: Say) -> dict[str, Any]:
    """Run one stage in a fresh process; its result, wall and CPU time, peak RSS and the load."""
    record: dict[str, Any] = {"stage": stage.name, "command": stage.command[1:]}
    if stage.skipped:
        return {**record, "skipped": stage.skipped}
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    tail: deque[str] = deque(maxlen=30)
    record["started_at"] = _now()
    record["load_average_start"] = load_average()
    began = time.perf_counter()
    stdout = Path(os.environ.get("TMPDIR", "/tmp")) / f"verbatim-bench-{os.getpid()}-{stage.name}.out"
    with stdout.open("wb+") as out:
        proc = subprocess.Popen(stage.command, stdout=out, stderr=subprocess.PIPE, env=env, cwd=REPO)
        reader = threading.Thread(target=_stream, args=(proc.stderr, tail, stage.name, say), daemon=True)
        reader.start()
        _, status, usage = os.wait4(proc.pid, 0)  # the stage's own rusage, children included
        proc.returncode = os.waitstatus_to_exitcode(status)
        reader.join(timeout=5)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    stdout.unlink(missing_ok=True)
    record.update(
        wall_s=round(time.perf_counter() - began, 1),
        cpu_s=round(usage.ru_utime + usage.ru_stime, 1),
        peak_rss_mb=round(usage.ru_maxrss / 1024, 1),
        load_average_end=load_average(),
        exit_code=proc.returncode,
    )
    try:
        if proc.returncode != 0:
            raise ValueError(f"exit code {proc.returncode}")
        record["result"] = _first_json(text)
    except ValueError as exc:
        record["error"] = f"{exc}: " + " | ".join(list(tail)[-8:])
    return record


def _extra_models(models_dir: Path) -> dict[str, Path]:
    small = shipped_path(WHISPER_SMALL, models_dir)
    return {WHISPER_SMALL.name: small} if (small / "model.bin").is_file() else {}


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _earlier(out: Path, name: str) -> dict[str, Any] | None:
    """A stage's record from an earlier run into the same folder (for `--only`), marked as such."""
    path = out / f"{name}.json"
    if not path.is_file():
        return None
    record = dict(json.loads(path.read_text()))
    record["from_earlier_run"] = True
    return record


def run_all(options: Options, say: Say) -> dict[str, Any]:
    """Run the stages, then write the JSON files, the markdown block and the plots."""
    from bench.bench_markdown import update_markdown
    from bench.plots import write_plots

    options.out.mkdir(parents=True, exist_ok=True)
    options.cache.mkdir(parents=True, exist_ok=True)
    models_dir = DataDir.resolve().models_dir
    started = _now()
    env = describe(models_dir)
    began = time.perf_counter()
    results: dict[str, Any] = {}
    for stage in stages(options):
        if options.only and stage.name not in options.only:
            earlier = _earlier(options.out, stage.name)  # --only: the other stages' last results
            if earlier is not None:
                results[stage.name] = earlier
            continue
        say(f"== {stage.name}" + (f": skipped ({stage.skipped})" if stage.skipped else ""))
        record = run_stage(stage, say)
        results[stage.name] = record
        (options.out / f"{stage.name}.json").write_text(json.dumps(record, indent=2, default=str) + "\n")
        if "error" in record:
            say(f"== {stage.name} FAILED: {record['error']}")
    env["models_sha256"] = describe(models_dir, _extra_models(models_dir))["models_sha256"]
    summary = {
        "quick": options.quick,
        "started_at": started,
        "ended_at": _now(),
        "only": options.only,
        "seconds": round(time.perf_counter() - began, 1),
        "eval_dir": str(options.eval_dir),
        **env,
        "load_average_end": load_average(),
        "stages": {
            name: {
                k: r.get(k)
                for k in ("started_at", "wall_s", "cpu_s", "peak_rss_mb", "exit_code", "skipped", "error")
            }
            | ({"from_earlier_run": True} if r.get("from_earlier_run") else {})
            for name, r in results.items()
        },
    }
    (options.out / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    summary["plots"] = write_plots(results, summary, options.out)
    markdown = options.markdown or options.out / "benchmarks.md"
    update_markdown(markdown, results, summary, plots_dir=options.out)
    (options.out / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    return summary
