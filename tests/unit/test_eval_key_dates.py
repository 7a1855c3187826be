"""The day an answer key's due text means (bench/evals/consolidation_eval.py `key_due`): keys say
what happened later in brackets and the day meant after "i.e." (texts written for this test)."""

from __future__ import annotations

from bench.evals.consolidation_eval import key_due


def test_the_day_meant_not_the_day_it_happened() -> None:
    assert key_due("before the end of May 2026 (arrived Monday 8 June, a week late)", 2026) == "2026-05-31"
    assert key_due("a fortnight from 2 March, i.e. Monday 16 March 2026 (slipped)", 2026) == "2026-03-16"
    assert key_due("Friday 13 March 2026 (sent 12 March)", 2026) == "2026-03-13"
    assert key_due("KW 12 (16 to 20 March 2026)", 2026) == "2026-03-20"  # only the bracket says a day
    assert key_due("whenever it suits", 2026) is None
