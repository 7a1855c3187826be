"""Getting notes in: imports, watched folders, recording sessions, transcription and indexing.

Modules: imports (files and corpora into a project), watched_folders (folders that import by
themselves), recording_session (the microphone, live transcript and recovery), transcription (the
"transcribe" job), indexing (segments into searchable chunks)."""

__all__ = ["imports", "indexing", "recording_session", "transcription", "watched_folders"]
