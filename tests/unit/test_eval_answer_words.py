"""`eval ask` checks an answer against the gold answer by its words: a number said in words is the
same number said in digits ("forty-three" and "43"), and a day's ordinal is its number."""

from __future__ import annotations

import pytest

from bench.evals.ask_eval import stems


@pytest.mark.parametrize(
    ("gold", "said"),
    [
        ("43 accounts", "they've got forty-three accounts"),
        ("51,300 members", "fifty-one thousand three hundred members now"),
        ("4.3 million euro", "four point three million euro"),
        ("400 pallets", "four hundred pallets"),
        ("Friday 3 September", "moved to Friday, September 3rd"),
    ],
)
def test_a_number_said_in_words_is_the_number_in_digits(gold: str, said: str) -> None:
    assert stems(gold) <= stems(said)


def test_other_numbers_stay_other_numbers() -> None:
    assert not stems("43 accounts") <= stems("thirty-four accounts")
    assert not stems("4.3 million") <= stems("three point four million")
