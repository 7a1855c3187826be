"""Project services for the CLI and the UI (the SQL lives in memory.store.projects)."""

from __future__ import annotations

from app.library import Library
from memory.store import projects as store_projects
from memory.store.projects import Project

__all__ = [
    "Project",
    "add_project",
    "archive_project",
    "get_project",
    "list_projects",
    "rename_project",
    "set_project_options",
]


def list_projects(library: Library, *, include_archived: bool = False) -> list[Project]:
    return store_projects.list_projects(library.store, include_archived=include_archived)


def get_project(library: Library, name: str) -> Project:
    return store_projects.get_project(library.store, name)


def add_project(library: Library, name: str, *, exist_ok: bool = False) -> Project:
    return store_projects.add_project(library.store, name, exist_ok=exist_ok)


def rename_project(library: Library, old: str, new: str) -> Project:
    return store_projects.rename_project(library.store, old, new)


def archive_project(library: Library, name: str, *, archived: bool = True) -> Project:
    return store_projects.set_archived(library.store, name, archived)


def set_project_options(
    library: Library,
    name: str,
    *,
    language: str | None = None,
    clear_language: bool = False,
    vocabulary: list[str] | None = None,
    transcription_model: str | None = None,
) -> Project:
    return store_projects.set_project_options(
        library.store,
        name,
        language=language,
        clear_language=clear_language,
        vocabulary=vocabulary,
        transcription_model=transcription_model,
    )
