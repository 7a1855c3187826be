"""`verbatim doctor` reports every check with a fix, and a missing microphone is only a warning."""

from __future__ import annotations

import pytest

from tests.conftest import require_models
from tests.support.cli import run

pytestmark = pytest.mark.slow  # doctor loads spaCy's English pipeline and hashes every shipped model


def test_doctor_checks_database_models_audio_disk() -> None:
    require_models()
    result = run("doctor", "--json")
    checks = {c["name"]: c for c in result.json()["checks"]}
    assert checks["sqlite-vec"]["ok"] and checks["fts5"]["ok"] and checks["library"]["ok"]
    assert all(
        checks[f"model: {r}"]["ok"] for r in ("transcription", "transcription_fast", "embedding", "chat")
    )
    assert {"audio input", "free disk"} <= set(checks)
    assert checks["language"]["ok"] and "spaCy en_core_web_sm" in checks["language"]["detail"]
    # No sound card here: a warning with a fix, never an error exit.
    if not checks["audio input"]["ok"]:
        assert checks["audio input"]["severity"] == "warning" and checks["audio input"]["fix"]
    errors = [c for c in checks.values() if not c["ok"] and c["severity"] == "error"]
    assert result.code == (1 if errors else 0)


def test_doctor_text_output_names_each_problem() -> None:
    result = run("doctor")
    assert "sqlite-vec" in result.out and "free disk" in result.out
