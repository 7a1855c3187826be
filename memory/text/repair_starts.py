"""Where the words a speaker takes back start: a second look at each repair the tagger finds.

The CRF of memory/text/repair_tagger.py finds the marker of a repair well but often starts the
taken-back stretch a word or two too late or too early, or reads a local repair as a restart
("Who did no What did ..." takes back from the first word; "the 6th, no wait, the 13th" only
"the 6th"). For each stretch the tagger tags (taken-back words and their marker, or a marker
alone), every start from the sentence's first free word and up to MAX_BACK words before the
marker is a candidate; a linear model scores each candidate and the best one is taken. Its
features read the candidate as a whole: the CRF's probability of the whole label sequence it
gives, how the taken-back stretch lines up with the words after the marker (word, part of
speech), the words that meet once it is left out, question words on both sides of a restart.

The weights (repair_starts.json beside this module) are a logistic regression fitted on
Disfl-QA train (CC BY 4.0) by `python -m bench.train_repair_tagger`, on the labels of pairs the
CRF tagged without having seen them (cross-validation folds), so that the CRF's probabilities
look as they do on new text. The file also holds the bias of the CRF's decoding the ranker was
trained with (`StartRanker.taken_back_bias`, see memory/text/repair_tagger.py). A missing file
means the tagger's own starts are kept, decoded without a bias.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from memory.shipped_weights import read_once
from memory.text.repair_features import (
    KEEP,
    MARKER,
    MOVED,
    REPLACED,
    REPLACED_START,
    SOURCE,
    WH_WORDS,
    bucket,
)

RANKER_FILE = "repair_starts.json"
MAX_BACK = 8  # words before the marker a start is looked for (besides the sentence's first word)
MAX_MOVED = 4  # words of a repair at the end of a sentence that may go in place of earlier words
MAX_SOURCE = 4  # words such a repair may replace
DISPLACED_REACH = 20  # words before the marker they may start


@dataclass(frozen=True)
class Stretch:
    """One taken-back stretch as the tagger gave it, in word indices of a segment: the replaced
    words [start, marker), the marker [marker, repair) (empty when there is none), and the first
    word a start may take (`floor`: the end of the stretch before, or 0)."""

    start: int
    marker: int
    repair: int
    floor: int


@dataclass(frozen=True)
class StartRanker:
    """A linear score over named features (a logistic regression's weights); names not in
    `weights` count 0. `taken_back_bias`: the bias of the CRF's decoding the ranker was trained on
    and reads (repair_tagger.Decoder), chosen with it."""

    weights: dict[str, float]
    intercept: float = 0.0
    taken_back_bias: float = 0.0

    def score(self, features: dict[str, float]) -> float:
        return self.intercept + sum(self.weights.get(k, 0.0) * v for k, v in features.items())

    def to_json(self) -> dict[str, Any]:
        return {
            "intercept": self.intercept,
            "taken_back_bias": self.taken_back_bias,
            "weights": dict(sorted(self.weights.items())),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StartRanker:
        return cls(
            {str(k): float(v) for k, v in data["weights"].items()},
            float(data.get("intercept", 0.0)),
            float(data.get("taken_back_bias", 0.0)),
        )


def shipped() -> StartRanker | None:
    """The ranker shipped beside this module, read once; None when there is none."""
    return read_once("memory.text", RANKER_FILE, StartRanker.from_json)


def stretches(labels: Sequence[str]) -> list[Stretch]:
    """The in-place stretches of a segment's labels: replaced words with the marker right after
    them (if any), and markers with no replaced words before them. Displaced repairs (S/P labels)
    are left as they are, and bound the stretches around them."""
    out: list[Stretch] = []
    n = len(labels)
    floor = 0
    i = 0
    while i < n:
        label = labels[i]
        if label == KEEP:
            i += 1
            continue
        if label in (REPLACED_START, REPLACED):
            j = i + 1
            while j < n and labels[j] == REPLACED:
                j += 1
            k = j
            while k < n and labels[k] == MARKER:
                k += 1
            out.append(Stretch(i, j, k, floor))
            floor = i = k
        elif label == MARKER:
            k = i
            while k < n and labels[k] == MARKER:
                k += 1
            out.append(Stretch(i, i, k, floor))
            floor = i = k
        else:  # displaced: S or P
            i += 1
            floor = i
    return out


def candidates(s: Stretch, n: int) -> list[int]:
    """The starts looked at for `s` in a segment of `n` words: the floor, then every word up to
    MAX_BACK before the marker, and the marker itself (nothing replaced) when there is one."""
    if s.repair >= n:
        return [s.start]  # nothing follows: no repair to line up with
    last = s.marker if s.repair > s.marker else s.marker - 1
    return sorted({s.floor, s.start, *range(max(s.floor, s.marker - MAX_BACK), last + 1)})


class Choice(NamedTuple):
    """One reading of a stretch: in place, the replaced words from `start` to the marker; or
    displaced (`source` set): the words [source) replaced by the repair after the marker, which
    runs to the end of the segment ("What does cilia mean in Greek no ctenophore?")."""

    start: int
    source: tuple[int, int] | None = None


def displaced_sources(s: Stretch, n: int) -> list[tuple[int, int]]:
    """The earlier words a short repair at the end of a segment of `n` words may go in place of:
    up to MAX_SOURCE words, at least one word before the marker (a source right before it reads
    as the in-place repair does)."""
    if s.repair == s.marker or not 0 < n - s.repair <= MAX_MOVED:
        return []
    lo = max(s.floor, s.marker - DISPLACED_REACH)
    return [
        (i, j) for i in range(lo, s.marker - 1) for j in range(i + 1, min(i + MAX_SOURCE, s.marker - 1) + 1)
    ]


def choose(labels: Sequence[str], s: Stretch, choice: Choice) -> list[str]:
    """`labels` with `s` read as `choice`."""
    if choice.source is None:
        return relabel(labels, s, choice.start)
    out = list(labels)
    for t in range(s.floor, s.marker):
        out[t] = SOURCE if choice.source[0] <= t < choice.source[1] else KEEP
    for t in range(s.repair, len(out)):
        out[t] = MOVED
    return out


def relabel(labels: Sequence[str], s: Stretch, start: int) -> list[str]:
    """`labels` with the replaced words of `s` starting at `start` instead."""
    out = list(labels)
    for t in range(s.floor, s.marker):
        out[t] = KEEP
    for t in range(start, s.marker):
        out[t] = REPLACED_START if t == start else REPLACED
    return out


def start_features(
    lower: Sequence[str],
    tags: Sequence[str],
    s: Stretch,
    start: int,
    log_probability: float,
    best_log_probability: float,
) -> dict[str, float]:
    """Features of taking back words [start, s.marker) (and the marker) of a segment whose words
    are `lower` (lower-cased) with parts of speech `tags`; `log_probability`: the CRF's log
    probability of the labels this start gives, `best_log_probability` the highest over the
    candidates of `s`."""
    n = len(lower)
    m, r = s.marker, s.repair
    d = m - start
    f: dict[str, float] = {}

    def on(name: str, value: float = 1.0) -> None:
        f[name] = f.get(name, 0.0) + value

    gap = log_probability - best_log_probability
    on("crf_gap", max(gap, -20.0))
    on("crf_best", 1.0 if gap >= -1e-9 else 0.0)
    on("crf_own", 1.0 if start == s.start else 0.0)
    on("len=" + bucket(d))
    on("no_marker" if r == m else "marker")
    if start == s.floor:
        on("floor")
    if start == 0:
        on("first")
        on("first_len=" + bucket(d))
    before = lower[start - 1] if start > 0 else "^"
    before_tag = tags[start - 1] if start > 0 else "^"
    after = lower[r] if r < n else "$"
    after_tag = tags[r] if r < n else "$"
    # the words that meet once the stretch is left out
    on("join=" + before_tag + "|" + after_tag)
    on("join_word=" + before + "|" + after_tag)
    before2 = tags[start - 2] if start > 1 else "^"
    after2 = tags[r + 1] if r + 1 < n else "$"
    on("join3=" + before2 + "|" + before_tag + "|" + after_tag)
    on("join3r=" + before_tag + "|" + after_tag + "|" + after2)
    shift = start - s.start
    on("from_crf=" + ("-" if shift < 0 else "+") + bucket(abs(shift)))
    if before == after:
        on("join_same_word")
    if start > 0 and before in lower[r : r + 3]:
        on("kept_word_in_repair")
    if d == 0:
        return f
    # the stretch and as many words after the marker, word by word
    mw = sum(1 for t in range(d) if r + t < n and lower[start + t] == lower[r + t])
    mp = sum(1 for t in range(d) if r + t < n and tags[start + t] == tags[r + t])
    on("align_word", mw / d)
    on("align_pos", mp / d)
    on("align_word_n", min(mw, 4))
    on("len&align=" + bucket(d) + "|" + str(round(4 * mp / d)) + "|" + str(min(mw, 2)))
    if r < n:
        if lower[start] == lower[r]:
            on("first_same_word")
        if tags[start] == tags[r]:
            on("first_same_pos")
            on("first_same_pos=" + tags[start])
        if lower[start] in lower[r : r + 4]:
            on("first_in_repair")
        if tags[start] in tags[r : r + 3]:
            on("first_pos_in_repair")
    on("first_pos=" + tags[start])
    on("first_word=" + lower[start])
    on("first_pos|after_pos=" + tags[start] + "|" + after_tag)
    if start > 0:
        on("before_pos|first_pos=" + before_tag + "|" + tags[start])
    if lower[start] in WH_WORDS:
        on("first_wh")
        if after in WH_WORDS:
            on("wh_both")
    if start == 0 and after in WH_WORDS:
        on("restart_to_wh")
    # what is left: question words, repeated word pairs
    kept = [*lower[:start], *lower[r:]]
    wh = sum(1 for w in kept if w in WH_WORDS)
    on("kept_wh=" + bucket(wh))
    pairs = list(itertools.pairwise(kept))
    on("kept_pair_repeats", float(len(pairs) - len(set(pairs))))
    rest = n - r
    on("rest_shorter" if rest < d else "rest_longer")
    return f


def displaced_features(
    lower: Sequence[str],
    tags: Sequence[str],
    s: Stretch,
    source: tuple[int, int],
    log_probability: float,
    best_log_probability: float,
) -> dict[str, float]:
    """Features of moving the repair after the marker of `s` (to the segment's end) into the place
    of the words [source); see `start_features` for the rest."""
    n = len(lower)
    i, j = source
    k, moved = j - i, n - s.repair
    src, rep = tags[i:j], tags[s.repair :]
    gap = log_probability - best_log_probability
    f: dict[str, float] = {
        "crf_gap": max(gap, -20.0),
        "crf_best": 1.0 if gap >= -1e-9 else 0.0,
        "displaced": 1.0,
        "d_len=" + bucket(k) + "|" + bucket(moved): 1.0,
        "d_gap=" + bucket(s.marker - j): 1.0,
        "d_pos_first=" + src[0] + "|" + rep[0]: 1.0,
        "d_pos_last=" + src[-1] + "|" + rep[-1]: 1.0,
        "d_before=" + (tags[i - 1] if i > 0 else "^"): 1.0,
        "d_after=" + tags[j]: 1.0,
    }
    if src == rep:
        f["d_pos_same"] = 1.0
    # the words right before the marker: does the repair line up with them as well (in place)?
    here = tags[max(s.floor, s.marker - moved) : s.marker]
    f["d_src|here=" + str(src[-1] == rep[-1]) + "|" + str(bool(here) and here[-1] == rep[-1])] = 1.0
    if src == rep and here != rep:
        f["d_only_source_lines_up"] = 1.0
    if lower[j - 1] == lower[n - 1]:
        f["d_last_same_word"] = 1.0
    shared = len(set(lower[i:j]) & set(lower[s.repair :]))
    if shared:
        f["d_shared_words=" + bucket(shared)] = 1.0
    if lower[i] in WH_WORDS:
        f["d_first_wh"] = 1.0
    if s.start < s.marker:
        f["d_crf_replaced"] = 1.0  # the CRF read it in place, with replaced words
    return f


def rerank(
    tagger: Any,
    ranker: StartRanker,
    labels: Sequence[str],
    lower: Sequence[str],
    tags: Sequence[str],
) -> list[str]:
    """`labels` (the CRF's, for the segment the open `tagger` last tagged) with each stretch's
    start chosen again by `ranker` (each stretch on its own, the others as the CRF tagged them)."""
    out = list(labels)
    for s, choices, features in candidate_features(tagger, labels, lower, tags):
        out = choose(out, s, choices[best_choice(ranker, s, choices, features)])
    return out


def best_choice(
    ranker: StartRanker, s: Stretch, choices: Sequence[Choice], features: Sequence[dict[str, float]]
) -> int:
    """The index of the choice `ranker` scores highest (ties: in place, nearest the CRF's start)."""
    scores = [ranker.score(f) for f in features]
    return max(
        range(len(choices)),
        key=lambda k: (scores[k], choices[k].source is None, -abs(choices[k].start - s.start)),
    )


def candidate_features(
    tagger: Any, labels: Sequence[str], lower: Sequence[str], tags: Sequence[str]
) -> list[tuple[Stretch, list[Choice], list[dict[str, float]]]]:
    """Each stretch of `labels` with more than one candidate reading (in place from each
    candidate start, displaced from each source), its candidates and their features (`tagger`:
    the open pycrfsuite.Tagger that last tagged the segment)."""
    out = []
    for s in stretches(labels):
        choices = [Choice(c) for c in candidates(s, len(labels))]
        choices += [Choice(s.start, source) for source in displaced_sources(s, len(labels))]
        if len(choices) < 2:
            continue
        logs = [math.log(max(tagger.probability(choose(labels, s, c)), 1e-300)) for c in choices]
        best = max(logs)
        features = [
            start_features(lower, tags, s, c.start, lp, best)
            if c.source is None
            else displaced_features(lower, tags, s, c.source, lp, best)
            for c, lp in zip(choices, logs, strict=True)
        ]
        out.append((s, choices, features))
    return out


__all__ = [
    "MAX_BACK",
    "Choice",
    "StartRanker",
    "Stretch",
    "best_choice",
    "candidate_features",
    "candidates",
    "choose",
    "displaced_features",
    "displaced_sources",
    "relabel",
    "rerank",
    "shipped",
    "start_features",
    "stretches",
]
