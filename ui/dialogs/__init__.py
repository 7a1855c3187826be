"""Dialogs: settings (with its data-folder tab) and the import file picker."""
