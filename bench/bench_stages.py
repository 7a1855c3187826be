"""The stages of `verbatim bench all`, each run in its own process so its peak memory is its own.

`python -m bench.bench_stages STAGE [--quick] [--eval DIR] [--cache DIR]` prints one JSON document
on stdout (progress goes to stderr). Every stage calls the existing benchmark and evaluation code
(bench/transcription_bench.py, app/evals/*); this module only picks sizes for a full or a quick run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from app.library import Library
from app.paths import DataDir
from bench.bench_ingest import record_to_searchable, transcript_import
from bench.bench_models import bench_model
from models.catalogue import Role


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _models_dir() -> Path:
    return DataDir.resolve().models_dir


def transcription(label: str, eval_dir: Path, quick: bool) -> dict[str, Any]:
    """One Whisper model through the product pipeline and bare faster-whisper, on speech-dev."""
    from bench.transcription_bench import compare

    manifest = eval_dir / "speech-dev" / "manifest.tsv"
    if not manifest.is_file():
        return {"model": label, "skipped": f"no speech manifest at {manifest}"}
    model = bench_model(label, _models_dir())
    if model.path is None or model.skipped:
        return {"model": label, "skipped": model.skipped}
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-all-") as tmp:
        library = Library(DataDir(Path(tmp), models_override=_models_dir()))
        library.settings.models[Role.TRANSCRIPTION.value] = str(model.path)
        try:
            # quick: the short files only (the JFK clip and LibriSpeech utterances)
            report = compare(library, manifest, 1, say, max_seconds=12.0 if quick else None)
        finally:
            library.close()
    s = report.summary
    s["model"] = label
    s["rtf_bare"] = s["bare_best_s"] / s["audio_seconds"]
    s["rtf_product"] = s["product_best_s"] / s["audio_seconds"]
    # end-to-end ingest (import, transcribe, chunk, embed, index): hours of audio per hour
    s["ingest_audio_hours_per_hour"] = s["speed_product"]
    s["ingest_audio_hours_per_cpu_hour"] = s["audio_seconds"] / s["product_best_cpu_s"]
    return report.to_json()


def search(cache: Path, quick: bool) -> dict[str, Any]:
    """p50/p95 of each search mode at growing store sizes, with recall of the quantised passes."""
    from bench.evals import search_bench as sb
    from memory.search.fts import words

    sizes = {2_000: 20} if quick else {10_000: 100, 100_000: 100, 1_000_000: 40}
    folder = cache / "search"
    folder.mkdir(parents=True, exist_ok=True)
    vectors = sb.Vectors()
    _, texts = sb.text_pool()
    rng = np.random.default_rng(9)
    picked = [texts[i] for i in rng.choice(len(texts), size=min(200, len(texts)), replace=False)]
    queries = [q for q in picked if words(q)]
    report: dict[str, Any] = {
        "numpy_blas_single_thread": sb.blas_single_thread(),
        "vectors": sb.__doc__,
        "runs": [],
    }
    for n, count in sizes.items():
        path = folder / f"bench-{n}.db"
        say(f"search: store of {n:,} passages in {folder}")
        store, build_s, reused = sb.build_store(path, n, vectors, say)
        try:
            load = os.getloadavg()[0]
            run = sb.measure(store, n, queries[:count], vectors, say)
        finally:
            store.close()
        run.update(
            build_s=round(build_s, 1),
            reused_store=reused,
            db_mb=round(path.stat().st_size / 1e6, 1),
            queries=len(queries[:count]),
            load_average=[load, os.getloadavg()[0]],
        )
        report["runs"].append(run)
        for line in sb.format_run(run):
            say(line)
    return report


def ask(cache: Path, quick: bool) -> dict[str, Any]:
    from bench.evals.ask_bench import run_ask_bench

    chunks, questions = (2_000, 2) if quick else (100_000, 30)
    _reuse_search_store(cache, chunks)
    return run_ask_bench(chunks=chunks, questions=questions, work_dir=cache / "ask", progress=say)


def _reuse_search_store(cache: Path, chunks: int) -> None:
    """The ask bench's store is built by the same function with the same parameters as the search
    bench's: copy a cached one (with its marker) rather than build it again."""
    source = cache / "search" / f"bench-{chunks}.db"
    target = cache / "ask" / f"ask-{chunks}" / "verbatim.db"
    wal = source.with_name(source.name + "-wal")
    if target.exists() or not source.is_file() or not source.with_suffix(".json").is_file() or wal.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source.with_suffix(".json"), target.with_suffix(".json"))
    shutil.copyfile(source, target)


