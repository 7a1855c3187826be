"""Can the notes answer this question? A small learned, calibrated decision over what retrieval found.

The word-overlap gate (memory/answer/relevance_gate.py, `judge_passages`) says which passages speak to a
question; whether the question is *answered* is decided here, by a logistic regression over a few
features of the question and its best passages: how much of the question's words and names the
best window covers, how many passages the gate kept, the retrieval scores and their gap, and
whether the best passage holds the **kind of thing that answers** (a "when" question needs a date
or time, "who" a person or organisation, "how much/many" a number or amount, "where" a place),
found with spaCy's entity types (rules for German text, which has no spaCy model here).

The weights are a small JSON file beside this module, rebuilt by `python -m bench.train_answerability`
from the licensed development sets (QMSum: MIT; the consultant sets: ours; LoCoMo is only measured),
with unanswerable examples made the standard way: each set's questions asked of a library that
lacks the notes that answer them. Without the file the gate's decision stands.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.answer.asked_kind import kind_in, question_kind
from memory.answer.context import ContextPassage
from memory.logistic import StandardisedLogistic, shipped
from memory.search.hits import Hit
from memory.store.clock import parse_time
from memory.text.doc import split_sentences
from memory.text.relevance import (
    QuestionTerms,
    content_words,
    coverage,
    said_stems,
)
from memory.text.stems import stem, text_language

WEIGHTS_FILE = "answerability.json"
TOP = 5  # passages looked at (the gate's max_rank)

FEATURES = (
    "coverage",  # the best passage's weighted share of the question's content words (one window)
    "names",  # ... and the share of the question's names and numbers found around it
    "coverage_second",  # the second-best passage's coverage (an answer usually shows up twice)
    "relevant",  # passages the gate kept, log1p
    "best_rank",  # the retriever's rank of the best-covering passage, log1p
    "score_gap",  # (first - second) / first of the retrieval scores
    "cosine",  # the best passage's cosine to the question (0 without vectors)
    "keyword_top",  # the best passage came from the keyword side's first three
    "asks_kind",  # the question says what kind of thing answers it
    "kind_found",  # ... and the best passage holds one that the question did not give
    "sentence_coverage",  # the best single sentence's weighted share of the question's content words
    "sentence_pairs",  # share of the question's consecutive content-word pairs found in that sentence
    "sentence_kind",  # that sentence holds the kind of thing that answers
    "rarest_found",  # the question's rarest content word is in the best passage
    "question_words",  # content words of the question, log1p
    "question_names",  # names and numbers in the question, log1p
    "age",  # the best passage's age in days when asked, log1p
)


def _pairs(words: Sequence[str]) -> set[tuple[str, str]]:
    return set(itertools.pairwise(words))


def _best_sentence(terms: QuestionTerms, passages: Sequence[ContextPassage]) -> tuple[str, float, float]:
    """The sentence of these passages that covers the question's words best: (text, coverage,
    share of the question's word pairs it holds in order)."""
    language = text_language(terms.raw)
    asked = [stem(w, language) for w in terms.words]
    wanted = _pairs(asked)
    best = ("", 0.0, 0.0)
    for p in passages:
        for sentence in split_sentences(p.text):
            found = coverage(terms, said_stems(sentence)).coverage
            if found <= best[1]:
                continue
            said = _pairs([stem(w, language) for w in content_words(sentence)])
            best = (sentence, found, len(wanted & said) / len(wanted) if wanted else 0.0)
    return best


def features(
    terms: QuestionTerms, passages: Sequence[ContextPassage], hits: Sequence[Hit], as_of: datetime | None
) -> dict[str, float]:
    """The features of one question and what retrieval found for it (after the gate judged it)."""
    top = [p for p in passages if p.rank < TOP] or list(passages[:TOP])
    ranked = sorted(top, key=lambda p: (-p.support.coverage, -p.support.names, p.rank))
    best = ranked[0] if ranked else None
    scores = [h.score for h in hits[:2]]
    gap = (scores[0] - scores[1]) / scores[0] if len(scores) == 2 and scores[0] > 0 else 1.0
    kind = question_kind(terms.raw)
    out = dict.fromkeys(FEATURES, 0.0)
    out.update(
        relevant=math.log1p(sum(p.relevant for p in passages)),
        score_gap=max(0.0, min(1.0, gap)),
        asks_kind=float(kind is not None),
        question_words=math.log1p(len(terms.words)),
        question_names=math.log1p(len(terms.names)),
    )
    if best is None:
        return out
    sentence, sentence_coverage, pairs = _best_sentence(terms, top)
    rarest = max(terms.content, key=lambda s: terms.weights.get(s, 0.0), default=None)
    out.update(
        sentence_coverage=sentence_coverage,
        sentence_pairs=pairs,
        sentence_kind=float(kind_in(sentence, kind, terms)),
        rarest_found=float(rarest is not None and rarest in said_stems(best.text)),
        coverage=best.support.coverage,
        names=best.support.names,
        coverage_second=ranked[1].support.coverage if len(ranked) > 1 else 0.0,
        best_rank=math.log1p(best.rank),
        cosine=max(0.0, best.components.get("cosine", 0.0)),
        keyword_top=float(0 < best.components.get("keyword_rank", 99) <= 3),
        kind_found=float(kind_in(best.text, kind, terms)),
    )
    if as_of is not None:
        days = max(0.0, (as_of - parse_time(best.spoken_at)).total_seconds() / 86400)
        out["age"] = math.log1p(days)
    return out


@dataclass(frozen=True)
class AnswerabilityModel(StandardisedLogistic):
    """Standardised logistic regression: p = σ(b + Σ wᵢ (xᵢ − μᵢ) / sᵢ). Below the threshold, what
    the relevance gate would answer is "Not in your notes" (the model vetoes; it never answers what
    the gate refused)."""

    threshold: float = 0.5  # chosen on the training sets when trained (bench/train_answerability.py)


def shipped_model() -> AnswerabilityModel | None:
    """The model shipped beside this module, read once; None when there is none."""
    return shipped(AnswerabilityModel, WEIGHTS_FILE)
