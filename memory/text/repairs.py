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
  one, the start ranker (memory/text/repair_starts.py) finds some (a short repair at the end of the sentence).
Marker words outside any repair ("umm", a trailing "rather") are left out of the meant reading too.

The words are tagged by the repair tagger (memory/text/repair_tagger.py, a CRF trained on
Disfl-QA, with the features of memory/text/repair_features.py and the start ranker of
memory/text/repair_starts.py); this module reads what its labels describe: the `Repair` objects,
the markers outside any repair, and the meant reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memory.text.repair_features import (
    MARKER,
    MOVED,
    REPLACED,
    REPLACED_START,
    SOURCE,
    WORD_PATTERN,
    Token,
    gap_mark,
    tokenise,
)
from memory.text.repair_tagger import tag_text


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
        if i > 0 and gap_mark(text[tokens[i - 1][2] : tokens[i][1]]) in (",", ".", "?"):
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
        following = WORD_PATTERN.search(text, b)
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
    repairs, fillers = read_labels(text, tokens, tag_text(text, tokens).labels)
    return apply_repairs(text, repairs, fillers)


__all__ = [
    "Repair",
    "apply_repairs",
    "find_repairs",
    "meant_reading",
    "read_labels",
    "repairs_from_labels",
]
