"""Projects: the partition every recording, chunk and question lives in."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from memory.store.ids import ProjectId
from memory.store.store import Store, now_iso
from models.errors import InputError, NotFoundError

MAX_NAME = 120
_JOINERS = "\u200c\u200d"


@dataclass(frozen=True)
class Project:
    id: ProjectId
    name: str
    slug: str
    created_at: str
    archived_at: str | None
    language: str | None
    vocabulary: list[str]
    transcription_model: str | None
    recordings: int = 0
    last_spoken_at: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "slug": self.slug,
            "created_at": self.created_at,
            "archived": self.archived_at is not None,
            "language": self.language,
            "vocabulary": self.vocabulary,
            "transcription_model": self.transcription_model,
            "recordings": self.recordings,
            "last_spoken_at": self.last_spoken_at,
        }


def clean_name(name: str) -> str:
    """A project name as shown: trimmed, single spaces, no control characters.

    Zero-width joiners stay: they are part of emoji ("👩‍💻") and of Persian and Indic spelling.
    """
    kept = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C" or ch in _JOINERS)
    cleaned = " ".join(kept.split())
    if not cleaned.strip(_JOINERS + " "):
        raise InputError("a project needs a name")
    if len(cleaned) > MAX_NAME:
        raise InputError(f"a project name can have at most {MAX_NAME} characters")
    return cleaned


def slugify(name: str) -> str:
    """Lowercase ASCII letters, digits and dashes: safe as a file or folder name everywhere."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug[:60].strip("-") or "project"


_SELECT = """
SELECT p.id, p.name, p.slug, p.created_at, p.archived_at, p.language, p.vocabulary,
       p.transcription_model,
       (SELECT count(*) FROM recordings r WHERE r.project_id = p.id AND r.trashed_at IS NULL) AS recordings,
       (SELECT max(spoken_at) FROM recordings r WHERE r.project_id = p.id AND r.trashed_at IS NULL)
           AS last_spoken_at
FROM projects p
"""


def _project(row: dict) -> Project:
    vocabulary = [line for line in row["vocabulary"].splitlines() if line.strip()]
    return Project(**{**row, "vocabulary": vocabulary})


def list_projects(store: Store, *, include_archived: bool = False) -> list[Project]:
    where = "" if include_archived else "WHERE p.archived_at IS NULL"
    return [_project(r) for r in store.all(f"{_SELECT} {where} ORDER BY p.name COLLATE NOCASE")]


def find_project(store: Store, name_or_slug: str) -> Project | None:
    row = store.one(
        f"{_SELECT} WHERE p.name = ? COLLATE NOCASE OR p.slug = ? ORDER BY p.id LIMIT 1",
        (name_or_slug.strip(), name_or_slug.strip()),
    )
    return _project(row) if row else None


def get_project(store: Store, name_or_slug: str) -> Project:
    project = find_project(store, name_or_slug)
    if project is None:
        raise NotFoundError(
            f"no project named {name_or_slug!r}",
            fix="see 'verbatim projects list' or add it with 'verbatim projects add'",
        )
    return project


def get_project_by_id(store: Store, project_id: int) -> Project:
    row = store.one(f"{_SELECT} WHERE p.id = ?", (project_id,))
    if row is None:
        raise NotFoundError(f"no project with id {project_id}")
    return _project(row)


def _unique_slug(store: Store, name: str, *, exclude_id: int | None = None) -> str:
    base = slugify(name)
    slug, n = base, 2
    while store.scalar("SELECT id FROM projects WHERE slug = ? AND id IS NOT ?", (slug, exclude_id)):
        slug, n = f"{base}-{n}", n + 1
    return slug


def add_project(store: Store, name: str, *, exist_ok: bool = False) -> Project:
    name = clean_name(name)
    with store.transaction():
        existing = find_project(store, name)
        if existing is not None:
            if exist_ok:
                return existing
            raise InputError(f"a project named {existing.name!r} already exists")
        project_id = store.execute(
            "INSERT INTO projects (name, slug, created_at) VALUES (?, ?, ?)",
            (name, _unique_slug(store, name), now_iso()),
        )
    return get_project_by_id(store, project_id)


def rename_project(store: Store, old: str, new: str) -> Project:
    new = clean_name(new)
    with store.transaction():
        project = get_project(store, old)
        clash = find_project(store, new)
        if clash is not None and clash.id != project.id:
            raise InputError(f"a project named {clash.name!r} already exists")
        store.execute(
            "UPDATE projects SET name = ?, slug = ? WHERE id = ?",
            (new, _unique_slug(store, new, exclude_id=project.id), project.id),
        )
    return get_project_by_id(store, project.id)


def set_archived(store: Store, name: str, archived: bool) -> Project:
    with store.transaction():
        project = get_project(store, name)
        store.execute(
            "UPDATE projects SET archived_at = ? WHERE id = ?", (now_iso() if archived else None, project.id)
        )
    return get_project_by_id(store, project.id)


def set_project_options(
    store: Store,
    name: str,
    *,
    language: str | None = None,
    vocabulary: list[str] | None = None,
    transcription_model: str | None = None,
    clear_language: bool = False,
) -> Project:
    """Change per-project transcription settings; None leaves a value as it is."""
    with store.transaction():
        project = get_project(store, name)
        if language is not None or clear_language:
            store.execute(
                "UPDATE projects SET language = ? WHERE id = ?",
                (None if clear_language else language.strip().lower() if language else None, project.id),
            )
        if vocabulary is not None:
            terms = [" ".join(t.split()) for t in vocabulary if t.strip()]
            store.execute("UPDATE projects SET vocabulary = ? WHERE id = ?", ("\n".join(terms), project.id))
        if transcription_model is not None:
            store.execute(
                "UPDATE projects SET transcription_model = ? WHERE id = ?",
                (transcription_model or None, project.id),
            )
    return get_project_by_id(store, project.id)
