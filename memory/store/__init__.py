"""The database: one SQLite file per library, opened by `store.Store` (transactions, migrations, WAL).

Modules: store (the connection and migrations), clock (the one time format), projects,
recordings (raw segments, written once; edits are versioned beside them), jobs (the persistent job
queue's rows), live_transcript (the provisional transcript while recording), llm_log (every model
call), note_ops (the trash, moves, earlier transcripts), seen_files (files already imported),
snapshots (online copies, dumps and fingerprints for backups and exports)."""

__all__ = [
    "clock",
    "jobs",
    "live_transcript",
    "llm_log",
    "note_ops",
    "projects",
    "recordings",
    "seen_files",
    "snapshots",
    "store",
]
