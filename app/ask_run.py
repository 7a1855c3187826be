"""One question being answered (app/ask.py): what every step of the answer needs, the quotes it
chose once, and the clock its timings are measured by."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from app.library import Library
from memory.answer.answers import Claim, extractive_claims
from memory.answer.context import ContextPassage
from memory.answer.relevance_gate import Gate
from memory.answer.sentence_ranker import SentenceRanker
from memory.text.relevance import QuestionTerms

EXTRACTIVE_CLAIMS = 3
TextSink = Callable[[str], None]


@dataclass
class AskRun:
    """One question being answered: what every step needs, and the clock it is measured by."""

    library: Library
    question: str
    passages: list[ContextPassage]
    terms: QuestionTerms
    gate: Gate
    on_text: TextSink | None
    cancelled: Callable[[], bool] | None
    started: float
    timings: dict[str, float]
    first_text_ms: float | None = None
    until: str | None = None  # store time the question is asked as of (later facts are unknown)
    across: bool = False  # asked across projects: each project's best passage speaks first
    ranker: SentenceRanker | None = None  # chooses the sentence each passage is quoted by
    quotes: list[Claim] | None = None  # the extractive choice, once read

    def extractive(self) -> list[Claim]:
        """The best sentence of each relevant passage, verbatim (read once: the kind check and the
        answer both need it)."""
        if self.quotes is None:
            self.quotes = extractive_claims(
                self.passages,
                self.terms,
                max_claims=EXTRACTIVE_CLAIMS,
                per_project=self.across,
                ranker=self.ranker,
            )
        return self.quotes

    def ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000

    def emit(self, text: str) -> None:
        if self.first_text_ms is None:
            self.first_text_ms = self.ms()
        if self.on_text is not None:
            self.on_text(text)
