-- Deleting a segment (a note emptied from the trash, an import withdrawn on Cancel) makes SQLite
-- look, for each segment, for rows that point at it in every table whose foreign key names
-- segments. Without an index on the pointing column each look reads the whole table: deleting a
-- long note's segments read its entities, corrections and commitments once per segment.
CREATE INDEX entities_segment ON entities(segment_id);
CREATE INDEX corrections_wrong_segment ON corrections(wrong_segment_id);
CREATE INDEX corrections_right_segment ON corrections(right_segment_id);
CREATE INDEX commitments_segment ON commitments(first_segment_id);
