-- Memory: the meaning of each segment, so a retrieved chunk can be ranked (and re-centred) by the
-- sentence in it that best matches a question, not only by the chunk as a whole.
-- vector: int8, the segment's unit embedding scaled so its largest component is ±127 (a quarter
-- of float32's size; only used to rank a few hundred candidates, where int8 is exact enough).
-- content_sha256 is of the embedded text ("Speaker: words", edits applied): an edit changes it,
-- and only then is the segment embedded again. Segments under four words have no vector.
CREATE TABLE segment_vectors (
    segment_id INTEGER PRIMARY KEY REFERENCES segments(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    vector BLOB NOT NULL
);
