"""The repair tagger: a linear-chain CRF (CRFsuite) that tags every word of a text with one of
LABELS (kept, taken back in place, editing marker, taken back displaced, moved repair), and the
probability that each word is not kept.

The model file next to this module (repair_tagger.crfsuite) was trained on the train split of
Disfl-QA (Gupta et al., 2021; google-research-datasets/Disfl-QA, licence CC BY 4.0) by
`python -m bench.train_repair_tagger`; the data is not part of the repository. Its features are
those of memory/text/repair_features.py (`token_features`), which training imports too. Text is
tagged sentence by sentence (`segments`: memory/text/doc.py's splitter; a sentence that opens with
a marker word stays with the one before it). The features include each word's part of speech
from spaCy's English pipeline (consolidation passes those of the note's one shared parse); German
text has none, and the tagger, trained on English only, is not used on it by consolidation.
The start of each stretch the CRF takes back is then chosen again by a second model that reads
each candidate start as a whole, and may read the stretch as displaced instead
(memory/text/repair_starts.py, repair_starts.json beside it, trained by the same command);
`Repair.confidence` stays the CRF's own (see `tag_text` for words the ranker adds).

With the ranker, the CRF is decoded by Viterbi with a bias towards taking words back (`Decoder`:
a constant added to the scores of the in-place labels B, R and M at every word): the CRF keeps
more words than the training pairs do (precision .93, recall .82 on held-out folds), and the bias,
chosen with the ranker by the same cross-validation and stored in its file, moves the labelling to
where fewer of them are missed. The probabilities (`taken_back`, `Repair.confidence`) are the
CRF's own, unbiased: a word taken back only because of the bias has a low one.

Disfl-QA holds questions, nearly all of them with a repair, so the tagger is quick to read one:
in plain speech it also takes "Monday or Tuesday", "I just want", "let me ask" and "tell me" for
repairs. What the labels say (the repairs and the meant reading) is read in memory/text/repairs.py.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import pycrfsuite

from memory.text import repair_starts
from memory.text.doc import sentence_spans
from memory.text.repair_features import (
    KEEP,
    MARKER,
    MARKER_WORDS,
    NEIGHBOUR_REACH,
    REPLACED,
    REPLACED_START,
    Token,
    english_parts_of_speech,
    token_features,
    tokenise,
)

MODEL_FILE = "repair_tagger.crfsuite"
_MAX_SEGMENT = 80  # words tagged at once; longer sentences are cut


def segments(text: str, tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """Token ranges [a, b) tagged together: the sentences of memory/text/doc.py, kept with the one
    before when they open with a marker word ("Paris. No wait, Rome."), cut at _MAX_SEGMENT words."""
    starts = [start for start, _ in sentence_spans(text)[1:]]
    out: list[tuple[int, int]] = []
    first = 0
    k = 0
    for i in range(1, len(tokens)):
        while k < len(starts) and starts[k] <= tokens[i - 1][1]:
            k += 1  # sentence starts inside or before the previous word
        if k < len(starts) and starts[k] <= tokens[i][1] and tokens[i][0].lower() not in MARKER_WORDS:
            out.append((first, i))
            first = i
    if first < len(tokens):
        out.append((first, len(tokens)))
    cut: list[tuple[int, int]] = []
    for a, b in out:
        while b - a > _MAX_SEGMENT:
            cut.append((a, a + _MAX_SEGMENT))
            a += _MAX_SEGMENT
        cut.append((a, b))
    return cut


class Decoder:
    """An open pycrfsuite.Tagger and its weights, read once, for Viterbi decoding with a bias: a
    constant added to the scores of the in-place taken-back labels (B, R, M) of every word.
    Bias 0 is CRFsuite's own decoding. The tagger holds the last sequence decoded, for its
    marginals and probabilities."""

    BIASED = (REPLACED_START, REPLACED, MARKER)

    def __init__(self, tagger: Any) -> None:
        self.tagger = tagger
        self.labels: list[str] = list(tagger.labels())
        index = {label: k for k, label in enumerate(self.labels)}
        info = tagger.info()
        self._attributes: dict[str, int] = {}
        rows: list[list[float]] = []
        for (attribute, label), weight in info.state_features.items():
            row = self._attributes.setdefault(attribute, len(rows))
            if row == len(rows):
                rows.append([0.0] * len(self.labels))
            rows[row][index[label]] += weight
        rows.append([0.0] * len(self.labels))  # attributes the model does not know
        self._state = np.array(rows)
        self._transitions = np.zeros((len(self.labels), len(self.labels)))
        for (first, then), weight in info.transitions.items():
            self._transitions[index[first], index[then]] = weight
        self._biased = np.array([label in self.BIASED for label in self.labels], dtype=float)
        self._no_repair_after = np.array(
            [-1e9 if label in (REPLACED_START, REPLACED) else 0.0 for label in self.labels]
        )

    def tag(self, xseq: list[list[str]], bias: float = 0.0) -> list[str]:
        """The labels of `xseq` (one list of attributes per word) by Viterbi, with `bias` added
        to the scores of B, R and M at every word and, with a bias, neither B nor R at the last."""
        self.tagger.set(xseq)
        if bias == 0.0 or not xseq:
            return list(self.tagger.tag())
        unknown = len(self._state) - 1
        rows = [self._attributes.get(a, unknown) for x in xseq for a in x]
        starts = np.cumsum([0, *(len(x) for x in xseq[:-1])])
        scores = np.add.reduceat(self._state[rows], starts, axis=0) + bias * self._biased
        # Replaced words need a repair after them (repairs.read_labels reads none at the end), and
        # the bias alone can carry a run of them to the last word: never B or R there.
        scores[-1] += self._no_repair_after
        best = scores[0]
        back = np.zeros(scores.shape, dtype=int)
        for t in range(1, len(xseq)):
            moves = best[:, None] + self._transitions
            back[t] = moves.argmax(axis=0)
            best = moves.max(axis=0) + scores[t]
        path = [int(best.argmax())]
        for t in range(len(xseq) - 1, 0, -1):
            path.append(int(back[t, path[-1]]))
        return [self.labels[k] for k in reversed(path)]


# a start ranker with the lower-cased words and the parts of speech of the segment it reads
Starts = tuple[repair_starts.StartRanker, Sequence[str], Sequence[str]]


def _tag_with(
    decoder: Decoder, xseq: list[list[str]], starts: Starts | None = None
) -> tuple[list[str], list[float]]:
    """Labels by `decoder`, with the start of each taken-back stretch chosen again by `starts` (a
    ranker, the words and their parts of speech) when given, and decoded with that ranker's bias;
    and for each word the CRF's probability (marginal over all label sequences, no bias) that it
    is not kept."""
    bias = starts[0].taken_back_bias if starts is not None else 0.0
    labels = decoder.tag(xseq, bias)
    tagger = decoder.tagger
    taken_back = [1.0 - tagger.marginal(KEEP, t) for t in range(len(labels))]
    if starts is not None:
        crf = labels if bias == 0.0 else list(tagger.tag())  # the CRF's own Viterbi, no bias
        labels = repair_starts.rerank(tagger, starts[0], labels, starts[1], starts[2])
        # A word the bias or the ranker adds in front of words the CRF itself took back is as
        # sure as they are: the CRF found the repair, they only say where it starts
        # (Repair.confidence). A stretch only the bias found keeps its words' own probabilities.
        for s in repair_starts.stretches(crf):
            if s.start < s.marker:
                sure = min(taken_back[s.start : s.marker])
                for t in range(s.floor, s.start):
                    if labels[t] != KEEP:
                        taken_back[t] = max(taken_back[t], sure)
    return labels, taken_back


class _Model:
    """The CRF tagger, loaded once per process; CRFsuite taggers are not shared between threads."""

    _lock = threading.Lock()
    _decoder: Decoder | None = None
    _model: bytes = b""  # CRFsuite reads the model from this buffer: it lives as long as the tagger

    @classmethod
    def tag(cls, xseq: list[list[str]], starts: Starts | None = None) -> tuple[list[str], list[float]]:
        with cls._lock:
            if cls._decoder is None:
                cls._model = resources.files("memory.text").joinpath(MODEL_FILE).read_bytes()
                tagger = pycrfsuite.Tagger()
                tagger.open_inmemory(cls._model)
                cls._decoder = Decoder(tagger)
            return _tag_with(cls._decoder, xseq, starts)


@dataclass(frozen=True)
class Tagging:
    """One label of LABELS per word, and the probability that each word is not kept."""

    labels: list[str]
    taken_back: list[float]


def tag_text(
    text: str,
    tokens: Sequence[Token] | None = None,
    *,
    tagger: Decoder | None = None,
    pos: Sequence[str] | None = None,
    reach: int = NEIGHBOUR_REACH,
    rerank_starts: bool = True,
    ranker: repair_starts.StartRanker | None = None,
) -> Tagging:
    """The words of `text` (its tokens, from `tokenise` unless given) tagged sentence by sentence
    by the shipped model or by `tagger` (a Decoder of an open pycrfsuite.Tagger: training's
    cross-validation).
    `pos`: the words' parts of speech when the caller has them (else the English pipeline reads
    `text`); `reach`: the features' reach the model was trained with (NEIGHBOUR_REACH for the
    shipped one). The start of each taken-back stretch is chosen again by `ranker`, or the
    shipped one (memory/text/repair_starts.py), unless `rerank_starts` is False; the CRF is then
    decoded with that ranker's bias (Decoder), else without. `taken_back` is
    the CRF's own probability, but for words the ranker adds in front of words the CRF took back:
    those are as sure as the least sure of them."""
    toks = tokenise(text) if tokens is None else tokens
    tags = english_parts_of_speech(text, toks) if pos is None else pos
    chosen = (ranker or repair_starts.shipped()) if rerank_starts else None
    labels: list[str] = []
    taken_back: list[float] = []
    for a, b in segments(text, toks):
        xseq = token_features(text, toks[a:b], tags[a:b], reach)
        starts = (chosen, [t[0].lower() for t in toks[a:b]], tags[a:b]) if chosen is not None else None
        got = _Model.tag(xseq, starts) if tagger is None else _tag_with(tagger, xseq, starts)
        labels.extend(got[0])
        taken_back.extend(got[1])
    return Tagging(labels, taken_back)


__all__ = ["MODEL_FILE", "Decoder", "Tagging", "segments", "tag_text"]
