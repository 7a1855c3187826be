"""A kept evaluation store is built again when the code that consolidated it changes
(bench/evals/common.py): else a change to consolidation is measured on the layers the code before
it wrote."""

from pathlib import Path

from bench.evals.common import CONSOLIDATION_CODE, code_digest


def test_the_digest_follows_the_files_and_not_their_caches(tmp_path: Path) -> None:
    root = tmp_path / "consolidate"
    (root / "__pycache__").mkdir(parents=True)
    (root / "rules.py").write_text("MAX_EDIT_WORDS = 5\n")
    (root / "model.json").write_text("{}")
    before = code_digest([root])
    (root / "__pycache__" / "rules.cpython-311.pyc").write_bytes(b"\x00")
    assert code_digest([root]) == before
    (root / "rules.py").write_text("MAX_EDIT_WORDS = 6\n")
    assert code_digest([root]) != before
    (root / "rules.py").write_text("MAX_EDIT_WORDS = 5\n")
    assert code_digest([root]) == before
    (root / "model.json").rename(root / "weights.json")  # a file renamed is other code
    assert code_digest([root]) != before


def test_the_consolidation_code_is_where_consolidation_lives() -> None:
    names = {p.name for root in CONSOLIDATION_CODE for p in root.glob("*.py")}
    assert {"corrections.py", "facts.py", "connections.py", "service.py", "repair_tagger.py"} <= names
