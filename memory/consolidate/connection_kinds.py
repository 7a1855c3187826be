"""What a connection between two projects is, said for the user: its kind (the best label its
shared names agree on, else a calendar clash, a date, an amount, or meaning; the UI says "Same
person", "Calendar clash" ...), what it shares as said, and the one-line rationale shown when the
chat model gives none (labelled inferred). The candidates and their scores are
memory/consolidate/connections.py's."""

from __future__ import annotations

from collections.abc import Sequence

from memory.consolidate.connections import Candidate, clock_times

# The connection's kind by what it shares (the UI says "Same person", "Same product" ...).
KIND_OF_LABEL = {
    "person": "person",
    "organisation": "organisation",
    "product": "same_product",
    "regulation": "same_regulation",
    "event": "same_event",
    "work": "same_work",
    "place": "same_place",
}


_LABEL_OF_FEATURE = {"person": "person", "organisation": "organisation", "technology": "product"}
_LABEL_ORDER = ("person", "organisation", "product", "regulation", "event", "work", "place", "name")


def kind_of(c: Candidate) -> str:
    """What the connection shares: the best known label of its names ("person", "same_product",
    "name" when nothing more is known), else a calendar clash or a date, else meaning."""
    labels = [
        c.labels.get(v) or _LABEL_OF_FEATURE.get(kind, "name")
        for kind in ("person", "organisation", "technology", "name")
        for v in c.shared.get(kind, ())
    ]
    if labels:
        best = min(labels, key=lambda x: _LABEL_ORDER.index(x) if x in _LABEL_ORDER else len(_LABEL_ORDER))
        return KIND_OF_LABEL.get(best, "name")
    if c.shared.get("amount"):
        return "amount"
    if c.shared.get("date"):
        clash, same_hour = c.features.get("clash", 0.0), c.features.get("time", 0.0)
        return "calendar_clash" if clash >= 1.0 or (clash > 0 and same_hour) else "date"
    return "meaning"


def shared_text(c: Candidate) -> str:
    return ", ".join(c.shown.get(v, v) for kind in c.shared for v in sorted(c.shared[kind]))


_SAID = {
    "person": "the same person",
    "organisation": "the same organisation",
    "same_product": "the same product",
    "same_regulation": "the same regulation",
    "same_event": "the same event",
    "same_work": "the same work",
    "same_place": "the same place",
    "name": "the same name",
}


def template_rationale(c: Candidate, common_words: Sequence[str]) -> str:
    kind = kind_of(c)
    said = shared_text(c)
    if kind == "calendar_clash":
        hours = sorted(clock_times(c.a) & clock_times(c.b))
        if hours:
            when = f"{said}, {hours[0]}"
            return f"Both notes are about the same day at the same hour ({when}): a possible calendar clash."
        return f"Both notes are about being somewhere on the same day ({said}): a possible calendar clash."
    if kind == "date":
        return f"Both notes name the same date ({said})."
    if kind == "amount":
        return f"Both notes name the same amount ({said})."
    if kind == "name":  # what the name is, is not known: say the name, not a kind
        return f"Both projects name {said}."
    if kind in _SAID:
        return f"Both projects name {_SAID[kind]}: {said}."
    if common_words:
        return f"Both notes talk about {', '.join(common_words[:4])}."
    return "The two passages are close in meaning."
