"""Spoken self-repairs: the words a speaker takes back, the editing marker, and the repair.

"What was the Colonia Agrippina's original empire, sorry, name?" holds one repair: "empire" is
replaced, "sorry" is the marker, "name" is the repair; the meant reading is "What was the Colonia
Agrippina's original name?". `find_repairs` returns the repairs of a text with character offsets
into it, `meant_reading` the text without the replaced words and markers. The raw words are never
changed; the meant reading is a layer beside them.

Two kinds of repair are read:
- in place: replaced words, then the marker, then the repair ("the 6th, no wait, the 13th"), or a
  restart ("Who did no What did the government want?"); the meant reading leaves out the replaced
  words and the marker. The repair span of a `Repair` is an estimate here: as many words as were
  replaced, within the clause (the meant reading does not depend on it).
- displaced: the wrong word, more words, then the marker and the right word ("What success did
  French gain at Carillon no Abercrombie?"); the meant reading puts the repair in place of the
  replaced word and leaves out the marker and the repair at the end. Rare; the CRF seldom tags
  one, the start ranker (below) finds some (a short repair at the end of the sentence).
Marker words outside any repair ("umm", a trailing "rather") are left out of the meant reading too.

A linear-chain CRF (CRFsuite) tags every word with one of LABELS; `token_features` makes its
features and the training command imports it, so training and tagging see the same features.
The model file next to this module (repair_tagger.crfsuite) was trained on the train split of
Disfl-QA (Gupta et al., 2021; google-research-datasets/Disfl-QA, licence CC BY 4.0) by
`python -m bench.train_repair_tagger`; the data is not part of the repository. Text is tagged
sentence by sentence (memory/text/doc.py's splitter; a sentence that opens with a marker word
stays with the one before it). The features include each word's part of speech from spaCy's
English pipeline (consolidation passes those of the note's one shared parse); German text has
none, and the tagger, trained on English only, is not used on it by consolidation.
The start of each stretch the CRF takes back is then chosen again by a second model that reads
each candidate start as a whole, and may read the stretch as displaced instead
(memory/text/repair_starts.py, repair_starts.json beside it, trained by the same command);
`Repair.confidence` stays the CRF's own (see `tag_text` for words the ranker adds).

Disfl-QA holds questions, nearly all of them with a repair, so the tagger is quick to read one:
in plain speech it also takes "Monday or Tuesday", "I just want", "let me ask" and "tell me" for
repairs. The meant reading is a reading beside the words, never a replacement for them.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import pycrfsuite

from memory.text import repair_starts
from memory.text.doc import sentence_spans
from memory.text.nlp import language_of, parse
from memory.text.stopwords import STOPWORDS

MODEL_FILE = "repair_tagger.crfsuite"

# Labels, one per word.
KEEP = "O"
REPLACED_START = "B"  # the first word taken back in place
REPLACED = "R"  # the other words taken back in place: right before the marker
MARKER = "M"  # the editing term: "no", "sorry", "I mean", "or rather", "uh" ...
SOURCE = "S"  # taken back, displaced: the repair at the end goes in its place
MOVED = "P"  # the repair of a displaced repair, moved into the place of the S words
LABELS = (KEEP, REPLACED_START, REPLACED, MARKER, SOURCE, MOVED)

# Editing terms, as Disfl-QA train gives them (`python -m bench.train_repair_tagger --markers`,
# derive_markers there): words and phrases of up to three words that end a left-out stretch right
# before kept words at least 8 times and are left out in at least 80 % of their occurrences;
# phrases only when they are not marker words in a row and their first word is mostly left out.
_MARKER_WORDS = """actually ask better er erm guess instead just know like make maybe me mean meant no nope oh
    oops or rather say shoot sorry u007f ugh uh um umm wait yet"""
MARKER_WORDS = frozenset(_MARKER_WORDS.split())
MARKER_PHRASES: tuple[tuple[str, ...], ...] = tuple(
    tuple(p.split())
    for p in (
        "err i mean",
        "err rather",
        "excuse me",
        "i guess",
        "i mean",
        "i meant",
        "let me ask",
        "make that",
        "meant to say",
        "no the um",
        "scratch that",
        "tell me",
        "that but",
        "that i mean",
        "that should be",
        "that to",
        "want to know",
    )
)
NO_POS = "-"  # a word without a part of speech (German text, or no parse)
_WH = "what who whom whose when where which why how"
WH_WORDS = frozenset(_WH.split())

_WORD = re.compile(r"\d+(?:[,.]\d+)+|\w+(?:['’\-.]\w+)*")  # "3,468", "go-live", "it's"
_GAP = re.compile(r"\W*")
# features of a word that its neighbours (two either side) see too
_SHARED = ("ppar_ok", "mk", "again=", "before=", "eq_", "in_", "capmid", "caprun", "seen_before", "fn", "wh")
# Words either side whose word, shape, part of speech and shared features a word sees; the words
# one further are seen by their word and marker flag only. Chosen by the training's
# cross-validation (bench/train_repair_tagger.py GRID) among 1, 2 and 3.
NEIGHBOUR_REACH = 2
_MAX_SEGMENT = 80  # words tagged at once; longer sentences are cut
_REPEAT_WINDOW = 8  # words looked ahead/back for the same word again
_MARKER_REACH = 30  # words looked ahead/back for a marker


@dataclass(frozen=True)
class Repair:
    """One self-repair; offsets are characters of the text given to `find_repairs`."""

    replaced: tuple[int, int]
    marker: tuple[int, int] | None
    repair: tuple[int, int]
    replaced_text: str
    marker_text: str
    repair_text: str
    displaced: bool = False  # the repair goes in place of the replaced words (see module doc)
    # the smallest probability, over the replaced words and the marker, that the word is taken
    # back (the CRF's marginal): how sure the tagger is of the whole repair
    confidence: float = 1.0


Token = tuple[str, int, int]


def tokenise(text: str) -> list[Token]:
    """The words of `text` with their character offsets: (word, start, end)."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


