"""Which words of a spoken sentence the meant sentence leaves out, by difflib alignment: the labels
the repair tagger is trained on (bench/train_repair_tagger.py) and the replaced words it is scored
on (bench/evals/corrections_eval.py). Both import this module; it imports neither.

Words are compared lower-cased, letters and digits only (`word_key`). A removed stretch is shifted
left while the word before it equals its last word ("the 6th no the 13th": "the 6th no" rather
than "6th no the"), so that the same reading gives the same removed words however difflib aligns
a repeated word.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from memory.text.repair_features import (
    KEEP,
    MARKER,
    MOVED,
    REPLACED,
    REPLACED_START,
    SOURCE,
    marker_flags,
    tokenise,
)


def word_key(word: str) -> str:
    return "".join(c for c in word.lower() if c.isalnum())


def keys(text: str) -> list[str]:
    """The compared form of each word of `text` (repair_features.tokenise)."""
    return [word_key(w) for w, _, _ in tokenise(text)]


def shift_left(words: Sequence[str], mask: Sequence[bool]) -> list[bool]:
    """Each removed stretch moved left while the word before it equals its last word."""
    out = list(mask)
    i = 0
    while i < len(out):
        if not out[i]:
            i += 1
            continue
        j = i
        while j < len(out) and out[j]:
            j += 1
        s, e = i, j
        while s > 0 and not out[s - 1] and words[s - 1] == words[e - 1]:
            out[s - 1], out[e - 1] = True, False
            s, e = s - 1, e - 1
        i = j
    return out


def removed_mask(disfluent: str, reading: str) -> list[bool]:
    """For each word of `disfluent`, whether `reading` leaves it out (the disfluent side of every
    delete and replace of the alignment)."""
    a, b = keys(disfluent), keys(reading)
    mask = [False] * len(a)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, _, _ in matcher.get_opcodes():
        if op in ("delete", "replace"):
            for i in range(i1, i2):
                mask[i] = True
    return shift_left(a, mask)


def deletions(a: Sequence[str], b: Sequence[str]) -> list[bool] | None:
    """Which words of `a` are left out to give `b`, when `b` is `a` with words left out (else None)."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    mask = [False] * len(a)
    for op, i1, i2, _, _ in matcher.get_opcodes():
        if op in ("insert", "replace"):
            return None
        if op == "delete":
            for i in range(i1, i2):
                mask[i] = True
    return shift_left(a, mask)


def split_marker(lower: Sequence[str], mask: Sequence[bool]) -> list[str]:
    """Labels of the left-out stretches: the longest tail of marker words (repair_features.marker_flags) is
    the marker (M), the words before it replaced (B then R)."""
    flags = marker_flags(lower)
    labels = [KEEP] * len(mask)
    i = 0
    while i < len(mask):
        if not mask[i]:
            i += 1
            continue
        j = i
        while j < len(mask) and mask[j]:
            j += 1
        k = j
        while k > i and flags[k - 1]:
            k -= 1
        for t in range(i, j):
            labels[t] = (REPLACED_START if t == i else REPLACED) if t < k else MARKER
        i = j
    return labels


def in_place_labels(disfluent: str, fluent: str) -> list[str] | None:
    """Labels when the fluent words are the disfluent ones with some left out, else None."""
    mask = deletions(keys(disfluent), keys(fluent))
    if mask is None:
        return None
    return split_marker([w.lower() for w, _, _ in tokenise(disfluent)], mask)


def displaced_labels(disfluent: str, fluent: str) -> list[str] | None:
    """S/M/P (and B/R/M) labels when the fluent words are a displaced repair of the disfluent ones:
    a stretch after a marker moved into the place of an earlier stretch (at most 6 words each),
    other words left out as in `in_place_labels`. The fewest left-out words win."""
    a, b = keys(disfluent), keys(fluent)
    lower = [w.lower() for w, _, _ in tokenise(disfluent)]
    flags = marker_flags(lower)
    joined = " " + " ".join(b) + " "
    n = len(a)
    best: tuple[tuple[int, int, int], list[str]] | None = None
    for k1 in range(2, n):
        for k2 in range(k1 + 1, min(n, k1 + 6) + 1):
            moved = a[k1:k2]
            if " " + " ".join(moved) + " " not in joined:
                break
            for m1 in range(k1 - 1, max(0, k1 - 6), -1):
                if not flags[m1]:
                    break
                for i1 in range(m1):
                    for i2 in range(i1 + 1, min(m1, i1 + 6) + 1):
                        c = [*a[:i1], *moved, *a[i2:m1], *a[k2:]]
                        if len(c) < len(b):
                            continue
                        index = [*range(i1), *[-1] * len(moved), *range(i2, m1), *range(k2, n)]
                        mask = deletions(c, b)
                        if mask is None:
                            continue
                        score = (sum(mask), (i2 - i1) + (k2 - k1), k1 - m1)
                        if best is not None and score >= best[0]:
                            continue
                        if any(mask[t] for t in range(i1, i1 + len(moved))):
                            continue
                        labels = [KEEP] * n
                        removed = [False] * n
                        for t, gone in enumerate(mask):
                            if gone and index[t] >= 0:
                                removed[index[t]] = True
                        for t, lab in enumerate(split_marker(lower, removed)):
                            labels[t] = lab
                        if any(labels[t] != KEEP for t in range(i1, k2)):
                            continue
                        for t in range(i1, i2):
                            labels[t] = SOURCE
                        for t in range(m1, k1):
                            labels[t] = MARKER
                        for t in range(k1, k2):
                            labels[t] = MOVED
                        best = (score, labels)
    return best[1] if best else None


def labels_of(pair: dict[str, str]) -> list[str] | None:
    """The labels of a pair's disfluent words, or None when neither labelling explains the pair
    (rewordings: "type" -> "types", reordered questions)."""
    return in_place_labels(pair["disfluent"], pair["fluent"]) or displaced_labels(
        pair["disfluent"], pair["fluent"]
    )


def pair_kind(disfluent: str, fluent: str) -> str:
    """ "in place" when the fluent words are the disfluent words with some left out, "displaced"
    when `displaced_labels` explains the pair, else "other"."""
    it = iter(keys(disfluent))
    if all(x in it for x in keys(fluent)):
        return "in place"
    return "displaced" if displaced_labels(disfluent, fluent) is not None else "other"
