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

import pycrfsuite

from memory.text import repair_starts
from memory.text.doc import sentence_spans
from memory.text.repair_features import (
    KEEP,
    MARKER_WORDS,
    NEIGHBOUR_REACH,
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


# a start ranker with the lower-cased words and the parts of speech of the segment it reads
Starts = tuple[repair_starts.StartRanker, Sequence[str], Sequence[str]]


def _tag_with(
    tagger: Any, xseq: list[list[str]], starts: Starts | None = None
) -> tuple[list[str], list[float]]:
    """Labels by an open pycrfsuite.Tagger, with the start of each taken-back stretch chosen again
    by `starts` (a ranker, the words and their parts of speech) when given, and for each word the
    CRF's probability (marginal over all label sequences) that it is not kept."""
    labels = list(tagger.tag(xseq))
    taken_back = [1.0 - tagger.marginal(KEEP, t) for t in range(len(labels))]
    if starts is not None:
        crf = labels
        labels = repair_starts.rerank(tagger, starts[0], crf, starts[1], starts[2])
        # A word the ranker adds in front of words the CRF took back is as sure as they are: the
        # CRF found the repair, the ranker only says where it starts (Repair.confidence).
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
    _tagger: Any = None
    _model: bytes = b""  # CRFsuite reads the model from this buffer: it lives as long as the tagger

    @classmethod
    def tag(cls, xseq: list[list[str]], starts: Starts | None = None) -> tuple[list[str], list[float]]:
        with cls._lock:
            if cls._tagger is None:
                cls._model = resources.files("memory.text").joinpath(MODEL_FILE).read_bytes()
                tagger = pycrfsuite.Tagger()
                tagger.open_inmemory(cls._model)
                cls._tagger = tagger
            return _tag_with(cls._tagger, xseq, starts)


@dataclass(frozen=True)
class Tagging:
    """One label of LABELS per word, and the probability that each word is not kept."""

    labels: list[str]
    taken_back: list[float]


def tag_text(
    text: str,
    tokens: Sequence[Token] | None = None,
    *,
    tagger: Any = None,
    pos: Sequence[str] | None = None,
    reach: int = NEIGHBOUR_REACH,
    rerank_starts: bool = True,
    ranker: repair_starts.StartRanker | None = None,
) -> Tagging:
    """The words of `text` (its tokens, from `tokenise` unless given) tagged sentence by sentence
    by the shipped model or by `tagger` (an open pycrfsuite.Tagger: training's cross-validation).
    `pos`: the words' parts of speech when the caller has them (else the English pipeline reads
    `text`); `reach`: the features' reach the model was trained with (NEIGHBOUR_REACH for the
    shipped one). The start of each taken-back stretch is chosen again by `ranker`, or the
    shipped one (memory/text/repair_starts.py), unless `rerank_starts` is False. `taken_back` is
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


__all__ = ["MODEL_FILE", "Tagging", "segments", "tag_text"]
