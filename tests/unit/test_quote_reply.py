"""A quote that ends in a question goes on through its reply (memory/answer/context.py)."""

from __future__ import annotations

from memory.answer.context import with_reply
from memory.text.quotes import QuoteSource, SourceSegment


def _source(*turns: str) -> QuoteSource:
    return QuoteSource([SourceSegment(n + 1, n * 5.0, n * 5.0 + 5.0, t) for n, t in enumerate(turns)])


def test_a_question_is_quoted_with_its_reply() -> None:
    source = _source("That looks awesome! How long have you been creating art?", "Since I was 17 or so.")
    span = source.find("How long have you been creating art")
    assert span is not None
    replied = with_reply(source, span)
    assert replied.text == "How long have you been creating art? Since I was 17 or so"
    assert replied.segment_ids == (1, 2)


def test_a_statement_or_a_last_question_stays_as_it_is() -> None:
    source = _source("We painted the fence. Was it worth it?")
    statement = source.find("We painted the fence")
    assert statement is not None and with_reply(source, statement) == statement
    last = source.find("Was it worth it")
    assert last is not None and with_reply(source, last) == last
