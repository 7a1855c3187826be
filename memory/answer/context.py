"""Select the small context an answer is built from: a few passages of whole raw segments.

Selection is the whole job: a small model answers better from 300 focused words than from 3,000.
Each retrieved chunk is narrowed to the segments that carry the question's words, then widened
just enough to be whole: a passage cut mid-thought gets its next segment, and a segment followed
by a self-correction ("oh wait, I actually meant…", "nein, warte") always brings the correction
with it, so the corrected words are never shown without the words that correct them (or the
other way round). Passages of one recording that touch are merged; the total stays within a word
budget (Settings.ask_word_budget).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from memory.search.hits import Hit
from memory.store import recordings
from memory.store.recordings import Segment
from memory.store.store import Store
from memory.text import nlp
from memory.text.doc import split_sentences
from memory.text.quotes import QuoteSource, QuoteSpan, SourceSegment, word_count
from memory.text.relevance import (
    STOPWORDS,
    QuestionTerms,
    Support,
    asked_values,
    best_window,
    coverage,
    number_values,
    said_stems,
    stems,
)

# Words that take back what was just said. Matched on lower-cased text near the start of a
# segment, or anywhere inside a quote.
_CORRECTION = re.compile(
    r"(?:\b(?:oh\s+)?wait\b[,.]?\s*(?:no\b|i\b|it'?s\b|sorry\b|actually\b)|\bno,?\s+wait\b|"
    r"\bi\s+(?:actually\s+)?mean(?:t)?\b|\bscratch\s+that\b|\bno,?\s+sorry\b|\bsorry,\s+(?:i\s+mean|no)\b|"
    r"\bcorrection\b|\blet\s+me\s+correct\b|\bwell,?\s+\w+\s+actually\b|,\s*(?:um,?\s*)?actually\b|"
    r",\s*no,\s|\bsorry,\s+\d|\bich\s+meinte?\b|\bkorrektur\b|\bnein,?\s+warte\b|\bwarte,?\s+nein\b|"
    r"\bnein,?\s+sorry\b|\bquatsch\b|\bnicht\s+\w+,\s+sondern\b)",
    re.IGNORECASE,
)
_TERMINAL = re.compile(r"[.!?…]['\"”’)\]]*\s*$")
OPENING_WORDS = 3  # a correction this close to the start refers to what came before ("Um, oh wait, …")


def correction_at(text: str) -> int | None:
    """Character offset of the first self-correction marker in `text`, else None."""
    found = _CORRECTION.search(text)
    return found.start() if found else None


def has_correction(text: str) -> bool:
    return correction_at(text) is not None


def opens_with_correction(text: str) -> bool:
    at = correction_at(text)
    return at is not None and word_count(text[:at]) <= OPENING_WORDS


def ends_mid_thought(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not _TERMINAL.search(stripped)


@dataclass
class ContextPassage:
    """A numbered piece of context: consecutive raw segments of one recording."""

    number: int
    recording_id: int
    project_id: int
    project: str
    title: str
    spoken_at: str
    segments: list[Segment]
    rank: int  # the retriever's position of the chunk that brought it (0 = best)
    score: float
    components: dict[str, float] = field(default_factory=dict)
    chunk_ids: list[int] = field(default_factory=list)
    fallback_text: str = ""  # provisional passages (live transcript) have no raw segments
    relevant: bool = False
    support: Support = field(default_factory=Support)

    @property
    def segment_ids(self) -> list[int]:
        return [s.id for s in self.segments]

    @property
    def start(self) -> float:
        return self.segments[0].start if self.segments else 0.0

    @property
    def end(self) -> float:
        return self.segments[-1].end if self.segments else 0.0

    @property
    def text(self) -> str:
        """The raw words, segments joined by single spaces."""
        if not self.segments:
            return self.fallback_text
        return " ".join(s.raw_text.strip() for s in self.segments)

    @property
    def speakers(self) -> list[str]:
        return list(dict.fromkeys(s.speaker for s in self.segments if s.speaker))

    @property
    def words(self) -> int:
        return word_count(self.text)

    def source(self) -> QuoteSource:
        return QuoteSource([SourceSegment(s.id, s.start, s.end, s.raw_text) for s in self.segments])

    def labelled_text(self) -> str:
        """The raw words with the speaker named where it changes (how the model reads a dialogue)."""
        if len(self.speakers) <= 1:
            return self.text
        parts, previous = [], None
        for s in self.segments:
            if s.speaker and s.speaker != previous:
                parts.append(f"\n{s.speaker}: {s.raw_text.strip()}")
            else:
                parts.append(s.raw_text.strip())
            previous = s.speaker or previous
        return " ".join(parts).strip()

    def context_words(self) -> list[str]:
        """What the passage is about besides its words: project, title and who speaks."""
        return [self.project, self.title, *self.speakers]

    def asked_speakers(self, names: Collection[str]) -> set[str]:
        """The names (stems) that are speakers of the passage: a question about one of them in a
        conversation is answered by their own words."""
        return set(names) & set().union(*(stems(s.speaker) for s in self.segments if s.speaker))

    def spoken_by(self, segment: Segment, asked: set[str]) -> bool:
        return bool(segment.speaker and stems(segment.speaker) & asked)

    def statements_of(self, asked: set[str]) -> list[str | None]:
        """Segment by segment, what the speakers `asked` (stems) state in it, less what they say
        about the other person (`_statements`: their questions to them, a sentence that turns to
        them); None for a segment someone else said."""
        others = [sp for sp in self.speakers if not (stems(sp) & asked)]
        return [_statements(s.raw_text, others) if self.spoken_by(s, asked) else None for s in self.segments]

    def words_of(self, names: Collection[str]) -> list[str]:
        """What the speakers among `names` (stems) state in the passage, segment by segment
        (`statements_of`); nothing when none of them speaks here."""
        asked = self.asked_speakers(names)
        return [t for t in self.statements_of(asked) if t is not None] if asked else []

    def anchors(self) -> set[str]:
        """Stems of the whole passage and its context: where a question's names may be found
        (with the user's corrections of its lines, as `segment_stems` reads them)."""
        corrected = [s.text for s in self.segments if s.edited]
        return said_stems(" ".join([self.text, *corrected, *self.context_words()]))

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "project": self.project,
            "recording_id": self.recording_id,
            "title": self.title,
            "spoken_at": self.spoken_at,
            "start": self.start,
            "end": self.end,
            "segment_ids": self.segment_ids,
            "text": self.text,
            "relevant": self.relevant,
            "rank": self.rank,
            "score": round(self.score, 6),
            "support": self.support.to_json(),
        }


