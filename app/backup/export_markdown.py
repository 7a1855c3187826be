"""The library as an Obsidian-compatible vault of Markdown notes.

    Verbatim.md                                  the vault's index: projects, counts, when exported
    Connections.md                               links between projects, each side linked to its line
    <Project>/<Project>.md                       a project's index: its recordings, decisions, questions
    <Project>/Facts.md                           its facts, current and superseded, each linked to its line
    <Project>/YYYY-MM-DD HHMM <title>.md         one note per recording
    audio/<Project>/YYYY-MM-DD HHMM <title>.<ext> the recording's audio, embedded in its note

A recording's note has YAML front matter (project, title, spoken_at, duration, recording_id,
source, status, audio) and one paragraph per segment: `**[00:01:23]** Speaker: words ^s12`, the
user's edited text where there is one, marked "(edited)" and followed by the raw words as spoken.
The `^s12` block ids let facts and connections link to the exact line ([[note#^s12]]).

Audio is copied into the vault rather than linked: Obsidian only plays files inside its vault,
and the vault keeps working when it is moved, synced or the library is gone (`--no-audio` for a
text-only vault). Names are made safe (no separators, `..`, reserved names; unique per folder,
case-insensitively). Transcript text is escaped so that it stays text: a `[[`, `$` or `#` that
was said never becomes a link, formula or heading.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app import __version__
from app.backup.formats import ExportReport, NameBook, safe_name
from app.consolidation.service import list_connections, list_facts, project_digest
from app.library import Library
from app.project_service import Project, list_projects
from app.recording_service import Recording, Segment, audio_file, list_recordings, list_segments

INDEX = "Verbatim"
CONNECTIONS = "Connections"
FACTS = "Facts"
AUDIO = "audio"
_ESCAPE = re.compile(r"([\\`*_\[\]<>#|^~=$%])")


@dataclass
class _Vault:
    root: Path
    names: NameBook
    audio: bool
    links: dict[int, str]  # segment id -> "Folder/note#^s12"
    facts: dict[str, str] = field(default_factory=dict)  # project folder -> its facts note's name
    files: int = 0
    audio_files: int = 0

    def write(self, relative: str, text: str) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
        self.files += 1


def export_markdown(library: Library, target: Path, *, project: str | None, audio: bool) -> ExportReport:
    vault = _Vault(target, NameBook(), audio, {})
    for reserved in (AUDIO, f"{INDEX}.md", f"{CONNECTIONS}.md"):
        vault.names.reserve("", reserved)
    library_root, vault_root = library.data_dir.root.resolve(), target.resolve()
    if library_root.is_relative_to(vault_root):  # (--force into a folder that holds the library)
        vault.names.reserve("", library_root.relative_to(vault_root).parts[0])
    chosen = [
        p
        for p in list_projects(library, include_archived=True)
        if project is None or project.casefold() in (p.name.casefold(), p.slug)
    ]
    folders: dict[int, str] = {}
    notes: dict[int, list[tuple[Recording, str]]] = {}
    for proj in chosen:
        folder = folders[proj.id] = vault.names.claim("", safe_name(proj.name, "project"))
        vault.names.reserve(folder, f"{folder}.md")
        vault.facts[folder] = vault.names.claim(folder, FACTS, ".md").removesuffix(".md")
        notes[proj.id] = [
            (rec, _recording_note(library, vault, folder, rec))
            for rec in sorted(list_recordings(library, project=proj.name), key=lambda r: (r.spoken_at, r.id))
        ]
    for proj in chosen:
        _project_index(library, vault, proj, folders[proj.id], notes[proj.id])
        _facts_note(library, vault, proj, folders[proj.id])
    _connections_note(library, vault, project)
    _vault_index(vault, chosen, folders, notes)
    return ExportReport(
        str(target),
        "markdown",
        len(chosen),
        sum(len(n) for n in notes.values()),
        vault.files,
        vault.audio_files,
    )


# --- a recording ---------------------------------------------------------------------------------------
def _recording_note(library: Library, vault: _Vault, folder: str, rec: Recording) -> str:
    title = safe_name(rec.title, f"note {rec.id}")
    stem = vault.names.claim(folder, safe_name(f"{_stamp(rec.spoken_at)} {title}"), ".md")
    stem = stem.removesuffix(".md")
    note = f"{folder}/{stem}"
    segments = list_segments(library, rec.id)
    for segment in segments:
        vault.links[segment.id] = f"{note}#^s{segment.idx}"
    audio_link = _copy_audio(library, vault, folder, stem, rec)
    front = {
        "project": rec.project,
        "title": rec.title,
        "spoken_at": rec.spoken_at,
        "duration": rec.duration,
        "recording_id": rec.id,
        "source": rec.source,
        "source_name": rec.source_name,
        "status": rec.status,
        "language": rec.language,
        "audio": audio_link,
        "edited_segments": sum(1 for s in segments if s.edited),
    }
    lines = [_front_matter(front), f"# {_md(rec.title or f'Note {rec.id}')}", ""]
    when = _spoken(rec.spoken_at)
    length = f" · {_clock(rec.duration)}" if rec.duration else ""
    lines += [f"{_link(f'{folder}/{folder}', rec.project)} · {when}{length}", ""]
    if audio_link:
        lines += [f"![[{audio_link}]]", ""]
    lines += ["## Transcript", ""]
    if not segments:
        lines += [f"*No transcript yet ({rec.status}).*", ""]
    for segment in segments:
        lines += _segment_lines(segment)
    vault.write(f"{note}.md", "\n".join(lines))
    return note


def _segment_lines(segment: Segment) -> list[str]:
    speaker = f"{_md(segment.speaker)}: " if segment.speaker else ""
    mark = " *(edited)*" if segment.edited and segment.text != segment.raw_text else ""
    lines = [f"**[{_clock(segment.start)}]** {speaker}{_md(segment.text)}{mark} ^s{segment.idx}", ""]
    if mark:
        lines += [f"> raw, as spoken: {_md(segment.raw_text)}", ""]
    return lines


def _copy_audio(library: Library, vault: _Vault, folder: str, stem: str, rec: Recording) -> str | None:
    source = audio_file(library, rec)
    if source is None or not vault.audio:
        return None
    relative = f"{AUDIO}/{folder}/{stem}{source.suffix.lower()}"
    destination = vault.root / relative
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, destination)
    vault.audio_files += 1
    return relative


# --- projects, facts, connections ---------------------------------------------------------------------
def _project_index(
    library: Library, vault: _Vault, proj: Project, folder: str, notes: list[tuple[Recording, str]]
) -> None:
    front = {
        "project": proj.name,
        "type": "project",
        "recordings": len(notes),
        "archived": bool(proj.archived_at),
    }
    lines = [
        _front_matter(front),
        f"# {_md(proj.name)}",
        "",
        f"{_link(f'{folder}/{vault.facts[folder]}', 'Facts')}",
        "",
    ]
    lines += ["## Recordings", ""]
    lines += [
        f"- {_link(note, _label(rec.title or note.rsplit('/', 1)[-1]))} · {_spoken(rec.spoken_at)}"
        for rec, note in notes
    ]
    digest = project_digest(library, proj.name)
    for kind, heading in (
        ("decision", "Decisions"),
        ("commitment", "Commitments"),
        ("question", "Open questions"),
    ):
        items = [d for d in digest if d.kind == kind]
        if items:
            lines += ["", f"## {heading}", ""]
            lines += [
                f"- “{_md(d.quote)}” {_source(vault, d.segment_ids, d.spoken_at, d.start)}" for d in items
            ]
    vault.write(f"{folder}/{folder}.md", "\n".join(lines) + "\n")


def _facts_note(library: Library, vault: _Vault, proj: Project, folder: str) -> None:
    facts = list_facts(library, project=proj.name)
    lines = [_front_matter({"project": proj.name, "type": "facts", "facts": len(facts)})]
    lines += [f"# Facts: {_md(proj.name)}", "", f"Project: {_link(f'{folder}/{folder}', proj.name)}", ""]
    for heading, chosen in (
        ("Current", [f for f in facts if f.current]),
        ("No longer current", [f for f in facts if not f.current]),
    ):
        lines += [f"## {heading}", ""]
        if not chosen:
            lines += ["*None.*", ""]
        for fact in chosen:
            until = f" (until {_spoken(fact.valid_until)})" if fact.valid_until else ""
            source = _source(vault, fact.segment_ids, fact.spoken_at, fact.start)
            lines.append(
                f"- **{_md(fact.subject)} · {_md(fact.attribute)}**: {_md(fact.value)}{until}"
                f" — “{_md(fact.quote)}” {source} ({fact.kind})"
            )
        lines.append("")
    vault.write(f"{folder}/{vault.facts[folder]}.md", "\n".join(lines))


def _connections_note(library: Library, vault: _Vault, project: str | None) -> None:
    connections = list_connections(library, project=project)
    lines = [_front_matter({"type": "connections", "connections": len(connections)}), "# Connections", ""]
    if not connections:
        lines += ["*None yet.*", ""]
    for c in connections:
        lines += [f"## {_md(c.shared)} ({c.kind}): {_md(c.a.project)} and {_md(c.b.project)}", ""]
        for side in (c.a, c.b):
            source = _source(vault, side.segment_ids, side.spoken_at, side.start)
            lines.append(f"- {_md(side.project)}: “{_md(side.quote)}” {source}")
        verdict = f" · {c.verdict}" if c.verdict else ""
        lines += [f"- Why (inferred): {_md(c.rationale)}", f"- Score {c.score:.2f}{verdict}", ""]
    vault.write(f"{CONNECTIONS}.md", "\n".join(lines))


def _vault_index(
    vault: _Vault,
    chosen: list[Project],
    folders: dict[int, str],
    notes: dict[int, list[tuple[Recording, str]]],
) -> None:
    exported = datetime.now(UTC).replace(microsecond=0).isoformat()
    front = {
        "type": "verbatim-export",
        "format_version": 1,
        "app_version": __version__,
        "exported_at": exported,
    }
    lines = [
        _front_matter(front),
        "# Verbatim",
        "",
        f"{_link(CONNECTIONS, 'Connections')}",
        "",
        "## Projects",
        "",
    ]
    for proj in chosen:
        folder = folders[proj.id]
        lines.append(f"- {_link(f'{folder}/{folder}', _label(proj.name))} · {len(notes[proj.id])} recordings")
    vault.write(f"{INDEX}.md", "\n".join(lines) + "\n")


# --- text helpers ---------------------------------------------------------------------------------------
def _front_matter(values: dict[str, Any]) -> str:
    """YAML front matter; strings as JSON strings, which are valid YAML double-quoted scalars."""
    lines = ["---"]
    for key, value in values.items():
        lines.append(f"{key}: {'null' if value is None else json.dumps(value, ensure_ascii=False)}")
    return "\n".join([*lines, "---", ""])


def _md(text: str) -> str:
    """Transcript words as Markdown text: every character that means something there is escaped."""
    return _ESCAPE.sub(r"\\\1", " ".join(text.split()))


def _label(text: str) -> str:
    return " ".join(re.sub(r"[\[\]|#^]", " ", text).split()) or "note"


def _link(target: str, label: str) -> str:
    return f"[[{target}|{_label(label)}]]"


def _source(vault: _Vault, segment_ids: Iterable[int], spoken_at: str, start: float) -> str:
    label = f"{_spoken(spoken_at)} at {_clock(start)}"
    for segment_id in segment_ids:
        if segment_id in vault.links:
            return f"({_link(vault.links[segment_id], label)})"
    return f"({label})"


def _clock(seconds: float | None) -> str:
    total = int(seconds or 0)
    return f"{total // 3600:02d}:{total % 3600 // 60:02d}:{total % 60:02d}"


def _stamp(spoken_at: str) -> str:
    """ "2026-03-02T08:40:00" -> "2026-03-02 0840"."""
    match = re.match(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})", spoken_at or "")
    return f"{match[1]} {match[2]}{match[3]}" if match else "undated"


def _spoken(spoken_at: str) -> str:
    return (spoken_at or "")[:16].replace("T", " ")
