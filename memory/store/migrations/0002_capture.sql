-- Capture: leases and cancellation for background jobs, and what imports and watched folders
-- have already seen.

-- A running job belongs to one process ("host:pid"), which refreshes heartbeat_at while it works;
-- a job whose owner died (a crash, a kill) goes back to the queue at the next start and resumes.
-- cancel_requested lets one process (the CLI) cancel a job another process (the app) is running.
ALTER TABLE jobs ADD COLUMN worker TEXT;
ALTER TABLE jobs ADD COLUMN heartbeat_at TEXT;
ALTER TABLE jobs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN eta_seconds REAL;
CREATE INDEX jobs_recording ON jobs(recording_id, kind);

-- Files an import or a watched folder has read, so that an unchanged file (same path, size and
-- modification time) is not hashed again at every start, and a damaged one is not retried until
-- it changes. The recordings' content_sha256 stays what makes an import unique.
CREATE TABLE seen_files (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    content_sha256 TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('imported', 'duplicate', 'failed')),
    message TEXT,
    seen_at TEXT NOT NULL
) WITHOUT ROWID;
