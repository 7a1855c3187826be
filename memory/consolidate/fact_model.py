"""Facts proposed by the chat model, checked like answers: the quote must be one of the shown
sentences, verbatim in the raw words, and the value must be words of that sentence (a value the
sentence does not contain is the model's inference: dropped, facts are only what was said); a
value taken back by a self-correction, or from a hedged sentence, is dropped too, and the value is
read in its sentence as the rules read theirs (memory/text/hedges.py): a tentative or wished one
is dropped (the model's facts are stated or nothing). The subject is the project (as for rule
facts); the model's subject and attribute together are the attribute.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from memory.consolidate.correction_phrases import Correction
from memory.consolidate.fact_attributes import CHANGE
from memory.consolidate.fact_values import overlaps
from memory.consolidate.facts import FAMILY, FactIn, context_stems, hedged_ranges
from memory.text.doc import Doc, Sentence
from memory.text.entities import sentence_entities
from memory.text.fact_parse import parsed
from memory.text.hedges import Assertion, of_a_past_year, read_value
from memory.text.quotes import normalise, tokens
from models.chat import grammar_safe

FIELD_CHARS = 48
MAX_VALUE_WORDS = 8


def fact_schema(sentences: Sequence[str], *, max_facts: int = 3) -> dict[str, Any]:
    item = {
        "type": "object",
        "properties": {
            "quote": {"enum": [grammar_safe(s) for s in sentences]},
            "subject": {"type": "string", "maxLength": FIELD_CHARS},
            "attribute": {"type": "string", "maxLength": FIELD_CHARS},
            "value": {"type": "string", "maxLength": FIELD_CHARS},
        },
        "required": ["quote", "subject", "attribute", "value"],
    }
    return {
        "type": "object",
        "properties": {"facts": {"type": "array", "items": item, "minItems": 0, "maxItems": max_facts}},
        "required": ["facts"],
    }


def read_facts(text: str) -> list[dict[str, str]]:
    """Every complete fact object in the model's output; [] for anything unreadable."""
    found = []
    for m in re.finditer(r"\{[^{}]*\}", text):
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            continue
        if isinstance(obj, dict) and all(isinstance(obj.get(k), str) for k in ("quote", "value")):
            found.append({k: str(obj.get(k, "")).strip() for k in ("quote", "subject", "attribute", "value")})
    return found


def _value_span(doc: Doc, sentence: Sentence, value: str) -> tuple[int, int] | None:
    """Where the value's words occur, contiguous, in the sentence's raw words."""
    wanted = [t.norm for t in tokens(value)]
    have = tokens(sentence.text)
    norms = [t.norm for t in have]
    for i in range(len(norms) - len(wanted) + 1):
        if wanted and norms[i : i + len(wanted)] == wanted:
            return sentence.start + have[i].start, sentence.start + have[i + len(wanted) - 1].end
    return None


def checked_facts(
    doc: Doc,
    sentences: Sequence[Sentence],
    proposed: Sequence[dict[str, str]],
    corrections: Sequence[Correction],
    projects: Sequence[int],
    project_names: dict[int, str],
    existing: Sequence[FactIn],
) -> list[FactIn]:
    by_quote = {normalise(s.text): s for s in sentences}
    wrong = [(c.wrong.start, c.wrong.end) for c in corrections]
    taken = [(f.value_start, f.value_end) for f in existing]
    out: list[FactIn] = []
    for p in proposed:
        sentence = by_quote.get(normalise(p["quote"]))
        if sentence is None or not p["value"] or hedged_ranges(sentence):
            continue
        if of_a_past_year(sentence.text, doc.spoken_at.year):
            continue  # history, as the rules read it
        span = _value_span(doc, sentence, p["value"])
        if span is None or len(p["value"].split()) > MAX_VALUE_WORDS:
            continue  # not said in those words: an inference, and facts are only what was said
        if overlaps(wrong, *span) or overlaps(taken, *span):
            continue
        start, end = span
        reading = read_value(parsed(doc).sentence(sentence), start, end)
        if reading.assertion != Assertion.STATED:
            continue
        entities = sentence_entities(p["value"], doc.spoken_at)
        kind = FAMILY.get(entities[0].kind, "text") if entities else "text"
        norm = entities[0].value if entities and kind != "text" else normalise(p["value"])
        if kind == "date" and norm == doc.spoken_at.date().isoformat():
            continue  # the note's own date
        project = projects[doc.segment_at(sentence.start)]
        attribute = " ".join(f"{p['subject']} {p['attribute']}".split())[:FIELD_CHARS]
        out.append(
            FactIn(
                subject=project_names.get(project, ""),
                attribute=attribute or kind,
                value=doc.text[start:end],
                value_kind=kind,
                value_norm=norm,
                context=context_stems(p["attribute"] + " " + sentence.text) - context_stems(p["value"]),
                quote=doc.span(sentence.start, sentence.end),
                value_start=start,
                value_end=end,
                changed=bool(CHANGE.search(doc.text[sentence.start : start])),
                project_id=project,
                source="model",
            )
        )
        taken.append(span)
    return out
