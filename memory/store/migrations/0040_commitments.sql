-- Commitments: who owes what to whom by when, each a stated quote of the raw words (consolidation
-- stage "commitments", memory/consolidate/commitments.py), and the sentences of notes that say
-- something was delivered ("the deck went out", "I sent Oren the scorecard"), which mark an
-- earlier commitment done. Nothing here changes a segment; a recording's rows are rebuilt with it.
CREATE TABLE commitments (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id),  -- effective project (an assigned stretch's)
    kind TEXT NOT NULL CHECK (kind IN ('commitment', 'delivery')),
    quote TEXT NOT NULL,                       -- raw words, verbatim
    segment_ids TEXT NOT NULL,                 -- JSON list, in order
    first_segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    start REAL NOT NULL,
    end REAL NOT NULL,
    who TEXT NOT NULL,                         -- 'me' or 'us' (the user's side), else a name as said
    what TEXT NOT NULL,
    to_whom TEXT,
    due_text TEXT,                             -- the words that say when ("by Friday the 26th")
    due_date TEXT,                             -- the day they mean (ISO), resolved against spoken_at
    language TEXT NOT NULL,
    still INTEGER NOT NULL DEFAULT 0,          -- said as owed already ("Markus still owes us ...")
    restates INTEGER REFERENCES commitments(id) ON DELETE SET NULL,  -- an earlier commitment said again
    done_by INTEGER REFERENCES commitments(id) ON DELETE SET NULL,   -- the later delivery that did it
    spoken_at TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX commitments_recording ON commitments(recording_id);
CREATE INDEX commitments_kind ON commitments(kind, spoken_at);
CREATE INDEX commitments_due ON commitments(kind, due_date) WHERE kind = 'commitment';

-- Notes consolidated before this version get the new stage in the background (their other stages
-- stay done: only "commitments" runs).
UPDATE recordings SET status = 'indexed' WHERE status = 'consolidated';
