"""`verbatim bench all --quick` still runs every benchmark and writes well-formed results.

Timings are never asserted (the machine is shared); only that each stage ran or said why not, and
that the JSON, the markdown block and the PNG plots are there and well formed.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from tests.conftest import EVAL_DIR, require_models
from tests.support.cli import run

pytestmark = pytest.mark.slow

HAND_WRITTEN = "## Someone else's section\n\nKept as it is.\n"
STAGES = (
    "transcription-tiny.en",
    "transcription-base",
    "transcription-small",
    "ingest",
    "search",
    "ask",
    "quality",
    "consolidation",
    "app-start",
)


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_bench_all_quick_writes_json_markdown_and_plots(tmp_path: Path) -> None:
    require_models()
    out, markdown = tmp_path / "out", tmp_path / "benchmarks.md"
    markdown.write_text(
        f"# Benchmarks\n\n{HAND_WRITTEN}\n<!-- bench:all start -->\nstale\n<!-- bench:all end -->\n\n"
        + HAND_WRITTEN.replace("Someone else's", "Another")
    )
    args = ["bench", "all", "--quick", "--out", str(out), "--cache", str(tmp_path / "cache")]
    result = run(*args, "--eval-dir", str(EVAL_DIR), "--markdown", str(markdown), "--json")
    assert result.code == 0, result.err[-3000:] + result.out[-3000:]

    summary = json.loads((out / "summary.json").read_text())
    assert summary == result.json() and summary["quick"] is True
    assert summary["machine"]["cores"] >= 1 and len(summary["machine"]["load_average"]) == 3
    assert {
        "python",
        "faster_whisper",
        "ctranslate2",
        "llama_cpp_python",
        "sqlite",
        "sqlite_vec",
        "apsw",
    } <= set(summary["versions"])
    assert all(len(sha) == 64 for sha in summary["models_sha256"].values() if sha)
    assert list(summary["stages"]) == list(STAGES)
    for name in STAGES:
        record = json.loads((out / f"{name}.json").read_text())
        if record.get("skipped"):
            continue
        assert "error" not in record, record
        assert record["peak_rss_mb"] > 10 and record["wall_s"] > 0, record
        assert isinstance(record["result"], dict)
    assert (
        json.loads((out / "search.json").read_text())["result"]["runs"][0]["latency_ms"]["hybrid/all"]["n"]
        > 0
    )
    if (EVAL_DIR / "speech-dev" / "manifest.tsv").is_file():
        tiny = json.loads((out / "transcription-tiny.en.json").read_text())["result"]["summary"]
        assert tiny["rtf_product"] > 0 and 0 <= tiny["wer"] <= 1 and 0 <= tiny["wer_bare"] <= 1

    text = markdown.read_text()
    assert text.count("<!-- bench:all start -->") == 1 and text.count("<!-- bench:all end -->") == 1
    assert "stale" not in text and HAND_WRITTEN in text and "## Another section" in text
    block = text.split("<!-- bench:all start -->")[1].split("<!-- bench:all end -->")[0]
    assert "### Search" in block and "### Stages" in block and "| search |" in block
    assert summary["plots"], summary.get("plots_skipped")
    for name in summary["plots"]:
        width, height = _png_size(out / name)
        assert width > 300 and height > 200
        assert f"]({Path('out') / name})" in block
