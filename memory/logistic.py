"""The small learned models' standardised logistic regression and its weights file.

The answerability decision (memory/answer/answerability.py), the sentence ranker
(memory/answer/sentence_ranker.py) and the supersession reader (memory/consolidate/
supersession_model.py) are p = σ(b + Σ wᵢ (xᵢ − μᵢ) / sᵢ) over named features, trained by
scikit-learn in bench/ and shipped, when they hold on the left-out sets, as a JSON file beside the
module that uses them. A missing file means none ships and the product decides without it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from memory.shipped_weights import read_once

_TEXT_FIELDS = ("names", "trained_on")  # the other tuples hold numbers


@dataclass(frozen=True)
class StandardisedLogistic:
    names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    trained_on: tuple[str, ...] = ()

    def probability(self, values: Mapping[str, float]) -> float:
        z = self.intercept + sum(
            w * (values.get(n, 0.0) - m) / (s or 1.0)
            for n, m, s, w in zip(self.names, self.mean, self.scale, self.coef, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls: type[Model], data: Mapping[str, Any]) -> Model:
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue  # a field with a default (an older file)
            value = data[f.name]
            if f.name in _TEXT_FIELDS:
                values[f.name] = tuple(str(v) for v in value)
            elif isinstance(value, list):
                values[f.name] = tuple(float(v) for v in value)
            else:
                values[f.name] = float(value)
        return cls(**values)


Model = TypeVar("Model", bound=StandardisedLogistic)


def shipped(kind: type[Model], file_name: str, package: str = "memory.answer") -> Model | None:
    """The model shipped in `package` as `file_name`, read once; None when there is none."""
    found = read_once(package, file_name, kind.from_json)
    return found if isinstance(found, kind) else None
