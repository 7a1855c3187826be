"""Leave one set out (bench/evals/cross.py): a setting is chosen on the other sets only, and only
when it holds on each of them."""

from __future__ import annotations

import pytest

from bench.evals.cross import holding_best_on, leave_one_set_out, survivors


def test_each_set_gets_a_setting_chosen_on_the_others_not_on_itself() -> None:
    # Candidate 0 is the reference; 1 helps a and c; 2 helps every set a little; 3 helps b a lot, hurts a.
    scores = {
        "a": [0.50, 0.70, 0.52, 0.20],
        "b": [0.50, 0.45, 0.51, 0.95],
        "c": [0.50, 0.60, 0.55, 0.60],
    }
    folds = {f.held_out: f for f in leave_one_set_out(scores)}
    # Left out a: 1 hurts b; 3 holds on b and c with the best mean (.775) and is chosen, and the
    # fold shows what it does to a set it was not chosen on (.20): that is what the fold is for.
    assert folds["a"].chosen == 3 and folds["a"].held_out_score == 0.20
    assert folds["a"].train_score == pytest.approx(0.775)
    # Left out b: 1 holds on a and c and has the best mean there, whatever it does on b.
    assert folds["b"].chosen == 1 and folds["b"].held_out_score == 0.45
    # Left out c: 3 hurts a, 1 hurts b; 2 holds.
    assert folds["c"].chosen == 2


def test_ties_keep_the_reference_and_survivors_never_lose_to_it() -> None:
    assert holding_best_on({"a": [0.4, 0.4], "b": [0.6, 0.6]}, ["a", "b"]) == 0
    assert holding_best_on({"a": [0.4, 0.9], "b": [0.6, 0.59]}, ["a", "b"]) == 0  # 1 hurts b
    assert survivors({"a": [0.5, 0.6, 0.7], "b": [0.5, 0.5, 0.4]}) == [0, 1]
    with pytest.raises(ValueError):
        leave_one_set_out({"a": [1.0]})
    with pytest.raises(ValueError):
        leave_one_set_out({"a": [1.0], "b": [1.0, 2.0]})
