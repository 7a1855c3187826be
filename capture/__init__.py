"""Audio in: recorder, importers, folder watch, transcription pipeline. Never imports Qt."""
