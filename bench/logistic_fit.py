"""Fitting the answering models' standardised logistic regression (memory/logistic.py).

Features are standardised on the training examples, classes weighed alike (answerable and
unanswerable questions, or evidence and other sentences, are far from equal in number), and
scikit-learn's default regularisation is kept: nothing here is tuned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memory.logistic import Model

C = 1.0  # inverse regularisation strength (scikit-learn's default; not tuned)


def fit_standardised(
    kind: type[Model],
    names: Sequence[str],
    x: np.ndarray,
    y: np.ndarray,
    *,
    trained_on: Sequence[str],
    **extra: Any,
) -> Model:
    """A `kind` model fitted to rows `x` (features in the order of `names`) and labels `y`."""
    from sklearn.linear_model import LogisticRegression

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=C, class_weight="balanced", max_iter=2000)
    model.fit((x - mean) / scale, y)
    return kind(
        names=tuple(names),
        mean=tuple(float(v) for v in mean),
        scale=tuple(float(v) for v in scale),
        coef=tuple(float(v) for v in model.coef_[0]),
        intercept=float(model.intercept_[0]),
        trained_on=tuple(sorted(set(trained_on))),
        **extra,
    )
