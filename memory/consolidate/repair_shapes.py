"""Self-corrections read by the shape of a repair, whatever words it is said in (bench/repairs-prose
measures them; memory/consolidate/corrections.py says how they join the other readers):
- a value said again (`said_again_corrections`): only to be taken back ("nine, I keep saying
  nine, it's eleven"), or a name put right by one spelled nearly the same ("Dunmore Partners,
  Dunmere Partners, I meant to say");
- a number or day put right and the repair said again at once (`_right_said_twice`): "thirty-four
  accounts, uh, forty-three, forty-three accounts";
- a word cut off by a dash (`cut_off_corrections`): "sixty— sixty-five thousand", "one point f-,
  one point four million".
"""

from __future__ import annotations

import re
from itertools import pairwise

from memory.consolidate.correction_phrases import Correction, match_values, phrase_values, right_phrase
from memory.consolidate.correction_rules import COORDINATORS, WORD, differ, words
from memory.text.doc import Doc, Sentence

# A value said again only to be taken back ("twelve, I keep saying twelve, it's fifteen", "the
# 12th, sorry, not the 12th, the 14th"): at most REPEAT_REACH words from the value to its repetition,
# at most RIGHT_REACH words from the repetition to the value that replaces it.
REPEAT_REACH = 5
RIGHT_REACH = 3


def said_again_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """Repairs that say a value again: the slip repeated to be taken back (`_repeated`), or a name
    spelled nearly the same put in its place (`_near_name`). Each sentence's values are read once
    for both."""
    found = []
    for sentence in sentences:
        values = phrase_values(sentence.text, doc)
        values["name"] = _whole_names(sentence.text, values["name"])
        if not any(len(said) > 1 for said in values.values()):
            continue
        here = _repeated(sentence.text, values) + _near_name(sentence.text, values["name"])
        here += _right_said_twice(sentence.text, values, {w for _, w, _, _ in here})
        found += [
            Correction(marker, doc.span(sentence.start + wa, sentence.start + wb),
                       doc.span(sentence.start + ra, sentence.start + rb), family)
            for marker, (wa, wb), (ra, rb), family in here
        ]  # fmt: skip
    return found


_Found = tuple[str, tuple[int, int], tuple[int, int], str]  # marker, wrong, right, family (in the sentence)


def _repeated(text: str, values: dict[str, list[tuple[int, int, str]]]) -> list[_Found]:
    """A value, the same value said again, then another of its kind: the speaker repeats a slip to
    take it back, whatever words do it. Not a list ("and" or "or" before the last value), nor a day
    said again as its weekday."""
    found: list[_Found] = []
    for family, said in values.items():
        for i, (wa, wb, wrong) in enumerate(said):
            later = [
                k for k in range(i + 1, len(said)) if _same_said(text[wa:wb], text[said[k][0] : said[k][1]])
            ]
            again = later[0] if later else None
            if (
                again is None
                or again + 1 >= len(said)
                or len(words(text[wb : said[again][0]])) > REPEAT_REACH
            ):
                continue
            (_, ab, _), (ra, rb, right) = said[again], said[again + 1]
            between = words(text[ab:ra])
            if len(between) > RIGHT_REACH or any(w in COORDINATORS for w in between):
                continue
            if not differ(family, (text[wa:wb], wrong), (text[ra:rb], right)):
                continue
            marker = " ".join(text[wb:ra].strip(" ,;:.-\u2013\u2014").split())
            found.append((marker, (wa, wb), (ra, rb), family))
            break
    return found


def _right_said_twice(
    text: str, values: dict[str, list[tuple[int, int, str]]], wrong_taken: set[tuple[int, int]]
) -> list[_Found]:
    """A number or a day, straight after it another of its kind, and that one said again at once:
    the speaker puts the slip right and repeats the repair to make it stick ("thirty-four accounts,
    uh, forty-three, forty-three accounts"). Not a list ("and" or "or" between the first two), only
    a repeat with no word between, and not for names ("Priya, Jonas, Jonas and Mei" is a list)."""
    found: list[_Found] = []
    for family in ("number", "date"):
        said = values.get(family, [])
        for i, ((wa, wb, wrong), (ra, rb, right)) in enumerate(pairwise(said)):
            between = words(text[wb:ra])
            if (
                (wa, wb) in wrong_taken
                or len(between) > RIGHT_REACH
                or any(w in COORDINATORS for w in between)
            ):
                continue
            end = _said_again_at_once(text, (ra, rb), said[i + 2] if i + 2 < len(said) else None)
            if end is None or not differ(family, (text[wa:wb], wrong), (text[ra:rb], right)):
                continue
            marker = " ".join(text[wb:ra].strip(" ,;:.-\u2013\u2014").split())
            found.append((marker, (wa, wb), (ra, end), family))
    return found


