"""The passage each of consolidation's quotes was said in, cited like any answer's passages.

An answer from consolidation (who owes what, what two projects share) quotes words kept at
consolidation: "he'll send me the full list by the end of the month". Read alone, such a line does
not say who "he" is or what list; the sentence before it does ("Daniel Okoro, the IT manager, …").
So each quote cites the stretch of its note around it (its own segments and one on either side),
numbered as an answer's passages are; a reader, and the answer checker, find the quote inside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memory.answer.answers import Citation, Claim
from memory.answer.context import ContextPassage
from memory.store import recordings
from memory.store.store import Store

AROUND = 1  # segments kept on either side of the quote's own


def with_quoted_passages(store: Store, claims: Sequence[Claim]) -> tuple[list[Claim], list[ContextPassage]]:
    """The claims, each citation of words consolidation kept (passage 0) now citing the passage it
    was said in, and those passages (one per stretch of a note; touching stretches are one)."""
    passages: list[ContextPassage] = []
    out = []
    for claim in claims:
        cites = [_cited(store, passages, c) for c in claim.citations]
        out.append(replace(claim, citations=cites))
    return out, passages


def _cited(store: Store, passages: list[ContextPassage], citation: Citation) -> Citation:
    if citation.passage or not citation.segment_ids:
        return citation
    own = recordings.get_segments(store, list(citation.segment_ids))
    if not own:
        return citation
    lo, hi = own[0].idx - AROUND, own[-1].idx + AROUND
    for p in passages:
        if (
            p.recording_id == citation.recording_id
            and p.segments[0].idx <= hi + 1
            and lo - 1 <= p.segments[-1].idx
        ):
            lo, hi = min(lo, p.segments[0].idx), max(hi, p.segments[-1].idx)
            p.segments = recordings.list_segments(store, p.recording_id, first_idx=max(0, lo), last_idx=hi)
            return replace(citation, passage=p.number)
    note = recordings.get_recording(store, citation.recording_id)
    passage = ContextPassage(
        number=len(passages) + 1,
        recording_id=citation.recording_id,
        project_id=note.project_id,
        project=citation.project,
        title=note.title or "",
        spoken_at=citation.spoken_at,
        segments=recordings.list_segments(store, citation.recording_id, first_idx=max(0, lo), last_idx=hi),
        rank=len(passages),
        score=0.0,
        relevant=True,
    )
    passages.append(passage)
    return replace(citation, passage=passage.number)
