"""The relevance gate: which passages speak to a question (`judge_passages`, by the share of the
question's words and names a passage says, or fewer when it is close in meaning, or when it is a
later note's saying of what a kept passage says), and which of a passage's sentences covers the
question best (`best_sentence`). memory/answer/answers.py quotes what the gate keeps.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.answer.asked_kind import CHECKED_KINDS, kind_in, question_kind
from memory.answer.claims import sentences
from memory.answer.context import ContextPassage, passage_support
from memory.search import asked_dates
from memory.store.store import Store
from memory.text.relevance import QuestionTerms, coverage, project_mentions, said_stems, stems


@dataclass(frozen=True)
class Gate:
    """When a passage counts as relevant, and when a quote speaks to the question.

    Calibrated on the development sets (see docs/benchmarks.md, "Ask"), not on single questions.
    """

    min_support: float = 0.5  # idf-weighted share of the question's words in a segment window
    min_names: float = 1.0  # share of the question's names that window must mention
    max_rank: int = 5  # only the retriever's best few can be relevant
    min_quote_support: float = 0.25  # a stated quote must carry this share of the question's words
    window: int = 2  # segments per window (a question and its answer are often two turns)
    # A question asked in other words than the note's: a passage the embedding model puts close to
    # it in meaning (its chunk's or best segment's cosine) needs only this share of its words.
    # Chosen leave one set out over the eight keyed consultant sets (docs/benchmarks.md,
    # "Close in meaning"): the same (0.5, 0.3) on every fold.
    min_cosine: float = 0.5
    min_support_close: float = 0.3
    # A later note's saying of what a kept passage says (`_keep_later_sayings`) needs this share of
    # the question's words: an update is said in fewer of them ("Leanne added a second rigging team,
    # so ninety-six all up"). Chosen leave one set out over the eleven keyed development sets from
    # 0.1-0.3 (docs/benchmarks.md, "A number said in words; a later saying in fewer words"): 0.25 on
    # ten folds, 0.2 on one.
    min_support_later: float = 0.25


def judge_passages(
    store: Store,
    passages: Sequence[ContextPassage],
    terms: QuestionTerms,
    gate: Gate,
    *,
    name_projects: Collection[int] | None = None,
    asked_at: datetime | None = None,
) -> bool:
    """Mark each passage relevant or not; True when at least one is.

    A question's name counts when the passage's project mentions it, or, with `name_projects`
    (a question asked across projects), any of those projects. The words of a day or month the
    question names ("in May 2023") count as said by a passage spoken then, or within two weeks
    after (memory/search/asked_dates.py): the note's own date answers them, as search reads them."""
    cache: dict[tuple[int, str], bool] = {}
    named = asked_dates.named_days(terms.raw, asked_at)
    days = [span for _, span in named]
    dated = frozenset().union(*(stems(terms.raw[a:b]) for (a, b), _ in named))

    def mentioned_in(project_id: int, name: str) -> bool:
        key = (project_id, name)
        if key not in cache:
            cache[key] = project_mentions(store, project_id, terms.spelled.get(name, name))
        return cache[key]

    for p in passages:

        def mentioned(name: str, project_id: int = p.project_id) -> bool:
            homes = [project_id, *sorted(set(name_projects or ()) - {project_id})]
            return any(mentioned_in(home, name) for home in homes)

        given = dated if dated and asked_dates.in_spans(p.spoken_at, days) else frozenset()
        # A question that asks two things is answered part by part: the part the passage speaks to
        # best is what it is judged by.
        p.support = max(
            (
                passage_support(p, t, width=gate.window, mentioned=mentioned, given=given)
                for t in [terms, *(terms.part(s) for s in terms.parts)]
            ),
            key=lambda s: s.coverage,
        )
        # In a conversation, what is close in meaning is as often what the other person did ("What
        # did Melanie paint?" near Caroline's painting): closeness counts in one voice's notes only.
        close = (
            max(p.components.get("cosine", 0.0), p.components.get("segment_cosine", 0.0))
            if len(p.speakers) <= 1
            else 0.0
        )
        p.relevant = (
            p.rank < gate.max_rank
            and (
                p.support.coverage >= gate.min_support
                or (close >= gate.min_cosine and p.support.coverage >= gate.min_support_close)
            )
            and p.support.names >= gate.min_names
        )
    _keep_later_sayings(passages, terms, gate)
    return any(p.relevant for p in passages)


def _keep_later_sayings(passages: Sequence[ContextPassage], terms: QuestionTerms, gate: Gate) -> None:
    """Keep a passage of a later note of a kept passage's project that says fewer of the question's
    words (`Gate.min_support_later`, fewer than a passage close in meaning needs): it is how the
    thing asked about stands now, and the question was asked in the words of the first saying
    ("how many heads on the shutdown crew?": "the crew is eighty-five" kept, and "Leanne added a
    second rigging team, so ninety-six all up" said weeks later). When the question asks for a kind
    of thing (a name, an amount), the later passage's best sentence must say one. Only in one voice's
    notes: in a conversation a later turn with the words is as often the other person's."""
    kept = [p for p in passages if p.relevant]
    kind = question_kind(terms.raw)
    for p in passages:
        if (
            p.relevant
            or len(p.speakers) > 1
            or p.rank >= gate.max_rank
            or p.support.coverage < gate.min_support_later
            or p.support.names < gate.min_names
            or not any(k.project_id == p.project_id and k.spoken_at < p.spoken_at for k in kept)
        ):
            continue
        if kind in CHECKED_KINDS and not kind_in(
            best_sentence(terms, sentences(p.text) or [p.text]), kind, terms
        ):
            continue
        p.relevant = True


def best_sentence(terms: QuestionTerms, options: Sequence[str], *, names: bool = False) -> str:
    """The sentence that covers the question best; among close ones, the one holding the kind of
    word the question asks for (a date for "when", a number for "how many", a name for "who").

    `names` (a question across projects): the question's names count as its words too. What
    joins two projects is the thing both name (a person, a supplier), and the question's other
    words ("worked with me on another project") are rarely said in either."""
    kind = question_kind(terms.raw)
    asked = set(terms.names) if names else set()

    def base(sentence: str) -> float:
        said = said_stems(sentence)
        named = len(asked & said) / len(asked) if asked else 0.0
        return coverage(terms, said).coverage + named

    scores = [base(s) for s in options]
    if kind is not None and scores:
        # The kind is a tie-breaker: only a sentence close enough to the best can win by it, so only
        # those are read (spaCy's parse of each is what costs).
        top = max(scores)
        scores = [
            s + ANSWER_KIND_BONUS if s >= top - ANSWER_KIND_BONUS and kind_in(o, kind, terms) else s
            for s, o in zip(scores, options, strict=True)
        ]
    return options[scores.index(max(scores))]  # the first of equals: the earlier sentence


ANSWER_KIND_BONUS = 0.15  # less than one content word of a typical question: a tie-breaker