def _shape(word: str) -> str:
    if word.isdigit():
        return "d"
    if any(c.isdigit() for c in word):
        return "xd"
    if word.isupper() and len(word) > 1:
        return "X"
    if word[:1].isupper():
        return "Xx"
    return "x"


def _gap_mark(gap: str) -> str:
    """What separates two words: the punctuation between them ("" for a plain space)."""
    marks = "".join(c for c in gap if not c.isspace())
    if not marks:
        return ""
    if "?" in marks:
        return "?"
    if any(c in marks for c in ".!…"):
        return "."
    if "," in marks:
        return ","
    return "-"


def marker_flags(lower: Sequence[str]) -> list[bool]:
    """Which words are part of a marker word or phrase."""
    flags = [w in MARKER_WORDS for w in lower]
    n = len(lower)
    for phrase in MARKER_PHRASES:
        k = len(phrase)
        for i in range(n - k + 1):
            if lower[i] == phrase[0] and tuple(lower[i : i + k]) == phrase:
                for j in range(i, i + k):
                    flags[j] = True
    return flags


def _ratio(k: int, d: int) -> str:
    """How many of `d` words line up: none, some, most (at least half) or all."""
    if k == 0:
        return "none"
    if k == d:
        return "all"
    return "most" if 2 * k >= d else "some"


def _bucket(distance: int) -> str:
    return str(distance) if distance <= 4 else ("5-7" if distance <= 7 else "8+")


