-- Verbatim's store. Raw audio and raw segments are written once and never changed; everything
-- else (edits, chunks, indexes, facts, links) is a layer that points back at the raw words.
-- Times: spoken_at / created_at are ISO 8601 local wall-clock times without offset
-- ("2026-03-02T08:40:00"): when the user spoke, as they would say it. start/end are seconds
-- into the recording.

CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,                 -- safe in file names and exports
    created_at TEXT NOT NULL,
    archived_at TEXT,
    language TEXT,                             -- NULL: detect per recording
    vocabulary TEXT NOT NULL DEFAULT '',       -- one term per line: names the model should spell right
    transcription_model TEXT                   -- NULL: the default
);
CREATE UNIQUE INDEX projects_name ON projects(name COLLATE NOCASE);

CREATE TABLE recordings (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id),
    external_id TEXT UNIQUE,                   -- id in an imported corpus, e.g. "conv-26:S1"
    title TEXT NOT NULL DEFAULT '',
    spoken_at TEXT NOT NULL,
    duration REAL,                             -- seconds; NULL while unknown
    source TEXT NOT NULL CHECK (source IN ('microphone', 'import', 'watch', 'transcript')),
    source_name TEXT,                          -- the original file name
    audio_path TEXT,                           -- relative to the data folder; NULL for transcripts
    content_sha256 TEXT UNIQUE,                -- the same file twice is one recording
    status TEXT NOT NULL CHECK (status IN
        ('recording', 'queued', 'transcribing', 'indexed', 'consolidated', 'failed')),
    status_message TEXT,
    progress REAL NOT NULL DEFAULT 0,          -- 0..1 of the current stage
    recovered INTEGER NOT NULL DEFAULT 0,      -- 1: rebuilt after a crash or kill
    language TEXT,
    model TEXT,                                -- transcription model of the raw segments
    created_at TEXT NOT NULL
);
CREATE INDEX recordings_project_time ON recordings(project_id, spoken_at);
CREATE INDEX recordings_time ON recordings(spoken_at);
CREATE INDEX recordings_status ON recordings(status);

-- The transcript of record. Immutable: corrections go to segment_edits.
CREATE TABLE segments (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,                      -- 0-based order within the recording
    external_id TEXT,                          -- id in an imported corpus: what evaluations cite
    start REAL NOT NULL,
    end REAL NOT NULL,
    speaker TEXT,
    text TEXT NOT NULL,
    words TEXT,                                -- JSON [[word, start, end, probability], ...]
    model TEXT,
    confidence REAL,                           -- mean word probability, where known
    UNIQUE (recording_id, idx)
);
CREATE INDEX segments_external ON segments(external_id) WHERE external_id IS NOT NULL;
CREATE TRIGGER segments_are_raw BEFORE UPDATE ON segments
BEGIN
    SELECT RAISE(ABORT, 'raw segments are immutable: save an edit instead');
END;

-- The provisional transcript written while recording (fast model); replaced by the final pass.
CREATE TABLE live_segments (
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    start REAL NOT NULL,
    end REAL NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (recording_id, idx)
) WITHOUT ROWID;

-- A user's correction of a segment, versioned; the raw segment stays.
CREATE TABLE segment_edits (
    id INTEGER PRIMARY KEY,
    segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    text TEXT NOT NULL,
    speaker TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (segment_id, version)
);

-- Retrieval units: whole consecutive segments of one recording.
CREATE TABLE chunks (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL REFERENCES projects(id),
    first_idx INTEGER NOT NULL,                -- segments[first_idx..last_idx] of the recording
    last_idx INTEGER NOT NULL,
    start REAL NOT NULL,
    end REAL NOT NULL,
    spoken_at TEXT NOT NULL,
    text TEXT NOT NULL,                        -- what is indexed (speaker names included)
    content_sha256 TEXT NOT NULL,              -- of text: unchanged text is never re-embedded
    provisional INTEGER NOT NULL DEFAULT 0,    -- 1: built from the live transcript
    embedded INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX chunks_recording ON chunks(recording_id, first_idx);
CREATE INDEX chunks_project_time ON chunks(project_id, spoken_at);
CREATE INDEX chunks_unembedded ON chunks(id) WHERE embedded = 0;

CREATE VIRTUAL TABLE chunks_fts USING fts5(
    text, content='chunks', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER chunks_fts_update AFTER UPDATE OF text ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO chunks_fts(rowid, text) VALUES (new.id, new.text);
END;

-- Embedding cache keyed by content: float32 little-endian blobs.
CREATE TABLE embeddings (
    content_sha256 TEXT NOT NULL,
    model TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (content_sha256, model)
) WITHOUT ROWID;

-- Key/value facts about the store itself (e.g. which embedding model fills the vector index).
CREATE TABLE store_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- Every prompt and response, for audit.
CREATE TABLE llm_calls (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    purpose TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt TEXT NOT NULL,
    response TEXT,
    error TEXT,
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    first_token_ms REAL,
    total_ms REAL
);

-- Persistent, resumable background work (transcription, indexing, consolidation).
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    recording_id INTEGER REFERENCES recordings(id) ON DELETE CASCADE,
    payload TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN
        ('queued', 'running', 'done', 'failed', 'cancelled')),
    progress REAL NOT NULL DEFAULT 0,
    message TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
);
CREATE INDEX jobs_open ON jobs(status, id) WHERE status IN ('queued', 'running');
