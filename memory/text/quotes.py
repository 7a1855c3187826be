"""The deterministic quote checker: is a quote verbatim in the raw words of a passage, and where?

A claim is **stated** only when its quote, compared after normalising case, whitespace and
punctuation, occurs as a contiguous run of words in the raw segments of a passage. The match is
resolved to the segments it covers, their start/end seconds and the exact raw words (the
transcript's spelling, not the model's). Nothing here trusts a model: it only compares words.

Normalisation: Unicode NFKC and case folding (per character with its combining marks, so
decomposed and precomposed accents are one word), and every character that is not a letter,
digit or combining mark treated as a word break ("42,500" → "42 500", "don't" → "don t"). The same function
tokenises both sides, so the comparison is symmetric by construction.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

MIN_QUOTE_WORDS = 3  # "at least a few words": one or two words match almost anywhere


class ClaimKind(StrEnum):
    """What a line of an answer, a fact or a digest item is: **stated** when its quote was found
    verbatim in the raw words by this module, **inferred** when it is a model's reading."""

    STATED = "stated"
    INFERRED = "inferred"


@dataclass(frozen=True)
class Token:
    norm: str  # normalised word
    segment: int  # position of its segment in the passage
    start: int  # raw character offsets inside that segment's text
    end: int


def _is_word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNM"


def _joins_previous(ch: str) -> bool:
    """Combining marks, and the vowel and final jamo of decomposed Hangul, belong to the character before."""
    return unicodedata.category(ch)[0] == "M" or "\u1160" <= ch <= "\u11ff"


def _clusters(text: str) -> list[tuple[int, int, str]]:
    """(first raw offset, last raw offset, folded characters) per character and the marks on it.

    Folding a character together with its combining marks makes "e" + U+0301 (as macOS and some
    subtitle tools write) the same word as the precomposed "é" a model or a user types.
    """
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(text):
        j = i + 1
        while j < len(text) and _joins_previous(text[j]):
            j += 1
        folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text[i:j]).casefold())
        out.append((i, j - 1, folded))
        i = j
    return out


def tokens(text: str, segment: int = 0) -> list[Token]:
    """Normalised words with the raw character span each came from.

    Each raw character (with the combining marks on it) is folded on its own (NFKC, case folding),
    so every normalised character knows which raw characters it came from; "½" folds to "1⁄2"
    and gives two words.
    """
    out: list[Token] = []
    word: list[str] = []
    origin = -1
    last = -1
    for first, final, folded in _clusters(text):
        for ch in folded:
            if _is_word_char(ch):
                if not word:
                    origin = first
                word.append(ch)
                last = final
            elif word:
                out.append(Token("".join(word), segment, origin, last + 1))
                word = []
    if word:
        out.append(Token("".join(word), segment, origin, last + 1))
    return out


def normalise(text: str) -> str:
    """The comparable form of a text: normalised words joined by single spaces."""
    return " ".join(t.norm for t in tokens(text))


def word_count(text: str) -> int:
    return len(tokens(text))


@dataclass(frozen=True)
class SourceSegment:
    """A raw segment as the checker sees it."""

    id: int
    start: float
    end: float
    text: str  # the raw words, never an edit


@dataclass(frozen=True)
class QuoteSpan:
    """Where a quote was found: the raw words and the segments (with times) that hold them."""

    text: str
    segment_ids: tuple[int, ...]
    start: float
    end: float
    first_token: int  # token positions in the passage, inclusive
    last_token: int


class QuoteSource:
    """The raw segments of one passage, tokenised once, for repeated quote look-ups."""

    def __init__(self, segments: Sequence[SourceSegment]) -> None:
        self.segments = list(segments)
        self.tokens: list[Token] = []
        for position, seg in enumerate(self.segments):
            self.tokens.extend(tokens(seg.text, position))
        self._norms = [t.norm for t in self.tokens]

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.segments)

    def find(self, quote: str, *, min_words: int = MIN_QUOTE_WORDS) -> QuoteSpan | None:
        """The first verbatim occurrence of `quote` (normalised), or None."""
        wanted = [t.norm for t in tokens(quote)]
        if len(wanted) < max(1, min_words) or len(wanted) > len(self._norms):
            return None
        first = wanted[0]
        for i, norm in enumerate(self._norms[: len(self._norms) - len(wanted) + 1]):
            if norm == first and self._norms[i : i + len(wanted)] == wanted:
                return self.span(i, i + len(wanted) - 1)
        return None

    def span(self, first_token: int, last_token: int) -> QuoteSpan:
        """The raw words from one token to another (inclusive), across segments."""
        a, b = self.tokens[first_token], self.tokens[last_token]
        parts: list[str] = []
        for position in range(a.segment, b.segment + 1):
            raw = self.segments[position].text
            lo = a.start if position == a.segment else 0
            hi = b.end if position == b.segment else len(raw)
            parts.append(raw[lo:hi].strip())
        covered = self.segments[a.segment : b.segment + 1]
        return QuoteSpan(
            text=" ".join(p for p in parts if p),
            segment_ids=tuple(s.id for s in covered),
            start=covered[0].start,
            end=covered[-1].end,
            first_token=first_token,
            last_token=last_token,
        )


@dataclass(frozen=True)
class Located:
    """A checked quote: the passage that holds it, and whether that is not the one the claim cited."""

    passage: int
    span: QuoteSpan
    reattributed: bool


def locate_quote(
    quote: str,
    cited: Sequence[int],
    passages: Mapping[int, QuoteSource],
    *,
    min_words: int = MIN_QUOTE_WORDS,
) -> Located | None:
    """Check a quote against the passages a claim cited, then against every other passage.

    A quote found only in a passage the claim did not cite is re-attributed to it (a weak model
    often gets the number wrong but the words right). None: the quote is not verbatim anywhere,
    so the claim can only be inferred.
    """
    order = [n for n in dict.fromkeys(cited) if n in passages]
    others = [n for n in passages if n not in order]
    for number in order + others:
        span = passages[number].find(quote, min_words=min_words)
        if span is not None:
            return Located(number, span, reattributed=number not in order)
    return None
