"""Answers prefer current values: a stated claim that quotes a fact a later one superseded is
preceded by the superseding fact's quote (stated, verbatim, cited), and a claim quoting a value
that replaced an earlier one says what it replaced and when (the earlier quote, cited too).

Only facts said by the time the question is asked about (`until`) count: an answer "as of March"
does not know what was said in May.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory.answer.answers import Citation, Claim
from memory.consolidate.fact_store import facts_in_segments, get_fact
from memory.consolidate.facts import Fact
from memory.store.store import Store
from memory.text.quotes import ClaimKind, normalise

MAX_CHAIN = 20


def current_of(store: Store, fact: Fact, until: str | None) -> Fact:
    """The newest fact (said by `until`) in the chain of facts that superseded this one."""
    current = fact
    for _ in range(MAX_CHAIN):
        if current.superseded_by is None:
            break
        nxt = get_fact(store, current.superseded_by)
        if nxt is None or (until is not None and nxt.spoken_at > until):
            break
        current = nxt
    return current


def with_current_values(store: Store, claims: Sequence[Claim], *, until: str | None = None) -> list[Claim]:
    out: list[Claim] = []
    said = {normalise(c.text) for c in claims if c.kind == ClaimKind.STATED}
    behind: dict[int, str] = {}  # id of a claim quoting a replaced value → the replacing quote it follows
    for claim in claims:
        if claim.kind != ClaimKind.STATED or not claim.citations:
            out.append(claim)
            continue
        for fact in facts_in_segments(store, list(claim.citations[0].segment_ids)):
            if until is not None and fact.spoken_at > until:
                continue
            if fact.kind != ClaimKind.STATED and fact.value not in claim.text:
                # a wish the quote itself says ("They want to raise 1.8 million") is replaced by the
                # figure said later as much as a stated one is; other inferred facts of the
                # segment are not what the quote says
                continue
            current = current_of(store, fact, until)
            if current.id != fact.id and normalise(current.quote) in said:
                behind.setdefault(id(claim), normalise(current.quote))
            elif current.id != fact.id:
                said.add(normalise(current.quote))
                out.append(
                    Claim(
                        current.quote,
                        ClaimKind.STATED,
                        [Citation.of(current)],
                        "current",
                        replaces=[Citation.of(fact)],
                    )
                )
            elif current.id == fact.id and fact.kind == ClaimKind.STATED:
                for old_id in fact.replaced:
                    old = get_fact(store, old_id)
                    if old is not None and all(r.quote != old.quote for r in claim.replaces):
                        claim.replaces.append(Citation.of(old))
        out.append(claim)
    # Current values first: a value something later replaced waits behind the one that replaced it,
    # whether that one was added here or was already among the answer's lines.
    first = [c for c in out if c.kind == ClaimKind.STATED and c.source == "current"]
    ordered = first + [c for c in out if c not in first]
    for stale in [c for c in ordered if id(c) in behind]:
        at = next((i for i, c in enumerate(ordered) if normalise(c.text) == behind[id(stale)]), None)
        if at is not None and at > ordered.index(stale):
            ordered.remove(stale)
            ordered.insert(at, stale)  # just after it: the lines before it closed up by one
    return ordered
