"""The rule readers of self-corrections, in every sentence of either language (what each reads, and
how a correction found by more than one is reported once: memory/consolidate/corrections.py):
- the cue rules (`cue_corrections`): a cue ("no, sorry", "scratch that", "nein, warte", ...)
  between two phrases, and "six clinics, well, seven actually";
- retraces (`retrace_corrections`): the same frame said again with a differing value ("on the
  3rd, on the 4th of September");
- corrective conjunctions after a negation (`contrast_corrections`): "not Weber but Wegener",
  "nicht um zehn, sondern um 14 Uhr".
The readers that go by the shape of a repair, not its words (a value said again, a word cut off),
are in memory/consolidate/repair_shapes.py; those of words that say a slip in retractions.py.
The phrases either side and the values they hold are cut and compared by
memory/consolidate/correction_phrases.py.
"""

from __future__ import annotations

import contextlib
import re
from datetime import date

from memory.consolidate.correction_phrases import (
    Correction,
    left_phrase,
    match_values,
    phrase_values,
    right_phrase,
)
from memory.text.dates import MONTHS, WEEKDAYS
from memory.text.doc import Doc, Sentence
from memory.text.nlp import language_of
from memory.text.numbers import Converted
from memory.text.repair_features import marker_flags
from memory.text.said_values import NUMBER_WORDS

_FILLER = r"(?:oh|um|uh|äh|ähm|well|so|okay)"
_CORE = (
    r"(?:no|nope|nein|wait|warte|sorry|entschuldigung|actually|eigentlich|"
    r"i\s+(?:actually\s+)?mean(?:t)?|ich\s+mein(?:t)?e|scratch\s+that|correction|korrektur|"
    r"let\s+me\s+correct(?:\s+that|\s+myself)?|or\s+rather|beziehungsweise|quatsch|i\s+should\s+say|"
    # more editing terms of spoken repair: a correction only with a differing value either side
    r"hang\s+on|my\s+mistake|my\s+bad|make\s+that|what\s+am\s+i\s+saying|"
    r"let\s+me\s+(?:get\s+that\s+right|rephrase|say\s+that\s+again))"
)
# The cues that make a correction when the phrases either side hold differing values of one kind
# (the rest of _CORE only with a stronger cue in the run).
_VALUE_CUE = re.compile(
    r"\b(?:no|nein|sorry|actually|eigentlich|mean|meine|rather|beziehungsweise|hang\s+on|my\s+mistake|"
    r"my\s+bad|make\s+that|what\s+am\s+i\s+saying|let\s+me\s+(?:get\s+that\s+right|rephrase|say\s+that\s+again))\b",
    re.I,
)
_CUE_RUN = re.compile(
    rf"(?:(?<=[,.;:!?])\s*|(?<=[.!?]\s)|^)(?P<run>(?:(?:{_FILLER}|{_CORE})[,:]?\s+)*?{_CORE}\b(?:[,:]?\s+(?:{_FILLER}|{_CORE})\b)*)[,:]?\s+",
    re.I,
)
_STRONG = re.compile(
    r"\bwait\b|\bwarte\b|scratch\s+that|correction|korrektur|\bi\s+(?:actually\s+)?meant\b|\bich\s+meinte\b|"
    r"let\s+me\s+correct|quatsch|\bno,?\s+sorry\b|\bnein,?\s+sorry\b",
    re.I,
)
_WELL_ACTUALLY = re.compile(
    r"(?<=,)\s*(?P<run>well),?\s+(?P<right>[^,.;]{1,40}?)\s+(?:actually|eigentlich)\b", re.I
)


