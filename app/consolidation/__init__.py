"""Consolidation as the app runs it: the "consolidate" job (service), its stages over one recording
(stages), and what the UI and CLI read of the results (views)."""

__all__ = ["service", "stages", "views"]
