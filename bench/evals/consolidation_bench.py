"""`verbatim bench consolidation`: how long consolidating a long note takes, stage by stage.

A fresh library holds a scenario set's notes (the other projects a long note is compared with)
and one long note of about `minutes` minutes (150 spoken words a minute) cut from a long meeting
transcript of another set. The long note is imported and indexed the normal way, then
consolidated twice from scratch: rules only (the baseline) and with the chat model (the default
one, or `model_path`), in the same run.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from app.consolidation.service import consolidate_recording
from app.ingest.imports import import_corpus
from app.library import Library
from app.paths import DataDir
from app.settings import Settings
from memory.consolidate import state
from models.catalogue import Role
from models.errors import InputError

WORDS_PER_MINUTE = 150


def long_note(source: Path, minutes: float, target: Path) -> dict[str, Any]:
    """The longest recording of `source` (a corpus), cut to `minutes` of speech, as a one-line corpus."""
    items = [json.loads(line) for line in source.read_text("utf-8").splitlines() if line.strip()]
    if not items:
        raise InputError(f"{source} holds no recordings")
    longest = max(items, key=lambda r: sum(len(s["text"].split()) for s in r["segments"]))
    wanted, words, segments = minutes * WORDS_PER_MINUTE, 0, []
    for seg in longest["segments"]:
        if words >= wanted:
            break
        segments.append({**seg, "id": f"long:{seg['id']}"})
        words += len(seg["text"].split())
    note = {
        "id": "bench:long-note",
        "project": "Long note",
        "title": f"{minutes:.0f} minutes from {longest['id']}",
        "spoken_at": "2026-06-01T09:00:00",
        "segments": segments,
    }
    target.write_text(json.dumps(note) + "\n", "utf-8")
    return {
        "source": longest["id"],
        "words": words,
        "segments": len(segments),
        "seconds": segments[-1]["end"],
    }


def run_bench(
    *, like: Library, set_dir: Path, long_source: Path, minutes: float, model_path: Path | None = None
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="verbatim-bench-consolidation-") as tmp:
        root = Path(tmp)
        data_dir = DataDir(root / "library", like.data_dir.models_dir)
        data_dir.ensure()
        Settings(models=dict(like.settings.models)).save(data_dir.settings_path)
        library = Library(data_dir)
        try:
            began = time.perf_counter()
            import_corpus(library, set_dir / "corpus.jsonl")
            for rid in state.pending_recordings(library.store):
                consolidate_recording(library, rid, use_model=False)
            described = long_note(long_source, minutes, root / "long.jsonl")
            [result] = import_corpus(library, root / "long.jsonl")
            if result.recording_id is None:
                raise InputError(f"the long note failed to import: {result.message}")
            described["import_and_index_seconds"] = round(time.perf_counter() - began, 2)
            runs = {}
            for label, use_model in (("rules", False), ("model", True)):
                state.reset(library.store, result.recording_id)
                report = consolidate_recording(
                    library, result.recording_id, use_model=use_model, model_path=model_path
                )
                runs[label] = report.to_json()
            model = model_path.name if model_path else library.models.name_for(Role.CHAT)
        finally:
            library.close()
    return {"long_note": described, "model": model, "runs": runs}


def format_bench(report: dict[str, Any]) -> list[str]:
    note = report["long_note"]
    rules, model = report["runs"]["rules"], report["runs"]["model"]
    lines = [
        f"long note: {note['words']} words, {note['segments']} segments, {note['seconds'] / 60:.1f} min"
        f" (from {note['source']}); imported and indexed with the set in"
        f" {note['import_and_index_seconds']} s",
        f"{'stage':<14}{'rules only':>12}{'with ' + report['model']:>40}",
    ]
    for stage, seconds in model["stage_seconds"].items():
        lines.append(f"{stage:<14}{rules['stage_seconds'].get(stage, 0):>11.1f}s{seconds:>39.1f}s")
    lines.append(f"{'total':<14}{rules['seconds']:>11.1f}s{model['seconds']:>39.1f}s")
    lines.append(
        f"facts {rules['facts']} (+{model['model_facts']} from the model, {model['model_calls']} calls),"
        f" corrections {model['corrections']}, stretches {model['stretches']},"
        f" connections {model['connections']}"
    )
    return lines
