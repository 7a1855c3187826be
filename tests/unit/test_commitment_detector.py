"""The learned commitment detector: what it adds to the rules, what still blocks it, and its
training command (sentences written for this test, not from the evaluation sets)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import train_commitment_detector
from memory.consolidate.commitment_detector import CommitmentDetector, sentence_features, shipped_detector
from memory.consolidate.commitments import find_commitments
from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.entities import doc_entities
from memory.text.fact_parse import parsed

REPO = Path(__file__).resolve().parents[2]


def owed(text: str, **kw: object) -> list[tuple[str, str | None, str]]:
    doc = Doc([Segment(1, 1, 0, None, 0.0, 6.0, None, text, text, False)], "2027-03-10T09:00:00")
    found = find_commitments(doc, doc_entities(doc), **kw)  # type: ignore[arg-type]
    return [(c.who, c.to_whom, c.what) for c in found if c.kind == "commitment"]


def test_the_detector_adds_what_the_rules_do_not_read() -> None:
    assert shipped_detector() is not None  # the weights ship with the package
    text = "Priyanka is sorting the vendor scorecards for us by Thursday."
    assert owed(text, detector=None) == []
    assert owed(text) == [("Priyanka", "us", "the vendor scorecards")]


def test_what_blocks_a_promise_blocks_the_detector_too() -> None:
    assert owed("I won't be sending Lorna the deck this week.") == []
    assert owed("Hugo always sends the minutes on Mondays.") == []


def test_features_name_kinds_not_names() -> None:
    text = "Priyanka is sorting the vendor scorecards for us by Thursday."
    doc = Doc([Segment(1, 1, 0, None, 0.0, 6.0, None, text, text, False)], "2027-03-10T09:00:00")
    sentence = doc.sentences[0]
    tokens = parsed(doc).sentence(sentence).tokens
    assert tokens is not None
    features = sentence_features(tokens, sentence.text)
    assert not any("priyanka" in name for name in features)
    assert features["subject:name"] == 1.0 and features["someone"] == 1.0 and features["date"] == 1.0


def test_a_detector_is_written_and_read_back() -> None:
    detector = CommitmentDetector(-1.5, {"w:send": 2.0, "someone": 1.0}, 0.9, ("a", "b"))
    again = CommitmentDetector.from_json(json.loads(json.dumps(detector.to_json())))
    assert again == detector
    assert again.probability({"w:send": 1.0, "someone": 1.0}) > 0.8 > again.probability({})


def test_training_leaves_each_set_out_and_writes_the_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "detector.json"
    sets = [REPO / "bench" / "scenarios" / name for name in ("supply-chain-advisor", "event-operations")]
    sentences = REPO / "bench" / "commitment-sentences" / "set-a.jsonl"
    code = train_commitment_detector.main(
        ["--sets", *map(str, sets), "--sentences", str(sentences), "--out", str(out), "--json"]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    held_out = [f["held_out"] for f in report["folds"]]
    assert held_out == ["commitment-sentences-a", "event-operations", "supply-chain-advisor"]
    assert report["threshold"] in train_commitment_detector.THRESHOLDS
    for fold in report["folds"]:
        assert fold["rules"]["found"] <= fold["key"]
    written = CommitmentDetector.from_json(json.loads(out.read_text()))
    assert written.trained_on == tuple(held_out)
    assert written.weights and written.threshold == report["threshold"]


def test_the_learned_reader_finds_no_thing_in_a_time() -> None:
    # a detector that says yes to everything: what the reader makes of each sentence
    always = CommitmentDetector(0.0, {}, 0.0)
    assert owed("Hugh has a week to chase the people internally before it goes back.", detector=always) == []
    assert owed("Gareth still has to sign the variation, he said end of the month.", detector=always) == []
    assert owed("Priyanka is sorting the vendor scorecards for us by Thursday.", detector=always) == [
        ("Priyanka", "us", "the vendor scorecards")
    ]
    assert owed("Ottilie would love to have the venue booked by June.", detector=always) == []  # a wish
