"""`verbatim bench ask`: where the time of an answer goes, on a large synthetic store.

The store is `bench search`'s (bench/evals/search_bench.py): N passages of reshuffled real text with
raw segments, over 12 projects and three years, with synthetic vectors. Each question (from the
evaluation sets' questions) is timed in phases, in one run, against its own baselines:
- retrieval: embedding the question with the real model, plus hybrid retrieval (BM25 + KNN, fused,
  recency) with a synthetic query vector of the store's kind (same cost as a real one);
- prompt building: question terms, passages (segments fetched, focused, widened), the relevance
  gate, and the model's messages and schema: everything between retrieval and the model;
- extractive answer (`--no-llm`): total time to a complete answer;
- the chat model: first token and total, on questions the gate found relevant passages for.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from app.ask import AskRequest, answer_hits
from app.library import Library
from app.paths import DataDir
from app.settings import Settings
from bench.evals.common import percentile
from bench.evals.search_bench import MODEL, Vectors, build_store, machine_facts, text_pool
from memory.search.fts import words
from memory.search.ranking import RankingOptions
from memory.search.retrieval import Query, Scope, retrieve
from models.catalogue import Role

Say = Callable[[str], None] | None
MODEL_QUESTIONS = 12  # the chat model costs seconds per question here


def _stats(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(percentile(values, 50), 1),
        "p95": round(percentile(values, 95), 1),
        "n": len(values),
    }


def _library(folder: Path, chunks: int, like: Library | None, say: Say) -> Library:
    """A library whose database is the synthetic store (built once, reused while unchanged)."""
    models = like.data_dir.models_dir if like else DataDir.resolve().models_dir
    data_dir = DataDir(folder.resolve(), models)
    data_dir.ensure()
    Settings(models=dict(like.settings.models) if like else {}).save(data_dir.settings_path)
    store, build_s, reused = build_store(data_dir.db_path, chunks, Vectors(), say)
    store.close()
    if say:
        say(f"store of {chunks:,} passages " + ("reused" if reused else f"built in {build_s:.0f} s"))
    return Library(data_dir)


def _questions(count: int) -> list[str]:
    _, texts = text_pool()
    rng = np.random.default_rng(17)
    picked = [texts[i] for i in rng.choice(len(texts), size=min(len(texts), count * 3), replace=False)]
    return [q for q in picked if words(q)][:count]


def _phases(
    library: Library, question: str, vector: np.ndarray, no_llm: bool, model: Path | None
) -> dict[str, Any]:
    embedder = library.models.embedder()
    started = time.perf_counter()
    embedder.embed([question])  # the real cost of a query embedding; the KNN uses `vector`
    query = Query(question, vector, MODEL, None, 10, "hybrid", RankingOptions())
    hits = retrieve(library.store, query, Scope())
    request = AskRequest(question, no_llm=no_llm, model_path=model)
    answer = answer_hits(library, request, hits, started=started)
    t = answer.timings
    return {
        "retrieve": t["retrieve_ms"],
        "prompt": t["prompt_ready_ms"] - t["retrieve_ms"],
        "retrieve_and_prompt": t["prompt_ready_ms"],
        "first_token": t["first_token_ms"],
        "total": t["total_ms"],
        "found": answer.answer_found,
        "mode": answer.mode,
    }


def run_ask_bench(
    *,
    like: Library | None = None,
    chunks: int = 100_000,
    questions: int = 20,
    model_path: Path | None = None,
    work_dir: Path | None = None,
    progress: Say = None,
) -> dict[str, Any]:
    folder = Path(work_dir) if work_dir else Path(tempfile.mkdtemp(prefix="verbatim-bench-ask-"))
    folder.mkdir(parents=True, exist_ok=True)
    machine = machine_facts()
    library = _library(folder / f"ask-{chunks}", chunks, like, progress)
    try:
        texts = _questions(questions)
        vectors = Vectors().make(0, len(texts), salt=1)
        library.models.embedder().embed(["warm up"])
        # The first two questions of a process also pay for starting up (the first is searched by
        # sqlite-vec, the second reads the sign bits into memory: memory/search/binary_index.py); the app
        # does that once a session, a CLI question every time. Reported apart from the percentiles.
        warm = [_phases(library, texts[i], vectors[i], True, None) for i in range(min(2, len(texts)))]
        first = max(warm, key=lambda row: row["total"])
        extractive = [_phases(library, q, vectors[i], True, None) for i, q in enumerate(texts)]
        found = [i for i, row in enumerate(extractive) if row["found"]]
        if progress:
            progress(f"{len(texts)} questions, {len(found)} with relevant passages; now the chat model")
        chat = library.models.chat(model_path)
        began = time.perf_counter()
        chat.load()
        load_ms = (time.perf_counter() - began) * 1000
        with_model = [
            _phases(library, texts[i], vectors[i], False, model_path) for i in found[:MODEL_QUESTIONS]
        ]
        model_name = chat.name if model_path else library.models.name_for(Role.CHAT)
    finally:
        library.close()
    return {
        "machine": machine,
        "chunks": chunks,
        "questions": len(texts),
        "found": len(found),
        "model": model_name,
        "model_load_ms": round(load_ms, 1),
        "first_question_ms": {k: round(first[k], 1) for k in ("retrieve", "prompt", "total")},
        "no_llm_ms": {
            k: _stats([r[k] for r in extractive])
            for k in ("retrieve", "prompt", "retrieve_and_prompt", "total")
        },
        "no_llm_found_ms": {"total": _stats([extractive[i]["total"] for i in found])},
        "model_ms": {
            k: _stats([r[k] for r in with_model]) for k in ("retrieve_and_prompt", "first_token", "total")
        },
        "model_answers": sum(1 for r in with_model if r["mode"] == "model"),
    }


def format_bench(report: dict[str, Any]) -> list[str]:
    m = report["machine"]
    lines = [
        f"{report['chunks']:,} passages, {report['questions']} questions"
        f" ({report['found']} with relevant passages); {m['cores']} cores,"
        f" load {m['load_average_at_start']:.1f}",
        "",
        "--no-llm (ms, p50 / p95):",
    ]
    for name, v in report["no_llm_ms"].items():
        lines.append(f"  {name:<22} {v['p50']:>9.1f} / {v['p95']:.1f}")
    lines.append(
        f"  {'total (found only)':<22} {report['no_llm_found_ms']['total']['p50']:>9.1f}"
        f" / {report['no_llm_found_ms']['total']['p95']:.1f}"
    )
    lines += ["", f"{report['model']} (loaded once in {report['model_load_ms']:.0f} ms; ms, p50 / p95):"]
    for name, v in report["model_ms"].items():
        lines.append(f"  {name:<22} {v['p50']:>9.1f} / {v['p95']:.1f}   (n={v['n']})")
    lines.append(
        f"  answers with a model claim: {report['model_answers']} of {report['model_ms']['total']['n']}"
    )
    return lines
