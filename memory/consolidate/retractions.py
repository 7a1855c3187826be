"""Self-corrections whose editing words say that something said was wrong, wherever they stand.

"£2.4 million — um, incorrect, it's $2.6 million", "the 31st of March — no, that's wrong, it's the
1st of April", "Castellan, take that back, Castlegate", "on Wednesday, Friday my mistake",
"eighty-five k … seventy, sorry, I misspoke". The cue rules (correction_rules.py) know a list of
editing terms said *between* the two values as one run; speakers say many more, and often say them
*after* the repair. This reader looks instead for the meaning such words share, a word of error or
apology or of taking back (`_RETRACTION`: sorry, wrong, mistake, misspoke, correct, strike, take
back, pardon, …), in a short stretch with no value of its own, next to two values of one kind
that differ:

- between them: the value that ends the phrase before the stretch is taken back, the first value
  of the phrase after it is said in its place ("it's" or "make it" may open that phrase);
- after them: a value, then a short phrase that is that value's place said again with another
  value of the kind ("on 6.4, on 6.8 apologies", "from Nottingham, from Derby, sorry, I
  misspoke"), then the stretch; nothing after it may hold a third value of the kind (that would
  make the second the slip).

- across a question to oneself: a value, a question tagged on after it ("eight, right?", "the 6th,
  is that it?"), and the next sentence opening with the stretch and the value meant.

- after a dash and nothing else (`_dashed`): a phrase that ends on a value broken off by an en or
  em dash, the next phrase one value of the family and little else ("is eight — six hours",
  "quoted thirty-one for the— Cairnstore's quote is thirty-eight thousand"); a name only when that
  phrase is the name alone and it sounds like the one before ("Shona — Sheena Abernathy").

A German sentence ("hundertachtzigtausend, nein, Moment, hundertvierundsiebzigtausend Euro") is
read in its own language, phrase by phrase too; its capitals are nouns, so no names are compared.
Both values must be of one family (numbers, dates and times, names) and differ
(correction_rules.py `_differ`); the stretch has at most MAX_STRETCH_WORDS words. Not a repair:
"sorry" as an apology ("Sorry, long day, … the 4th of June": no value before it), "no" as an
answer (a question ends the sentence before it), a list ("forty, fifty and sixty": no stretch).
"""

from __future__ import annotations

import itertools
import re

from memory.consolidate.correction_phrases import Correction, phrase_values
from memory.consolidate.correction_rules import differ, sentence_phrases, words
from memory.text.doc import Doc, Sentence
from memory.text.nlp import language_of

# Words that say a slip was made or is being put right: an apology, an error, a correction, a
# taking back (by their stems: "misspoke", "misread", "correcting", "transposed", "mixing … up").
_RETRACTION = re.compile(
    # "no" set off as an answer to oneself ("41,000, no, 47,000"), not "no German customer"
    r"\b(?:(?:no|nope|nein|moment)(?=\s*[,;:.!?\u2013\u2014]|\s+(?:wait|sorry|that|it|i)\b)|sorry|apolog\w*|pardon|oops|whoops|mistak\w*|wrong|not\s+right|incorrect\w*|error|"
    r"mis(?:spo|spea|rea|hea|sai|remem|typ|calc|count)\w*|correct(?:ion|ing)?|transpos\w*|"
    r"mix(?:ed|ing)?\s+(?:\w+\s+)?up|strike\s+that|scratch\s+that|take\s+(?:that|it)\s+back|"
    r"redo\s+that|amend\s+that|never\s+mind|i\s+mean[t]?|i\s+should\s+(?:say|have\s+said)|"
    r"(?:should|ought\s+to)\s+(?:be|read|say)|or\s+rather|keep\s+saying)\b",
    re.I,
)
# The most words of the stretch that says the slip ("um, incorrect", "no, that's wrong", "sorry,
# I'm mixing them up"); a longer stretch is a clause of its own.
MAX_STRETCH_WORDS = 6
# The most words a correcting phrase may say before its value after the stretch ("it's the", "make
# it", "it should be"), and a phrase after the repair may say besides its value ("on", "from the").
MAX_OPENING_WORDS = 3
# The most words after the taken-back value in its own phrase ("the Dublin site", "ten hours").
MAX_TRAILING_WORDS = 2
FAMILIES = ("date", "number", "name")
Phrases = list[tuple[int, int]]  # a sentence's phrases (memory/consolidate/correction_rules.py)
Values = dict[str, list[tuple[int, int, str]]]  # a phrase's values by family (correction_phrases.py)