def _focus(segments: list[Segment], terms: QuestionTerms, max_words: int) -> list[Segment]:
    """The run of segments that best covers the question, within `max_words` (at least one)."""
    if word_count(" ".join(s.raw_text for s in segments)) <= max_words:
        return segments
    texts = [s.raw_text for s in segments]
    best, _ = best_window(terms, texts, width=1)
    lo = hi = best
    used = word_count(texts[best])
    while True:  # grow towards the side whose next segment shares more of the question
        grew = False
        for side in sorted((lo - 1, hi + 1), key=lambda i: -_overlap(terms, texts, i)):
            if 0 <= side < len(texts) and used + word_count(texts[side]) <= max_words:
                lo, hi = min(lo, side), max(hi, side)
                used += word_count(texts[side])
                grew = True
                break
        if not grew:
            return segments[lo : hi + 1]


def _overlap(terms: QuestionTerms, texts: Sequence[str], i: int) -> float:
    return coverage(terms, said_stems(texts[i])).coverage if 0 <= i < len(texts) else -1.0


def _widen(store: Store, segments: list[Segment]) -> list[Segment]:
    """Add neighbours from the recording so the passage neither starts nor ends mid-thought."""
    first, last = segments[0], segments[-1]
    around = recordings.list_segments(
        store, first.recording_id, first_idx=max(0, first.idx - 2), last_idx=last.idx + 2
    )
    return _widened(segments, around)


