"""A note's sentences as fact_parse gives them: each the Doc spaCy's `Span.as_doc` makes of its part of
the note's one parse, read from the parse's array once instead of once a sentence."""

from __future__ import annotations

from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.fact_parse import ParsedDoc
from memory.text.nlp import parse

# Sentence ends the parse does not share: "U.S." ends a sentence here (a title before a name, "St.
# Louis", "Dr. Chen", does not), so "U.S. Steel" is cut in two and words have heads in the sentence
# before or after.
LINES = [
    "Yesterday I met Anna Becker from Kestrel. Becker wants the rollout in June, she said",
    "because the budget of 40,000 pounds. is too small for the U.S. Steel team in St. Louis.",
    "Tom will call Dr. Chen on Monday about the pilot plan.",
]


def _token_view(doc):  # type: ignore[no-untyped-def]
    tokens = [
        (t.text, t.idx, t.head.i, t.dep_, t.pos_, t.tag_, t.lemma_, t.ent_type_, t.ent_iob_, t.is_sent_start,
         t.whitespace_, str(t.morph), [c.i for c in t.children])
        for t in doc
    ]  # fmt: skip
    ents = [(e.start, e.end, e.label_) for e in doc.ents]
    return tokens, ents, [(c.start, c.end) for c in doc.noun_chunks], [(s.start, s.end) for s in doc.sents]


def test_each_sentence_is_the_doc_span_as_doc_makes_of_the_one_parse() -> None:
    doc = Doc(
        [
            Segment(i + 1, RecordingId(1), i, None, i * 5.0, i * 5.0 + 4.5, None, t, t, False)
            for i, t in enumerate(LINES)
        ],
        "2026-03-02T09:00:00",
    )
    reader = ParsedDoc(doc)
    read = [reader.sentence(s) for s in doc.sentences]
    whole = parse(doc.text)  # the note's parse, as the reader made it
    spans = [whole.char_span(s.start, s.end, alignment_mode="expand") for s in doc.sentences]
    heads_outside = cut_entities = 0
    for sentence, span, parsed in zip(doc.sentences, spans, read, strict=True):
        assert span is not None and parsed.tokens is not None
        assert span.text == sentence.text  # the parse's part, not a parse of the sentence alone
        assert _token_view(parsed.tokens) == _token_view(span.as_doc())
        heads_outside += sum(not span.start <= t.head.i < span.end for t in span)
        cut_entities += sum(e.start < span.start < e.end or e.start < span.end < e.end for e in whole.ents)
    assert heads_outside and cut_entities  # the cases as_doc mends are in the text
