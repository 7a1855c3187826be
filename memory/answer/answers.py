"""Answers with provenance: every claim is stated (a checked quote) or inferred, never unmarked.

The model proposes; this module disposes. A model claim becomes:
- **stated** when its quote is verbatim in a passage (memory.text.quotes), that passage is one the
  relevance gate kept, and the quote itself speaks to the question. Its text is the quote, the
  raw words as said, so "the email mentioned a project worth 100k" stays exactly that. A quote
  cut just before a self-correction is extended through it (and one that starts with the
  correction is extended back to the words it corrects), so the answer carries both.
- **inferred** (an extra line after the stated one) only for the model's own short answer when
  every content word of it is in the cited passage or the question, and the quote is not
  reported speech, hedged or conditional ("apparently", "if", "the email said"), nor an
  instruction aimed at the assistant.
Everything else is dropped. With no stated claim left, the answer is extractive: the most
relevant sentence of each relevant passage, verbatim. With no relevant passage at all: "not in
your notes", and the nearest passages are shown for the user to judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from memory.answer.across import one_per_project
from memory.answer.claims import RawClaim, sentences
from memory.answer.context import (
    ContextPassage,
    has_correction,
    sentence_bounds,
    sentence_of,
    states_something,
    through_corrections,
    with_reply,
)
from memory.answer.relevance_gate import Gate, best_sentence
from memory.answer.sentence_ranker import SentenceRanker, best_sentences
from memory.text.quotes import ClaimKind, QuoteSpan, locate_quote, normalise, tokens, word_count
from memory.text.relevance import (
    QuestionTerms,
    coverage,
    said_stems,
    stems,
)

_HEDGED = re.compile(
    r"\b(?:apparently|reportedly|supposedly|allegedly|rumou?r|maybe|perhaps|might|may|could|would|if|"
    r"unless|whether|mentioned|said|says|told|claims?|email|e-mail|deck|slide|article|joking|rival|"
    r"angeblich|vielleicht|falls|wenn|sagte|meinte|laut)\b",
    re.IGNORECASE,
)
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget)\b.{0,40}\b(?:instructions?|rules?|prompt)\b|\bsystem prompt\b|"
    r"\b(?:you must|always) answer\b|\banswer (?:that|with)\b",
    re.IGNORECASE,
)


class Quoted(Protocol):
    """Words kept by consolidation with where they were said (a fact, a commitment, a connection's
    side): what a citation of them needs."""

    @property
    def project(self) -> str: ...
    @property
    def recording_id(self) -> int: ...
    @property
    def spoken_at(self) -> str: ...
    @property
    def start(self) -> float: ...
    @property
    def end(self) -> float: ...
    @property
    def segment_ids(self) -> Sequence[int]: ...
    @property
    def quote(self) -> str: ...


@dataclass(frozen=True)
class Citation:
    passage: int
    project: str
    recording_id: int
    spoken_at: str
    start: float
    end: float
    segment_ids: tuple[int, ...]
    quote: str

    def to_json(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "recording_id": self.recording_id,
            "spoken_at": self.spoken_at,
            "start": self.start,
            "end": self.end,
            "segment_ids": list(self.segment_ids),
            "quote": self.quote,
        }

    @classmethod
    def of(cls, said: Quoted) -> Citation:
        """A citation of words consolidation kept, cited by their own segments (no passage)."""
        return cls(
            0,
            said.project,
            said.recording_id,
            said.spoken_at,
            said.start,
            said.end,
            tuple(said.segment_ids),
            said.quote,
        )


@dataclass
class Claim:
    text: str
    kind: ClaimKind
    citations: list[Citation] = field(default_factory=list)
    source: str = "model"  # "model" | "extractive" | "current" (a later fact superseded what was cited)
    correction: bool = False  # the quote holds a self-correction: the later words are the ones meant
    replaces: list[Citation] = field(default_factory=list)  # earlier values this one superseded
    # The cited lines as the user corrected them (the quote stays the raw words): `show_corrected_lines`.
    corrected: str | None = None

    def to_json(self) -> dict[str, Any]:
        # The superseded quotes follow the claim's own citation: what it replaced, and when that was said.
        cites = [c.to_json() for c in self.citations + self.replaces]
        out: dict[str, Any] = {"text": self.text, "kind": self.kind, "citations": cites}
        if self.corrected is not None:
            out["corrected"] = self.corrected
        return out


def show_corrected_lines(claims: Sequence[Claim], passages: Sequence[ContextPassage]) -> None:
    """Stated claims that quote a line the user corrected carry the corrected lines beside the raw
    quote: the answer quotes what was transcribed, and shows what the user says was said."""
    lines = {s.id: s for p in passages for s in p.segments}
    for claim in claims:
        cited = [lines[i] for c in claim.citations for i in c.segment_ids if i in lines]
        if claim.kind == ClaimKind.STATED and any(s.edited for s in cited):
            claim.corrected = " ".join(s.text.strip() for s in cited)


TIMING_KEYS = ("retrieve_ms", "first_token_ms", "total_ms")


@dataclass
class Answer:
    question: str
    answer_found: bool
    model: str | None
    claims: list[Claim]
    passages: list[ContextPassage]
    timings: dict[str, float]
    mode: str = "extractive"  # "model" | "extractive" | "not_found"
    dropped: int = 0  # model claims the checker or the gate refused
    llm_call_id: int | None = None
    answerable_p: float | None = None  # the answerability model's probability (None: no model)
    features: dict[str, float] = field(default_factory=dict)  # what it was computed from

    @property
    def stated(self) -> list[Claim]:
        return [c for c in self.claims if c.kind == ClaimKind.STATED]

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer_found": self.answer_found,
            "answerable_p": None if self.answerable_p is None else round(self.answerable_p, 4),
            "model": self.model,
            "claims": [c.to_json() for c in self.claims],
            "passages": [p.to_json() for p in self.passages],
            "timings": {k: round(self.timings.get(k, 0.0), 1) for k in TIMING_KEYS},
        }


# --- the relevance gate -----------------------------------------------------------------------------
# --- spans and corrections --------------------------------------------------------------------------
def _citation(p: ContextPassage, span: QuoteSpan) -> Citation:
    return Citation(
        p.number, p.project, p.recording_id, p.spoken_at, span.start, span.end, span.segment_ids, span.text
    )


# --- model claims -------------------------------------------------------------------------------------
def _longest_common_run(a: Sequence[str], b: Sequence[str]) -> tuple[int, int]:
    """Length of the longest run of words both share, and where it ends in `b`."""
    best, end = 0, 0
    previous = [0] * (len(b) + 1)
    for word in a:
        current = [0] * (len(b) + 1)
        for j, other in enumerate(b, start=1):
            if word == other:
                current[j] = previous[j - 1] + 1
                if current[j] > best:
                    best, end = current[j], j - 1
        previous = current
    return best, end


ALIGNED_WORDS = 4  # a model answer must copy this many words in a row to point at a sentence
SHORT_ANSWER_WORDS = 3  # or be this short, with all its content words in one sentence
COPIED_SHARE = 0.9  # a reading whose words are this share of one run of a passage is a copy of it


@dataclass
class Labeller:
    """Checks the model's claims one at a time, as they stream.

    A streamed claim arrives first with only its quote (checked and shown at once), then complete
    with its answer (which may add an inferred line). A claim without a stream key is both at once.
    """

    passages: Sequence[ContextPassage]
    terms: QuestionTerms
    gate: Gate = field(default_factory=Gate)
    dropped: int = 0
    seen: set[tuple[int, ...]] = field(default_factory=set)
    checked: dict[int, Claim | None] = field(default_factory=dict)  # stream key → its stated claim
    repeated: bool = False  # the model quoted a sentence again: it is looping, stop it

    def __post_init__(self) -> None:
        self.by_number = {p.number: p for p in self.passages}
        self.sources = {p.number: p.source() for p in self.passages if p.segments}

    def label(self, raw: RawClaim) -> list[Claim]:
        out: list[Claim] = []
        if raw.key < 0 or raw.key not in self.checked:
            stated = self._stated(raw)
            if raw.key >= 0:
                self.checked[raw.key] = stated
            if stated is not None:
                out.append(stated)
        else:
            stated = self.checked[raw.key]
        if raw.complete and stated is None and raw.text:
            # The quote failed, but the model's own answer may copy the words that answer: the
            # sentence holding the longest run of them is quoted instead (verbatim, and checked).
            stated = self._aligned(raw.text)
            if raw.key >= 0:
                self.checked[raw.key] = stated
            if stated is not None:
                out.append(stated)
        if raw.complete and stated is not None:
            passage = self.by_number[stated.citations[0].passage]
            reading = _inferred_reading(raw.text, stated.text, passage, self.terms)
            if reading and self._copies_a_passage(reading):
                reading = None  # the passage's own words are never shown as the model's reading
            if reading:
                out.append(Claim(reading, ClaimKind.INFERRED, list(stated.citations), "model"))
        return out

    def _copies_a_passage(self, text: str) -> bool:
        """Whether `text` is words of a shown passage, nearly all of it in one run: an excerpt, not
        a reading (an "inferred" line must be the model's own words)."""
        wanted = [t.norm for t in tokens(text)]
        if not wanted:
            return False
        for source in self.sources.values():
            run, _ = _longest_common_run(wanted, [t.norm for t in source.tokens])
            if run >= min(ALIGNED_WORDS, len(wanted)) and run >= COPIED_SHARE * len(wanted):
                return True
        return False

    def _aligned(self, text: str) -> Claim | None:
        """The sentence a model's answer points at: the one holding the longest run of its words
        (at least ALIGNED_WORDS), or, for a short answer ("64", "Tuesday"), the one sentence of the
        relevant passages holding all its content words (the best covering one if several do)."""
        wanted = [t.norm for t in tokens(text)]
        best: tuple[int, int, int] = (0, 0, 0)  # (run length, passage, last token)
        for number, source in self.sources.items():
            if self.by_number[number].relevant:
                run, last = _longest_common_run(wanted, [t.norm for t in source.tokens])
                best = max(best, (run, number, last))
        run, number, last = best
        if run >= ALIGNED_WORDS:
            source = self.sources[number]
            bounds = sentence_bounds(source)
            return self._checked_span(self.by_number[number], source.span(*bounds[sentence_of(bounds, last)]))
        content = {s for s in stems(text) if s not in _FUNCTION_STEMS}
        if not content or len(content) > SHORT_ANSWER_WORDS:
            return None
        holding: list[tuple[float, int, tuple[int, int]]] = []
        for number, source in self.sources.items():
            if not self.by_number[number].relevant:
                continue
            for first, last in sentence_bounds(source):
                sentence = source.span(first, last).text
                if content <= said_stems(sentence):
                    holding.append(
                        (coverage(self.terms, said_stems(sentence)).coverage, number, (first, last))
                    )
        if not holding:
            return None
        _, number, (first, last) = max(holding, key=lambda h: h[0])
        return self._checked_span(self.by_number[number], self.sources[number].span(first, last))

    def _stated(self, raw: RawClaim) -> Claim | None:
        found = locate_quote(raw.quote, raw.passages, self.sources) if raw.quote else None
        if found is None and raw.complete:
            found = locate_quote(raw.text, raw.passages, self.sources) if raw.text else None
        if found is None or not self.by_number[found.passage].relevant:
            self.dropped += 1
            return None
        return self._checked_span(self.by_number[found.passage], found.span)

    def _checked_span(self, passage: ContextPassage, found: QuoteSpan) -> Claim | None:
        span = with_reply(
            self.sources[passage.number], through_corrections(self.sources[passage.number], found)
        )
        quote_support = coverage(self.terms, said_stems(span.text))
        key = (*span.segment_ids, span.first_token, span.last_token)
        self.repeated = self.repeated or key in self.seen
        if quote_support.coverage < self.gate.min_quote_support or key in self.seen:
            self.dropped += 1
            return None
        self.seen.add(key)
        return Claim(
            span.text, ClaimKind.STATED, [_citation(passage, span)], "model", has_correction(span.text)
        )


def _inferred_reading(text: str, quote: str, passage: ContextPassage, terms: QuestionTerms) -> str | None:
    """The model's own short answer, kept only when it adds nothing that was not said."""
    text = " ".join(text.split())
    if not text or len(text) > 200 or normalise(text) in normalise(quote):
        return None
    if _HEDGED.search(quote) or _INSTRUCTION.search(quote) or _INSTRUCTION.search(text):
        return None
    # Amounts, counts and dates are facts: they reach the user only inside a stated quote, never
    # in the model's reading, even when the number is somewhere else in the passage.
    if not set(_NUMBERS.findall(normalise(text))) <= set(_NUMBERS.findall(normalise(quote))):
        return None
    allowed = said_stems(passage.text) | said_stems(" ".join(passage.context_words())) | stems(terms.raw)
    content = {stem for stem in stems(text) if stem not in _FUNCTION_STEMS}
    return text if content and content <= allowed else None


_NUMBERS = re.compile(
    r"\w*\d\w*|\b(?:hundred|thousand|million|billion|trillion|dozen|hundert|tausend|millionen?|milliarden?)\b"
)


_FUNCTION_STEMS = stems(
    "the a an is are was were be been it its this that these those and or but of to in on at for with by"
    " from as you your i my we our he she they his her their there here so not no yes"
)


# --- extractive answers -------------------------------------------------------------------------------
def extractive_claims(
    passages: Sequence[ContextPassage],
    terms: QuestionTerms,
    *,
    max_claims: int = 3,
    per_project: bool = False,
    ranker: SentenceRanker | None = None,
) -> list[Claim]:
    """The best sentence of each relevant passage, verbatim and stated (`per_project`: each
    project's best passage before any project's second).

    With a sentence ranker (memory/answer/sentence_ranker.py), each passage's sentence is the one
    it ranks first, and the passages follow their chosen sentence's probability; without one, the
    sentence that covers the question best, passages by the gate's support."""
    relevant = sorted(
        (p for p in passages if p.relevant and p.segments), key=lambda p: (-p.support.score, p.rank)
    )
    chosen: dict[int, str] = {}
    if ranker is not None and relevant:
        best: dict[int, float] = {}
        candidates = [(p, sentences(p.text) or [p.text]) for p in relevant]
        for p, (probability, sentence) in zip(
            relevant, best_sentences(ranker, terms, candidates), strict=True
        ):
            best[p.number], chosen[p.number] = probability, sentence
        relevant.sort(key=lambda p: -best[p.number])
    if per_project:
        relevant = one_per_project(relevant)
    claims: list[Claim] = []
    for p in relevant[:max_claims]:
        source = p.source()
        # In a conversation, the words of the person asked about (each of their turns on its own).
        said = [sentence for turn in p.words_of(terms.names) for sentence in sentences(turn)]
        if not said and p.asked_speakers(terms.names):
            continue  # the person asked about speaks here, but only to the other
        options = said or sentences(p.text) or [p.text]
        first = chosen.get(p.number) or best_sentence(terms, options, names=per_project)
        # A question that asks two things: the sentence that answers each part, when that is
        # another sentence of the passage ("… runs the depot" and "… signs off any spending").
        picked = [first, *(best_sentence(terms.part(s), options, names=per_project) for s in terms.parts)]
        quoted: list[QuoteSpan] = []
        for sentence in dict.fromkeys(picked):
            span = source.find(sentence, min_words=1)
            if span is None:
                continue
            span = with_reply(source, through_corrections(source, span))
            if any(span.first_token <= q.last_token and q.first_token <= span.last_token for q in quoted):
                continue  # already quoted
            if not states_something(span.text, p.speakers):
                continue
            quoted.append(span)
            claims.append(
                Claim(
                    span.text, ClaimKind.STATED, [_citation(p, span)], "extractive", has_correction(span.text)
                )
            )
    return claims


def prompt_sentences(passage: ContextPassage, terms: QuestionTerms, max_words: int) -> list[str]:
    """The passage's sentences a model is shown: all of them when they fit, else the best one and
    its neighbours (the next first: corrections and answers follow) within `max_words`, in order."""
    options = sentences(passage.text)
    if not options or sum(word_count(o) for o in options) <= max_words:
        return options
    best = options.index(best_sentence(terms, options))
    lo = hi = best
    used = word_count(options[best])
    for step in range(1, len(options)):
        for i in (best + step, best - step):
            if 0 <= i < len(options) and used + word_count(options[i]) <= max_words:
                lo, hi, used = min(lo, i), max(hi, i), used + word_count(options[i])
        if lo > best - step and hi < best + step:
            break
    return options[lo : hi + 1]


def is_instruction(text: str) -> bool:
    return bool(_INSTRUCTION.search(text))