def _widened(segments: list[Segment], around: Sequence[Segment]) -> list[Segment]:
    """`segments` plus the neighbours (from `around`) that finish a thought or a correction."""
    first, last = segments[0], segments[-1]
    before = [s for s in around if s.idx < first.idx]
    after = [s for s in around if s.idx > last.idx]
    out = list(segments)
    # The passage opens with a correction: the corrected words are in the segment before.
    if before and (opens_with_correction(out[0].raw_text) or ends_mid_thought(before[-1].raw_text)):
        out.insert(0, before[-1])
    for nxt in after[:2]:  # a cut sentence, then the correction that follows it
        if opens_with_correction(nxt.raw_text) or ends_mid_thought(out[-1].raw_text):
            out.append(nxt)
        else:
            break
    return out


def focus_passage(passage: ContextPassage, terms: QuestionTerms, max_words: int) -> ContextPassage:
    """The same passage narrowed to the segments that answer, for a prompt that must stay short."""
    if not passage.segments or passage.words <= max_words:
        return passage
    focused = _widened(_focus(passage.segments, terms, max_words), passage.segments)
    return replace(passage, segments=focused)


def passages_from_hits(
    store: Store,
    hits: Sequence[Hit],
    terms: QuestionTerms,
    *,
    word_budget: int = 600,
    max_passages: int = 6,
    passage_words: int | None = None,
) -> list[ContextPassage]:
    """Numbered passages (1, 2, ...) in retrieval order, merged per recording, within the budget."""
    cap = passage_words or max(60, word_budget // 3)
    passages: list[ContextPassage] = []
    used = 0
    for rank, hit in enumerate(hits):
        if len(passages) >= max_passages or used >= word_budget:
            break
        p = ContextPassage(
            number=0,
            recording_id=hit.recording_id,
            project_id=hit.project_id,
            project=hit.project,
            title=hit.title,
            spoken_at=hit.spoken_at,
            segments=[],
            rank=rank,
            score=hit.score,
            components=dict(hit.components),
            chunk_ids=[hit.chunk_id],
            fallback_text=hit.text,
        )
        if hit.segment_ids:
            segments = recordings.get_segments(store, hit.segment_ids)
            p.segments = _widen(store, _focus(segments, terms, min(cap, word_budget - used)))
        if _merge_into(passages, p):
            continue
        p.number = len(passages) + 1
        passages.append(p)
        used += p.words
    return passages


def _merge_into(passages: list[ContextPassage], new: ContextPassage) -> bool:
    """Join a passage to an earlier one of the same recording when their segments touch."""
    if not new.segments:
        return False
    for p in passages:
        if p.recording_id != new.recording_id or not p.segments:
            continue
        if new.segments[0].idx <= p.segments[-1].idx + 1 and p.segments[0].idx <= new.segments[-1].idx + 1:
            by_idx = {s.idx: s for s in p.segments + new.segments}
            p.segments = [by_idx[i] for i in sorted(by_idx)]
            p.chunk_ids.append(*new.chunk_ids)
            return True
    return False


def passage_support(
    passage: ContextPassage,
    terms: QuestionTerms,
    *,
    width: int,
    mentioned: Callable[[str], bool],
    given: frozenset[str] = frozenset(),
) -> Support:
    """How well the passage supports the question: its best window, and the names around it.

    When the question names someone who speaks in the passage ("What did Caroline research?"),
    only that person's own statements count: in a conversation, what the other person said is not
    an answer about the one asked about, and neither is what the person asked the other ("What kind
    of counselling do you want to pursue?" is Melanie asking Caroline, not Melanie's plan).
    `mentioned(stem)` says whether the passage's project mentions a name elsewhere; `given` are
    stems counted as found in every window (the words of a day the question names, when the
    passage was spoken then).
    """
    anchors = passage.anchors()
    required = terms.names - terms.descriptive
    found = [n for n in required if n in anchors or mentioned(n)]
    if len(found) < len(required) and (values := asked_values(terms.raw, frozenset(required))):
        # "the 40k quote" is said "forty thousand": a number counts as said when the passage says its value
        said = number_values(passage.text)
        found += [n for n, v in values.items() if n not in found and any(math.isclose(v, x) for x in said)]
    names = len(found) / len(required) if required else 1.0
    segments = passage.segments
    if not segments:
        best = coverage(terms, said_stems(passage.text) | given)
        return Support(best.coverage, names, best.matched)
    asked = passage.asked_speakers(terms.names)
    if asked:
        per_segment = [said_stems(t) if t is not None else set() for t in passage.statements_of(asked)]
    else:
        per_segment = [segment_stems(s) for s in segments]
    best = Support(0.0, names)
    for i in range(len(segments)):
        window = set().union(*per_segment[i : i + width]) | given
        candidate = coverage(terms, window)
        if candidate.coverage > best.coverage:
            best = Support(candidate.coverage, names, candidate.matched)
    return best


def segment_stems(segment: Segment) -> set[str]:
    """The words of a line as evidence of what was said: the raw words, and the user's correction
    of them. A user who corrected "Kent" to "Chen", or "the slides" to "the printed banners", is
    asking about what was said, and search already finds the corrected words; the words quoted
    stay the raw ones (a stated line is checked against the raw transcript)."""
    found = said_stems(segment.raw_text)
    return found | said_stems(segment.text) if segment.edited else found


_ADDRESSEE = re.compile(
    r"\b(?:you|your|yours|yourself|yourselves|du|dich|dir|dein\w*|ihr|euch|euer\w*)\b", re.I
)


def _statements(text: str, others: Sequence[str] = ()) -> str:
    """The text less what the speaker says about the other person (`others`: the other speakers of
    the passage): the questions it asks them (a sentence that ends with a question mark and says
    "you"), and, with one other person, a sentence that turns to them (names them, or says "your")
    and says nothing of the speaker ("That charity race sounds great, Mel!", "Your store looks
    great"): those are about the other person. A plain "you" without a question mark is often
    anyone ("you write up a proposal and give it to people"), so it alone turns to no one."""
    return _SENTENCE.sub(lambda m: " " if _about_other(m.group(0), others) else m.group(0), text)


_SENTENCE = re.compile(r"[^.!?…]+[.!?…]*")
_SPEAKER_WORDS = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|us|our|ours)\b", re.I)
_YOUR = re.compile(r"\byours?\b", re.I)
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+")


