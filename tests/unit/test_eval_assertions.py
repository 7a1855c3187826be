"""`verbatim eval assertions`: a value asserted counts when a stated fact holds it, a value not
asserted counts against the extractor when one does; bad files get a clear message (sentences
written for this test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.evals.assertions_eval import evaluate
from models.errors import InputError

ROWS = [
    {
        "id": "x1",
        "text": "Whether they come is another matter, but the workshop is on Tuesday the 3rd of March.",
        "asserted": True,
        "value": "Tuesday the 3rd of March",
        "kind": "despite_hedge_elsewhere",
    },
    {
        "id": "x2",
        "text": "If the board signs it off, the pilot starts on the 4th of May.",
        "asserted": False,
        "value": "the 4th of May",
        "kind": "conditional",
    },
    {
        "id": "x3",
        "text": "The licence budget is ninety-five thousand pounds.",
        "asserted": False,  # labelled wrongly on purpose: a stated fact holds it, so it is a miss
        "value": "ninety-five thousand pounds",
        "kind": "joke",
    },
]


def test_shares_by_whether_the_value_is_asserted(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    report = evaluate(path)
    assert (report["asserted"], report["not_asserted"]) == (1, 2)
    assert report["asserted_stated"] == 1.0 and report["traps_stated"] == 0.5
    assert [m["id"] for m in report["misses"]] == ["x3"]
    assert report["by_kind"]["not asserted: conditional"] == {"n": 1, "stated": 0}


def test_a_value_not_in_its_sentence_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({**ROWS[0], "value": "Friday"}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="value not in text"):
        evaluate(path)
