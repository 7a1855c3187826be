"""A question asked across projects is answered from each project, not only the one that fills
the first places (memory/answer/across.py, app/ask.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.ask import AskRequest, ask
from app.library import Library
from bench.evals.ask_eval import quote_violations
from tests.conftest import eval_set, require_models
from tests.support.cli import run
from tests.support.consolidation_corpus import imported_library

pytestmark = pytest.mark.slow  # a library indexed with the embedding model

# One client whose notes talk about the payroll export every time, and another where the same
# contractor appears once: an all-project ranking gives the first client every place.
HARBOUR = [
    (
        f"harbour:{n}",
        "Harbour Foods",
        f"Harbour payroll {n}",
        f"2026-04-0{n}T09:00:00",
        [
            f"Harbour payroll export, day {n}, the export from Paylane still drops the overtime column.",
            "Mirela Costa from Quillbyte is rewriting the payroll export so it keeps every column.",
            "The payroll export runs every night and the finance team checks it in the morning.",
        ],
    )
    for n in range(1, 8)
]
OTHER = [
    (
        "ridge:1",
        "Ridgeway Council",
        "Ridgeway kickoff",
        "2026-04-08T09:00:00",
        [
            "Ridgeway kickoff, the council wants its planning records moved by the autumn.",
            "Quillbyte will build the importer, and Mirela Costa leads their side of it.",
            "The council's archive has forty thousand scanned files to move.",
        ],
    )
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    with imported_library(tmp_path_factory.mktemp("ask-across"), HARBOUR + OTHER) as lib:
        yield lib


def test_a_question_across_projects_quotes_each_project(library: Library) -> None:
    question = "Has Mirela Costa worked with me on any other project?"
    answer = ask(library, AskRequest(question, as_of="2026-04-10T09:00:00", no_llm=True))
    assert answer.answer_found
    quoted = {c.citations[0].project for c in answer.stated}
    assert quoted == {"Harbour Foods", "Ridgeway Council"}
    # each project is quoted by the sentence that names the person the projects share
    assert all("Mirela Costa" in c.text for c in answer.stated)
    assert quote_violations(library.store, answer) == 0


def test_the_same_question_about_one_project_stays_in_it(library: Library) -> None:
    question = "Has Mirela Costa worked with me on any other project?"
    request = AskRequest(question, projects=["Harbour Foods"], as_of="2026-04-10T09:00:00", no_llm=True)
    answer = ask(library, request)
    assert {c.citations[0].project for c in answer.stated} <= {"Harbour Foods"}


@pytest.mark.eval
def test_eval_ask_cross_reports_each_left_out_set_before_and_after(tmp_path: Path) -> None:
    """`verbatim eval ask SET... --cross` on the first questions of the two consultant sets: what is
    learned is trained on the other set only, and each fold reports before, after and learned."""
    sets = []
    for name in ("consultant-dev", "consultant-dev-2"):
        source = eval_set(name)
        small = tmp_path / f"first-{name}" / name  # the licensed set's own name: it may be trained on
        small.mkdir(parents=True)
        (small / "corpus.jsonl").symlink_to(source / "corpus.jsonl")
        lines = [line for line in (source / "queries.jsonl").read_text("utf-8").splitlines() if line.strip()]
        (small / "queries.jsonl").write_text("\n".join(lines[:8]) + "\n", "utf-8")
        sets.append(small)
    result = run("eval", "ask", *map(str, sets), "--cross", "--keep-store", str(tmp_path / "work"), "--json")
    assert result.code == 0, result.err
    report = result.json()
    folds = {f["held_out"]: f for f in report["folds"]}
    assert set(folds) == {"consultant-dev", "consultant-dev-2"}
    for held, fold in folds.items():
        assert fold["trained_on"] == [next(n for n in folds if n != held)]
        for side in ("before", "after", "learned"):
            assert fold[side]["quote_violations"] == 0
            assert 0 <= fold[side]["answer_supported"] <= 1
    assert set(report["mean"]) == {"before", "after", "learned"}
