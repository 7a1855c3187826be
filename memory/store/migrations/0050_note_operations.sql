-- Note operations: delete to a trash, move to another project, re-transcribe. Each is recorded in
-- recording_history, and none loses what was said while the note exists.

-- A trashed note keeps its raw segments, edits and audio for 30 days (restorable); its derived
-- layers (chunks, FTS rows, vectors, facts, connections, ...) are removed when it is trashed, so
-- it leaves search, answers, digests and connections at once, and are rebuilt when it is restored.
-- After 30 days, or "empty trash", the recording row goes and everything else with it.
ALTER TABLE recordings ADD COLUMN trashed_at TEXT;
CREATE INDEX recordings_trashed ON recordings(trashed_at) WHERE trashed_at IS NOT NULL;

-- Which transcript the segments table holds for this note: 1 is the first; a re-transcription
-- keeps the transcript it replaces in transcript_versions and makes the new one number n + 1.
ALTER TABLE recordings ADD COLUMN transcript_version INTEGER NOT NULL DEFAULT 1;

-- Earlier transcripts of a note, word for word as they were (raw segments, with the user's edits
-- of them), so a re-transcription never destroys the raw words: the user can read them and make
-- one current again (then the current one is kept here in its place).
CREATE TABLE transcript_versions (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,                  -- recordings.transcript_version it had when current
    model TEXT,                                -- transcription model of its segments
    language TEXT,
    segments INTEGER NOT NULL,
    replaced_at TEXT NOT NULL,                 -- when it stopped being the current transcript
    reason TEXT NOT NULL,                      -- why: 're-transcribed with base', 'version 1 restored'
    UNIQUE (recording_id, version)
);

CREATE TABLE transcript_version_segments (
    version_id INTEGER NOT NULL REFERENCES transcript_versions(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    external_id TEXT,
    start REAL NOT NULL,
    end REAL NOT NULL,
    speaker TEXT,
    text TEXT NOT NULL,                        -- the raw words, exactly as they were
    words TEXT,
    model TEXT,
    confidence REAL,
    edits TEXT NOT NULL DEFAULT '[]',          -- JSON [{version, text, speaker, created_at}, ...]
    PRIMARY KEY (version_id, idx)
) WITHOUT ROWID;
CREATE TRIGGER transcript_version_segments_are_raw BEFORE UPDATE ON transcript_version_segments
BEGIN
    SELECT RAISE(ABORT, 'an earlier transcript is kept as it was');
END;

-- What happened to a note, newest last: trashed, restored, moved (from and to project),
-- re-transcribed, an earlier transcript restored. Gone with the note when the trash is emptied.
CREATE TABLE recording_history (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    action TEXT NOT NULL CHECK (action IN
        ('trashed', 'restored', 'moved', 'retranscribed', 'transcript_restored')),
    details TEXT NOT NULL DEFAULT '{}',        -- JSON: {"from_project": 2, "to_project": 3}, ...
    created_at TEXT NOT NULL
);
CREATE INDEX recording_history_recording ON recording_history(recording_id, id);
