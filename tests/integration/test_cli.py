"""The CLI's contract: help, version, exit codes, messages, documentation."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from app import __version__
from app.cli import build_parser
from tests.conftest import REPO
from tests.support.cli import run


def _top_commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return list(sub.choices)


def test_help_lists_every_command_with_one_line() -> None:
    result = run("--help")
    assert result.code == 0
    for name in _top_commands():
        assert re.search(rf"^\s+{re.escape(name)}\s+\S", result.out, re.M), f"{name} missing from --help"


def test_version() -> None:
    result = run("--version")
    assert result.code == 0 and result.out.strip() == f"verbatim {__version__}"


def test_usage_error_exits_2() -> None:
    assert run("no-such-command").code == 2
    assert run("projects", "add").code == 2


def test_expected_error_prints_message_without_traceback() -> None:
    result = run("projects", "rename", "Nope", "Other")
    assert result.code == 1
    assert result.err.startswith("error: no project named 'Nope'")
    assert "Traceback" not in result.err


@pytest.mark.slow
def test_console_script_runs() -> None:
    exe = REPO / ".venv" / "bin" / "verbatim"
    target = [str(exe)] if exe.exists() else [sys.executable, "-m", "app.cli"]
    result = subprocess.run([*target, "--version"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and __version__ in result.stdout


def test_every_command_is_documented_in_the_readme() -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    missing = [name for name in _top_commands() if f"verbatim {name}" not in readme]
    assert not missing, f"README does not document: {missing}"


def test_projects_round_trip() -> None:
    assert run("projects", "add", "Harbourline").code == 0
    assert run("projects", "add", "harbourline").code == 1  # names are case-insensitive
    assert run("projects", "rename", "Harbourline", "Harbourline Ports").code == 0
    listed = run("projects", "list", "--json").json()["projects"]
    assert [p["name"] for p in listed] == ["Harbourline Ports"]
    assert listed[0]["slug"] == "harbourline-ports"
    assert run("projects", "archive", "Harbourline Ports").code == 0
    assert run("projects", "--json").json()["projects"] == []
    assert run("projects", "--json", "--all").json()["projects"][0]["archived"] is True


def test_project_settings() -> None:
    run("projects", "add", "Atlas")
    result = run("projects", "set", "Atlas", "--language", "de", "--vocabulary", "Chen, Becker ,", "--json")
    assert result.code == 0
    assert result.json()["language"] == "de"
    assert result.json()["vocabulary"] == ["Chen", "Becker"]
    assert run("projects", "set", "Atlas", "--language", "auto", "--json").json()["language"] is None


def test_hostile_project_names_are_data() -> None:
    for name in ["'); DROP TABLE projects;--", "../../etc/passwd", "a/b\\c", "NEAR(x y) AND *", "日本語 ✓"]:
        assert run("projects", "add", name).code == 0, name
    listed = run("projects", "--json").json()["projects"]
    assert len(listed) == 5
    for p in listed:
        assert re.fullmatch(r"[a-z0-9-]+", p["slug"]), p["slug"]
    assert run("projects", "add", "   ").code == 1
