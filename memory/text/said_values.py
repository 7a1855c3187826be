"""What reading spoken text for dates, times and quantities finds, and the number words it reads.

An `Entity` is a value with the raw words it was said in (their offsets); `Taken` keeps the ranges
already read, so a date's "13" is not also a count. `NUMBER_WORDS` are the number words a day, an
hour or a count is said with in English and German (text2num's values for the German ones).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.text.numbers import german_number_words, word_list

_UNITS = word_list(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
    " seventeen eighteen nineteen"
)
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
NUMBER_WORDS = {w: i for i, w in enumerate(_UNITS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
NUMBER_WORDS |= german_number_words() | {"dozen": 12}  # "elf", "dreiundzwanzig": text2num's values
NUMBER_WORD_PATTERN = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))


@dataclass(frozen=True)
class Entity:
    kind: str  # date | time | amount | count | percent | person | organisation | technology | name
    text: str  # the raw words
    start: int  # character offsets in the text it was found in
    end: int
    value: str  # normalised: "2026-06-11", "14800 GBP", "64", "gwen trevelyan"
    unit: str = ""  # counts: "supplier"; amounts: "per day"
    grain: str = ""  # dates: day | week | month | year
    explicit: bool = True  # dates: said in full (a month or weekday named), not only resolved


def parse_number(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    total = 0
    for part in re.split(r"[\s-]+", word):
        if part not in NUMBER_WORDS:
            return None
        total += NUMBER_WORDS[part]
    return total


class Taken:
    """Character ranges already claimed by an entity (a date's "13" is not also a count)."""

    def __init__(self) -> None:
        self.ranges: list[tuple[int, int]] = []

    def free(self, a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in self.ranges)

    def take(self, a: int, b: int) -> None:
        self.ranges.append((a, b))
