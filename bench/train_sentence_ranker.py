"""Train the sentence ranker the product ships (memory/answer/sentence_ranker.json).

    python -m bench.train_sentence_ranker [--sets DIR ...] [--work DIR] [--out FILE] [--cross]

Each answerable question of a licensed development set (the consultant sets: ours; QMSum: MIT) is
asked of its whole library without the model and without a ranker; every sentence of the passages
the relevance gate kept (the ranker's candidates in the product) becomes an example, labelled by
the set's gold evidence (the sentence's raw segments hold an evidence segment). A class-balanced
logistic regression on standardised features is fitted on them. LoCoMo (CC BY-NC) may be given
with `--cross` to be measured, never trained on.

`--cross`: leave one set out. For each set, the ranker is fitted on the OTHER licensed sets and
measured on the left-out one: of the questions whose relevant passages hold an evidence sentence,
the share whose first stated line is one (the word-coverage choice of today against the ranker's).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.ask import AskRequest, ask
from bench.evals.answerability_data import LICENSED
from bench.evals.common import EvalSet, mean, temporary_library
from bench.logistic_fit import fit_standardised
from memory.answer.answers import best_sentence
from memory.answer.claims import sentences
from memory.answer.sentence_ranker import FEATURES, WEIGHTS_FILE, SentenceRanker, sentence_features
from memory.search.index import external_segment_ids
from memory.text.relevance import load_question_terms

REPO = Path(__file__).resolve().parents[1]
EVAL_DIR = REPO.parent / "shared" / "eval"
Say = Callable[[str], None]


@dataclass(frozen=True)
class SentenceExample:
    set: str
    query: str
    passage: int  # the passage's number in the answer
    relevant: bool  # the relevance gate kept the passage
    support: float  # the passage's support score (the order extractive answers use without a ranker)
    rank: int
    index: int  # the sentence's place in the passage
    sentence: str
    evidence: bool  # the sentence's segments hold a gold evidence segment
    word_choice: bool  # the sentence word coverage chooses for its passage (best_sentence)
    features: dict[str, float]

    def vector(self) -> list[float]:
        return [self.features.get(n, 0.0) for n in FEATURES]


def collect(set_dir: Path, work: Path, say: Say | None = None) -> list[SentenceExample]:
    """Every sentence of every passage shown for the set's answerable questions, labelled."""
    eval_set = EvalSet.open(set_dir)
    out: list[SentenceExample] = []
    if say is not None:
        say(f"{eval_set.name}: building the library and asking")
    with temporary_library(eval_set, keep=work / f"store-{eval_set.name}-all", consolidated=True) as built:
        store = built.library.store
        external = external_segment_ids(store)
        for q in eval_set.queries():
            if not q.answerable or not q.evidence:
                continue
            request = AskRequest(q.question, as_of=q.asked_at, no_llm=True, use_sentence_ranker=False)
            answer = ask(built.library, request)
            terms = load_question_terms(store, q.question)
            evidence = set(q.evidence)
            shown = [p for p in answer.passages if p.relevant and p.segments]
            candidates = [(p, sentences(p.text) or [p.text]) for p in shown]
            for (p, options), rows in zip(candidates, sentence_features(terms, candidates), strict=True):
                source = p.source()
                word_choice = best_sentence(terms, options)
                for i, (sentence, values) in enumerate(zip(options, rows, strict=True)):
                    span = source.find(sentence, min_words=1)
                    ids = {external.get(s) for s in span.segment_ids} if span is not None else set()
                    out.append(
                        SentenceExample(
                            eval_set.name,
                            q.id,
                            p.number,
                            p.relevant,
                            p.support.score,
                            p.rank,
                            i,
                            sentence,
                            bool(evidence & ids),
                            sentence == word_choice,
                            values,
                        )
                    )
    return out


def examples_for(set_dir: Path, work: Path, say: Say | None = None) -> list[SentenceExample]:
    """A set's examples, collected once and kept in `work`."""
    cached = work / f"sentences-{set_dir.resolve().name}.jsonl"
    if cached.is_file():
        with cached.open(encoding="utf-8") as handle:
            return [SentenceExample(**json.loads(line)) for line in handle if line.strip()]
    found = collect(set_dir, work, say)
    work.mkdir(parents=True, exist_ok=True)
    cached.write_text("".join(json.dumps(e.__dict__) + "\n" for e in found), encoding="utf-8")
    return found


def fit(examples: Sequence[SentenceExample]) -> SentenceRanker:
    x = np.asarray([e.vector() for e in examples], dtype=float)
    y = np.asarray([e.evidence for e in examples], dtype=bool)
    return fit_standardised(SentenceRanker, FEATURES, x, y, trained_on=[e.set for e in examples])


def first_lines(examples: Sequence[SentenceExample], ranker: SentenceRanker | None) -> dict[str, bool]:
    """Per question whose relevant passages hold an evidence sentence: whether the first stated
    line of the extractive answer is one (with the ranker, or today's word coverage)."""
    by_query: dict[str, list[SentenceExample]] = defaultdict(list)
    for e in examples:
        if e.relevant:
            by_query[e.query].append(e)
    out: dict[str, bool] = {}
    for query, rows in by_query.items():
        if not any(r.evidence for r in rows):
            continue
        if ranker is not None:
            best = max(rows, key=lambda r: (ranker.probability(r.features), -r.rank, -r.index))
        else:
            top = min(rows, key=lambda r: (-r.support, r.rank)).passage
            chosen = next((r for r in rows if r.passage == top and r.word_choice), None)
            if chosen is None:
                continue
            best = chosen
        out[query] = best.evidence
    return out


def cross(sets: Sequence[Path], work: Path, say: Say | None) -> dict[str, object]:
    examples = {s.resolve().name: examples_for(s, work, say) for s in sets}
    folds = []
    for held, rows in examples.items():
        train = [e for name, xs in examples.items() if name != held and name in LICENSED for e in xs]
        if not train:
            continue
        ranker = fit(train)
        before = first_lines(rows, None)
        after = first_lines(rows, ranker)
        folds.append(
            {
                "held_out": held,
                "trained_on": list(ranker.trained_on),
                "questions": len(before),
                "first_line_evidence_before": round(mean([float(v) for v in before.values()]), 4),
                "first_line_evidence_after": round(mean([float(v) for v in after.values()]), 4),
            }
        )
    return {"folds": folds}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.train_sentence_ranker", description=__doc__)
    parser.add_argument("--sets", nargs="+", type=Path, default=[EVAL_DIR / name for name in LICENSED])
    parser.add_argument("--work", type=Path, default=Path("/tmp/verbatim-sentence-ranker"))
    parser.add_argument("--out", type=Path, default=REPO / "memory" / "answer" / WEIGHTS_FILE)
    parser.add_argument("--cross", action="store_true", help="leave one set out; write no weights")
    args = parser.parse_args(argv)
    say: Say = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    if args.cross:
        print(json.dumps(cross(args.sets, args.work, say), indent=2))
        return 0
    refused = [s.name for s in args.sets if s.resolve().name not in LICENSED]
    if refused:
        print(f"not trained on {refused}: their licence does not let the product ship it", file=sys.stderr)
        return 2
    examples = [e for s in args.sets for e in examples_for(s, args.work, say)]
    ranker = fit(examples)
    args.out.write_text(json.dumps(ranker.to_json(), indent=2) + "\n")
    positives = sum(e.evidence for e in examples)
    trained = ", ".join(ranker.trained_on)
    print(f"{len(examples)} sentences ({positives} evidence) from {trained}; written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
