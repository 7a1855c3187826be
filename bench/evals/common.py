"""Shared parts of the built-in evaluations: evaluation sets, a fresh library built from a set's
corpus through the normal import path, the context-budget walk, and small statistics.

The retrieval, ask and consolidation evaluations all use these, so "recall within 400 words" or
"ingest time" mean the same thing in each of them.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import app.consolidation as consolidation_code
import memory.consolidate as layers_code
import memory.text as text_code
from app.consolidation.service import consolidate
from app.ingest.imports import import_corpus
from app.ingest.indexing import index_pending
from app.library import Library
from app.paths import DataDir
from app.settings import Settings
from memory.search.chunking import count_words
from memory.search.hits import Hit
from memory.search.index import recordings_summary
from models.errors import InputError

BUDGETS = (400, 1000)  # words of context


def jsonl_rows(path: Path, *, fix: str = "") -> Iterator[tuple[int, Any]]:
    """(line number, the line's JSON) for every non-blank line of a JSON-lines file; a line that
    is not JSON stops with its file and line named."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, json.loads(line)
            except ValueError as exc:
                raise InputError(f"{path}:{number} is not JSON ({exc})", fix=fix) from exc


@dataclass(frozen=True)
class EvalQuery:
    id: str
    question: str
    evidence: tuple[str, ...]  # external segment ids
    answerable: bool
    category: str
    project: str | None
    asked_at: str | None
    answer: str = ""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class EvalSet:
    name: str
    path: Path

    @classmethod
    def open(cls, path: Path | str) -> EvalSet:
        folder = Path(path).expanduser()
        if not (folder / "corpus.jsonl").is_file() or not (folder / "queries.jsonl").is_file():
            raise InputError(
                f"{folder} is not an evaluation set",
                fix="it needs corpus.jsonl and queries.jsonl (see eval README)",
            )
        return cls(folder.resolve().name, folder.resolve())

    @property
    def corpus(self) -> Path:
        return self.path / "corpus.jsonl"

    def corpus_sha256(self) -> str:
        return hashlib.sha256(self.corpus.read_bytes()).hexdigest()

    def queries(self) -> list[EvalQuery]:
        found = []
        with (self.path / "queries.jsonl").open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    raw = json.loads(line)
                    found.append(
                        EvalQuery(
                            id=str(raw["id"]),
                            question=str(raw["question"]),
                            evidence=tuple(str(e) for e in raw.get("evidence") or ()),
                            answerable=bool(raw.get("answerable", True)),
                            category=str(raw.get("category", "all")),
                            project=raw.get("project"),
                            asked_at=raw.get("asked_at"),
                            answer=str(raw.get("answer") or ""),
                            raw=raw,
                        )
                    )
                except (ValueError, KeyError, TypeError) as exc:
                    raise InputError(f"queries.jsonl line {number} is not a query: {exc}") from exc
        return found


@dataclass
class BuiltLibrary:
    library: Library
    ingest_seconds: float
    recordings: int
    reused: bool


# What a consolidated store's layers (facts, corrections, connections, commitments) are read by: a
# kept store consolidated by other code than this is built again, else a change to consolidation
# would be measured on the layers the code before it wrote (consolidation only reads recordings
# not yet consolidated).
CONSOLIDATION_CODE = tuple(
    Path(str(package.__file__)).parent for package in (consolidation_code, text_code, layers_code)
)


def code_digest(roots: Sequence[Path]) -> str:
    """A digest of every file under `roots` (their names and bytes), caches left out."""
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def _marker(eval_set: EvalSet, source: Library | None, consolidated: bool) -> dict[str, str]:
    embedding = source.models.embedding_model_name() if source else ""
    marker = {"corpus_sha256": eval_set.corpus_sha256(), "embedding_model": embedding}
    if consolidated:
        marker["consolidation_code"] = code_digest(CONSOLIDATION_CODE)
    return marker


@contextmanager
def temporary_library(
    eval_set: EvalSet, *, like: Library | None = None, keep: Path | None = None, consolidated: bool = False
) -> Iterator[BuiltLibrary]:
    """A fresh library holding the set's corpus, imported (and indexed) the way a user imports.

    `consolidated`: then consolidated as the app does after an import, in the background (rules
    only here: deterministic and fast), so search follows its cross-project connections.

    It shares the models folder and the model and recency settings of `like` (the user's
    library). With `keep`, the library is built in that folder and reused by later runs while
    the corpus and embedding model are unchanged, and, when `consolidated`, the consolidation code
    too (ranking changes can then be measured quickly; a change to consolidation builds it again).
    """
    root = Path(keep) if keep else Path(tempfile.mkdtemp(prefix=f"verbatim-eval-{eval_set.name}-"))
    models_dir = like.data_dir.models_dir if like else DataDir.resolve().models_dir
    marker_path = root / "eval-set.json"
    marker = _marker(eval_set, like, consolidated)
    reuse = keep is not None and marker_path.is_file() and json.loads(marker_path.read_text()) == marker
    if keep is not None and not reuse and root.exists():
        shutil.rmtree(root)
    data_dir = DataDir(root.resolve(), models_dir)
    data_dir.ensure()
    settings = Settings(
        models=dict(like.settings.models) if like else {},
        recency_lambda_per_day=like.settings.recency_lambda_per_day
        if like
        else Settings().recency_lambda_per_day,
    )
    settings.save(data_dir.settings_path)
    library = Library(data_dir)
    try:
        began = time.perf_counter()
        count = 0
        if not reuse:
            results = import_corpus(library, eval_set.corpus)
            failed = [r for r in results if r.status == "failed"]
            if failed:
                raise InputError(
                    f"{len(failed)} recordings of {eval_set.name} failed to import: {failed[0].message}"
                )
            count = len(results)
            marker_path.write_text(json.dumps(marker))
        else:
            # A kept store may predate this version's index (new migrations, segment vectors).
            index_pending(library)
            count = recordings_summary(library.store)[0]
        ingest_seconds = time.perf_counter() - began
        if consolidated:
            consolidate(library, use_model=False)
        yield BuiltLibrary(library, ingest_seconds, count, reuse)
    finally:
        library.close()
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)


def budget_walk(
    hits: Sequence[Hit], budget_words: int, words: Callable[[Hit], int] | None = None
) -> list[Hit]:
    """Whole passages in rank order until the next would pass the budget; always at least one."""
    measure = words or (lambda h: count_words(h.text))
    chosen: list[Hit] = []
    used = 0
    for hit in hits:
        size = measure(hit)
        if chosen and used + size > budget_words:
            break
        chosen.append(hit)
        used += size
    return chosen


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), linear between closest ranks; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
