"""Report each model role: which file, its size, whether its sha256 checks out and whether it loads."""

from __future__ import annotations

import logging
from pathlib import Path

from app.library import Library
from models.catalogue import (
    SHIPPED,
    Format,
    ModelStatus,
    Role,
    folder_digest,
    model_files,
    sha256_file,
)
from models.errors import VerbatimError
from models.provision import provision_all

log = logging.getLogger(__name__)


def _try_load(library: Library, role: Role) -> None:
    if role is Role.EMBEDDING:
        embedder = library.models.embedder()
        if embedder.embed_one("verbatim").shape[0] != embedder.dims:
            raise VerbatimError("the embedding model returned a vector of the wrong size")
    elif role is Role.CHAT:
        library.models.chat().load()
    else:
        library.models.whisper(role)


def model_status(library: Library, role: Role, *, verify: bool = True, load: bool = True) -> ModelStatus:
    path = library.models.path_for(role)
    user = library.models.is_user_model(role)
    shipped = SHIPPED[role]
    status = ModelStatus(
        role=role.value,
        name=library.models.name_for(role),
        path=str(path),
        source="user" if user else "shipped",
        format=shipped.format.value,
    )
    files = model_files(path, shipped.format) if path.exists() else []
    status.present = bool(files) and all(f.is_file() for f in files)
    if not status.present:
        status.problem = f"{path} is missing"
        status.fix = (
            "run 'verbatim models provision'"
            if not user
            else "register another file with 'verbatim models add'"
        )
        return status
    status.size = sum(f.stat().st_size for f in files)
    if verify:
        if shipped.format is Format.GGUF:
            status.sha256 = sha256_file(path)
        else:
            status.sha256 = folder_digest(files, path)
        if user:
            status.sha256_verified = True  # a user's own file: nothing pinned to compare with
            status.extra["note"] = "user model: sha256 reported, not pinned"
        else:
            expected = {(path / name if name else path): digest for name, digest in shipped.outputs.items()}
            status.sha256_verified = all(
                p.is_file() and sha256_file(p) == digest for p, digest in expected.items()
            )
            if not status.sha256_verified:
                status.problem = "the files do not match their pinned sha256"
                status.fix = "run 'verbatim models provision' to rebuild them"
    if load:
        try:
            _try_load(library, role)
            status.loads = True
        except VerbatimError as exc:
            status.loads = False
            status.problem = exc.message
            status.fix = exc.fix or ""
    return status


def all_model_status(library: Library, *, verify: bool = True, load: bool = True) -> list[ModelStatus]:
    return [model_status(library, role, verify=verify, load=load) for role in Role]


def provision(library: Library, progress: object = None) -> list[str]:
    return provision_all(library.data_dir.models_dir, progress if callable(progress) else None)


def register_model(library: Library, path: Path, role: Role) -> ModelStatus:
    library.models.register(role, path)
    return model_status(library, role)
