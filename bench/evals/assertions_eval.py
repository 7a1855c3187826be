"""`verbatim eval assertions SENTENCES.jsonl`: whether a value a sentence says becomes a stated fact
exactly when the speaker asserts it (bench/assertion-sentences, format in its README).

Each sentence is read as a note of its own by the product's fact extractor (memory/consolidate/
facts.py `rule_facts`, spaCy's parse and memory/text/hedges.py). A sentence's labelled value
counts as stated when a stated fact's value overlaps it.
- asserted_stated: the share of asserted values read as stated facts (recall of what is said).
- traps_stated: the share of values not asserted (a condition, a guess, a wish, a question, a
  negation, a rumour, another party's or an old figure, a joke ...) read as stated facts (goal: 0).
- by_kind: both, per kind of sentence; misses: the sentences read wrongly, with what was read.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from bench.evals.common import jsonl_rows
from memory.consolidate.corrections import find_corrections
from memory.consolidate.facts import FactIn, rule_facts
from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.entities import doc_entities
from memory.text.quotes import ClaimKind
from models.errors import InputError

SPOKEN_AT = "2027-03-10T09:00:00"
FIELDS = ("id", "text", "asserted", "value", "kind")


def read_sentences(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise InputError(f"no sentences file at {path}", fix="pass bench/assertion-sentences/set-a.jsonl")
    rows = []
    for number, row in jsonl_rows(path):
        missing = [f for f in FIELDS if not isinstance(row, dict) or f not in row]
        if missing or row["value"] not in row["text"]:
            raise InputError(
                f"{path}:{number}: " + (f"missing {', '.join(missing)}" if missing else "value not in text")
            )
        rows.append(row)
    return rows


def facts_of(text: str) -> list[FactIn]:
    """The facts the rules read in one sentence, said as a note of its own."""
    doc = Doc([Segment(1, RecordingId(1), 0, None, 0.0, 6.0, None, text, text, False)], SPOKEN_AT)
    return rule_facts(doc, doc_entities(doc), find_corrections(doc), [1], {1: "project"})


def evaluate(path: Path) -> dict[str, Any]:
    rows = read_sentences(path)
    counts: dict[tuple[bool, str], Counter[str]] = {}
    misses = []
    for row in rows:
        start = row["text"].index(row["value"])
        end = start + len(row["value"])
        facts = facts_of(row["text"])
        stated = [
            f for f in facts if f.kind == ClaimKind.STATED and f.value_start < end and start < f.value_end
        ]
        tally = counts.setdefault((bool(row["asserted"]), row["kind"]), Counter())
        tally["n"] += 1
        tally["stated"] += bool(stated)
        if bool(stated) != bool(row["asserted"]):
            misses.append(
                {
                    "id": row["id"],
                    "kind": row["kind"],
                    "asserted": bool(row["asserted"]),
                    "value": row["value"],
                    "text": row["text"],
                    "read": [[f.value, f.kind.value] for f in facts],
                }
            )

    def share(asserted: bool) -> float:
        n = sum(c["n"] for (a, _), c in counts.items() if a == asserted)
        return round(sum(c["stated"] for (a, _), c in counts.items() if a == asserted) / n, 3) if n else 0.0

    return {
        "sentences": path.name,
        "asserted": sum(c["n"] for (a, _), c in counts.items() if a),
        "not_asserted": sum(c["n"] for (a, _), c in counts.items() if not a),
        "asserted_stated": share(True),
        "traps_stated": share(False),
        "by_kind": {
            f"{'asserted' if a else 'not asserted'}: {kind}": {"n": c["n"], "stated": c["stated"]}
            for (a, kind), c in sorted(counts.items())
        },
        "misses": misses,
    }


def format_report(report: dict[str, Any]) -> list[str]:
    lines = [
        f"{report['sentences']}: {report['asserted']} asserted values, {report['not_asserted']} not asserted",
        f"asserted values read as stated facts: {report['asserted_stated']:.1%}",
        f"values not asserted read as stated facts: {report['traps_stated']:.1%} (goal: 0)",
        "",
        "by kind (stated / sentences):",
    ]
    lines += [f"  {kind}: {c['stated']} / {c['n']}" for kind, c in report["by_kind"].items()]
    return lines