def _said_again_at_once(text: str, value: tuple[int, int], after: tuple[int, int, str] | None) -> int | None:
    """Where the value's repeat ends, when it is said twice in a row: within its own span (a number
    reader may read "forty-three, forty-three" as one) or as the next value, no word between."""
    end = value[1]
    while end < len(text) and (text[end].isalnum() or text[end] in "-'"):
        end += 1  # to the end of its last word (a number read from words may stop a letter short)
    said = words(text[value[0] : end])
    half = len(said) // 2
    if half and len(said) % 2 == 0 and said[:half] == said[half:]:
        return end
    if after is not None and not words(text[value[1] : after[0]]):
        again = words(text[after[0] : after[1]])
        if said and again[: len(said)] == said:
            return after[1]
    return None


def _same_said(a: str, b: str) -> bool:
    return words(a) == words(b) and bool(words(a))


def _whole_names(text: str, names: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Name words said one after the other as one name ("Wen Li")."""
    out: list[tuple[int, int, str]] = []
    for a, b, value in names:
        if out and not text[out[-1][1] : a].strip():
            out[-1] = (out[-1][0], b, f"{out[-1][2]} {value}")
        else:
            out.append((a, b, value))
    return out


# A word cut off by a dash, then the words said instead: "Bartho— Barnaby Quayle", "sixty— sixty-five
# thousand", "thr— two point three million" (a dash straight after the word's letters, then a space;
# not "pre- and post-war").
# A transcript may set a comma after the break ("one point f-, one point four"), and the broken word
# may be the second part of a hyphened number ("fifty-ei-, fifty-three").
_CUT_OFF = re.compile(
    r"(?<![\w-])(?P<cut>\w+(?:-\w+)?)[\u2014\u2013-](?=,?\s+(?!and\b|or\b|und\b|oder\b)\w)", re.I
)


def cut_off_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """A word broken off by a dash and the phrase said in its place (kind of the values the two
    sides hold, else "words")."""
    found = []
    for sentence in sentences:
        for m in _CUT_OFF.finditer(doc.text, sentence.start, sentence.end):
            after = doc.text[m.end() : sentence.end]
            right_a, right_b = right_phrase(doc, m.end() + len(after) - len(after.lstrip(" ,")), sentence.end)
            if right_b <= right_a:
                continue
            cut = m.group("cut")
            right_words = words(doc.text[right_a:right_b])
            # the repair takes up where the word broke off, or says a value of the kind the cut
            # word began ("sixty— sixty-five", "Thurs— Friday", "Rotte— the Antwerp office")
            matched = match_values(cut, doc.text[right_a:right_b], doc)
            kind = matched[0] if matched is not None else "words"
            if (
                matched is None
                and not any(w[:1] == cut[:1].lower() for w in right_words[:3])
                and not cut[:1].isupper()
            ):
                continue
            found.append(
                Correction(
                    "(cut off)",
                    doc.span(_retraced_from(doc, sentence, m.start("cut"), right_words), m.end("cut")),
                    doc.span(right_a, right_b),
                    kind,
                )
            )
    return found


def _retraced_from(doc: Doc, sentence: Sentence, cut_at: int, right_words: list[str]) -> int:
    """Where the taken-back words start: before the cut word, the words the repair says again
    ("one point f-, one point four million": from "one")."""
    before = list(WORD.finditer(doc.text[sentence.start : cut_at]))
    for n in range(min(len(before), len(right_words) - 1), 0, -1):
        if [w.group().lower() for w in before[-n:]] == right_words[:n]:
            return sentence.start + before[-n].start()
    return cut_at


def _near_name(text: str, names: list[tuple[int, int, str]]) -> list[_Found]:
    """A name, a comma, and a name spelled nearly the same in its place ("Dunmore Partners,
    Dunmere Partners, I meant to say", "Kazimierz Nowak, Nowicki", "Brightwell, Brightmoor,
    sorry"): speakers slip to a name that sounds like the right one, and names in a list rarely
    start alike. Not when the list goes on ("and", "or", or a third name after the second)."""
    found: list[_Found] = []
    for k in range(len(names) - 1):
        (wa, wb, wrong), (ra, rb, right) = names[k], names[k + 1]
        if text[wb:ra].strip() != "," or not _sounds_alike(wrong.split(), right.split()):
            continue
        after = words(text[rb:])
        if after[:1] and after[0] in COORDINATORS:
            continue
        if k + 2 < len(names) and len(words(text[rb : names[k + 2][0]])) <= 1 and names[k + 2][2] != right:
            continue  # a third name straight after: a list (not the right one said again)
        found.append(("(said again)", (wa, wb), (ra, rb), "name"))
    return found


def _sounds_alike(wrong: list[str], right: list[str]) -> bool:
    """Two names that differ in one word spelled nearly the same (the same first three letters), or
    a surname said again alone with the first letter of the one it replaces."""
    if wrong == right:
        return False
    if len(wrong) > 1 and len(right) == 1:
        return right[0][:1] == wrong[-1][:1] and right[0] != wrong[-1]
    if len(wrong) != len(right):
        return False
    differ = [(a, b) for a, b in zip(wrong, right, strict=True) if a != b]
    return len(differ) == 1 and differ[0][0][:3] == differ[0][1][:3]
