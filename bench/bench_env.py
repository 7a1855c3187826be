"""What every benchmark figure states: the machine, its load, and the versions of what ran.

Load average is read at the start and the end of each stage: the machine is shared, and a figure
means little without how busy it was.
"""

from __future__ import annotations

import os
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from models.catalogue import SHIPPED, Format, Role, sha256_file, shipped_path


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def ram_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "cpu": cpu_model(),
        "ram_gb": ram_gb(),
        "os": f"{platform.system()} {platform.release()}",
        "load_average": load_average(),
    }


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "absent"


def versions() -> dict[str, Any]:
    from memory.health import sqlite_features

    sqlite = sqlite_features()
    return {
        "python": sys.version.split()[0],
        "faster_whisper": _version("faster-whisper"),
        "ctranslate2": _version("ctranslate2"),
        "llama_cpp_python": _version("llama_cpp_python"),
        "numpy": _version("numpy"),
        "sqlite": sqlite.get("sqlite"),
        "sqlite_vec": sqlite.get("sqlite_vec"),
        "apsw": _version("apsw"),
        "matplotlib": _version("matplotlib"),
    }


def model_hashes(models_dir: Path, extra: dict[str, Path] | None = None) -> dict[str, Any]:
    """sha256 of each model's weights file as it is on disk (hashed now, not taken from the pins)."""
    found: dict[str, Any] = {}
    for role in Role:
        model = SHIPPED[role]
        path = shipped_path(model, models_dir)
        found[model.name] = _weights_sha(path, model.format)
    for name, path in (extra or {}).items():
        found[name] = _weights_sha(path, Format.CT2_WHISPER)
    return found


def _weights_sha(path: Path, fmt: Format) -> str | None:
    weights = path / "model.bin" if fmt is Format.CT2_WHISPER else path
    return sha256_file(weights) if weights.is_file() else None


def describe(models_dir: Path, extra_models: dict[str, Path] | None = None) -> dict[str, Any]:
    return {
        "machine": machine(),
        "versions": versions(),
        "models_sha256": model_hashes(models_dir, extra_models),
    }


def figure_caption(env: dict[str, Any], load_end: list[float] | None = None) -> str:
    """The two lines under every plot: machine and load, then versions and models."""
    m, v = env["machine"], env["versions"]
    load = f"load {m['load_average'][0]:.1f}" + (f" → {load_end[0]:.1f}" if load_end else "")
    line1 = f"{m['cores']} cores, {m['cpu']}, {m['ram_gb']} GB RAM, {load} (1-min avg, start → end)"
    line2 = (
        f"Python {v['python']}, faster-whisper {v['faster_whisper']}, CTranslate2 {v['ctranslate2']},"
        f" llama-cpp-python {v['llama_cpp_python']}, SQLite {v['sqlite']}, sqlite-vec {v['sqlite_vec']},"
        f" apsw {v['apsw']}"
    )
    shas = ", ".join(f"{name} {sha[:10]}" for name, sha in env["models_sha256"].items() if sha)
    return f"{line1}\n{line2}\nmodels (sha256): {shas}"
