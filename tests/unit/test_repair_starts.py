"""The second look at where a taken-back stretch starts (memory/text/repair_starts.py), with the
shipped CRF; no mocks. Rankers with hand-set weights show that tagging goes through the ranker."""

from __future__ import annotations

from importlib import resources

from bench.train_repair_tagger import fit_ranker, ranked_reading
from memory.text.repair_features import english_parts_of_speech, tokenise
from memory.text.repair_starts import (
    Choice,
    StartRanker,
    Stretch,
    candidates,
    choose,
    displaced_sources,
    relabel,
    shipped,
    stretches,
)
from memory.text.repair_tagger import tag_text
from memory.text.repairs import apply_repairs, read_labels

# Hand-made (the shape of consultant speech); not from any eval set.
SYNC = "The sync moves to Thursdays at nine, rather half past nine."


def test_stretches_of_a_label_sequence() -> None:
    labels = ["O", "O", "B", "R", "M", "O", "M", "O"]
    assert stretches(labels) == [Stretch(2, 4, 5, 0), Stretch(6, 6, 7, 5)]


def test_candidates_reach_back_to_the_floor_and_keep_the_marker_alone() -> None:
    local = Stretch(2, 4, 5, 0)
    assert candidates(local, 8) == [0, 1, 2, 3, 4]  # 4: nothing replaced, the marker a filler
    far = Stretch(12, 14, 15, 0)
    assert candidates(far, 20) == [0, *range(6, 15)]  # the sentence's start and MAX_BACK words
    assert candidates(Stretch(1, 2, 3, 0), 3) == [1]  # nothing follows the marker: as tagged


def test_relabel_moves_the_start() -> None:
    labels = ["O", "O", "B", "R", "M", "O"]
    assert relabel(labels, Stretch(2, 4, 5, 0), 0) == ["B", "R", "R", "R", "M", "O"]
    assert relabel(labels, Stretch(2, 4, 5, 0), 3) == ["O", "O", "O", "B", "M", "O"]
    assert relabel(labels, Stretch(2, 4, 5, 0), 4) == ["O", "O", "O", "O", "M", "O"]


def test_tagging_goes_through_the_ranker() -> None:
    tokens = tokenise(SYNC)
    pos = english_parts_of_speech(SYNC, tokens)
    crf = tag_text(SYNC, tokens, pos=pos, rerank_starts=False)
    assert "M" in crf.labels and crf.labels[0] == "O"
    own = tag_text(SYNC, tokens, pos=pos, ranker=StartRanker({"crf_own": 10.0}))
    assert own.labels == crf.labels
    restart = tag_text(SYNC, tokens, pos=pos, ranker=StartRanker({"first": 10.0}))
    assert restart.labels[0] == "B"
    marker = restart.labels.index("M")
    assert all(label == "R" for label in restart.labels[1:marker])


def test_words_the_ranker_adds_are_as_sure_as_the_crf_stretch() -> None:
    tokens = tokenise(SYNC)
    pos = english_parts_of_speech(SYNC, tokens)
    crf = tag_text(SYNC, tokens, pos=pos, rerank_starts=False)
    restart = tag_text(SYNC, tokens, pos=pos, ranker=StartRanker({"first": 10.0}))
    taken = [t for t, label in enumerate(crf.labels) if label in ("B", "R")]
    sure = min(crf.taken_back[t] for t in taken)
    assert crf.taken_back[0] < sure  # the CRF itself keeps the first word
    assert restart.taken_back[0] == sure


def test_the_ranker_ships_beside_the_tagger_and_is_small() -> None:
    path = resources.files("memory.text").joinpath("repair_starts.json")
    assert path.is_file() and len(path.read_bytes()) < 2_000_000
    ranker = shipped()
    assert ranker is not None and ranker.weights
    assert ranker.weights["crf_gap"] > 0  # the CRF's probability of the whole labelling counts for it


def test_fit_ranker_learns_which_start_is_right() -> None:
    """A feature that marks the right start gets a positive weight, and the reading follows it."""
    pair = {"disfluent": "the 6th no the 13th", "fluent": "the 13th"}
    stretch = Stretch(1, 2, 3, 0)
    features = [{"good": 1.0}, {"good": 0.0}, {"good": 0.0}]  # starts 0, 1, 2
    choices = [Choice(0), Choice(1), Choice(2)]
    segment = (0, 5, ["O", "B", "M", "O", "O"], [(stretch, choices, features, [True, False, False])])
    ranker = fit_ranker([[segment]] * 20, 1.0)
    assert ranker.weights["good"] > 0
    assert ranked_reading(pair, [segment], ranker) == "the 13th"
    assert ranked_reading(pair, [segment], None) == "the the 13th"


def test_a_short_repair_at_the_end_may_go_in_place_of_earlier_words() -> None:
    text = "When did the mill in Leeds close no York?"
    tokens = tokenise(text)
    words = [w for w, _, _ in tokens]
    marker = words.index("no")
    stretch = Stretch(marker - 1, marker, marker + 1, 0)
    sources = displaced_sources(stretch, len(words))
    leeds = words.index("Leeds")
    assert (leeds, leeds + 1) in sources
    assert all(j < marker for _, j in sources) and (marker - 1, marker) not in sources  # not next to it
    tagged = ["O"] * len(words)
    tagged[marker - 1], tagged[marker] = "B", "M"  # read in place: "close" taken back
    labels = choose(tagged, stretch, Choice(stretch.start, (leeds, leeds + 1)))
    assert labels[leeds] == "S" and labels[marker - 1] == "O" and labels[marker] == "M" and labels[-1] == "P"
    assert apply_repairs(text, *read_labels(text, tokens, labels)) == "When did the mill in York close?"


def test_a_long_repair_is_not_moved() -> None:
    assert displaced_sources(Stretch(5, 6, 7, 0), 7 + 5) == []  # five words after the marker
    assert displaced_sources(Stretch(5, 6, 6, 0), 8) == []  # no marker
