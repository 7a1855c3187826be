"""Amounts with their currency, counts with the noun counted, and percentages in a sentence, as
entities (memory/text/entities.py reads them beside dates and names): "£1,250 a day", "44
suppliers", "forty-seven thousand patient records", "12 percent". A number that names something
("phase two", "version 3") or counts nothing said ("two of the galleries") is none.
"""

from __future__ import annotations

import re

from memory.text.dates import ORDINAL_SUFFIX
from memory.text.numbers import word_list
from memory.text.said_values import NUMBER_WORD_PATTERN, Entity, Taken, parse_number

_NUMBER = re.compile(
    r"(?P<cur>[£$€])?\s?(?<![^\W\d_])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s?(?P<mult>k|m|bn|million|thousand|grand|mio|tsd)\b)?",
    re.I,
)
_NUMBER_WORDS = re.compile(rf"\b(?P<w>(?:{NUMBER_WORD_PATTERN})(?:[\s-](?:{NUMBER_WORD_PATTERN}))?)\b", re.I)
_CURRENCY_WORD = re.compile(
    r"\s+(?P<c>pounds?|quid|euros?|eur|dollars?|usd|gbp|pence|p|cents?|francs?|chf|franken|euro)\b", re.I
)
_PERCENT = re.compile(r"\s*(?:%|percent\b|per\s+cent\b|prozent\b)", re.I)
_RATE = re.compile(
    r"\s+(?:a|an|per|pro|each)\s+(?P<r>day|hour|week|month|year|message|head|user|seat|person|"
    r"minute|batch|tag|stunde|monat|jahr)\b",
    re.I,
)
_UNIT_WORD = re.compile(r"\s+(?P<w>[a-zäöüß][a-zäöüß-]{1,})")
_CURRENCIES = {"£": "GBP", "$": "USD", "€": "EUR", "pound": "GBP", "quid": "GBP", "euro": "EUR"}
_CURRENCIES |= {"eur": "EUR", "dollar": "USD", "usd": "USD", "gbp": "GBP", "penny": "GBP-pence"}
_CURRENCIES |= {"pence": "GBP-pence", "p": "GBP-pence", "cent": "EUR-cent", "franc": "CHF", "chf": "CHF"}
_CURRENCIES |= {"franken": "CHF"}
_MULT = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "tsd": 1e3, "m": 1e6, "million": 1e6, "mio": 1e6}
_MULT |= {"bn": 1e9}
_NOT_UNITS = frozenset(
    word_list(
        """
    a an the and or but of at to for in on by with from is are was were be been it its this that
    these those so if as than then there here no not up down out off over about into per has have
    had will would can could should may might do does did we you they he she i my our your their his
    her um uh like which who what when where while because also just all some any each other more
    less quid pounds pound euros euro dollars pence percent weeks days years months week day year
    month ago later earlier before after yet still already instead plus minus times odd ish actually
    really basically first again something point total altogether only just around roughly"""
    )
)
_SKIPPABLE = frozenset(
    word_list(
        """
    new old extra more other additional full different separate big small main"""
    )
)


def _unit_after(text: str, end: int) -> tuple[str, int]:
    """The noun counted ("44 suppliers", "47,000 patient records"): its stem, and where it ends."""
    unit, at, last = "", end, end
    for _ in range(3):
        m = _UNIT_WORD.match(text, at)
        if m is None or m.group("w").lower() in _NOT_UNITS:
            break
        at = m.end()
        if m.group("w").lower() not in _SKIPPABLE:
            unit, last = m.group("w").lower(), m.end()
            if unit.endswith("s"):
                break  # "47,000 patient records": the plural noun ends the phrase
    return (_singular(unit), last) if unit else ("", end)


def _singular(word: str) -> str:
    for suffix, replacement in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + replacement
    return word


def _quantity(
    text: str, start: int, end: int, amount: float, taken: Taken, *, symbol: str | None, word: bool
) -> Entity | None:
    before = text[max(0, start - 12) : start].lower()
    if re.search(r"(?:^|\W)(?:phase|scope|step|stage|tier|number|no|version|v)\s*$", before):
        return None  # an identifier ("phase two", "scope three"), not a quantity
    currency = _CURRENCIES.get(symbol or "")
    stop = end
    if m := _CURRENCY_WORD.match(text, end):
        currency = _CURRENCIES.get(_singular(m.group("c").lower()), currency)
        stop = m.end()
    if m := _PERCENT.match(text, end):
        taken.take(start, m.end())
        return Entity("percent", text[start : m.end()], start, m.end(), f"{amount:g}%")
    unit = ""
    if m := _RATE.match(text, stop):
        unit, stop = f"per {m.group('r').lower()}", m.end()
    elif not currency:
        unit, stop = _unit_after(text, stop)
        said_as_value = re.search(
            r"(?:\bis|\bare|['’]s|\bbe|\bwants?|\bat)\s+(?:now\s+|only\s+|just\s+)?$", text[:start], re.I
        )
        if re.match(r"\s+of\b", text[stop:]) or (word and not unit and not said_as_value):
            return None  # "two of the galleries", "three have refused": no countable unit said
    taken.take(start, stop)
    value = f"{amount:g} {currency}".strip() + (f" {unit}" if currency and unit else "")
    kind = "amount" if currency else "count"
    return Entity(kind, text[start:stop], start, stop, value if currency else f"{amount:g}", unit)


def read_quantities(text: str, taken: Taken) -> list[Entity]:
    found = []
    for m in _NUMBER.finditer(text):
        a, b = m.start("num"), m.end()
        if (
            not taken.free(a, b)
            or re.match(ORDINAL_SUFFIX + r"\b", text[m.end("num") :])
            or text[b : b + 1] == ":"
        ):
            continue
        if m.group("cur"):
            a = m.start("cur")
        amount = float(m.group("num").replace(",", "")) * _MULT.get((m.group("mult") or "").lower(), 1)
        if (e := _quantity(text, a, b, amount, taken, symbol=m.group("cur"), word=False)) is not None:
            found.append(e)
    for m in _NUMBER_WORDS.finditer(text):
        if not taken.free(m.start(), m.end()) or (value := parse_number(m.group("w"))) is None or value < 2:
            continue
        if (
            e := _quantity(text, m.start(), m.end(), float(value), taken, symbol=None, word=True)
        ) is not None:
            found.append(e)
    return found
