"""The shipped self-repair tagger (memory/text/repair_tagger.py + repair_tagger.crfsuite) and the
repairs read from its labels (memory/text/repairs.py), no mocks."""

from __future__ import annotations

import json
import threading
import time
from importlib import resources

import pytest

from memory.text.quotes import normalise
from memory.text.repair_features import english_parts_of_speech, token_features, tokenise
from memory.text.repairs import Repair, find_repairs, meant_reading
from tests.conftest import EVAL_DIR

# Hand-made, in Disfl-QA's manner (a question with one repair); not a pair of the data.
BRIDGE = "What was the bridge's original colour, sorry, length?"


def test_model_ships_with_the_package_and_is_small() -> None:
    model = resources.files("memory.text").joinpath("repair_tagger.crfsuite")
    assert model.is_file()
    assert len(model.read_bytes()) < 5_000_000


def test_tokenise_gives_character_offsets() -> None:
    text = "The go-live is the 6th, no wait, the 13th; it's 3,468 euros."
    tokens = tokenise(text)
    assert [w for w, _, _ in tokens] == [
        "The", "go-live", "is", "the", "6th", "no", "wait", "the", "13th", "it's", "3,468", "euros",
    ]  # fmt: skip
    assert all(text[a:b] == w for w, a, b in tokens)


def test_question_with_a_repair() -> None:
    assert meant_reading(BRIDGE) == "What was the bridge's original length?"
    (repair,) = find_repairs(BRIDGE)
    assert repair.replaced_text == "colour"
    assert repair.marker_text == "sorry"
    assert repair.repair_text == "length"


def test_offsets_point_at_the_words() -> None:
    (repair,) = find_repairs(BRIDGE)
    assert BRIDGE[repair.replaced[0] : repair.replaced[1]] == "colour"
    assert repair.marker is not None
    assert BRIDGE[repair.marker[0] : repair.marker[1]] == "sorry"
    assert BRIDGE[repair.repair[0] : repair.repair[1]] == "length"


def test_restart_keeps_the_sentence_capitalised() -> None:
    text = "Who did no What did the council want the mayor to do?"
    assert meant_reading(text) == "What did the council want the mayor to do?"
    (repair,) = find_repairs(text)
    assert (repair.replaced_text, repair.marker_text) == ("Who did", "no")


def test_fluent_sentences_are_unchanged() -> None:
    for text in (
        "We shipped the build on Monday and the client was happy.",
        "What was the original name of the old harbour?",
        "",
    ):
        assert find_repairs(text) == []
        assert meant_reading(text) == text


@pytest.mark.parametrize(
    ("spoken", "meant", "replaced", "repair"),
    [
        ("The go-live is the 6th, no wait, the 13th.", "The go-live is the 13th.", "the 6th", "the 13th"),
        (
            "We need six clinics, sorry, seven clinics.",
            "We need seven clinics.",
            "six clinics",
            "seven clinics",
        ),
        ("Call Maria on Tuesday, no, Wednesday.", "Call Maria on Wednesday.", "Tuesday", "Wednesday"),
        ("The budget is 40,000, I mean 45,000 euros.", "The budget is 45,000 euros.", "40,000", "45,000"),
    ],
)
def test_spoken_note_corrections(spoken: str, meant: str, replaced: str, repair: str) -> None:
    """Sentences of the product's kind, not from Disfl-QA."""
    assert meant_reading(spoken) == meant
    (found,) = find_repairs(spoken)
    assert isinstance(found, Repair)
    assert (found.replaced_text, found.repair_text) == (replaced, repair)
    assert spoken[found.replaced[0] : found.replaced[1]] == replaced


def test_two_repairs_in_one_note() -> None:
    text = "Send it to Peter, sorry, to Paul. The go-live is the 6th, no wait, the 13th."
    repairs = find_repairs(text)
    assert [r.replaced_text for r in repairs] == ["to Peter", "the 6th"]
    assert meant_reading(text) == "Send it to Paul. The go-live is the 13th."


def test_threads_share_one_model() -> None:
    texts = [BRIDGE, "We need six clinics, sorry, seven clinics."] * 20
    expected = [meant_reading(t) for t in texts]
    results: list[list[str]] = []

    def work() -> None:
        results.append([meant_reading(t) for t in texts])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_an_hour_of_speech_tags_in_well_under_a_second_given_its_parse() -> None:
    """Consolidation hands the tagger the parts of speech of the note's one shared parse, so the
    tagger's own cost is the CRF's."""
    sentence = "So the go-live is the 6th, no wait, the 13th, and we still need seven clinics for it. "
    text = sentence * (8000 // len(tokenise(sentence)) + 1)
    tokens = tokenise(text)
    pos = english_parts_of_speech(text, tokens)
    find_repairs("warm up")
    started = time.process_time()
    repairs = find_repairs(text, pos)
    assert time.process_time() - started < 1.0  # CPU time: the wall clock depends on the machine's load
    assert len(repairs) == text.count("6th")
    assert all(r.replaced_text == "the 6th" and r.repair_text == "the 13th" for r in repairs)


@pytest.mark.eval
def test_disfl_qa_dev_exact_match() -> None:
    path = EVAL_DIR / "disflqa-dev" / "dev.jsonl"
    if not path.is_file():
        pytest.skip(f"Disfl-QA dev pairs not found at {path}")
    pairs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    hits = sum(normalise(meant_reading(p["disfluent"])) == normalise(p["fluent"]) for p in pairs)
    assert hits / len(pairs) >= 0.60  # measured figures: `verbatim eval corrections` (see the report)


def test_features_align_the_taken_back_words_with_the_repair() -> None:
    """The words before a marker are aligned with the repair after it: the word where the
    best-aligned stretch starts is marked, and each word says where it comes again in the repair."""
    text = "The go-live is the 6th, no wait, the 13th."
    tokens = tokenise(text)
    pos = english_parts_of_speech(text, tokens)
    features = token_features(text, tokens, pos)
    words = [w for w, _, _ in tokens]
    start = words.index("the")  # "the 6th" is retraced by "the 13th"
    assert "best_start" in features[start]
    assert "wrep_at=0" in features[start]
    assert "aw=most" in features[start]
    assert all("best_start" not in f for i, f in enumerate(features) if i != start)
