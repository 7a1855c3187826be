"""Self-corrections inside a recording: the words taken back, linked to the words that replace them.

"Thursday the 12th, no, sorry, Friday the 13th of March", "four lines, scratch that, five lines".
Four readers, and a correction found by more than one is reported once:
- The cue rules (every sentence; the only reader of German ones, which have no English parse and
  which the tagger was not trained on): a cue ("no, sorry", "scratch that", "I meant", "nein,
  warte", "ich meinte", "Korrektur", ...) between two phrases. Strong cues link whatever they
  follow; weak ones ("no", "sorry", "actually", "I mean"), also ordinary words, only when both
  sides hold a value of the same kind that differs (two numbers, two dates, two names).
- The trained repair tagger (memory/text/repair_tagger.py, a CRF trained on Disfl-QA) in English
  sentences: it marks the replaced words, the editing marker and the repair, with no list of
  cues. Disfl-QA holds questions that nearly all contain a repair, so in long dictated prose the
  tagger alone also reads ordinary speech as repairs; a repair it finds is a correction only with
  evidence beside it (`_accepted`): its confidence (the CRF's marginal probability that every
  replaced and marker word is taken back) of at least MIN_CONFIDENCE, and both sides holding a
  differing value of the same kind. The replaced words are cut to their clause (a correction
  replaces a phrase), from the wrong value on.
- Retraces, in every sentence of either language (`_retrace_corrections`): a phrase that ends on a
  value, then the same frame again with a differing value of the same kind and nothing more ("on
  the 3rd, on the 4th of September"), with no editing term between them or a short one that
  neither the rules nor the tagger know ("Monday the 10th of August, I misspoke, Monday the 17th
  of August"), or with the editing term after the repair ("the 12th, the 14th sorry"). A
  speaker repairs by going back to where the slip began (Levelt's retracing); the
  second phrase alone is no statement, which keeps lists and appositions out.
- A corrective conjunction after a negation, in either language (`_contrast_corrections`): "not
  Weber but Wegener", "nicht um zehn, sondern um 14 Uhr", when both sides are values of one kind
  that differ; never the additive "not only ... but also".
The raw transcript keeps both sides; facts and answers use the correcting words.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from memory.store.store import Store, now_iso
from memory.text.dates import MONTHS, NUMBER_WORDS, WEEKDAYS
from memory.text.doc import Doc, Sentence, Span
from memory.text.entities import sentence_dates
from memory.text.fact_parse import parsed
from memory.text.numbers import GERMAN_MONTHS
from memory.text.repair_features import NO_POS, marker_flags, parts_of_speech, tokenise
from memory.text.repairs import Repair, find_repairs

_FILLER = r"(?:oh|um|uh|äh|ähm|well|so|okay)"
_CORE = (
    r"(?:no|nope|nein|wait|warte|sorry|entschuldigung|actually|eigentlich|"
    r"i\s+(?:actually\s+)?mean(?:t)?|ich\s+mein(?:t)?e|scratch\s+that|correction|korrektur|"
    r"let\s+me\s+correct(?:\s+that|\s+myself)?|or\s+rather|beziehungsweise|quatsch|i\s+should\s+say)"
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
# A German ordinal's dot ("am 3. September") ends no clause.
_CLAUSE_END = re.compile(
    r",(?!\d{3}\b)|[;!?]|\.(?!\d)(?!(?<=\d\.)\s+(?:" + "|".join(GERMAN_MONTHS) + r")\b)", re.I
)
_WELL_ACTUALLY = re.compile(
    r"(?<=,)\s*(?P<run>well),?\s+(?P<right>[^,.;]{1,40}?)\s+(?:actually|eigentlich)\b", re.I
)
_TRAILING_ACTUALLY = re.compile(r"[,\s]+(?:actually|eigentlich)\s*$", re.I)
_NUMERIC = re.compile(
    r"\d[\d,.]*|\b(?:" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.I
)
_NAME_WORD = re.compile(r"\b[A-ZÄÖÜ][\w'-]+")
MAX_PHRASE_WORDS = 9


@dataclass(frozen=True)
class Correction:
    marker: str
    wrong: Span
    right: Span
    kind: str  # date | number | name | words

    def to_json(self) -> dict[str, object]:
        return {
            "marker": self.marker,
            "kind": self.kind,
            "wrong": {"text": self.wrong.text, "segment_ids": list(self.wrong.segment_ids)},
            "right": {"text": self.right.text, "segment_ids": list(self.right.segment_ids)},
        }


def _values(phrase: str, doc: Doc) -> dict[str, list[tuple[int, int, str]]]:
    """(start, end, comparable value) of each number, date and name in a phrase, by family."""
    found: dict[str, list[tuple[int, int, str]]] = {"date": [], "number": [], "name": []}
    taken: list[tuple[int, int]] = []
    for e in sentence_dates(phrase, doc.spoken_at):
        if e.kind in ("date", "time"):
            found["date"].append((e.start, e.end, e.value))
            taken.append((e.start, e.end))
    for m in re.finditer(r"\b(" + "|".join(WEEKDAYS) + r")\b", phrase, re.I):
        if all(m.end() <= a or m.start() >= b for a, b in taken):
            found["date"].append((m.start(), m.end(), m.group(0).lower()))
    for m in _NUMERIC.finditer(phrase):
        if all(m.end() <= a or m.start() >= b for a, b in taken):
            text = m.group(0).rstrip(",.").replace(",", "").lower()
            found["number"].append((m.start(), m.start() + len(m.group(0).rstrip(",.")), text))
    for m in _NAME_WORD.finditer(phrase):
        if m.start() > 0 and all(m.end() <= a or m.start() >= b for a, b in taken):
            found["name"].append((m.start(), m.end(), m.group(0).lower()))
    return found


def _right_phrase(doc: Doc, start: int, limit: int) -> tuple[int, int]:
    """From `start` to the end of its clause (at most MAX_PHRASE_WORDS words), trailing 'actually' cut."""
    end = limit
    if m := _CLAUSE_END.search(doc.text, start, limit):
        end = m.start()
    words = list(re.finditer(r"\S+", doc.text[start:end]))
    if len(words) > MAX_PHRASE_WORDS:
        end = start + words[MAX_PHRASE_WORDS - 1].end()
    phrase = doc.text[start:end]
    if m := _TRAILING_ACTUALLY.search(phrase):
        end = start + m.start()
    return start, end


def _left_phrase(doc: Doc, end: int, floor: int) -> tuple[int, int]:
    """The clause before the cue (at most MAX_PHRASE_WORDS words, back to `floor`)."""
    head = doc.text[floor:end].rstrip(" ,;:.!?")
    breaks = list(_CLAUSE_END.finditer(head))
    start = floor + breaks[-1].end() if breaks else floor
    words = list(re.finditer(r"\S+", doc.text[start : floor + len(head)]))
    if len(words) > MAX_PHRASE_WORDS:
        start += words[-MAX_PHRASE_WORDS].start()
    return start, floor + len(head)


def _match(left: str, right: str, doc: Doc) -> tuple[str, int, int] | None:
    """The kind of value corrected, where the wrong value starts in `left`, where the right one ends."""
    lv, rv = _values(left, doc), _values(right, doc)
    # "am 3., nein, am 4. September": a day said alone, its month said once, with the right day
    if lv["number"] and not lv["date"] and rv["date"] and not rv["number"]:
        day, said = lv["number"][-1], right[rv["date"][0][0] : rv["date"][0][1]]
        if (
            re.fullmatch(r"\d{1,2}", day[2])
            and (m := re.search(r"\b\d{1,2}\b", said))
            and m.group() != day[2]
        ):
            return "date", day[0], rv["date"][0][1]
    for family in ("date", "number", "name"):
        if lv[family] and rv[family]:
            wrong, correct = lv[family][-1], rv[family][0]
            if wrong[2] != correct[2]:
                return family, wrong[0], correct[1]
    return None


def _well_actually(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """ "six clinics, well, seven actually": the cue wraps the correcting words."""
    found = []
    for sentence in sentences:
        for m in _WELL_ACTUALLY.finditer(doc.text, sentence.start, sentence.end):
            left_a, left_b = _left_phrase(doc, m.start("run"), sentence.start)
            matched = _match(doc.text[left_a:left_b], m.group("right"), doc)
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


def _cue_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """The cue rules' corrections in `sentences`: a cue between two phrases (see the module doc)."""
    found: list[Correction] = _well_actually(doc, sentences)
    for sentence in sentences:
        for m in _CUE_RUN.finditer(doc.text, sentence.start, sentence.end):
            run = m.group("run")
            strong = bool(_STRONG.search(run))
            if not strong and not re.search(
                r"\b(?:no|nein|sorry|actually|eigentlich|mean|meine|rather|beziehungsweise)\b", run, re.I
            ):
                continue
            floor = sentence.start
            if doc.text[sentence.start : m.start("run")].strip(" ,") == "":
                previous = doc.sentence_at(max(0, sentence.start - 2))
                if previous.number == sentence.number:
                    continue
                floor = previous.start
            left_a, left_b = _left_phrase(doc, m.start("run"), floor)
            right_a, right_b = _right_phrase(doc, m.end(), sentence.end)
            left, right = doc.text[left_a:left_b], doc.text[right_a:right_b]
            if not left.strip() or not re.search(r"\w", right):
                continue
            matched = _match(left, right, doc)
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


