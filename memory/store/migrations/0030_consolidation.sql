-- Consolidation: layers over the raw segments, written in the background after a note is indexed.
-- Nothing here changes a segment: every row points back at raw words (segment ids and character
-- spans inside the raw text), and removing a layer loses nothing that was said.

-- Where a recording's consolidation stands. `fingerprint` is of the recording's final chunks: a
-- change (an edit, a re-transcription) means the layers are rebuilt. `stages` lists the finished
-- stages (JSON), so an interrupted job resumes at the first unfinished one.
CREATE TABLE consolidation_state (
    recording_id INTEGER PRIMARY KEY REFERENCES recordings(id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    stages TEXT NOT NULL DEFAULT '[]',
    model TEXT,                                -- chat model used for facts and rationales
    started_at TEXT NOT NULL,
    finished_at TEXT
);

-- Rule-based entities: dates (resolved against spoken_at), amounts, counts, people, organisations,
-- technologies and other names. `value` is normalised ("2026-06-11", "14800 GBP", "gwen trevelyan").
CREATE TABLE entities (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id),  -- effective project (an assigned stretch's)
    kind TEXT NOT NULL,
    text TEXT NOT NULL,                        -- the raw words
    value TEXT NOT NULL,
    char_start INTEGER NOT NULL,               -- in the segment's raw text
    char_end INTEGER NOT NULL
);
CREATE INDEX entities_value ON entities(kind, value);
CREATE INDEX entities_recording ON entities(recording_id);

-- A self-correction: the words taken back and the words that replace them ("Thursday the 12th,
-- no, sorry, Friday the 13th"). Both stay in the raw transcript; facts and answers use `right`.
CREATE TABLE corrections (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    marker TEXT NOT NULL,
    wrong_segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    wrong_start INTEGER NOT NULL,
    wrong_end INTEGER NOT NULL,
    wrong_text TEXT NOT NULL,
    right_segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    right_start INTEGER NOT NULL,
    right_end INTEGER NOT NULL,
    right_text TEXT NOT NULL,
    kind TEXT NOT NULL,                        -- what was corrected: date, number, name, words
    created_at TEXT NOT NULL
);
CREATE INDEX corrections_recording ON corrections(recording_id);

-- A stretch of a recording that is about another project. The recording stays whole in its
-- project; the stretch is linked to the other one (suggested, then assigned or dismissed by the user).
CREATE TABLE stretches (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    first_idx INTEGER NOT NULL,
    last_idx INTEGER NOT NULL,
    start REAL NOT NULL,
    end REAL NOT NULL,
    project_id INTEGER NOT NULL REFERENCES projects(id),  -- the project it is about
    score REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'suggested' CHECK (status IN ('suggested', 'assigned', 'dismissed')),
    created_at TEXT NOT NULL,
    decided_at TEXT
);
CREATE INDEX stretches_recording ON stretches(recording_id, first_idx);

-- Facts: a short statement with the exact quote that supports it. Valid from when it was said
-- until a later fact about the same subject and attribute supersedes it (both kept).
CREATE TABLE facts (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id),  -- effective project
    subject TEXT NOT NULL,
    attribute TEXT NOT NULL,
    value TEXT NOT NULL,                       -- as said (the corrected words after a self-correction)
    value_kind TEXT NOT NULL,                  -- date, amount, count, percent, person, name, text
    value_norm TEXT NOT NULL,                  -- comparable form of the value
    context TEXT NOT NULL,                     -- space-separated stems the attribute is matched on
    kind TEXT NOT NULL CHECK (kind IN ('stated', 'inferred')),
    quote TEXT NOT NULL,                       -- raw words, checked against the segments
    segment_ids TEXT NOT NULL,                 -- JSON list, in order
    first_segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    start REAL NOT NULL,
    end REAL NOT NULL,
    value_start INTEGER,                       -- the value's character span in the first segment
    value_end INTEGER,
    spoken_at TEXT NOT NULL,
    valid_from TEXT NOT NULL,
    valid_until TEXT,
    superseded_by INTEGER REFERENCES facts(id) ON DELETE SET NULL,
    restates INTEGER REFERENCES facts(id) ON DELETE SET NULL,  -- an earlier fact said again
    changed INTEGER NOT NULL DEFAULT 0,        -- said as a change ("now", "moved to", "switching")
    correction_id INTEGER REFERENCES corrections(id) ON DELETE SET NULL,
    source TEXT NOT NULL CHECK (source IN ('rules', 'model')),
    created_at TEXT NOT NULL
);
CREATE INDEX facts_recording ON facts(recording_id);
CREATE INDEX facts_project ON facts(project_id, value_kind, spoken_at);
CREATE INDEX facts_segment ON facts(first_segment_id);
CREATE INDEX facts_superseded ON facts(superseded_by) WHERE superseded_by IS NOT NULL;

-- Connections between passages of two projects, with the signals that found them.
CREATE TABLE connections (
    id INTEGER PRIMARY KEY,
    a_recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    a_project_id INTEGER NOT NULL REFERENCES projects(id),
    a_segment_ids TEXT NOT NULL,
    a_quote TEXT NOT NULL,
    a_start REAL NOT NULL,
    a_end REAL NOT NULL,
    b_recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    b_project_id INTEGER NOT NULL REFERENCES projects(id),
    b_segment_ids TEXT NOT NULL,
    b_quote TEXT NOT NULL,
    b_start REAL NOT NULL,
    b_end REAL NOT NULL,
    kind TEXT NOT NULL,                        -- the strongest signal: person, organisation, ...
    shared TEXT NOT NULL,                      -- what both passages share, as said
    dedupe_key TEXT NOT NULL UNIQUE,           -- one connection per shared thing and project pair
    features TEXT NOT NULL,                    -- JSON {signal: value}
    score REAL NOT NULL,
    rationale TEXT NOT NULL,                   -- one line, inferred
    rationale_source TEXT NOT NULL CHECK (rationale_source IN ('model', 'template')),
    verdict TEXT CHECK (verdict IN ('accepted', 'dismissed')),
    verdict_at TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX connections_a ON connections(a_project_id);
CREATE INDEX connections_b ON connections(b_project_id);
CREATE INDEX connections_recordings ON connections(a_recording_id, b_recording_id);

-- The online logistic model over connection signals, updated by each verdict.
CREATE TABLE connection_weights (
    feature TEXT PRIMARY KEY,
    weight REAL NOT NULL,
    updates INTEGER NOT NULL DEFAULT 0
);

-- Decisions, commitments and open questions, each a stated quote (rule-based cues).
CREATE TABLE digest_items (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id),  -- effective project
    kind TEXT NOT NULL CHECK (kind IN ('decision', 'commitment', 'question')),
    quote TEXT NOT NULL,
    segment_ids TEXT NOT NULL,
    start REAL NOT NULL,
    end REAL NOT NULL,
    who TEXT,
    due TEXT,                                  -- ISO date when a deadline is said
    spoken_at TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX digest_project ON digest_items(project_id, spoken_at);
CREATE INDEX digest_recording ON digest_items(recording_id);
