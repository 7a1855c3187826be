"""The words of a text as the repair tagger reads them, and the features it reads them by.

`tokenise` cuts a text into words with their character offsets; `token_features` gives the
linear-chain CRF (memory/text/repair_tagger.py) its features of each word of one sentence: the
word, its shape, its part of speech (`parts_of_speech`, from spaCy's English pipeline; NO_POS for
German text), the punctuation around it, the editing markers near it (MARKER_WORDS and
MARKER_PHRASES, as Disfl-QA train gives them: `marker_flags`) and how the words before a marker
line up with the words after it. The training command (bench/train_repair_tagger.py) imports
these, so training and tagging see the same features. The labels the tagger gives each word
(LABELS) are here too: the tagger, the start ranker (memory/text/repair_starts.py) and the reading
of repairs (memory/text/repairs.py) all speak them.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from typing import Any

from memory.text.nlp import language_of, parse
from memory.text.stopwords import STOPWORDS

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
WH_WORDS = frozenset(("what", "who", "whom", "whose", "when", "where", "which", "why", "how"))

WORD_PATTERN = re.compile(r"\d+(?:[,.]\d+)+|\w+(?:['’\-.]\w+)*")  # "3,468", "go-live", "it's"
_GAP = re.compile(r"\W*")
# features of a word that its neighbours (two either side) see too
_SHARED = ("ppar_ok", "mk", "again=", "before=", "eq_", "in_", "capmid", "caprun", "seen_before", "fn", "wh")
# Words either side whose word, shape, part of speech and shared features a word sees; the words
# one further are seen by their word and marker flag only. Chosen by the training's
# cross-validation (bench/train_repair_tagger.py GRID) among 1, 2 and 3.
NEIGHBOUR_REACH = 2
_REPEAT_WINDOW = 8  # words looked ahead/back for the same word again
_MARKER_REACH = 30  # words looked ahead/back for a marker


Token = tuple[str, int, int]


def tokenise(text: str) -> list[Token]:
    """The words of `text` with their character offsets: (word, start, end)."""
    return [(m.group(), m.start(), m.end()) for m in WORD_PATTERN.finditer(text)]


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


def gap_mark(gap: str) -> str:
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


def bucket(distance: int) -> str:
    """A distance in words as a feature value: 0-4 each, then 5-7 and 8+."""
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
    gaps_before = [gap_mark(text[tokens[i - 1][2] : tokens[i][1]]) if i else "^" for i in range(n)]
    tail = _GAP.match(text, tokens[-1][2]) if n else None
    gaps_after = [*gaps_before[1:], gap_mark(tail.group()) if tail else ""]
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
                f.append("again=" + bucket(j - i))
                break
        for j in range(i - 1, max(-1, i - 1 - _REPEAT_WINDOW), -1):
            if lower[j] == w:
                f.append("before=" + bucket(i - j))
                break
        m = next_marker[i]
        if m > i and m - i <= _MARKER_REACH:
            f.append("mkR=" + bucket(m - i))
            r = after_run[i]
            if r >= 0:
                rest = n - r
                f.append("rest=" + bucket(rest))
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
                    f.append("eq_run=" + bucket(k))
                elif w in lower[r : r + 4]:
                    f.append("in_rep")
                if shapes[i] == shapes[r] and shapes[i] != "x":
                    f.append("shape_as_rep")
        p = prev_marker[i]
        if 0 <= p < i and i - p <= _MARKER_REACH:
            f.append("mkL=" + bucket(i - p))
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
                    f.append("wrep_dt=" + bucket(abs(d - t)))
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


__all__ = [
    "LABELS",
    "MARKER_PHRASES",
    "MARKER_WORDS",
    "NEIGHBOUR_REACH",
    "NO_POS",
    "WORD_PATTERN",
    "english_parts_of_speech",
    "gap_mark",
    "marker_flags",
    "parts_of_speech",
    "token_features",
    "tokenise",
]
