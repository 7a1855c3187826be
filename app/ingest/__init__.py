"""Getting notes in: imports, watched folders, recording sessions, transcription and indexing.

Modules: imports (files and corpora into a project), watched_folders (folders that import by
themselves), recording_session (the microphone, live transcript and recovery), transcription (the
"transcribe" job), indexing (segments into searchable chunks), vocabulary (the names the transcriber
is told to expect in a project: the user's, the project's name, the names its notes say)."""

__all__ = ["imports", "indexing", "recording_session", "transcription", "vocabulary", "watched_folders"]