def token_features(
    text: str, tokens: Sequence[Token], pos: Sequence[str] | None = None, reach: int = NEIGHBOUR_REACH
) -> list[list[str]]:
    """CRF features of each word of one sentence (tokens from `tokenise`, offsets into `text`;
    `pos`: each word's part of speech, from `parts_of_speech`, or None when there is none;
    `reach`: see NEIGHBOUR_REACH)."""
    n = len(tokens)
    tags = list(pos) if pos is not None else [NO_POS] * n
    lower = [t[0].lower() for t in tokens]
    marks = marker_flags(lower)
    gaps_before = [_gap_mark(text[tokens[i - 1][2] : tokens[i][1]]) if i else "^" for i in range(n)]
    tail = _GAP.match(text, tokens[-1][2]) if n else None
    gaps_after = [*gaps_before[1:], _gap_mark(tail.group()) if tail else ""]
    shapes = [_shape(t[0]) for t in tokens]

    # Nearest marker to the right and to the left, and the words right after / before marker runs.
    next_marker = [-1] * n
    after_run = [-1] * n  # index of the first word after the next marker run
    nxt, nxt_after = -1, -1
    for i in range(n - 1, -1, -1):
        if marks[i]:
            if i + 1 < n and not marks[i + 1]:
                nxt_after = i + 1
            elif i + 1 >= n:
                nxt_after = -1
            nxt = i
        next_marker[i] = nxt
        after_run[i] = nxt_after if not marks[i] else -1
    prev_marker = [-1] * n
    before_run = [-1] * n  # index of the last word before the previous marker run
    prv, prv_before = -1, -1
    for i in range(n):
        if marks[i]:
            if i > 0 and not marks[i - 1]:
                prv_before = i - 1
            elif i == 0:
                prv_before = -1
            prv = i
        prev_marker[i] = prv
        before_run[i] = prv_before if not marks[i] else -1

    kinds = ["fn" if w in STOPWORDS else ("mk" if marks[i] else shapes[i]) for i, w in enumerate(lower)]
    # caps_to[i]: the end of the run of capitalised words (or digits) that starts at i
    caps_to = list(range(n))
    for i in range(n - 1, -1, -1):
        if shapes[i] != "x" and i > 0:
            caps_to[i] = caps_to[i + 1] if i + 1 < n and shapes[i + 1] != "x" else i + 1
    # For each marker: where the taken-back words most likely start, by aligning the words before
    # the marker with the repair after it word by word (same word counts twice, same part of speech
    # once; "best_start"), and by parts of speech alone ("best_start_pos"): a repair retraces the
    # stretch it replaces.
    best_start: dict[int, int] = {}
    best_start_pos: dict[int, int] = {}
    for m in set(next_marker):
        if m <= 0 or m + 1 >= n or marks[m - 1]:
            continue
        r = after_run[m - 1]
        if r < 0:
            continue
        scores = []
        scores_pos = []
        for i in range(max(0, m - 8), m):
            d = m - i
            mw = sum(1 for t in range(d) if r + t < n and lower[i + t] == lower[r + t])
            mp = sum(1 for t in range(d) if r + t < n and tags[i + t] == tags[r + t])
            scores.append((2 * mw + mp - d, -d, i))
            scores_pos.append((mp - (d - mp), -d, i))
        best_start[m] = max(scores)[2]
        best_start_pos[m] = max(scores_pos)[2]
    first_seen: dict[str, int] = {}
    out: list[list[str]] = []
    own: list[list[str]] = []
    for i in range(n):
        w = lower[i]
        word = tokens[i][0]
        f = [
            "w=" + w,
            "sh=" + shapes[i],
            "p2=" + w[:2],
            "s3=" + w[-3:],
            "gb=" + gaps_before[i],
            "ga=" + gaps_after[i],
        ]
        if marks[i]:
            f.append("mk")
        if w in STOPWORDS:
            f.append("fn")
        if w in WH_WORDS:
            f.append("wh")
        if i == 0:
            f.append("first")
        if i == n - 1:
            f.append("last")
        f.append("pos=" + str(min(4, i * 5 // max(n, 1))))
        if word[:1].isupper() and i > 0 and gaps_before[i] not in ("^", "."):
            f.append("capmid")
            if i > 0 and marks[i - 1]:
                f.append("capmid_after_mk")
        if w in first_seen:
            f.append("seen_before")
        first_seen.setdefault(w, i)
        for j in range(i + 1, min(n, i + 1 + _REPEAT_WINDOW)):
            if lower[j] == w:
                f.append("again=" + _bucket(j - i))
                break
        for j in range(i - 1, max(-1, i - 1 - _REPEAT_WINDOW), -1):
            if lower[j] == w:
                f.append("before=" + _bucket(i - j))
                break
        m = next_marker[i]
        if m > i and m - i <= _MARKER_REACH:
            f.append("mkR=" + _bucket(m - i))
            r = after_run[i]
            if r >= 0:
                rest = n - r
                f.append("rest=" + _bucket(rest))
                if rest < m - i:
                    f.append("rest_shorter")
                if m - i <= 6:
                    f.append(("eq&w=" if lower[r] == w else "ne&w=") + w)
                    # the word before the marker recurs in the repair, `t` words in: the repair is
                    # as long, so the taken-back words start t words before the marker
                    last = lower[m - 1]
                    for t in range(1, 5):
                        if r + t < n and lower[r + t] == last and last not in MARKER_WORDS:
                            if m - 1 - i == t:
                                f.append("tail_start")
                            elif m - 1 - i < t:
                                f.append("tail_inside")
                            break
                d = m - i
                if d <= 5:
                    # parallel structure: the words from here to the marker and as many words of
                    # the repair have the same classes (function word, capitalised, digits ...)
                    same = r + d <= n and all(kinds[i + t] == kinds[r + t] for t in range(d))
                    f.append(("par_ok=" if same else "par_bad=") + str(d))
                if caps_to[i] >= m and shapes[r] != "x":
                    f.append("caprun&rcap")
                f.append("r0=" + lower[r])
                f.append("r0sh=" + shapes[r])
                if lower[r] in WH_WORDS:
                    f.append("r0wh")
                    if i == 0:
                        f.append("first&r0wh")
                if lower[r] == w:
                    f.append("eq_rep0")
                    # the words from here to the marker repeat after it: a restart from here
                    k = 1
                    while i + k < m and r + k < n and lower[i + k] == lower[r + k]:
                        k += 1
                    f.append("eq_run=" + _bucket(k))
                elif w in lower[r : r + 4]:
                    f.append("in_rep")
                if shapes[i] == shapes[r] and shapes[i] != "x":
                    f.append("shape_as_rep")
        p = prev_marker[i]
        if 0 <= p < i and i - p <= _MARKER_REACH:
            f.append("mkL=" + _bucket(i - p))
            b = before_run[i]
            if b >= 0:
                f.append("b0=" + lower[b])
                if lower[b] == w:
                    f.append("eq_before_mk")
                elif w in lower[max(0, b - 3) : b + 1]:
                    f.append("in_before_mk")
                if p == i - 1 and shapes[i] == shapes[b] and shapes[i] != "x":
                    f.append("shape_as_before")
        f.append("pos=" + tags[i])
        if i > 0:
            f.append("pos-1|pos=" + tags[i - 1] + "|" + tags[i])
        if m > i and m - i <= 5 and after_run[i] >= 0:
            # the reparandum and its repair are the same kind of phrase ("empire, sorry, name")
            r, d = after_run[i], m - i
            same_pos = r + d <= n and all(tags[i + t] == tags[r + t] for t in range(d))
            f.append(("ppar_ok=" if same_pos else "ppar_bad=") + str(d))
            if tags[i] == tags[r]:
                f.append("pos_as_rep")
        if m > i and m - i <= 8 and after_run[i] >= 0:
            # the words that would meet if the stretch from here to the marker were taken back:
            # the meant sentence reads on across that joint ("Extended | networking benefits")
            r = after_run[i]
            before = tags[i - 1] if i > 0 else "^"
            f.append("pjoin=" + before + "|" + tags[r])
            if i > 0:
                f.append("wjoin=" + lower[i - 1] + "|" + tags[r])
        if 0 <= p < i and p == i - 1 and before_run[i] >= 0 and tags[i] == tags[before_run[i]]:
            f.append("pos_as_before")
        if m > i and m - i <= 8 and after_run[i] >= 0:
            # where this word comes again in the repair, and how far that is from where a repair
            # as long as the stretch from here to the marker would put it
            r, d = after_run[i], m - i
            for t in range(0, 7):
                if r + t < n and lower[r + t] == w:
                    f.append("wrep_at=" + str(t))
                    f.append("wrep_dt=" + _bucket(abs(d - t)))
                    break
            if tags[i] in tags[r : r + 4]:
                f.append("pos_in_rep")
            # how well the stretch from here to the marker lines up with the repair, word by word
            mw = sum(1 for t in range(d) if r + t < n and lower[i + t] == lower[r + t])
            mp = sum(1 for t in range(d) if r + t < n and tags[i + t] == tags[r + t])
            f.append("aw=" + _ratio(mw, d))
            f.append("ap=" + _ratio(mp, d))
            if best_start[m] == i:
                f.append("best_start")
            if best_start_pos[m] == i:
                f.append("best_start_pos")
        own.append(f)
        out.append(list(f))

    shared = [[x for x in f if x.startswith(_SHARED)] for f in own]
    for i in range(n):
        f = out[i]
        for d in range(-reach - 1, reach + 2):
            if d == 0:
                continue
            j, prefix = i + d, f"{d}:"
            if 0 <= j < n:
                f.append(prefix + "w=" + lower[j])
                if -reach <= d <= reach:
                    f.append(prefix + "sh=" + shapes[j])
                    f.append(prefix + "pos=" + tags[j])
                    f.extend([prefix + x for x in shared[j]])
                elif marks[j]:
                    f.append(prefix + "mk")
            else:
                f.append(prefix + "none")
        if i > 0:
            f.append("w-1|w=" + lower[i - 1] + "|" + lower[i])
        if i + 1 < n:
            f.append("w|w+1=" + lower[i] + "|" + lower[i + 1])
    return out


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


def parts_of_speech(tokens: Sequence[Token], spacy_tokens: Iterable[Any], offset: int = 0) -> list[str]:
    """The universal part of speech of each word (tokens from `tokenise`) by the spaCy tokens of
    the same text (`offset`: where that text starts in the tokens' text): the tag of the spaCy
    token its first character is in ("it's": "it"); NO_POS where none is."""
    starts: list[int] = []
    found: list[str] = []
    for t in spacy_tokens:
        starts.append(t.idx + offset)
        found.append(t.pos_ or NO_POS)
    out = []
    for _, a, _ in tokens:
        k = bisect.bisect_right(starts, a) - 1
        out.append(found[k] if k >= 0 else NO_POS)
    return out


def english_parts_of_speech(text: str, tokens: Sequence[Token]) -> list[str]:
    """Each word's part of speech by the English pipeline; NO_POS for every word of a German text
    (there is no German pipeline: the tagger then reads words, shapes and markers only)."""
    if language_of(text) != "en":
        return [NO_POS] * len(tokens)
    return parts_of_speech(tokens, parse(text))


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


def tag(
    text: str,
    tokens: Sequence[Token] | None = None,
    *,
    tagger: Any = None,
    pos: Sequence[str] | None = None,
    reach: int = NEIGHBOUR_REACH,
    rerank_starts: bool = True,
    ranker: repair_starts.StartRanker | None = None,
) -> list[str]:
    """One label of LABELS per word of `text` (see `tag_text`)."""
    return tag_text(
        text, tokens, tagger=tagger, pos=pos, reach=reach, rerank_starts=rerank_starts, ranker=ranker
    ).labels


def _runs(labels: Sequence[str]) -> list[tuple[str, int, int]]:
    """(label, first, end) of each run of one label; REPLACED_START opens a new REPLACED run."""
    out: list[tuple[str, int, int]] = []
    for i, label in enumerate(labels):
        kind = REPLACED if label == REPLACED_START else label
        if out and out[-1][0] == kind and label != REPLACED_START:
            out[-1] = (kind, out[-1][1], i + 1)
        else:
            out.append((kind, i, i + 1))
    return out


def read_labels(
    text: str, tokens: Sequence[Token], labels: Sequence[str], taken_back: Sequence[float] | None = None
) -> tuple[list[Repair], list[tuple[int, int]]]:
    """The repairs a label sequence describes, and the character spans of markers outside any
    repair (fillers: "umm", a trailing "rather"). Labels that form neither are ignored.
    `taken_back`: each word's probability of not being kept (Tagging), for Repair.confidence."""
    runs = _runs(labels)
    found: list[Repair] = []
    fillers: list[tuple[int, int]] = []
    used: set[int] = set()  # runs that are part of a repair
    source: int | None = None  # the last SOURCE run not yet repaired
    stops = _clause_ends(text, tokens)

    def chars(run: tuple[str, int, int]) -> tuple[int, int]:
        return tokens[run[1]][1], tokens[run[2] - 1][2]

    def add(replaced: int, marker: int | None, repair: tuple[str, int, int], displaced: bool) -> None:
        rc, pc = chars(runs[replaced]), chars(repair)
        mc = chars(runs[marker]) if marker is not None else None
        words = [*range(runs[replaced][1], runs[replaced][2])]
        if marker is not None:
            words += range(runs[marker][1], runs[marker][2])
        confidence = min(taken_back[t] for t in words) if taken_back is not None else 1.0
        used.update({replaced} | ({marker} if marker is not None else set()))
        found.append(
            Repair(
                replaced=rc,
                marker=mc,
                repair=pc,
                replaced_text=text[rc[0] : rc[1]],
                marker_text=text[mc[0] : mc[1]] if mc else "",
                repair_text=text[pc[0] : pc[1]],
                displaced=displaced,
                confidence=confidence,
            )
        )

    for k, (label, a, b) in enumerate(runs):
        nxt = runs[k + 1] if k + 1 < len(runs) else None
        if label == SOURCE:
            source = k
        elif label == REPLACED:
            marker = k + 1 if nxt and nxt[0] == MARKER else None
            start = runs[k + 1][2] if marker is not None else b
            if start >= len(tokens):
                continue  # nothing follows: no repair
            # the repair: as many words as were replaced, within the clause
            end = max(start + 1, min(start + (b - a), stops[start]))
            add(k, marker, (MOVED, start, end), False)
        elif label == MARKER and source is not None and nxt and nxt[0] == MOVED and k not in used:
            used.add(k + 1)
            add(source, k, nxt, True)
            source = None
    for k, run in enumerate(runs):
        if run[0] == MARKER and k not in used:
            fillers.append(chars(run))
    return found, fillers


def repairs_from_labels(text: str, tokens: Sequence[Token], labels: Sequence[str]) -> list[Repair]:
    """The repairs a label sequence describes (tokens from `tokenise`, one label each)."""
    return read_labels(text, tokens, labels)[0]


def _clause_ends(text: str, tokens: Sequence[Token]) -> list[int]:
    """For each word, the index of the first word after its clause (a comma or a sentence end)."""
    n = len(tokens)
    stops = [n] * n
    stop = n
    for i in range(n - 1, -1, -1):
        stops[i] = stop
        if i > 0 and _gap_mark(text[tokens[i - 1][2] : tokens[i][1]]) in (",", ".", "?"):
            stop = i
    return stops


def find_repairs(text: str, pos: Sequence[str] | None = None) -> list[Repair]:
    """The self-repairs in `text`, in order, with character offsets into it and the tagger's
    confidence. `pos`: the parts of speech of its words (tokenise) when the caller has them."""
    tokens = tokenise(text)
    if not tokens:
        return []
    tagging = tag_text(text, tokens, pos=pos)
    return read_labels(text, tokens, tagging.labels, tagging.taken_back)[0]


def apply_repairs(text: str, repairs: Sequence[Repair], fillers: Sequence[tuple[int, int]] = ()) -> str:
    """`text` with each repair applied: the replaced words and the marker left out, with what
    separates them from the next word kept ("empire, sorry, name" -> "name"); a displaced repair
    moved into the place of the replaced words. `fillers` (character spans) are left out too."""
    cuts: list[tuple[int, int, str]] = [(a, b, "") for a, b in fillers]  # (start, end, replacement)
    for r in repairs:
        if r.displaced:
            cuts.append((r.replaced[0], r.replaced[1], r.repair_text))
            cuts.append((r.marker[0] if r.marker else r.repair[0], r.repair[1], ""))
        else:
            cuts.append((r.replaced[0], r.marker[1] if r.marker else r.replaced[1], ""))
    merged: list[tuple[int, int, str]] = []
    for a, b, new in sorted(cuts):
        if merged and a <= merged[-1][1]:
            last = merged[-1]
            if not new and not last[2]:
                merged[-1] = (last[0], max(last[1], b), "")
            continue  # overlapping edits: the first one wins
        merged.append((a, b, new))
    out: list[str] = []
    pos = 0
    for a, b, new in merged:
        if new:
            out.append(text[pos:a] + new)
            pos = b
            continue
        following = _WORD.search(text, b)
        if following is not None:
            out.append(text[pos:a])
            pos = following.start()
            first = following.group()[0]
            if first.islower() and text[a].isupper() and _opens_sentence(text, a):
                out.append(first.upper())  # "Who did no what did ..." -> "What did ..."
                pos += 1
        else:
            # nothing after: drop the space before, keep the closing punctuation
            left = a
            while left > pos and text[left - 1].isspace():
                left -= 1
            out.append(text[pos:left])
            pos = b
            while pos < len(text) and text[pos].isspace():
                pos += 1
    out.append(text[pos:])
    return "".join(out)


def _opens_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in ".!?…"


def meant_reading(text: str) -> str:
    """`text` as the speaker meant it: replaced words and markers left out (markers outside a
    repair, such as a filler "umm", too), the displaced repairs moved; the rest as written."""
    tokens = tokenise(text)
    if not tokens:
        return text
    repairs, fillers = read_labels(text, tokens, tag(text, tokens))
    return apply_repairs(text, repairs, fillers)


__all__ = [
    "LABELS",
    "MARKER_WORDS",
    "Repair",
    "apply_repairs",
    "find_repairs",
    "meant_reading",
    "repairs_from_labels",
    "tag",
    "tag_text",
    "token_features",
    "tokenise",
]
