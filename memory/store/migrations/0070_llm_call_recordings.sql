-- Which notes a language-model call was shown: the recordings whose passages its prompt quoted
-- (an answer's context passages; a consolidation's sentences of its note, and of the other note
-- for a connection's rationale). When a note is deleted for good, the calls that quoted it keep
-- their row (purpose, model, timings: the audit trail says a call was made) but their prompt and
-- response are replaced by a notice (memory/store/llm_log.py `redact_calls`), so no words of a
-- deleted note stay in the library. Calls logged before this migration have no links: at deletion
-- they are matched by the note's sentences found in their prompt or response instead.
CREATE TABLE llm_call_recordings (
    call_id INTEGER NOT NULL REFERENCES llm_calls(id) ON DELETE CASCADE,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    PRIMARY KEY (call_id, recording_id)
) WITHOUT ROWID;
CREATE INDEX llm_call_recordings_recording ON llm_call_recordings(recording_id);
