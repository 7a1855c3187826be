"""Audio input devices, as sounddevice (PortAudio) sees them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from models.errors import AudioError


@dataclass(frozen=True)
class InputDevice:
    index: int
    name: str
    channels: int
    default_samplerate: float
    is_default: bool


def _sounddevice() -> Any:
    try:
        import sounddevice
    except OSError as exc:  # PortAudio itself is missing
        raise AudioError(
            f"audio input is unavailable: {exc}",
            fix="install PortAudio (Debian/Ubuntu: sudo apt install libportaudio2)",
        ) from exc
    return sounddevice


def list_input_devices() -> list[InputDevice]:
    """Every device with at least one input channel; empty when there is none."""
    sd = _sounddevice()
    try:
        devices = sd.query_devices()
        default_in = sd.default.device[0]
    except sd.PortAudioError as exc:
        raise AudioError(f"cannot list audio devices: {exc}") from exc
    return [
        InputDevice(
            index=i,
            name=str(d["name"]),
            channels=int(d["max_input_channels"]),
            default_samplerate=float(d["default_samplerate"]),
            is_default=i == default_in,
        )
        for i, d in enumerate(devices)
        if int(d["max_input_channels"]) > 0
    ]
