"""`verbatim eval corrections`: on a pairs file (hand-made pairs) and on a scenario set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import eval_set
from tests.support.cli import run

PAIRS = [
    {
        "id": "a",
        "disfluent": "The go-live is the 6th, no wait, the 13th.",
        "fluent": "The go-live is the 13th.",
    },
    {"id": "b", "disfluent": "We shipped the build on Monday.", "fluent": "We shipped the build on Monday."},
    # no reading of the spoken words gives this one: it counts against exact match
    {"id": "c", "disfluent": "Who founded the club?", "fluent": "The club was founded by whom?"},
]


def test_pairs_file_reports_exact_match_and_replaced_words(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PAIRS) + "\n", "utf-8")
    result = run("eval", "corrections", str(path), "--json")
    assert result.code == 0, result.err
    report = result.json()
    assert report["pairs"] == 3
    assert report["exact_match"] == pytest.approx(2 / 3)
    # "the 6th, no wait" are the replaced words of pair a (and the reading leaves out just them)
    assert report["replaced_precision"] == 1.0
    assert 0 < report["replaced_recall"] < 1.0  # pair c's rewording is not left-out words


def test_pairs_that_say_the_replaced_words_score_the_products_corrections(tmp_path: Path) -> None:
    pairs = [
        {
            "disfluent": "The headcount is twelve, I keep saying twelve, it's fifteen in the depot.",
            "fluent": "The headcount is fifteen in the depot.",
            "wrong_phrase": "twelve",
            "corrected_phrase": "fifteen",
            "shape": "said-again",
        },
        {
            "disfluent": "We had forty in March, and fifty in May.",
            "fluent": "We had forty in March, and fifty in May.",
            "wrong_phrase": "",
            "corrected_phrase": "",
            "shape": "decoy-list",
        },
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in pairs) + "\n", "utf-8")
    result = run("eval", "corrections", str(path), "--json")
    assert result.code == 0, result.err
    found = result.json()["corrections"]
    assert (found["repairs"], found["recall"], found["decoys"], found["decoys_taken"]) == (1, 1.0, 1, 0)
    assert found["by_shape"]["said-again"] == {"pairs": 1, "found": 1}
    # and in words, for a person
    assert "of 1 repairs; decoys taken 0 of 1" in run("eval", "corrections", str(path)).out


def test_a_line_that_is_no_pair_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"id": "x", "spoken": "no fluent side"}\n', "utf-8")
    result = run("eval", "corrections", str(path))
    assert result.code != 0
    assert "not a pair" in result.err


@pytest.mark.eval
@pytest.mark.slow
def test_scenario_set_scores_the_keys_self_corrections() -> None:
    set_dir = eval_set("consultant-dev-2")
    result = run("eval", "corrections", str(set_dir), "--json")
    assert result.code == 0, result.err
    report = result.json()
    assert report["key"] == 12 and report["decoys"] == 3
    assert report["decoys_reported"] == 0
    assert report["precision"] >= 0.9
    assert set(report["by_threshold"]) == {
        str(t) for t in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
    }
