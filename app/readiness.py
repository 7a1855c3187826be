"""What a first run needs to know, quickly: are the models there, is there a microphone, any projects.

The desktop window asks this at start-up (off its main thread) to show guidance instead of errors.
Fast by design: model files are checked for presence only (no hashing, no loading); `verbatim
doctor` does the thorough check.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.library import Library
from app.project_service import list_projects
from capture.devices import InputDevice, list_input_devices
from models.catalogue import SHIPPED, Role, model_files
from models.errors import VerbatimError


@dataclass(frozen=True)
class MissingModel:
    role: str
    name: str
    problem: str
    fix: str


@dataclass(frozen=True)
class Readiness:
    projects: int
    microphone: str | None  # the default input device's name; None when there is none
    microphone_problem: str = ""
    microphone_fix: str = ""
    missing_models: list[MissingModel] = field(default_factory=list)

    @property
    def can_record(self) -> bool:
        return self.microphone is not None

    @property
    def first_run(self) -> bool:
        return self.projects == 0


def _input_devices() -> list[InputDevice]:
    """Inputs as the sound system sees them now (PortAudio reads its list once: re-read it)."""
    from capture.recorder import refresh_devices  # here: it loads the audio stack, not needed to start

    refresh_devices()
    return list_input_devices()


def _microphone() -> tuple[str | None, str, str]:
    try:
        devices = _input_devices()
    except VerbatimError as exc:
        return None, exc.message, exc.fix or ""
    if not devices:
        return (
            None,
            "No microphone found: recording is off; importing files still works.",
            "connect a microphone, or check the system's sound settings",
        )
    default = next((d for d in devices if d.is_default), devices[0])
    return default.name, "", ""


def _missing_model(library: Library, role: Role) -> MissingModel | None:
    """The role's model files are all there (checked by name only: no hashing, no loading)."""
    registry = library.models
    path = registry.path_for(role)
    files = model_files(path, SHIPPED[role].format) if path.exists() else []
    if files and all(f.is_file() for f in files):
        return None
    user = registry.is_user_model(role)
    fix = "register another file in Settings" if user else "run 'verbatim models provision'"
    return MissingModel(role.value, registry.name_for(role), f"{path} is missing", fix)


def check_readiness(library: Library) -> Readiness:
    missing = [m for m in (_missing_model(library, role) for role in Role) if m is not None]
    microphone, problem, fix = _microphone()
    return Readiness(
        projects=len(list_projects(library)),
        microphone=microphone,
        microphone_problem=problem,
        microphone_fix=fix,
        missing_models=missing,
    )


def input_device_names() -> list[str]:
    """Names of the audio inputs a user can pick in settings; empty when there are none."""
    try:
        return [d.name for d in _input_devices()]
    except VerbatimError:
        return []
