"""How an answer reads in a terminal: each claim, stated with where and when it was said or
inferred, the values a current one replaced, and the passages shown beside an answer."""

from __future__ import annotations

from memory.answer.answers import Claim
from memory.answer.context import ContextPassage
from memory.text.quotes import ClaimKind
from models.prompts import clock


def claim_text(claim: Claim) -> str:
    """How a claim reads in a terminal: stated quotes with where and when they were said."""
    if claim.kind == ClaimKind.INFERRED:
        return f"  inferred: {claim.text}"
    cite = claim.citations[0]
    when = cite.spoken_at.replace("T", " ")[:16]
    note = "  (self-correction: the later words are the ones meant)" if claim.correction else ""
    text = f"“{claim.text}”\n  stated · {cite.project} · {when} · at {clock(cite.start)}{note}"
    if claim.corrected is not None:
        text += "\n" + corrected_text(claim)
    return text + ("\n" + replaced_text(claim) if claim.replaces else "")


def corrected_text(claim: Claim) -> str:
    """The quoted lines as the user corrected them (the quote above is the raw words)."""
    return f"  you corrected this line: “{claim.corrected}”"


def replaced_text(claim: Claim) -> str:
    """ "replaced “…”, said 2026-03-26 07:55, on 2026-05-12 08:10": what a current value superseded."""
    when = claim.citations[0].spoken_at.replace("T", " ")[:16]
    return "\n".join(
        f"  replaced “{old.quote}”, said {old.spoken_at.replace('T', ' ')[:16]}, on {when}"
        for old in claim.replaces
    )


def passage_lines(passages: list[ContextPassage], *, width: int = 300) -> list[str]:
    """Passages for a terminal: number, where and when, then the raw words (shortened)."""
    lines = []
    for p in passages:
        when = p.spoken_at.replace("T", " ")[:16]
        text = p.text if len(p.text) <= width else p.text[: width - 1].rsplit(" ", 1)[0] + " …"
        lines.append(
            f"  [{p.number}] {p.project} · {when} · {clock(p.start)}–{clock(p.end)}"
            f" · recording {p.recording_id}"
        )
        lines.append(f"      {text}")
    return lines
