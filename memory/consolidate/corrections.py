"""Self-corrections inside a recording: the words taken back, linked to the words that replace them.

"Thursday the 12th, no, sorry, Friday the 13th of March", "four lines, scratch that, five lines".
Several readers, and a correction found by more than one is reported once:
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
- Three more shapes of repair, whatever its words (repair_shapes.py): a value said again only to
  be taken back, a word cut off by a dash, a name put right by one spelled nearly the same. Where a
  strong cue reads only words and one of these finds two values of one kind, the typed one wins.
- Words that say a slip, in any words of error, apology or taking back, between two values of
  one kind or after the repair (retractions.py): "£2.4 million, um, incorrect, it's $2.6
  million", "on Wednesday, Friday my mistake".
The raw transcript keeps both sides; facts and answers use the correcting words.

The rule readers are in memory/consolidate/correction_rules.py, repair_shapes.py and
retractions.py; the phrases either side of a marker are cut and compared by correction_phrases.py
(with `Correction`), for the rules and the tagger alike; stored corrections are written and
listed by correction_store.py. This module reads the tagger's repairs and finds a recording's
corrections by all the readers (`find_corrections`).
"""

from __future__ import annotations

import bisect

from memory.consolidate.correction_phrases import Correction, left_phrase, match_values, right_phrase
from memory.consolidate.correction_rules import contrast_corrections, cue_corrections, retrace_corrections
from memory.consolidate.repair_shapes import cut_off_corrections, said_again_corrections
from memory.consolidate.retractions import retraction_corrections
from memory.text.doc import Doc, Sentence
from memory.text.fact_parse import parsed
from memory.text.repair_features import NO_POS, parts_of_speech, tokenise
from memory.text.repairs import Repair, find_repairs

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
        wrong_a, wrong_b = left_phrase(doc, repair.replaced[1], max(repair.replaced[0], sentence.start))
        right_a, right_b = right_phrase(doc, repair.repair[0], doc.sentence_at(repair.repair[0]).end)
        if not doc.text[wrong_a:wrong_b].strip():
            continue
        matched = match_values(doc.text[wrong_a:wrong_b], doc.text[right_a:right_b], doc)
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


def find_corrections(doc: Doc, min_confidence: float = MIN_CONFIDENCE) -> list[Correction]:
    """The recording's self-corrections: the cue rules', the retraces and the contrasts in every
    sentence, and the tagger's in English ones where none of them found one (`min_confidence`: see
    MIN_CONFIDENCE)."""
    found = cue_corrections(doc, doc.sentences)
    others = retrace_corrections(doc, doc.sentences) + contrast_corrections(doc, doc.sentences)
    others += said_again_corrections(doc, doc.sentences) + cut_off_corrections(doc, doc.sentences)
    others += retraction_corrections(doc, doc.sentences)
    for c in others:
        overlapping = [o for o in found if c.wrong.start < o.right.end and o.wrong.start < c.right.end]
        # a strong cue links whatever it follows ("Harrowfield Systems, I meant to say" read as
        # words taken back); a reader that found two values of one kind there knows better
        if overlapping and c.kind != "words" and all(o.kind == "words" for o in overlapping):
            found = [o for o in found if o not in overlapping]
            overlapping = []
        if not overlapping:
            found.append(c)
    for repair, c in repair_candidates(doc):
        if not _accepted(repair, c.kind, min_confidence):
            continue
        if any(c.wrong.start < o.right.end and o.wrong.start < c.right.end for o in found):
            continue  # the rules already read this one
        found.append(c)
    return sorted(found, key=lambda c: c.wrong.start)
