"""What the chat model is asked to produce, and a tolerant reader of what it actually produced.

The model answers as JSON: a list of claims, each naming a passage, quoting one of that passage's
sentences and answering in a few words. The schema is turned into a llama.cpp grammar, and each
passage's `quote` is an enum of its own sentences, so even a tiny model can only copy real words
(the checker still verifies them: the grammar is a convenience, the checker is the proof).

The reader never trusts the output to be complete or well-formed: a weak model stops mid-string,
wraps JSON in prose or code fences, renames keys or writes "passage": "[2]". Every complete claim
object is read as soon as its closing brace arrives (this is what lets answers stream); the rest
is ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memory.text.doc import split_sentences
from memory.text.quotes import MIN_QUOTE_WORDS, word_count
from models.chat import grammar_safe

MAX_SENTENCE_CHARS = 600
ANSWER_CHARS = 80  # a few words; a weak model otherwise rambles until it runs out of tokens


def sentences(text: str) -> list[str]:
    """The passage's sentences as written (raw words), long enough to be a quote, no repeats."""
    out: list[str] = []
    for part in split_sentences(text):
        part = " ".join(part.split())
        if word_count(part) >= MIN_QUOTE_WORDS and part not in out:
            out.append(part[:MAX_SENTENCE_CHARS])
    return out


def claim_schema(
    passage_sentences: Sequence[tuple[int, list[str]]], *, max_claims: int = 3
) -> dict[str, Any]:
    """{"claims": [{"passage": n, "quote": one of passage n's sentences, "answer": "..."}]}."""
    choices = [
        {
            "type": "object",
            "properties": {
                "passage": {"const": number},
                "quote": {"enum": [grammar_safe(q) for q in quotes]},
                "answer": {"type": "string", "maxLength": ANSWER_CHARS},
            },
            "required": ["passage", "quote", "answer"],
        }
        for number, quotes in passage_sentences
        if quotes
    ]
    item: dict[str, Any] = choices[0] if len(choices) == 1 else {"anyOf": choices}
    return {
        "type": "object",
        "properties": {"claims": {"type": "array", "items": item, "minItems": 0, "maxItems": max_claims}},
        "required": ["claims"],
    }


@dataclass
class RawClaim:
    """One claim as the model wrote it: nothing here is trusted yet.

    While streaming, a claim is first reported as soon as its quote is complete (`complete` False:
    the answer may still be growing, or never finish), then again when its object closes.
    """

    text: str
    quote: str
    passages: list[int] = field(default_factory=list)
    complete: bool = True
    key: int = -1  # where the claim's object starts in the output: the same claim has one key


_TEXT_KEYS = ("answer", "text", "claim", "statement", "response")
_QUOTE_KEYS = ("quote", "quotes", "evidence", "citation", "source_text")
_PASSAGE_KEYS = ("passage", "passages", "source", "sources", "cite", "cites", "citations", "ref")


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return " ".join(_as_text(v) for v in value if _as_text(v)).strip()
    return ""


def _as_numbers(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, float) and value.is_integer():
        return [int(value)]
    if isinstance(value, str):
        return [int(n) for n in re.findall(r"\d{1,4}", value)]
    if isinstance(value, list):
        return [n for v in value for n in _as_numbers(v)]
    return []


def claim_from_object(obj: dict[str, Any]) -> RawClaim | None:
    lowered = {str(k).strip().lower(): v for k, v in obj.items()}
    text = next((_as_text(lowered[k]) for k in _TEXT_KEYS if k in lowered), "")
    quote = next((_as_text(lowered[k]) for k in _QUOTE_KEYS if k in lowered), "")
    numbers = next((_as_numbers(lowered[k]) for k in _PASSAGE_KEYS if k in lowered), [])
    if not text and not quote:
        return None
    return RawClaim(text=text, quote=_strip_quote_marks(quote), passages=list(dict.fromkeys(numbers)))


def _strip_quote_marks(quote: str) -> str:
    return quote.strip().strip("\"'“”‘’«»„").strip()


_QUOTE_VALUE = re.compile(r'"(?:' + "|".join(_QUOTE_KEYS) + r')"\s*:\s*("(?:[^"\\]|\\.)*")', re.IGNORECASE)
_PASSAGE_VALUE = re.compile(
    r'"(?:' + "|".join(_PASSAGE_KEYS) + r')"\s*:\s*(\d+|"[^"]*"|\[[^\]]*\])', re.IGNORECASE
)


class ClaimReader:
    """Reads claims out of streamed model text: `feed` returns what each piece completed.

    A claim is reported twice: once its quote string has closed (so a checked quote can be shown
    while the model is still writing, and even if it never finishes), and once its object closes.
    """

    def __init__(self) -> None:
        self.text = ""
        self._pos = 0
        self._in_string = False
        self._escaped = False
        self._opens: list[int] = []  # start offsets of the objects still open
        self._early: set[int] = set()  # objects already reported by their quote
        self.claims: list[RawClaim] = []  # complete claims

    def feed(self, piece: str) -> list[RawClaim]:
        self.text += piece
        found: list[RawClaim] = []
        for i in range(self._pos, len(self.text)):
            ch = self.text[i]
            if self._in_string:
                if self._escaped:
                    self._escaped = False
                elif ch == "\\":
                    self._escaped = True
                elif ch == '"':
                    self._in_string = False
                    early = self._early_claim()
                    if early is not None:
                        found.append(early)
            elif ch == '"':
                self._in_string = True
            elif ch == "{":
                self._opens.append(i)
            elif ch == "}" and self._opens:
                claim = self._claim_at(self._opens.pop(), i)
                if claim is not None:
                    found.append(claim)
                    self.claims.append(claim)
        self._pos = len(self.text)
        return found

    def _early_claim(self) -> RawClaim | None:
        """The innermost open object's claim, the moment its quote string has closed."""
        if not self._opens or self._opens[-1] in self._early:
            return None
        start = self._opens[-1]
        body = self.text[start:]
        quote = _QUOTE_VALUE.search(body)
        if quote is None or '"claims"' in body.lower():
            return None
        try:
            quote_text = json.loads(quote.group(1))
        except ValueError:
            return None
        self._early.add(start)
        passage = _PASSAGE_VALUE.search(body)
        numbers = _as_numbers(passage.group(1)) if passage else []
        return RawClaim("", _strip_quote_marks(_as_text(quote_text)), numbers, complete=False, key=start)

    def _claim_at(self, start: int, end: int) -> RawClaim | None:
        try:
            obj = json.loads(self.text[start : end + 1])
        except ValueError:
            return None
        if not isinstance(obj, dict) or "claims" in {str(k).lower() for k in obj}:
            return None
        claim = claim_from_object(obj)
        if claim is not None:
            claim.key = start
        return claim


def read_claims(text: str) -> list[RawClaim]:
    """Every complete claim in a model's output, in order; [] for anything unreadable."""
    reader = ClaimReader()
    reader.feed(text)
    return reader.claims