def _about_other(sentence: str, others: Sequence[str]) -> bool:
    if sentence.rstrip().endswith("?") and _ADDRESSEE.search(sentence):
        return True
    if len(others) != 1 or _SPEAKER_WORDS.search(sentence):
        return False
    if _YOUR.search(sentence):
        return True
    # The other person named: their first name or a shortening of it ("Mel" for Melanie).
    first = (others[0].split() or [""])[0].lower()
    said = {w.lower() for w in _CAPITALISED.findall(sentence)}
    return len(first) >= 3 and any(len(w) >= 3 and w not in STOPWORDS and first.startswith(w) for w in said)


# --- sentences and self-corrections inside a passage -----------------------------------------------
_SENTENCE_GAP = re.compile(r"[.!?…]['\"”’)\]]*(?:\s|$)")


def _gap_after(source: QuoteSource, i: int) -> str:
    """What the raw text holds between token `i` and the next one (to its segment's end when the
    next one is in another segment)."""
    tok = source.tokens[i]
    raw = source.segments[tok.segment].text
    nxt = source.tokens[i + 1] if i + 1 < len(source.tokens) else None
    return raw[tok.end : nxt.start if nxt is not None and nxt.segment == tok.segment else len(raw)]


def sentence_bounds(source: QuoteSource) -> list[tuple[int, int]]:
    """(first_token, last_token) of each sentence of the passage, in token positions.

    A sentence ends where terminal punctuation and a space follow a word ("3.5" does not end one);
    a segment boundary alone does not (speech recognisers cut segments mid-sentence).
    """
    bounds: list[tuple[int, int]] = []
    toks = source.tokens
    start = 0
    for i in range(len(toks)):
        if i + 1 == len(toks) or _SENTENCE_GAP.search(_gap_after(source, i)):
            bounds.append((start, i))
            start = i + 1
    return bounds