def _well_actually(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """ "six clinics, well, seven actually": the cue wraps the correcting words."""
    found = []
    for sentence in sentences:
        for m in _WELL_ACTUALLY.finditer(doc.text, sentence.start, sentence.end):
            left_a, left_b = left_phrase(doc, m.start("run"), sentence.start)
            matched = match_values(doc.text[left_a:left_b], m.group("right"), doc)
            if matched is not None:
                found.append(
                    Correction(
                        "well, … actually",
                        doc.span(left_a + matched[1], left_b),
                        doc.span(m.start("right"), m.end()),
                        matched[0],
                    )
                )
    return found


def cue_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """The cue rules' corrections in `sentences`: a cue between two phrases (see the module doc)."""
    found: list[Correction] = _well_actually(doc, sentences)
    for sentence in sentences:
        for m in _CUE_RUN.finditer(doc.text, sentence.start, sentence.end):
            run = m.group("run")
            strong = bool(_STRONG.search(run))
            if not strong and not _VALUE_CUE.search(run):
                continue
            floor = sentence.start
            if doc.text[sentence.start : m.start("run")].strip(" ,") == "":
                previous = doc.sentence_at(max(0, sentence.start - 2))
                if previous.number == sentence.number or _asks(previous.text):
                    continue
                floor = previous.start
            left_a, left_b = left_phrase(doc, m.start("run"), floor)
            right_a, right_b = right_phrase(doc, m.end(), sentence.end)
            left, right = doc.text[left_a:left_b], doc.text[right_a:right_b]
            if not left.strip() or not re.search(r"\w", right):
                continue
            matched = match_values(left, right, doc)
            if matched is not None:
                kind, wrong_at, _ = matched
                left_a += wrong_at
            elif strong:
                kind = "words"
            else:
                continue
            found.append(
                Correction(run.strip(" ,"), doc.span(left_a, left_b), doc.span(right_a, right_b), kind)
            )
    return found


def _asks(sentence: str) -> bool:
    """A question whose last phrase is the question itself ("Did the trustees approve the eighty
    thousand?"): a "no" after it answers it. Not a question tagged on after a value ("eight,
    right?", "the 6th, is that it?"): there the speaker doubts what they said."""
    text = sentence.rstrip()
    return text.endswith("?") and not re.search(r"[,\u2013\u2014][^,\u2013\u2014]*\?$", text)


# What separates the phrases of a spoken sentence: a comma (not a thousands separator), a semicolon,
# a colon or a dash (not a dash inside a number said in words: "seventy - two").
_PHRASE_BREAK = re.compile(r"\s*(?:,(?!\d{3}\b)|[;:\u2013\u2014]|\s-\s)\s*")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_CLOCK = re.compile(r"\d{2}:\d{2}")
# The most words between the two phrases of a retrace: an editing term the cue rules need not know
# ("I misspoke", "hang on", "uh, strike that", "actually, I tell a lie"), never a clause of its
# own. 3 -> 5 changed only charity-fundraising (4 -> 5 of 8 read; no decoy, no other set moved,
# docs/benchmarks.md).
MAX_EDIT_WORDS = 5
# The most words of its frame a retrace says again before the value ("set for the fourth").
MAX_FRAME_WORDS = 3


def sentence_phrases(doc: Doc, sentence: Sentence) -> list[tuple[int, int]]:
    out, at = [], sentence.start
    for m in _PHRASE_BREAK.finditer(doc.text, sentence.start, sentence.end):
        around = (
            words(doc.text[max(at, m.start() - 12) : m.start()])[-1:]
            + words(doc.text[m.end() : m.end() + 12])[:1]
        )
        if "-" in m.group() and len(around) == 2 and all(w in NUMBER_WORDS for w in around):
            continue
        if m.start() > at:
            out.append((at, m.start()))
        at = m.end()
    end = sentence.end
    while end > at and doc.text[end - 1] in ".!?… ":
        end -= 1
    if end > at:
        out.append((at, end))
    return out


def _day_named(text: str) -> bool:
    """A date said by its day of the month ("the 3rd", "the tenth of September"), not only by a
    weekday or a relative word ("on Tuesday", "tomorrow")."""
    # an ordinal in words is one too: text2num writes "the twenty-first" as "the 21st"
    said = Converted(text, language_of(text)).text
    return bool(re.search(r"\d", said)) or any(w in MONTHS for w in words(text))


def differ(family: str, a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Two values (text, value) of one family that cannot both hold: different numbers, two
    different times, two different days said the same way (two weekdays, or two dates by their day
    of the month, not "the 3rd, the 3rd of September"). A weekday and a date, or a time and a day,
    are parts of one moment ("on Tuesday, April 28"; the weekday a date falls on is not checked: a
    note's year can be unknown)."""
    (a_text, a_value), (b_text, b_value) = a, b
    if family != "date":
        return a_value != b_value
    if _CLOCK.fullmatch(a_value) and _CLOCK.fullmatch(b_value):
        return a_value != b_value
    if not (_ISO_DAY.fullmatch(a_value) or a_value in WEEKDAYS):
        return False
    if not (_ISO_DAY.fullmatch(b_value) or b_value in WEEKDAYS):
        return False
    if _day_named(a_text) != _day_named(b_text):
        return False
    if _day_named(a_text):
        return a_value[8:] != b_value[8:]
    return a_value != b_value


def _said_again(family: str, a: tuple[str, str], b: tuple[str, str]) -> bool:
    """The same value said twice ("the twenty-ninth, the twenty-ninth of June"): the same value,
    or the same day of the month with and without its month."""
    (a_text, a_value), (b_text, b_value) = a, b
    if a_value == b_value:
        return True
    return (
        family == "date"
        and bool(_ISO_DAY.fullmatch(a_value) and _ISO_DAY.fullmatch(b_value))
        and _day_named(a_text)
        and _day_named(b_text)
        and a_value[8:] == b_value[8:]
    )


WORD = re.compile(r"[\w'’.-]+")  # a word as the rules count them (with its apostrophes and dots)


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


COORDINATORS = frozenset({"and", "or", "und", "oder", "sowie"})


def _weekday_of(said: str, day: str) -> bool:
    """`said` is the weekday of the day `day` (an ISO date): "on the 30th of September, the
    Thursday" says the same day again, which continues no list."""
    try:
        meant = date.fromisoformat(day[:10])
    except ValueError:
        return False
    # a phrase cut from its sentence is read without its tense, so its year may be a year off
    weekdays = set()
    for year in (meant.year - 1, meant.year, meant.year + 1):
        with contextlib.suppress(ValueError):  # the 29th of February
            weekdays.add(meant.replace(year=year).strftime("%A").lower())
    return bool(words(said)) and words(said)[-1] in weekdays


def _list_goes_on(phrase: str, values: list[tuple[int, int, str]]) -> bool:
    """The phrase after a retrace's second phrase continues a list: it opens with "and" / "or" or
    with a value of the same kind ("on the 3rd, on the 4th, on the 5th")."""
    said = words(phrase)
    return bool(said) and (said[0] in COORDINATORS or any(len(words(phrase[:a])) <= 2 for a, _, _ in values))


_CLOCK = re.compile(r"\d\d:\d\d")


def _hour_after_time(
    lv: dict[str, list[tuple[int, int, str]]], rv: dict[str, list[tuple[int, int, str]]], right: str, doc: Doc
) -> dict[str, list[tuple[int, int, str]]]:
    """ "start at seven, seven-thirty actually": after a time of day, a bare hour is one too (read as
    if "at" were said again), so the two compare as times."""
    if len(lv["date"]) != 1 or not _CLOCK.fullmatch(lv["date"][0][2]) or rv["date"] or len(rv["number"]) != 1:
        return rv
    timed = phrase_values("at " + right, doc)["date"]
    if len(timed) != 1 or not _CLOCK.fullmatch(timed[0][2]):
        return rv
    a, b, value = timed[0]
    return {**rv, "date": [(max(0, a - 3), b - 3, value)], "number": []}


def retrace_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """Repairs that retrace: a phrase that ends on a value, then (after at most MAX_EDIT_WORDS words
    of an editing term, or none) the same frame again with another value of the same kind and
    nothing more: "on the 3rd, on the 4th of September", "Monday the 10th of August, I misspoke,
    Monday the 17th of August", "four lines - five lines". The second phrase is only the value
    with the words the first one said before and after it (a preposition, a unit), so it cannot
    be read as a statement of its own. Not a repair: a list ("on the 3rd, on the 4th, and on the
    5th": the phrase after holds another value of the kind), a day said twice ("on Monday, the 10th
    of August"), a value with another unit ("1,250 a day, 6,250 a week"). Names are left out: names
    in a row are mostly lists."""
    found: list[Correction] = []
    for sentence in sentences:
        phrases = sentence_phrases(doc, sentence)
        for k, (la, lb) in enumerate(phrases):
            # the editing term between the two phrases: none, or a few phrases ("uh, strike that")
            for skip in range(MAX_EDIT_WORDS + 1):
                r = k + 1 + skip
                if r >= len(phrases):
                    break
                middle = doc.text[phrases[k + 1][0] : phrases[r - 1][1]] if skip else ""
                if skip and (len(words(middle)) > MAX_EDIT_WORDS or any(phrase_values(middle, doc).values())):
                    break
                ra, rb = phrases[r]
                left, right = doc.text[la:lb], doc.text[ra:rb]
                lv, rv = phrase_values(left, doc), phrase_values(right, doc)
                rv = _hour_after_time(lv, rv, right, doc)
                after = doc.text[phrases[r + 1][0] : phrases[r + 1][1]] if r + 1 < len(phrases) else ""
                av = phrase_values(after, doc) if after else {}
                for family in ("date", "number", "name"):
                    # one value each side: "five or six, seven" and "twenty eight, three" are not retraces
                    if len(lv[family]) != 1 or len(rv[family]) != 1:
                        continue
                    w_start, w_end, wrong = lv[family][-1]
                    r_start, r_end, right_value = rv[family][0]
                    # "the lead is Ana, I've got that wrong, it's Ines": the repair may say its frame
                    # again by a pronoun and a form of "be" instead of the words themselves
                    frame = words(right[:r_start])
                    restated = bool(_REFERS_BACK.fullmatch(" ".join(frame)))
                    if family == "name" and not restated:
                        continue  # names in a row are mostly lists; not after "it's"
                    # the repair's day said again as its weekday, or the repair said again whole
                    # ("the twenty-ninth, the twenty-ninth of June"), continues no list
                    following = [
                        v
                        for v in av.get(family, [])
                        if not _weekday_of(after[v[0] : v[1]], right_value)
                        and not _said_again(
                            family, (right[r_start:r_end], right_value), (after[v[0] : v[1]], v[2])
                        )
                    ]
                    if _list_goes_on(after, following):
                        continue
                    if not differ(family, (left[w_start:w_end], wrong), (right[r_start:r_end], right_value)):
                        continue
                    unit = words(left[w_end:])
                    before_right, after_right = words(right[:r_start]), words(right[r_end:])
                    # after the value: the unit said again ("four lines, five lines, for the oat
                    # drink"), or nothing, or only an editing term said after the repair ("the 14th
                    # sorry": Disfl-QA's marker words, repair_features.marker_flags)
                    unit_again = bool(unit) and after_right[: len(unit)] == unit
                    editing = bool(after_right) and all(marker_flags(after_right))
                    # the sentence may go on after a repair that says its frame again, when the
                    # slip ended its phrase ("is on Thursday, is on Friday after lunch"); not two
                    # values each with words of its own ("at ten on Mondays, at eleven on Fridays")
                    goes_on = bool(before_right) and not unit
                    if not (unit_again or editing or goes_on or not (unit or after_right)):
                        continue
                    if restated:
                        # not "it's forty-five at the other site" (says something of its own), nor
                        # "last year it was two hundred, it's two fifty" (a value then, one now)
                        if (after_right and not (unit_again or editing)) or not words(left[:w_start]):
                            continue
                        if (family != "date" and lv["date"]) or (
                            _PAST & set(words(left[:w_start])) and not _PAST & set(frame)
                        ):
                            continue
                        marker = doc.text[phrases[k + 1][0] if skip else ra : ra + r_start].strip(" ,")
                        found.append(
                            Correction(marker, doc.span(la + w_start, lb), doc.span(ra + r_start, rb), family)
                        )
                        break
                    if len(before_right) > MAX_FRAME_WORDS:
                        continue
                    if family == "number" and not (skip or before_right or unit_again or editing):
                        continue  # two numbers side by side, nothing said again: "twenty eight, three"
                    said_before = words(left[:w_start])
                    if before_right and said_before[-len(before_right) :] != before_right:
                        continue
                    if len(said_before) <= len(before_right):
                        continue  # the first phrase is only the frame: a count or a list ("five, six")
                    wrong_at = la + w_start
                    if before_right:  # the retraced words are part of the wrong phrase
                        wrong_at = (
                            la
                            + [m.start() for m in re.finditer(r"[\w'’.-]+", left[:w_start])][
                                -len(before_right)
                            ]
                        )
                    marker, right_end = middle.strip() or "(retraced)", rb
                    if editing and not unit_again:  # the editing term is no part of the correcting words
                        marker, right_end = right[r_end:].strip(" ,"), ra + r_end
                    found.append(Correction(marker, doc.span(wrong_at, lb), doc.span(ra, right_end), family))
                    break
    return found


# A pronoun and a form of "be" that say a repair's frame again: "it's", "that was", "das ist".
_REFERS_BACK = re.compile(
    r"(?:it|that|this|they|es|das)(?:['’](?:s|re)|\s+(?:is|was|are|were|will\s+be|ist|sind|war|waren))", re.I
)
_PAST = frozenset({"was", "were", "war", "waren"})


# A corrective conjunction after a negation: "not Weber but Wegener", "nicht um zehn, sondern um 14
# Uhr" (German "sondern" follows a negation only, to put the right thing in its place). Not the
# additive "not only ... but also" / "nicht nur ... sondern auch".
_CONTRAST = re.compile(
    r"\b(?P<neg>not|nicht)\s+(?!only\b|just\b|nur\b)(?P<wrong>(?:[^,;:.!?]|[,.](?=\d)){1,40}?),?\s+"
    r"(?P<but>but|sondern)\s+(?!also\b|auch\b)(?P<right>(?:[^,;:.!?]|[,.](?=\d)){1,40})",
    re.I,
)


def contrast_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """ "is not Weber but Wegener": the value after the corrective conjunction replaces the one
    after the negation, when both are values of one kind that differ."""
    found = []
    for sentence in sentences:
        for m in _CONTRAST.finditer(doc.text, sentence.start, sentence.end):
            # the negation and the conjunction stay in the phrases: a name is not read at a phrase's start
            wrong = doc.text[m.start() : m.end("wrong")]
            right = doc.text[m.start("but") : m.end("right")]
            matched = match_values(wrong, right, doc)
            if matched is None:
                continue
            kind, wrong_at, right_at = matched
            # both sides are the value and at most a word before it ("um zehn", "in Munich"): not
            # two clauses ("not that we lack 40 seats, but the budget is 12,000")
            if len(words(wrong[:wrong_at])) > 2 or len(words(right[:right_at])) > 4:
                continue
            found.append(
                Correction(
                    f"{m.group('neg')} … {m.group('but')}",
                    doc.span(m.start() + wrong_at, m.end("wrong")),
                    doc.span(m.start("right"), m.start("but") + right_at),
                    kind,
                )
            )
    return found
