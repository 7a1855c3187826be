"""The answerability model's veto threshold (bench/train_answerability.py): chosen so that a false
abstention costs more than an answer to an unanswerable question, and only ever below what the
gate already refuses."""

from __future__ import annotations

from bench.train_answerability import CANDIDATES, FALSE_ABSTENTION_COST, best_threshold


def test_the_veto_stops_where_hiding_answers_would_cost_more() -> None:
    # four unanswerable questions the gate answers, with low probabilities; four answerable ones
    p = [0.05, 0.1, 0.15, 0.5, 0.3, 0.6, 0.7, 0.8]
    answerable = [False, False, False, False, True, True, True, True]
    refused = [False] * 8
    t = best_threshold(p, answerable, refused)
    # vetoing below 0.175 catches three unanswerable questions and hides no answer; raising it to
    # take the fourth (0.5) would hide the answer at 0.3: one false abstention costs more than that
    assert 0.15 < t <= 0.3 and FALSE_ABSTENTION_COST > 1
    assert t in CANDIDATES


def test_what_the_gate_refuses_is_refused_whatever_the_threshold() -> None:
    p = [0.9, 0.9, 0.2]
    answerable = [False, True, True]
    refused = [True, False, False]
    # the unanswerable one is already refused: any veto can only hide answers
    assert best_threshold(p, answerable, refused) == 0.0
