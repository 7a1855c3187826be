"""Backups and exports: create, read (verify), restore, daily (the job), export (markdown or JSON, in
export_markdown and export_json). What they share, the file format and report types, is in formats."""

__all__ = ["create", "daily", "export", "export_json", "export_markdown", "formats", "read", "restore"]
