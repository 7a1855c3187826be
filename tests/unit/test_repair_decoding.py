"""The repair tagger's decoding with a bias towards taking words back (repair_tagger.Decoder),
with the shipped CRF and the shipped start ranker; no mocks. Sentences hand-made in the shape of
consultant speech, not from any eval set."""

from __future__ import annotations

from importlib import resources

import pycrfsuite
import pytest

from memory.consolidate.corrections import MIN_CONFIDENCE
from memory.text.repair_features import english_parts_of_speech, token_features, tokenise
from memory.text.repair_starts import shipped
from memory.text.repair_tagger import Decoder, tag_text
from memory.text.repairs import find_repairs, meant_reading

SENTENCES = (
    "The sync moves to Thursdays at nine, rather half past nine.",
    "When is the go-live of the portal no the app scheduled?",
    "What did Markus send to the vendor no wait to the auditor?",
    "We need twelve, sorry, fourteen licences for the team.",
    "The client prefers the Monday or the Tuesday slot.",
)


@pytest.fixture(scope="module")
def decoder() -> Decoder:
    tagger = pycrfsuite.Tagger()
    tagger.open(str(resources.files("memory.text").joinpath("repair_tagger.crfsuite")))
    return Decoder(tagger)


def features(text: str) -> list[list[str]]:
    tokens = tokenise(text)
    return token_features(text, tokens, english_parts_of_speech(text, tokens))


@pytest.mark.parametrize("text", SENTENCES)
def test_without_a_bias_it_is_crfsuites_own_viterbi(decoder: Decoder, text: str) -> None:
    """The weights read from the model give CRFsuite's labels (a negligible bias takes the
    numpy Viterbi path rather than CRFsuite's)."""
    xseq = features(text)
    assert decoder.tag(xseq, 1e-9) == list(decoder.tagger.tag(xseq))
    assert decoder.tag(xseq) == list(decoder.tagger.tag(xseq))


def test_the_bias_takes_more_words_back(decoder: Decoder) -> None:
    xseq = features("What is the budget of the what is the timeline of the rollout?")
    plain, biased = decoder.tag(xseq), decoder.tag(xseq, 1.0)
    assert sum(label != "O" for label in biased) > sum(label != "O" for label in plain)


def test_replaced_words_never_run_to_the_end(decoder: Decoder) -> None:
    """Without a repair after them replaced words are read as nothing; a bias large enough to
    carry them to the last word would lose the repair ("rather half past nine")."""
    for text in SENTENCES:
        for bias in (0.25, 0.5, 1.0, 2.0):
            assert decoder.tag(features(text), bias)[-1] not in ("B", "R")


def test_the_shipped_ranker_was_trained_with_a_bias() -> None:
    ranker = shipped()
    assert ranker is not None and ranker.taken_back_bias > 0


def test_a_consultant_correction_survives_the_bias() -> None:
    """consultant-dev-2's shape: the bias reads "at nine, rather" as the CRF's own stretch; the
    ranker takes "Thursdays" back too."""
    text = SENTENCES[0]
    assert meant_reading(text) == "The sync moves to half past nine."
    (repair,) = find_repairs(text)
    assert (repair.replaced_text, repair.marker_text) == ("Thursdays at nine", "rather")
    assert repair.repair_text == "half past nine"
    # words the bias adds in front of the CRF's own stretch are as sure as it is (confidence)
    assert repair.confidence >= MIN_CONFIDENCE


def test_taken_back_stays_the_crfs_own_probability() -> None:
    """Repair.confidence keeps its meaning: the bias changes the labels, not the marginals."""
    text = SENTENCES[1]
    tokens = tokenise(text)
    pos = english_parts_of_speech(text, tokens)
    plain = tag_text(text, tokens, pos=pos, rerank_starts=False)
    ranked = tag_text(text, tokens, pos=pos)
    assert [round(p, 9) for p in plain.taken_back] == [round(p, 9) for p in ranked.taken_back]


def test_the_shipped_decoding_reads_a_restart_the_crf_alone_keeps() -> None:
    """The bias finds repairs where the unbiased CRF finds none (the whole of its gain on
    Disfl-QA), at the CRF's own low confidence, below consolidation's MIN_CONFIDENCE."""
    text = "What is the budget of the what is the timeline of the rollout?"
    assert meant_reading(text) == "What is the timeline of the rollout?"
    (repair,) = find_repairs(text)
    assert repair.replaced_text == "What is the budget of the"
    assert repair.confidence < MIN_CONFIDENCE
