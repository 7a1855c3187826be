"""`verbatim eval retrieval`: a fresh store from the corpus, every query twice, three modes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.commands.retrieval_eval_cmd import format_report
from bench.evals.common import EvalSet, budget_walk, percentile
from bench.evals.retrieval_eval import score_ranking
from memory.search.hits import Hit
from models.errors import InputError
from tests.conftest import eval_set, require_models
from tests.support.cli import run


def hit(segment_ids: list[int], words: int) -> Hit:
    return Hit(0, 1, 1, "P", "", "2026-01-01T00:00:00", 0, 1, " ".join(["w"] * words), segment_ids, 1.0)


def test_the_budget_walk_adds_whole_passages_until_the_next_would_pass_and_always_one() -> None:
    hits = [hit([1], 150), hit([2], 200), hit([3], 100), hit([4], 10)]
    assert [h.segment_ids for h in budget_walk(hits, 400)] == [[1], [2]]
    assert [h.segment_ids for h in budget_walk(hits, 100)] == [[1]]
    assert budget_walk([], 400) == []


def test_recall_hit_and_reciprocal_rank_count_evidence_segments() -> None:
    external = {1: "a", 2: "b", 3: "c", 4: "d"}
    hits = [hit([1], 300), hit([2, 3], 300), hit([4], 300)]
    scores = score_ranking(hits, {"b", "c", "d", "zz"}, external)
    assert scores["recall@400"] == 0.0 and scores["hit@400"] == 0.0
    assert scores["recall@1000"] == pytest.approx(3 / 4)
    assert scores["mrr"] == pytest.approx(1 / 2)
    assert percentile([1, 2, 3, 4, 5], 50) == 3 and percentile([], 95) == 0.0


def test_a_folder_without_corpus_and_queries_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not an evaluation set"):
        EvalSet.open(tmp_path)
    result = run("eval", "retrieval", str(tmp_path))
    assert result.code == 1 and "not an evaluation set" in result.err


@pytest.mark.slow
@pytest.mark.eval
def test_eval_retrieval_runs_on_a_few_consultant_queries_and_gives_the_json_shape(tmp_path: Path) -> None:
    require_models()
    source = eval_set("consultant-dev")
    small = tmp_path / "consultant-small"
    small.mkdir()
    (small / "corpus.jsonl").symlink_to(source / "corpus.jsonl")
    lines = [line for line in (source / "queries.jsonl").read_text("utf-8").splitlines() if line.strip()]
    (small / "queries.jsonl").write_text("\n".join(lines[:6]) + "\n", "utf-8")

    result = run("eval", "retrieval", str(small), "--json")
    assert result.code == 0, result.err
    report = result.json()
    assert set(report) == {"sets", "results", "latency_ms"}
    info = report["sets"][0]
    assert info["name"] == "consultant-small" and info["recordings"] == 7 and info["chunks"] > 7
    assert info["queries"] == 6 and info["ingest_s"] > 0
    for mode in ("hybrid", "keyword", "vector"):
        for scope in ("all", "project"):
            r = report["results"][mode][scope]
            assert {"recall@400", "recall@1000", "hit@400", "mrr", "by_category"} <= set(r)
            assert 0 <= r["recall@400"] <= r["recall@1000"] <= 1 and 0 <= r["mrr"] <= 1
            assert sum(c["queries"] for c in r["by_category"].values()) == info["evaluated"]
    # These first questions are plain lookups of names said once: search must find them.
    assert report["results"]["hybrid"]["all"]["hit@400"] >= 0.5
    assert report["latency_ms"]["hybrid/all"]["p95"] >= report["latency_ms"]["hybrid/all"]["p50"] > 0
    text = "\n".join(format_report(report))
    assert "recall@400" in text and "hybrid" in text and "consultant-small" in text


def _first_queries(tmp_path: Path, name: str, count: int) -> Path:
    source = eval_set(name)
    small = tmp_path / f"{name}-small"
    small.mkdir()
    (small / "corpus.jsonl").symlink_to(source / "corpus.jsonl")
    lines = [line for line in (source / "queries.jsonl").read_text("utf-8").splitlines() if line.strip()]
    (small / "queries.jsonl").write_text("\n".join(lines[:count]) + "\n", "utf-8")
    return small


@pytest.mark.slow
@pytest.mark.eval
def test_eval_retrieval_cross_chooses_each_sets_setting_on_the_other_sets(tmp_path: Path) -> None:
    require_models()
    sets = [_first_queries(tmp_path, "consultant-dev", 6), _first_queries(tmp_path, "consultant-dev-2", 6)]
    result = run("eval", "retrieval", *map(str, sets), "--cross", "--json")
    assert result.code == 0, result.err
    report = result.json()
    grid = report["grid"]
    assert grid[0]["name"] == "defaults" and len(grid) > 1
    folds = {f["held_out"]: f for f in report["folds"]}
    assert set(folds) == {"consultant-dev-small", "consultant-dev-2-small"}
    for held, fold in folds.items():
        other = next(n for n in folds if n != held)
        # The setting is the best on the OTHER set (earliest on ties), whatever it does on this one.
        best = max(row["recall@400"][other] for row in grid)
        chosen = next(row for row in grid if row["name"] == fold["chosen"]["name"])
        assert chosen["recall@400"][other] == best
        assert grid.index(chosen) == min(i for i, row in enumerate(grid) if row["recall@400"][other] == best)
        assert fold["hybrid"]["recall@400"] == chosen["recall@400"][held]
    assert report["mean"]["hybrid"]["recall@400"] == pytest.approx(
        sum(f["hybrid"]["recall@400"] for f in folds.values()) / 2, abs=1e-4
    )
    assert run("eval", "retrieval", *map(str, sets)).code == 1  # several sets need --cross


@pytest.mark.slow
@pytest.mark.eval
def test_eval_search_cut_chooses_each_sets_share_on_the_other_sets(tmp_path: Path) -> None:
    require_models()
    sets = [_first_queries(tmp_path, "consultant-dev", 6), _first_queries(tmp_path, "consultant-dev-2", 6)]
    result = run("eval", "search-cut", *map(str, sets), "--json")
    assert result.code == 0, result.err
    report = result.json()
    folds = {f["held_out"]: f for f in report["folds"]}
    for held, fold in folds.items():
        other = next(n for n in folds if n != held)
        grid = report["grid"][other]
        best = max(g["f2"] for g in grid.values())
        assert grid[str(fold["chosen_share"])]["f2"] == best
        assert fold["f2"] == report["grid"][held][str(fold["chosen_share"])]["f2"]
        assert 0 <= fold["recall"] <= 1 and fold["shown"] >= 1
    assert report["grid"][held]["0.0"]["recall"] == 1.0  # no cut keeps every passage it ranked