def sentence_of(bounds: list[tuple[int, int]], token: int) -> int:
    return next((n for n, (a, b) in enumerate(bounds) if a <= token <= b), len(bounds) - 1)


def through_corrections(source: QuoteSource, span: QuoteSpan) -> QuoteSpan:
    """Extend a span through a self-correction that follows it, or back to the words it corrects.

    "The workshop is on Monday" followed by ", oh wait, I actually meant Tuesday" becomes the
    whole sentence; so does a quote of only "I actually meant Tuesday".
    """
    if not source.tokens:
        return span
    bounds = sentence_bounds(source)
    first, last = span.first_token, span.last_token
    at = sentence_of(bounds, last)
    sentence_end = bounds[at][1]
    if sentence_end > last and has_correction(source.span(last, sentence_end).text):
        last = sentence_end
    elif at + 1 < len(bounds) and opens_with_correction(source.span(*bounds[at + 1]).text):
        last = bounds[at + 1][1]
    if opens_with_correction(source.span(first, last).text):
        begin = sentence_of(bounds, first)
        first = bounds[begin][0]
        if begin > 0 and opens_with_correction(source.span(*bounds[begin]).text):
            first = bounds[begin - 1][0]
    return span if (first, last) == (span.first_token, span.last_token) else source.span(first, last)


def _ends_with_question(source: QuoteSource, last_token: int) -> bool:
    return _gap_after(source, last_token).lstrip().startswith("?")


def with_reply(source: QuoteSource, span: QuoteSpan) -> QuoteSpan:
    """A quote that ends with a question goes on through the sentence that follows it.

    A question is not an answer; in a conversation or a meeting its answer is the reply ("How long
    have you been creating art? Since I was 17 or so."), and a speaker thinking aloud answers their
    own question next ("Do we need a second site? Probably not."). The quote stays verbatim: the
    question and the reply, as said. A question that ends the passage stays as it is.
    """
    if not source.tokens or not _ends_with_question(source, span.last_token):
        return span
    bounds = sentence_bounds(source)
    at = sentence_of(bounds, span.last_token)
    if at + 1 >= len(bounds):
        return span
    return source.span(span.first_token, bounds[at + 1][1])


# Words that say nothing of the matter in a reply: thanks, and the person thanked or hailed.
_EMPTY_POS = frozenset({"PUNCT", "SPACE", "INTJ", "SYM", "X"})


def states_something(text: str, speakers: Sequence[str] = ()) -> bool:
    """Whether a quote says something beyond questions: one of its sentences that is not a question
    holds a word other than thanks, an interjection or a speaker's name ("How did they handle the
    accident? Thanks" states nothing; "How long have you been creating art? Since I was 17 or so"
    does). A question is not an answer, and neither is the thanks after one. Read by spaCy's parts
    of speech; German text, which has no pipeline here, by any word at all."""
    named = {w.lower() for sp in speakers for w in sp.split()}
    for sentence in split_sentences(text):
        if sentence.rstrip().endswith("?"):
            continue
        if nlp.language_of(sentence) == "de":
            if re.search(r"\w", sentence):
                return True
            continue
        for t in nlp.parse(sentence):
            if t.pos_ in _EMPTY_POS or t.lemma_.lower() == "thank" or t.lower_ in named or t.lower_ == "you":
                continue
            return True
    return False
