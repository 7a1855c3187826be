"""The learned supersession reader (memory/consolidate/supersession_model.py): what it weighs, when
it decides, the weights the product ships, and the training command that makes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import train_supersession
from memory.consolidate.fact_pairs import Attributes, Row
from memory.consolidate.supersession_model import (
    FEATURES,
    SupersessionModel,
    learned_candidates,
    learned_choice,
    shipped_model,
)

REPO = Path(__file__).resolve().parents[2]


def _row(id: int, recording_id: int, spoken_at: str, value: str, norm: str, quote: str) -> Row:
    return Row(id, recording_id, spoken_at, "count", norm, value, "crew", {"crew"}, False, "stated", quote)


EARLIER = _row(1, 1, "2027-02-10T18:00:00", "eighty-five", "85", "Crew for that one is eighty-five.")
OTHER = _row(2, 2, "2027-03-01T18:00:00", "twelve", "12", "The crew bus seats twelve.")
NEW = _row(3, 3, "2027-04-15T18:00:00", "ninety-six", "96", "Ninety-six on the crew, with the riggers.")


def _model(threshold: float) -> SupersessionModel:
    """A reader that trusts one thing, how alike the attributes are (no file, no training)."""
    n = len(FEATURES)
    coef = tuple(8.0 if f == "fold" else 0.0 for f in FEATURES)  # a change of a small factor: the same count
    return SupersessionModel(FEATURES, (0.0,) * n, (1.0,) * n, tuple(-c for c in coef), 4.0, (), threshold)


def _choice(model: SupersessionModel, *earlier: Row) -> Row | None:
    rows = [*earlier, NEW]
    attributes = Attributes(rows, None)
    return learned_choice(model, list(earlier), NEW, attributes, {})


def test_the_reader_weighs_each_earlier_fact_of_another_note() -> None:
    rows = [EARLIER, OTHER]
    weighed = learned_candidates(rows, NEW, Attributes([*rows, NEW], None), {})
    assert [old.id for old, _ in weighed] == [1, 2]
    assert all(set(features) == set(FEATURES) for _, features in weighed)
    same_note = _row(4, 3, "2027-04-15T17:00:00", "ninety", "90", "Ninety, maybe.")
    assert learned_candidates([same_note], NEW, Attributes([NEW], None), {}) == []


def test_the_surest_earlier_fact_is_replaced_when_sure_enough() -> None:
    assert _choice(_model(0.5), EARLIER, OTHER) is EARLIER  # 85 → 96 is a small change, 12 → 96 is not
    assert _choice(_model(0.999), EARLIER, OTHER) is None  # not sure enough


def test_a_fact_already_replaced_is_not_replaced_again() -> None:
    gone = Row(**{**EARLIER.__dict__, "valid_until": "2027-03-01T18:00:00"})
    assert _choice(_model(0.5), gone) is None


def test_the_shipped_weights_read_what_the_reader_weighs() -> None:
    model = shipped_model()
    assert model is not None, "memory/consolidate/supersession_model.json ships"
    assert model.names == FEATURES and model.threshold in train_supersession.THRESHOLDS
    assert 0.0 <= model.probability({}) <= 1.0


@pytest.mark.slow
def test_training_leaves_each_set_out_and_writes_the_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "supersession.json"
    sets = [REPO / "bench" / "scenarios" / name for name in ("supply-chain-advisor", "charity-fundraising")]
    assert train_supersession.main(["--sets", *map(str, sets), "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [f["held_out"] for f in report["folds"]] == ["charity-fundraising", "supply-chain-advisor"]
    for fold in report["folds"]:
        assert fold["rules_right"] <= fold["rules_chosen"] and fold["with_reader_right"] <= fold["key"]
        assert (
            fold["with_reader_chosen"] >= fold["rules_chosen"]
        )  # the reader only adds where the rules chose none
    written = SupersessionModel.from_json(json.loads(out.read_text()))
    assert written.trained_on == ("charity-fundraising", "supply-chain-advisor")
    assert written.threshold == report["threshold"]