def quality(eval_dir: Path, quick: bool) -> dict[str, Any]:
    """`eval retrieval` and `eval ask` on the dev sets (fewer questions with --quick)."""
    from bench.evals.ask_eval import evaluate_ask
    from bench.evals.retrieval_eval import evaluate_retrieval

    retrieval_sets = ["consultant-dev"] if quick else ["consultant-dev", "locomo-dev", "qmsum-dev"]
    # (set, question limit, extractive only)
    ask_runs = (
        [("consultant-dev", 5, True)]
        if quick
        else [("consultant-dev", None, True), ("locomo-dev", 60, True), ("consultant-dev", None, False)]
    )
    report: dict[str, Any] = {"retrieval": {}, "ask": [], "skipped": []}
    for name in retrieval_sets:
        if not (eval_dir / name / "corpus.jsonl").is_file():
            report["skipped"].append(f"{name}: absent from {eval_dir}")
            continue
        say(f"quality: eval retrieval {name}")
        report["retrieval"][name] = evaluate_retrieval(eval_dir / name)
    for name, limit, no_llm in ask_runs:
        if not (eval_dir / name / "corpus.jsonl").is_file():
            continue
        say(f"quality: eval ask {name} ({'--no-llm' if no_llm else 'default model'}, limit {limit})")
        began = time.perf_counter()
        result = evaluate_ask(eval_dir / name, limit=limit, no_llm=no_llm)
        result["limit"] = limit
        result["seconds"] = round(time.perf_counter() - began, 1)
        report["ask"].append(result)
    return report


def consolidation(eval_dir: Path, quick: bool) -> dict[str, Any]:
    from bench.evals.consolidation_bench import run_bench

    set_dir, source = eval_dir / "consultant-dev", eval_dir / "qmsum-dev" / "corpus.jsonl"
    if not (set_dir / "corpus.jsonl").is_file() or not source.is_file():
        return {"skipped": f"needs consultant-dev and qmsum-dev in {eval_dir}"}
    with Library(DataDir.resolve()) as like:
        return run_bench(like=like, set_dir=set_dir, long_source=source, minutes=2.0 if quick else 5.0)


def ingest(eval_dir: Path, quick: bool) -> dict[str, Any]:
    corpus = eval_dir / ("consultant-dev" if quick else "locomo-dev") / "corpus.jsonl"
    speech = eval_dir / "speech-dev" / "audio" / "asterisk_en_dev_16k.flac"
    report: dict[str, Any] = {}
    report["transcript_import"] = (
        transcript_import(corpus, _models_dir()) if corpus.is_file() else {"skipped": f"no {corpus}"}
    )
    report["record_to_searchable"] = (
        record_to_searchable(speech, _models_dir(), 5.0 if quick else 45.0, say)
        if speech.is_file()
        else {"skipped": f"no {speech}"}
    )
    return report


def run_stage(name: str, eval_dir: Path, cache: Path, quick: bool) -> dict[str, Any]:
    if name.startswith("transcription-"):
        return transcription(name.removeprefix("transcription-"), eval_dir, quick)
    stages = {
        "ingest": lambda: ingest(eval_dir, quick),
        "search": lambda: search(cache, quick),
        "ask": lambda: ask(cache, quick),
        "quality": lambda: quality(eval_dir, quick),
        "consolidation": lambda: consolidation(eval_dir, quick),
    }
    return stages[name]()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_stages")
    parser.add_argument("stage")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--eval", required=True)
    parser.add_argument("--cache", required=True)
    args = parser.parse_args(argv)
    result = run_stage(args.stage, Path(args.eval), Path(args.cache), args.quick)
    print(json.dumps(result, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
