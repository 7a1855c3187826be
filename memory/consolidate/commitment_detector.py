"""Is this sentence a commitment? A learned second reader beside the parse rules.

The rules of memory/consolidate/commitment_english.py read the shapes of owing they know ("I'll
send Jana the deck", "Markus owes us the dump"); a sentence said another way ("Leanne's sorting the
roster for us by the 3rd") is missed by them however it is said next. This detector is a logistic
regression over words and the sentence's parse (lemmas, who is the subject, a modal, someone it is
for, a date, negation, a question), with names, numbers and dates replaced by their kind so that it
learns the shape of owing, not who was named in the notes it was trained on. It only ever adds: a
sentence the rules found nothing in whose probability is at least the threshold is read for who,
what, whom and when by the same parse readers, and the rules' blockers (negation, hedges,
conditions, wishes, questions) still apply.

The weights are a JSON file beside this module, rebuilt by `python -m bench.train_commitment_detector`
from the project's own keyed sets (consultant-dev-2 and bench/scenarios: ours) and
bench/commitment-sentences/sentences.jsonl; the threshold is chosen leaving one set out. Without the file
only the rules read commitments.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memory.shipped_weights import read_once

if TYPE_CHECKING:
    from spacy.tokens import Token

WEIGHTS_FILE = "commitment_detector.json"
FIRST_PERSON = frozenset({"i", "we", "me", "us", "my", "our"})
_DEPS = frozenset(
    {"nsubj", "nsubjpass", "dobj", "dative", "aux", "xcomp", "ccomp", "prep", "pobj", "prt", "advmod"}
)
_KINDS = {"PERSON": "<person>", "ORG": "<org>", "GPE": "<place>", "DATE": "<date>", "TIME": "<time>"}
_CALENDAR = frozenset({"DATE", "TIME"})


def _word(t: Token) -> str:
    """The token's lemma, or its kind for a name, number or date: what generalises to new notes."""
    if t.ent_type_ in _KINDS:
        return _KINDS[t.ent_type_]
    if t.like_num:
        return "<num>"
    if t.pos_ == "PROPN":
        return "<name>"
    return t.lemma_.lower()


def sentence_features(tokens: Iterable[Token], text: str) -> dict[str, float]:
    """Binary features of one parsed sentence (its tokens) and its text."""
    f: dict[str, float] = {}
    words = [t for t in tokens if not t.is_punct and not t.is_space]
    for t in words:
        word = _word(t)
        f["w:" + word] = 1.0
        if t.dep_ in _DEPS:
            f[f"d:{t.dep_}:{_word(t.head)}"] = 1.0
            f[f"c:{t.dep_}:{word}"] = 1.0
        if t.dep_ in ("nsubj", "nsubjpass"):
            if t.lower_ in FIRST_PERSON:
                kind = "first"
            elif t.pos_ == "PRON":
                kind = "pronoun"
            elif t.pos_ == "PROPN" or t.ent_type_ == "PERSON":
                kind = "name"
            else:
                kind = "noun"
            f["subject:" + kind] = 1.0
        if t.dep_ == "dative" or (
            t.dep_ == "pobj" and t.head.lower_ in ("to", "for") and t.pos_ in ("PROPN", "PRON")
        ):
            f["someone"] = 1.0
        if t.ent_type_ in _CALENDAR:
            f["date"] = 1.0
        if t.dep_ == "neg":
            f["negated"] = 1.0
        if t.tag_ == "MD":
            f["modal:" + t.lemma_.lower()] = 1.0
        if t.dep_ == "ROOT":
            f["root:" + t.tag_] = 1.0
    stripped = text.rstrip(" \"'”’)")
    if stripped.endswith("?"):
        f["question"] = 1.0
    f["long"] = 1.0 if len(words) > 25 else 0.0
    return f


@dataclass(frozen=True)
class CommitmentDetector:
    intercept: float
    weights: Mapping[str, float]
    threshold: float
    trained_on: tuple[str, ...] = ()

    def probability(self, features: Mapping[str, float]) -> float:
        z = self.intercept + sum(self.weights.get(name, 0.0) * value for name, value in features.items())
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    def to_json(self) -> dict[str, Any]:
        return {
            "intercept": self.intercept,
            "threshold": self.threshold,
            "trained_on": list(self.trained_on),
            "weights": dict(sorted(self.weights.items())),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CommitmentDetector:
        return cls(
            float(data["intercept"]),
            {str(k): float(v) for k, v in dict(data["weights"]).items()},
            float(data["threshold"]),
            tuple(str(s) for s in data.get("trained_on", ())),
        )


def shipped_detector() -> CommitmentDetector | None:
    """The detector shipped beside this module, read once; None when there is none."""
    return read_once("memory.consolidate", WEIGHTS_FILE, CommitmentDetector.from_json)