def retraction_corrections(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """The corrections whose editing words say a slip (see the module doc), in `sentences`."""
    found: list[Correction] = []
    for sentence in sentences:
        if not _RETRACTION.search(sentence.text) and not _DASH.search(sentence.text):
            continue  # every shape needs words that say a slip, or a dash; most sentences have neither
        phrases = sentence_phrases(doc, sentence)
        said = _values_by_phrase(doc, sentence, phrases)
        k = 0
        while k < len(phrases):
            taken = (
                _between(doc, phrases, said, k)
                or _after(doc, phrases, said, k)
                or _dashed(doc, phrases, said, k)
            )
            if taken is not None and _named_again(doc, sentence, taken):
                taken = None  # "the 9th of December, I keep saying the 2nd": the slip named again
            if taken is not None:
                found.append(taken)
                k += 2
            else:
                k += 1
    found += _questions_to_self(doc, sentences)
    return found


_OPENING_WORDS = re.compile(rf"^\W*(?:\S+\s+){{0,{MAX_STRETCH_WORDS}}}")


def _questions_to_self(doc: Doc, sentences: list[Sentence]) -> list[Correction]:
    """A value, a question to oneself, and the next sentence opening with words that take it back
    and then the value meant ("to eight, right? no, hang on, seven over the next two years",
    "twenty-three, is that it? no, thirty-two"): the two sentences read as one, the question's
    words part of the stretch that says the slip. Not a question that ends on the value: that asks
    about it ("Did they approve the forty thousand? No, they want thirty"). The taken-back value is
    the first sentence's, the meant one the second's."""
    found: list[Correction] = []
    for first, second in itertools.pairwise(sentences):
        if not first.text.rstrip().endswith("?") or second.start - first.end > 2:
            continue
        opening = _OPENING_WORDS.match(second.text)
        if opening is None or not _RETRACTION.search(opening.group(0)):
            continue
        joined = Sentence(first.number, first.start, second.end, doc.text[first.start : second.end])
        phrases = sentence_phrases(doc, joined)
        said = _values_by_phrase(doc, joined, phrases)
        for k in range(len(phrases)):
            taken = _between(doc, phrases, said, k)
            if taken is not None and taken.wrong.start < first.end <= taken.right.start:
                # the question follows the value's phrase ("eight, right?"); a question that ends on
                # the value asks about it ("Did they approve the forty thousand? No, …")
                tag = doc.text[taken.wrong.end : first.end]
                if re.search(r"[,\u2013\u2014]", tag) and not _named_again(doc, joined, taken):
                    found.append(taken)
                break
    return found


def _values_by_phrase(doc: Doc, sentence: Sentence, phrases: Phrases) -> list[Values]:
    """Each phrase's values (offsets into the phrase). Numbers and dates are read phrase by phrase
    ("thirty thousand, forty thousand" is two numbers), names from the whole sentence: a name that
    opens a phrase inside it is still a name ("…, strike that, Hallett")."""
    language = language_of(sentence.text)
    # German capitalises every noun and has no parse here: a capital makes no name to compare
    names = phrase_values(sentence.text, doc, language)["name"] if language == "en" else []
    out = []
    for a, b in phrases:
        values = phrase_values(doc.text[a:b], doc, language)
        at, until = a - sentence.start, b - sentence.start
        values["name"] = [(x - at, y - at, v) for x, y, v in names if at <= x and y <= until]
        out.append(values)
    return out


def _named_again(doc: Doc, sentence: Sentence, taken: Correction) -> bool:
    """The correcting value was said, and taken back, before the value it would replace."""
    language = language_of(sentence.text)
    before = phrase_values(doc.text[sentence.start : taken.wrong.start], doc, language)[taken.kind]
    right = phrase_values(taken.right.text, doc, language)[taken.kind][:1]
    return bool(right) and any(v == right[0][2] for _, _, v in before)


def _last_value(doc: Doc, phrase: tuple[int, int], values: Values) -> tuple[str, int, int, str] | None:
    """The value a phrase ends on (at most MAX_TRAILING_WORDS words after it): (family, start, end,
    comparable value), offsets in the doc."""
    best = None
    for family in FAMILIES:
        for a, b, value in values[family]:
            if best is None or a > best[1]:
                best = (family, a, b, value)
    if best is None:
        return None
    family, a, b, value = best
    if len(words(doc.text[phrase[0] + b : phrase[1]])) > MAX_TRAILING_WORDS:
        return None
    return family, phrase[0] + a, phrase[0] + b, value


def _rival(
    doc: Doc, family: str, phrase: tuple[int, int], value: tuple[int, int, str], right: tuple[str, str]
) -> bool:
    """A later value that cannot hold beside the repair (correction_rules.py `differ`): another day
    after a day, not a day's time."""
    a, b, said = value
    return differ(family, right, (doc.text[phrase[0] + a : phrase[0] + b], said))


def _first_value(values: Values, family: str) -> tuple[int, int, str] | None:
    return min(values[family], default=None)


def _stretch(doc: Doc, a: int, b: int) -> bool:
    text = doc.text[a:b]
    return len(words(text)) <= MAX_STRETCH_WORDS and bool(_RETRACTION.search(text))


def _between(doc: Doc, phrases: Phrases, said: list[Values], k: int) -> Correction | None:
    """Phrase k ends on a value; then phrases with no value that say a slip (or the slip said at
    the start of the phrase that holds the correcting value); then that value."""
    wrong = _last_value(doc, phrases[k], said[k])
    if wrong is None:
        return None
    family, wa, wb, wrong_value = wrong
    for r in range(k + 1, len(phrases)):
        ra, rb = phrases[r]
        if r > k + 1 and len(words(doc.text[phrases[k + 1][0] : phrases[r - 1][1]])) > MAX_STRETCH_WORDS:
            return None  # the words between are a clause of their own
        right = _first_value(said[r], family)
        if right is None:
            if any(said[r][f] for f in FAMILIES):
                return None  # another kind of value: the sentence goes on about something else
            continue
        stretch_end = ra + right[0]
        opening = doc.text[ra:stretch_end]
        # the stretch: the phrases between, and what the correcting phrase says before its value
        gap = doc.text[phrases[k + 1][0] : stretch_end] if r > k + 1 else opening
        # the slip said from the wrong value on, or from the end of its phrase ("the Dublin site")
        if not _stretch(doc, wb, stretch_end) and not _stretch(doc, phrases[k][1], stretch_end):
            return None
        if len(words(gap)) > MAX_STRETCH_WORDS + MAX_OPENING_WORDS:
            return None
        after_cue = _RETRACTION.split(opening)[-1]
        if len(words(after_cue)) > MAX_OPENING_WORDS:
            return None
        right_a, right_b = ra + right[0], ra + right[1]
        if not differ(family, (doc.text[wa:wb], wrong_value), (doc.text[right_a:right_b], right[2])):
            return None
        # the taken-back words run to the end of their phrase: the value and its unit ("forty-two k")
        marker = " ".join(doc.text[phrases[k][1] : right_a].strip(" ,;:.-\u2013\u2014").split())
        return Correction(marker, doc.span(wa, phrases[k][1]), doc.span(right_a, rb), family)
    return None


def _after(doc: Doc, phrases: Phrases, said: list[Values], k: int) -> Correction | None:
    """Phrase k ends on a value; phrase k+1 is a value of the kind with at most a few words (the
    repair); the words after it, in its phrase or the next ones, say a slip; no third value of
    the kind follows."""
    if k + 1 >= len(phrases):
        return None
    wrong = _last_value(doc, phrases[k], said[k])
    if wrong is None:
        return None
    family, wa, wb, wrong_value = wrong
    ra, rb = phrases[k + 1]
    right = _first_value(said[k + 1], family)
    if right is None or len(said[k + 1][family]) != 1:
        return None
    right_a, right_b = ra + right[0], ra + right[1]
    if len(words(doc.text[ra:right_a])) > MAX_OPENING_WORDS:
        return None
    if not differ(family, (doc.text[wa:wb], wrong_value), (doc.text[right_a:right_b], right[2])):
        return None
    # the repair said again ("sixteen, sixteen benchmark roles") belongs to it
    r = k + 2
    while r < len(phrases) and [v for _, _, v in said[r][family]] == [right[2]]:
        r += 1
    trailing = doc.text[right_b:rb]
    stretch_start = right_b
    if not words(trailing) or not _RETRACTION.search(trailing):
        if r >= len(phrases):
            return None
        stretch_start = phrases[r][0]
        trailing = doc.text[phrases[r][0] : phrases[r][1]]
        later = [v for _, _, v in said[r][family]]
        if any(v not in (wrong_value, right[2]) for v in later):
            return None
        if not _RETRACTION.search(trailing) or len(words(trailing)) > MAX_STRETCH_WORDS + 2:
            return None
    elif len(words(doc.text[ra:right_a] + trailing)) > MAX_OPENING_WORDS + MAX_STRETCH_WORDS:
        return None
    # a third value of the kind after the stretch: the second one was the slip (`_between` reads it)
    # (a rival: "Wednesday, Friday my mistake, at half nine" says Friday's time, no third day)
    after_stretch = r if stretch_start == right_b else r + 1
    if after_stretch < len(phrases) and any(
        _rival(doc, family, phrases[after_stretch], later, (doc.text[right_a:right_b], right[2]))
        for later in said[after_stretch][family]
        if later[2] != wrong_value  # the slip named again ("…, the nine was from the first draft")
    ):
        return None
    marker = " ".join(words(trailing)[:MAX_STRETCH_WORDS]) or "(after)"
    return Correction(marker, doc.span(wa, phrases[k][1]), doc.span(right_a, right_b), family)


# A dash that breaks a phrase off: an en or em dash (also right after a word cut off: "for the— "),
# which Whisper and people who type their notes write where the voice stops short. Not a hyphen
# with spaces around it: tokenised transcripts write "Powder - Tower" for a hyphened name.
_DASH = re.compile(r"[\u2013\u2014]")


def _dashed(doc: Doc, phrases: Phrases, said: list[Values], k: int) -> Correction | None:
    """Phrase k ends on a value and a dash breaks it off; the next phrase is one value of the same
    family, differing, said with no more than a few words before it and its unit after it ("is eight —
    six hours", "Shona — Sheena Abernathy", "quoted thirty-one for the— Cairnstore's quote is
    thirty-eight thousand"): the voice stopped and said the value again. Not an aside set off
    between two dashes ("the budget — forty thousand — is fine"), not a list or a range said after
    the dash ("two options — eight or ten"), and a name only when the phrase after the dash is that
    name alone ("Kit — Anna's boss" says who Kit is)."""
    if k + 1 >= len(phrases):
        return None
    if not _DASH.search(doc.text[phrases[k][1] : phrases[k + 1][0]]):
        return None
    if k + 2 < len(phrases) and _DASH.search(doc.text[phrases[k + 1][1] : phrases[k + 2][0]]):
        return None  # an aside between two dashes
    wrong = _last_value(doc, phrases[k], said[k])
    if wrong is None:
        return None
    family, wa, wb, wrong_value = wrong
    ra, rb = phrases[k + 1]
    values = said[k + 1][family]
    if family == "name":  # the phrase is one name alone, its words read one by one ("Sheena Abernathy")
        if not values or words(doc.text[ra:rb]) != words(doc.text[ra + values[0][0] : ra + values[-1][1]]):
            return None
        if values[0][2][:1] != wrong_value[:1]:
            return None  # a name said for another sounds like it ("Shona — Sheena"); else the dash adds one
        right_a, right_b, right_value = ra + values[0][0], ra + values[-1][1], values[0][2]
    else:
        if len(values) != 1:
            return None
        right_a, right_b, right_value = ra + values[0][0], ra + values[0][1], values[0][2]
        if (
            len(words(doc.text[ra:right_a])) > MAX_OPENING_WORDS
            or len(words(doc.text[right_b:rb])) > MAX_TRAILING_WORDS
        ):
            return None
    if not differ(family, (doc.text[wa:wb], wrong_value), (doc.text[right_a:right_b], right_value)):
        return None
    return Correction("\u2014", doc.span(wa, phrases[k][1]), doc.span(right_a, right_b), family)