# What separates the phrases of a spoken sentence: a comma (not a thousands separator), a semicolon,
# a colon or a dash (not a dash inside a number said in words: "seventy - two").
_PHRASE_BREAK = re.compile(r"\s*(?:,(?!\d{3}\b)|[;:\u2013\u2014]|\s-\s)\s*")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_CLOCK = re.compile(r"\d{2}:\d{2}")
# The most words between the two phrases of a retrace: an editing term the cue rules need not know
# ("I misspoke", "hang on"), never a clause of its own.
MAX_EDIT_WORDS = 3


def _phrases(doc: Doc, sentence: Sentence) -> list[tuple[int, int]]:
    out, at = [], sentence.start
    for m in _PHRASE_BREAK.finditer(doc.text, sentence.start, sentence.end):
        around = (
            _words(doc.text[max(at, m.start() - 12) : m.start()])[-1:]
            + _words(doc.text[m.end() : m.end() + 12])[:1]
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
    return bool(re.search(r"\d", text)) or any(w in MONTHS for w in _words(text))


def _differ(family: str, a: tuple[str, str], b: tuple[str, str]) -> bool:
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


def _words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[\w'’.-]+", text)]


_COORDINATORS = frozenset({"and", "or", "und", "oder", "sowie"})


def _list_goes_on(phrase: str, values: list[tuple[int, int, str]]) -> bool:
    """The phrase after a retrace's second phrase continues a list: it opens with "and" / "or" or
    with a value of the same kind ("on the 3rd, on the 4th, on the 5th")."""
    words = _words(phrase)
    return bool(words) and (
        words[0] in _COORDINATORS or any(len(_words(phrase[:a])) <= 2 for a, _, _ in values)
    )


def _retrace_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
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
        phrases = _phrases(doc, sentence)
        for k, (la, lb) in enumerate(phrases):
            for skip in (0, 1):
                r = k + 1 + skip
                if r >= len(phrases):
                    break
                middle = doc.text[phrases[k + 1][0] : phrases[k + 1][1]] if skip else ""
                if skip and (len(_words(middle)) > MAX_EDIT_WORDS or any(_values(middle, doc).values())):
                    break
                ra, rb = phrases[r]
                left, right = doc.text[la:lb], doc.text[ra:rb]
                lv, rv = _values(left, doc), _values(right, doc)
                after = doc.text[phrases[r + 1][0] : phrases[r + 1][1]] if r + 1 < len(phrases) else ""
                av = _values(after, doc) if after else {}
                for family in ("date", "number"):
                    # one value each side: "five or six, seven" and "twenty eight, three" are not retraces
                    if (
                        len(lv[family]) != 1
                        or len(rv[family]) != 1
                        or _list_goes_on(after, av.get(family, []))
                    ):
                        continue
                    w_start, w_end, wrong = lv[family][-1]
                    r_start, r_end, right_value = rv[family][0]
                    if not _differ(family, (left[w_start:w_end], wrong), (right[r_start:r_end], right_value)):
                        continue
                    unit = _words(left[w_end:])
                    before_right, after_right = _words(right[:r_start]), _words(right[r_end:])
                    # after the value: the unit said again ("four lines, five lines, for the oat
                    # drink"), or nothing, or only an editing term said after the repair ("the 14th
                    # sorry": Disfl-QA's marker words, repair_features.marker_flags)
                    unit_again = bool(unit) and after_right[: len(unit)] == unit
                    editing = bool(after_right) and all(marker_flags(after_right))
                    if not (unit_again or editing or not (unit or after_right)) or len(before_right) > 2:
                        continue
                    said_before = _words(left[:w_start])
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


# A repair the tagger finds is a correction when the tagger is at least this sure of it and both
# sides hold a differing value of the same kind. Chosen leave-one-set-out on the consultant sets
# (`verbatim eval corrections SET_DIR` reports every threshold; docs/benchmarks.md): the lowest
# threshold with the best F1 on the other set; 0.6 in both folds for the tagger of 25 Nov.
MIN_CONFIDENCE = 0.6


def _accepted(repair: Repair, kind: str, min_confidence: float) -> bool:
    # A bare "or" between two values is a choice in prose ("Monday or Tuesday"), though Disfl-QA's
    # speakers use it as an editing term ("What year or who founded ...").
    choice = repair.marker_text.lower() == "or"
    return kind != "words" and repair.confidence >= min_confidence and not choice


def repair_candidates(doc: Doc) -> list[tuple[Repair, Correction]]:
    """Every repair the tagger finds in the doc's English sentences, as a correction (kind "words"
    when the two sides hold no differing values of one kind), before `_accepted` judges it. The
    parts of speech come from the note's one shared parse (memory/text/fact_parse.parsed)."""
    reader = parsed(doc)
    tokens = tokenise(doc.text)
    pos = [NO_POS] * len(tokens)
    english: list[Sentence] = []
    starts = [t[1] for t in tokens]
    for sentence in doc.sentences:
        read = reader.sentence(sentence)
        if read.language != "en" or read.tokens is None:
            continue
        english.append(sentence)
        a = bisect.bisect_left(starts, sentence.start)
        b = bisect.bisect_left(starts, sentence.end)
        pos[a:b] = parts_of_speech(tokens[a:b], read.tokens, sentence.start)
    if not english:
        return []
    out = []
    for repair in find_repairs(doc.text, pos):
        sentence = doc.sentence_at(repair.replaced[0])
        if sentence not in english or repair.displaced:
            continue
        if not repair.marker_text and not _retraced(repair, doc):
            continue  # no editing term and no retrace: a restart of plain prose, not a repair
        # a correction replaces a phrase: the replaced words of the clause before the marker
        wrong_a, wrong_b = _left_phrase(doc, repair.replaced[1], max(repair.replaced[0], sentence.start))
        right_a, right_b = _right_phrase(doc, repair.repair[0], doc.sentence_at(repair.repair[0]).end)
        if not doc.text[wrong_a:wrong_b].strip():
            continue
        matched = _match(doc.text[wrong_a:wrong_b], doc.text[right_a:right_b], doc)
        kind = "words"
        right_end = repair.repair[1]
        if matched is not None:
            kind, wrong_at, right_at = matched
            wrong_a += wrong_at  # from the wrong value on
            right_end = max(right_end, right_a + right_at)  # as far as the right value reaches
        marker = repair.marker_text or "(retraced)"
        out.append(
            (
                repair,
                Correction(marker, doc.span(wrong_a, wrong_b), doc.span(repair.repair[0], right_end), kind),
            )
        )
    return out


def _retraced(repair: Repair, doc: Doc) -> bool:
    """The repair starts with the word the replaced words start with ("on the 3rd, on the 4th"):
    a speaker who repairs without an editing term goes back to where the slip began."""
    first = doc.text[repair.replaced[0] : repair.replaced[1]].lower().split()[:1]
    again = doc.text[repair.repair[0] : repair.repair[1]].lower().split()[:1]
    return bool(first) and first == again


# A corrective conjunction after a negation: "not Weber but Wegener", "nicht um zehn, sondern um 14
# Uhr" (German "sondern" follows a negation only, to put the right thing in its place). Not the
# additive "not only ... but also" / "nicht nur ... sondern auch".
_CONTRAST = re.compile(
    r"\b(?P<neg>not|nicht)\s+(?!only\b|just\b|nur\b)(?P<wrong>(?:[^,;:.!?]|[,.](?=\d)){1,40}?),?\s+"
    r"(?P<but>but|sondern)\s+(?!also\b|auch\b)(?P<right>(?:[^,;:.!?]|[,.](?=\d)){1,40})",
    re.I,
)


def _contrast_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """ "is not Weber but Wegener": the value after the corrective conjunction replaces the one
    after the negation, when both are values of one kind that differ."""
    found = []
    for sentence in sentences:
        for m in _CONTRAST.finditer(doc.text, sentence.start, sentence.end):
            # the negation and the conjunction stay in the phrases: a name is not read at a phrase's start
            wrong = doc.text[m.start() : m.end("wrong")]
            right = doc.text[m.start("but") : m.end("right")]
            matched = _match(wrong, right, doc)
            if matched is None:
                continue
            kind, wrong_at, right_at = matched
            # both sides are the value and at most a word before it ("um zehn", "in Munich"): not
            # two clauses ("not that we lack 40 seats, but the budget is 12,000")
            if len(_words(wrong[:wrong_at])) > 2 or len(_words(right[:right_at])) > 4:
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


def find_corrections(doc: Doc, min_confidence: float = MIN_CONFIDENCE) -> list[Correction]:
    """The recording's self-corrections: the cue rules', the retraces and the contrasts in every
    sentence, and the tagger's in English ones where none of them found one (`min_confidence`: see
    MIN_CONFIDENCE)."""
    found = _cue_corrections(doc, doc.sentences)
    for c in _retrace_corrections(doc, doc.sentences) + _contrast_corrections(doc, doc.sentences):
        if not any(c.wrong.start < o.right.end and o.wrong.start < c.right.end for o in found):
            found.append(c)
    for repair, c in repair_candidates(doc):
        if not _accepted(repair, c.kind, min_confidence):
            continue
        if any(c.wrong.start < o.right.end and o.wrong.start < c.right.end for o in found):
            continue  # the rules already read this one
        found.append(c)
    return sorted(found, key=lambda c: c.wrong.start)


def store_corrections(store: Store, recording_id: int, corrections: list[Correction], doc: Doc) -> list[int]:
    """Replace the recording's corrections with these; returns their ids, in order."""
    ids = []
    with store.transaction():
        store.execute("DELETE FROM corrections WHERE recording_id = ?", (recording_id,))
        for c in corrections:
            wrong_seg = doc.segments[c.wrong.first_segment]
            right_seg = doc.segments[c.right.first_segment]
            ids.append(
                store.execute(
                    "INSERT INTO corrections (recording_id, marker, wrong_segment_id, wrong_start, wrong_end,"
                    " wrong_text, right_segment_id, right_start, right_end, right_text, kind, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        recording_id,
                        c.marker,
                        wrong_seg.id,
                        c.wrong.seg_start,
                        c.wrong.seg_start + len(c.wrong.text),
                        c.wrong.text,
                        right_seg.id,
                        c.right.seg_start,
                        c.right.seg_start + len(c.right.text),
                        c.right.text,
                        c.kind,
                        now_iso(),
                    ),
                )
            )
    return ids


@dataclass(frozen=True)
class StoredCorrection:
    id: int
    recording_id: int
    marker: str
    kind: str
    wrong_segment_id: int
    wrong_start: int
    wrong_end: int
    wrong_text: str
    right_segment_id: int
    right_start: int
    right_end: int
    right_text: str

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


_SELECT = (
    "SELECT id, recording_id, marker, kind, wrong_segment_id, wrong_start, wrong_end, wrong_text,"
    " right_segment_id, right_start, right_end, right_text FROM corrections"
)


def list_corrections(
    store: Store, *, recording_id: int | None = None, segment_ids: list[int] | None = None
) -> list[StoredCorrection]:
    if segment_ids is not None:
        if not segment_ids:
            return []
        marks = ",".join("?" * len(segment_ids))
        rows = store.all(
            f"{_SELECT} WHERE wrong_segment_id IN ({marks}) OR right_segment_id IN ({marks}) ORDER BY id",
            [*segment_ids, *segment_ids],
        )
    elif recording_id is not None:
        rows = store.all(f"{_SELECT} WHERE recording_id = ? ORDER BY id", (recording_id,))
    else:
        rows = store.all(f"{_SELECT} ORDER BY id")
    return [StoredCorrection(**r) for r in rows]
