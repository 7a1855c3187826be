"""Which sentence of a passage states the answer: a small learned ranker over the sentences of the
relevant passages, so that the stated line is the one that holds the answer, not the one that
repeats the question best.

Each sentence is described by a few features of it and its place: how much of the question's
content words and names it says (and in the question's order), whether it holds the **kind of
thing that answers** (a date for "when", a person for "who", an amount for "how much": spaCy's
entity types, as in memory/answer/answerability.py), its position in the passage, whether it
carries or follows a self-correction (the words meant come after "sorry, I mean"), whether it is
hedged, its length, and how well the sentence before it covers the question (an answer often
follows the sentence that names the topic). A standardised logistic regression scores them.

The weights are a small JSON file beside this module, rebuilt by `python -m bench.train_sentence_ranker`
from the gold evidence of the licensed development sets (the consultant sets: ours; QMSum: MIT;
LoCoMo is only measured). Without the file, `best_sentence`'s word coverage chooses.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from memory.answer.asked_kind import kind_in, question_kind
from memory.answer.context import ContextPassage, has_correction, opens_with_correction
from memory.logistic import StandardisedLogistic, shipped
from memory.text.quotes import word_count
from memory.text.relevance import QuestionTerms, content_words, coverage, said_stems
from memory.text.stems import stem, text_language

WEIGHTS_FILE = "sentence_ranker.json"

_HEDGED = re.compile(
    r"\b(?:apparently|reportedly|supposedly|allegedly|maybe|perhaps|might|if|unless|whether|"
    r"angeblich|vielleicht|falls|wenn)\b",
    re.IGNORECASE,
)

FEATURES = (
    "coverage",  # weighted share of the question's content words the sentence says
    "names",  # share of the question's names and numbers the sentence says itself
    "pairs",  # share of the question's consecutive content-word pairs, in order
    "kind_asked",  # the question says what kind of thing answers it
    "kind_found",  # ... and the sentence holds one (spaCy entity), not one the question gave
    "first",  # the passage's first sentence
    "position",  # place in the passage, 0 (first) to 1 (last)
    "correction",  # the sentence holds or opens with a self-correction
    "after_correction",  # the sentence before it held one (the meant words may follow)
    "previous_coverage",  # coverage of the sentence before it
    "next_coverage",  # coverage of the sentence after it
    "hedged",  # hedged or conditional ("apparently", "if")
    "words",  # length, log1p of its words
    "passage_coverage",  # the passage's best window (the relevance gate's figure)
    "passage_rank",  # the retriever's rank of the passage, log1p
    # The same question's other candidates: a sentence is judged against them, not on its own.
    "coverage_gap",  # its coverage minus the best coverage among all the candidate sentences
    "names_gap",  # its share of names minus the best share among them
    "kind_alone",  # it holds the kind of thing that answers and fewer than half the candidates do
)


def _pairs(terms: QuestionTerms, sentence: str) -> float:
    language = text_language(terms.raw)
    asked = [stem(w, language) for w in terms.words]
    wanted = set(itertools.pairwise(asked))
    if not wanted:
        return 0.0
    said = set(itertools.pairwise(stem(w, language) for w in content_words(sentence)))
    return len(wanted & said) / len(wanted)


def sentence_features(
    terms: QuestionTerms, candidates: Sequence[tuple[ContextPassage, Sequence[str]]]
) -> list[list[dict[str, float]]]:
    """The features of each candidate passage's sentences (in order) for this question: its own,
    and how it compares with all the candidates' sentences."""
    kind = question_kind(terms.raw)
    names = set(terms.names)
    out: list[list[dict[str, float]]] = []
    for passage, sentences in candidates:
        found = [coverage(terms, said_stems(s)).coverage for s in sentences]
        rows = []
        last = max(1, len(sentences) - 1)
        for i, sentence in enumerate(sentences):
            said = said_stems(sentence)
            rows.append(
                {
                    "coverage": found[i],
                    "names": len(names & said) / len(names) if names else 0.0,
                    "pairs": _pairs(terms, sentence),
                    "kind_asked": float(kind is not None),
                    "kind_found": float(kind_in(sentence, kind, terms)),
                    "first": float(i == 0),
                    "position": i / last,
                    "correction": float(has_correction(sentence) or opens_with_correction(sentence)),
                    "after_correction": float(i > 0 and has_correction(sentences[i - 1])),
                    "previous_coverage": found[i - 1] if i > 0 else 0.0,
                    "next_coverage": found[i + 1] if i + 1 < len(sentences) else 0.0,
                    "hedged": float(bool(_HEDGED.search(sentence))),
                    "words": math.log1p(word_count(sentence)),
                    "passage_coverage": passage.support.coverage,
                    "passage_rank": math.log1p(passage.rank),
                }
            )
        out.append(rows)
    every = [row for rows in out for row in rows]
    if every:
        top_coverage = max(r["coverage"] for r in every)
        top_names = max(r["names"] for r in every)
        with_kind = sum(r["kind_found"] for r in every) / len(every)
        for row in every:
            row["coverage_gap"] = row["coverage"] - top_coverage
            row["names_gap"] = row["names"] - top_names
            row["kind_alone"] = float(row["kind_found"] > 0 and with_kind < 0.5)
    return out


@dataclass(frozen=True)
class SentenceRanker(StandardisedLogistic):
    """Standardised logistic regression: p = σ(b + Σ wᵢ (xᵢ − μᵢ) / sᵢ), the chance a sentence
    holds the answer."""


def shipped_ranker() -> SentenceRanker | None:
    """The ranker shipped beside this module, read once; None when there is none."""
    return shipped(SentenceRanker, WEIGHTS_FILE)


def best_sentences(
    ranker: SentenceRanker, terms: QuestionTerms, candidates: Sequence[tuple[ContextPassage, Sequence[str]]]
) -> list[tuple[float, str]]:
    """For each candidate passage, (probability, sentence) of the sentence the ranker puts first
    (the earlier one on ties)."""
    out = []
    for (_, sentences), rows in zip(candidates, sentence_features(terms, candidates), strict=True):
        scored = [
            (ranker.probability(f), -i, s) for i, (s, f) in enumerate(zip(sentences, rows, strict=True))
        ]
        probability, _, sentence = max(scored)
        out.append((probability, sentence))
    return out
