"""Mark the words of a query in a passage (HTML), the way a reader scans for them.

Matching is by word start, case-insensitive, and tolerant of endings ("decide" marks "decided",
"decision" does not): close to what the keyword index's stemmer finds, without pretending to be it.
Matches are bold as well as tinted, so they do not depend on colour.
"""

from __future__ import annotations

import re
from html import escape

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Words that would mark half of every passage; short on purpose: names and content words stay.
_SKIP_TEXT = """
    the and for are was were what when where which who why how did does do you your our that this
    with from have has had about into they them then than there their will would could should can
    not but all any its his her she him we i me my of to in on at is a an be by or as"""
_SKIP = frozenset(_SKIP_TEXT.split())


def query_words(query: str) -> list[str]:
    found = [w.lower() for w in _WORD.findall(query)]
    content = [w for w in found if w not in _SKIP and (len(w) > 1 or w.isdigit())]
    return list(dict.fromkeys(content))


def _stem(word: str) -> str:
    """A crude common stem: enough for 'decided'/'decide', 'budgets'/'budget'."""
    for ending in ("ing", "ed", "es", "s", "e"):
        if len(word) - len(ending) >= 4 and word.endswith(ending):
            return word[: -len(ending)]
    return word


def highlight_html(text: str, query: str, *, background: str, foreground: str) -> str:
    """`text` escaped for HTML with every query word marked."""
    stems = sorted({_stem(w) for w in query_words(query)}, key=len, reverse=True)
    if not stems:
        return escape(text)
    pattern = re.compile(r"\b(" + "|".join(re.escape(s) for s in stems) + r")[^\W_]{0,4}\b", re.IGNORECASE)
    out, last = [], 0
    for match in pattern.finditer(text):
        out.append(escape(text[last : match.start()]))
        out.append(
            f"<span style='background-color:{background}; color:{foreground}; font-weight:bold'>"
            f"{escape(match.group(0))}</span>"
        )
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


def count_matches(text: str, query: str) -> int:
    return highlight_html(text, query, background="x", foreground="x").count("<span")
