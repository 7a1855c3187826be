"""The quote checker: properties that must hold for any text, then the cases a user meets."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memory.text.quotes import (
    MIN_QUOTE_WORDS,
    QuoteSource,
    SourceSegment,
    locate_quote,
    normalise,
    tokens,
    word_count,
)

WORDS = [
    "the",
    "workshop",
    "is",
    "on",
    "monday",
    "tuesday",
    "budget",
    "42,500",
    "Maria",
    "café",
    "don't",
    "ß",
]
word = st.sampled_from(WORDS) | st.text(alphabet="abcdeXYZ019äö", min_size=1, max_size=6)
sentence = st.lists(word, min_size=1, max_size=12).map(" ".join)
segments_st = st.lists(sentence, min_size=1, max_size=5)


def passage(texts: list[str], first_id: int = 100) -> QuoteSource:
    segs = [SourceSegment(first_id + i, float(i * 5), float(i * 5 + 4), t) for i, t in enumerate(texts)]
    return QuoteSource(segs)


def occurs(quote: str, text: str) -> bool:
    """Independent reference: the normalised quote is a run of whole words of the text."""
    q = normalise(quote)
    return bool(q) and f" {q} " in f" {normalise(text)} "


def mangle(text: str, rng: random.Random) -> str:
    """What a model or a person does to a quote that does not change its words."""
    out = []
    for w in text.split():
        w = w.upper() if rng.random() < 0.3 else w
        out.append(w + rng.choice(["", "", ",", ".", " —", "!", "  ", "\n"]))
    return rng.choice(["", "“", "'", "... "]) + " ".join(out) + rng.choice(["", "”", "?", "."])


@pytest.mark.slow  # 300 property examples: about 2 s of CPU
@settings(max_examples=300, deadline=None)
@given(texts=segments_st, quote=st.text(max_size=80))
def test_a_random_string_is_stated_only_when_its_words_are_in_the_passage(
    texts: list[str], quote: str
) -> None:
    p = passage(texts)
    span = p.find(quote)
    if span is None:
        assert word_count(quote) < MIN_QUOTE_WORDS or not occurs(quote, p.text)
    else:
        assert word_count(quote) >= MIN_QUOTE_WORDS
        assert occurs(quote, p.text)
        assert occurs(quote, span.text)


@pytest.mark.slow  # 300 property examples: about 2 s of CPU
@settings(max_examples=300, deadline=None)
@given(texts=segments_st, data=st.data())
def test_any_run_of_words_from_the_passage_is_found_however_it_is_spelled(
    texts: list[str], data: st.DataObject
) -> None:
    p = passage(texts)
    words = p.text.split()
    assume(len(words) >= MIN_QUOTE_WORDS)
    start = data.draw(st.integers(0, len(words) - MIN_QUOTE_WORDS))
    end = data.draw(st.integers(start + MIN_QUOTE_WORDS, len(words)))
    original = " ".join(words[start:end])
    assume(word_count(original) >= MIN_QUOTE_WORDS)
    quote = mangle(original, random.Random(data.draw(st.integers(0, 10**6))))
    span = p.find(quote)
    assert span is not None
    # The span is raw transcript text holding the quote, inside real segments, with their times.
    assert occurs(quote, span.text)
    ids = [s.id for s in p.segments]
    assert list(span.segment_ids) == ids[ids.index(span.segment_ids[0]) : ids.index(span.segment_ids[-1]) + 1]
    by_id = {s.id: s for s in p.segments}
    assert span.start == by_id[span.segment_ids[0]].start
    assert span.end == by_id[span.segment_ids[-1]].end
    assert all(normalise(by_id[i].text) for i in span.segment_ids)


@pytest.mark.slow  # 200 property examples: about 1 s of CPU
@settings(max_examples=200, deadline=None)
@given(texts=segments_st, quote=st.lists(st.sampled_from(["zebra", "quokka", "1999", "ñandú"]), min_size=1))
def test_words_that_are_not_in_the_passage_never_become_stated(texts: list[str], quote: list[str]) -> None:
    p = passage(texts)
    text = " ".join(quote)
    assume(not occurs(text, p.text))
    assert p.find(text) is None
    assert locate_quote(text, [1], {1: p}) is None


@pytest.mark.slow  # 200 property examples: about 2 s of CPU
@settings(max_examples=200, deadline=None)
@given(a=segments_st, b=segments_st, data=st.data())
def test_a_quote_from_another_passage_is_reattributed_to_it(
    a: list[str], b: list[str], data: st.DataObject
) -> None:
    pa, pb = passage(a, 100), passage(b, 200)
    words = pb.text.split()
    assume(len(words) >= MIN_QUOTE_WORDS)
    start = data.draw(st.integers(0, len(words) - MIN_QUOTE_WORDS))
    quote = " ".join(words[start : start + MIN_QUOTE_WORDS + 1])
    assume(word_count(quote) >= MIN_QUOTE_WORDS)
    found = locate_quote(quote, [1], {1: pa, 2: pb})
    assert found is not None
    if occurs(quote, pa.text):
        assert (found.passage, found.reattributed) == (1, False)
    else:
        assert (found.passage, found.reattributed) == (2, True)
        assert all(200 <= i < 300 for i in found.span.segment_ids)


@given(quote=st.text(max_size=40))
def test_fewer_than_a_few_words_are_never_stated(quote: str) -> None:
    p = passage([quote, quote])
    if word_count(quote) < MIN_QUOTE_WORDS:
        assert p.find(quote) is None


@given(text=st.text(max_size=60))
def test_normalising_is_idempotent_and_drops_case_and_punctuation(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once
    assert normalise(text.upper()) == normalise(text.lower()) or any(c in text for c in "İıſ")


def test_a_quote_across_two_segments_resolves_to_both_with_their_times() -> None:
    p = passage(["The workshop is on Monday,", "oh wait, I actually meant Tuesday."])
    span = p.find("monday oh wait I actually meant tuesday")
    assert span is not None
    assert span.segment_ids == (100, 101)
    assert (span.start, span.end) == (0.0, 9.0)
    assert span.text == "Monday, oh wait, I actually meant Tuesday"


def test_the_raw_spelling_comes_back_not_the_models() -> None:
    p = passage(["Um, the budget for phase one is 42,500 pounds including my time."])
    span = p.find("THE BUDGET for phase one is 42 500 pounds")
    assert span is not None
    assert span.text == "the budget for phase one is 42,500 pounds"


def test_a_changed_word_or_number_is_not_verbatim() -> None:
    p = passage(["the budget for phase one is 42,500 pounds"])
    assert p.find("the budget for phase one is 45,200 pounds") is None
    assert p.find("the budget for phase two is 42,500 pounds") is None
    assert p.find("budget phase one 42,500") is None  # words left out


def test_tokens_keep_raw_offsets() -> None:
    text = "Grüße, Frau Weiß! ½ done"
    for t in tokens(text):
        assert normalise(text[t.start : t.end]).split()[0] in (t.norm, "1")
    assert normalise(text) == "grüsse frau weiss 1 2 done"
