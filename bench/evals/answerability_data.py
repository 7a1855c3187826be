"""Examples for the answerability model (memory/answer/answerability.py): each question of a set,
asked of the whole set and of two halves of it, with the features the answer computed and whether
the library it was asked of holds the notes that answer it.

Unanswerable examples are made the standard way: a question whose evidence lies wholly in the other
half of the notes cannot be answered by this half's library. A question whose evidence is split
between the halves is left out of both halves (it is partly answerable). Questions the set marks
unanswerable are unanswerable everywhere. The halves are fixed by a hash of each recording's id.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from app.ask import AskRequest, ask
from app.library import Library
from bench.evals.common import EvalQuery, EvalSet, temporary_library
from memory.answer.answerability import FEATURES

# Sets whose licence lets the product ship what is learned from them (LoCoMo, CC BY-NC: measured only).
LICENSED = (
    "qmsum-dev",
    "consultant-dev",
    "consultant-dev-2",
    # written for this project (bench/scenarios), so ours to train on
    "supply-chain-advisor",
    "event-operations",
    "charity-fundraising",
    "hr-org-design",
    "construction-facilities",
    "it-security-procurement",
    "data-platform-cloud-cost",
    "operations-procurement-dublin",
    "operations-strategy-melbourne",
)
PARTS = ("all", "half-a", "half-b")
Progress = Callable[[str], None]


@dataclass(frozen=True)
class Example:
    set: str
    part: str  # "all", "half-a", "half-b"
    query: str
    category: str
    answerable: bool
    features: dict[str, float]

    def vector(self) -> list[float]:
        return [self.features.get(name, 0.0) for name in FEATURES]

    def to_json(self) -> dict[str, object]:
        return {
            "set": self.set,
            "part": self.part,
            "query": self.query,
            "category": self.category,
            "answerable": self.answerable,
            "features": self.features,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Example:
        return cls(
            str(data["set"]),
            str(data["part"]),
            str(data["query"]),
            str(data["category"]),
            bool(data["answerable"]),
            {str(k): float(v) for k, v in dict(data["features"]).items()},  # type: ignore[call-overload]
        )


def half_of(recording_id: str) -> str:
    return "half-a" if hashlib.sha256(recording_id.encode()).digest()[0] % 2 == 0 else "half-b"


def _corpus_lines(eval_set: EvalSet) -> list[dict[str, object]]:
    with eval_set.corpus.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _segment_recordings(lines: list[dict[str, object]]) -> dict[str, str]:
    return {str(s["id"]): str(r["id"]) for r in lines for s in r.get("segments", [])}  # type: ignore[attr-defined]


def label(query: EvalQuery, part: str, where: dict[str, str]) -> bool | None:
    """Whether `part` of the set answers `query`; None when only part of its evidence is there."""
    if not query.answerable:
        return False
    if part == "all":
        return True
    halves = {half_of(where[e]) for e in query.evidence if e in where}
    if not halves:
        return None  # no evidence to place: cannot tell
    if halves == {part}:
        return True
    return None if part in halves else False


@contextmanager
def part_set(eval_set: EvalSet, part: str, work: Path) -> Iterator[EvalSet]:
    """The set itself, or a copy holding only one half of its recordings (same queries)."""
    if part == "all":
        yield eval_set
        return
    folder = work / f"{eval_set.name}-{part}"
    folder.mkdir(parents=True, exist_ok=True)
    kept = [line for line in _corpus_lines(eval_set) if half_of(str(line["id"])) == part]
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in kept)
    corpus = folder / "corpus.jsonl"
    if not corpus.is_file() or corpus.read_text(encoding="utf-8") != text:
        corpus.write_text(text, encoding="utf-8")
    (folder / "queries.jsonl").write_bytes((eval_set.path / "queries.jsonl").read_bytes())
    yield EvalSet(eval_set.name, folder.resolve())


def collect(
    set_dir: Path,
    *,
    like: Library | None = None,
    keep: Path | None = None,
    progress: Progress | None = None,
) -> list[Example]:
    """Every (question, part) example of one set, with its features (answers without the model)."""
    eval_set = EvalSet.open(set_dir)
    where = _segment_recordings(_corpus_lines(eval_set))
    queries = eval_set.queries()
    examples: list[Example] = []
    work = keep or Path(tempfile.mkdtemp(prefix="verbatim-answerability-"))
    for part in PARTS:
        labels = {q.id: label(q, part, where) for q in queries}
        if progress is not None:
            progress(f"{eval_set.name} {part}: building the library")
        with (
            part_set(eval_set, part, work) as subset,
            temporary_library(
                subset, like=like, keep=work / f"store-{eval_set.name}-{part}", consolidated=True
            ) as built,
        ):
            for q in queries:
                answerable = labels[q.id]
                if answerable is None:
                    continue
                request = AskRequest(q.question, as_of=q.asked_at, no_llm=True)
                answer = ask(built.library, request)
                examples.append(
                    Example(eval_set.name, part, q.id, q.category, answerable, dict(answer.features))
                )
    return examples


def load_examples(path: Path) -> list[Example]:
    with path.open(encoding="utf-8") as handle:
        return [Example.from_json(json.loads(line)) for line in handle if line.strip()]


def save_examples(examples: list[Example], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(e.to_json()) + "\n" for e in examples), encoding="utf-8")
