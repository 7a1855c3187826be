"""`verbatim eval ask SET ... --cross`: answers validated leave-one-set-out.

For each set in turn, what is learned (the sentence ranker, bench/train_sentence_ranker.py; the
answerability model, bench/train_answerability.py, threshold included) is trained on the OTHER sets
whose licence lets the product ship it, and the held-out set's questions are asked of its whole
library (extractive answers) three ways:
- "before": as main was before the cross-project merge and the sentence ranker (both switched off);
- "after": questions across projects searched per project and merged, and the sentence ranker
  trained on the other sets;
- "learned": "after" with the answerability model trained on the other sets vetoing what the
  relevance gate would answer (app/ask.py `veto`).
Figures: supported, abstention on unanswerable questions, false abstention, quote violations; and
for "before" and "learned", abstention on made-unanswerable examples (the held-out set's questions
asked of the half of its notes that lacks their evidence, bench/evals/answerability_data.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from app.library import Library
from bench import train_sentence_ranker
from bench.evals.answerability_data import LICENSED, Example
from bench.evals.ask_eval import evaluate_ask
from bench.evals.common import EvalSet, mean
from bench.train_answerability import examples_for, fit
from memory.answer.answerability import AnswerabilityModel

Say = Callable[[str], None]
KEYS = ("answer_supported", "abstain_unanswerable", "false_abstain", "quote_violations")
SIDES = ("before", "after", "learned")
# What "before" switches off: the cross-project merge and the sentence ranker.
BEFORE = {"across_projects": False, "use_sentence_ranker": False}


def _made_up(examples: Sequence[Example], model: AnswerabilityModel | None) -> dict[str, float | None]:
    """Abstention on the half-library examples: the unanswerable ones (should abstain) and the
    answerable ones (should not). Without a model, the gate's decision is in the features."""

    def abstains(e: Example) -> bool:
        if model is None:
            return e.features.get("relevant", 0.0) == 0.0
        return model.probability(e.features) < model.threshold

    halves = [e for e in examples if e.part != "all"]
    no = [e for e in halves if not e.answerable]
    yes = [e for e in halves if e.answerable]
    return {
        "made_unanswerable": len(no),
        "abstain_made_unanswerable": round(mean([abstains(e) for e in no]), 4) if no else None,
        "false_abstain_halves": round(mean([abstains(e) for e in yes]), 4) if yes else None,
    }


MADE_UP = ("made_unanswerable", "abstain_made_unanswerable", "false_abstain_halves")


def _figures(report: dict[str, Any], made: dict[str, float | None]) -> dict[str, Any]:
    overall = report["overall"]
    return {**{k: overall[k] for k in KEYS}, **made}


def cross_validate(
    set_dirs: Sequence[Path], *, like: Library | None, work: Path, say: Say | None = None
) -> dict[str, Any]:
    sets = [EvalSet.open(d) for d in set_dirs]
    examples = {s.name: examples_for(s.path, work, say) for s in sets}
    sentence_examples = {
        s.name: train_sentence_ranker.examples_for(s.path, work, say) for s in sets if s.name in LICENSED
    }
    folds: list[dict[str, Any]] = []
    for held in sets:
        train = [e for s in sets if s.name != held.name and s.name in LICENSED for e in examples[s.name]]
        if not train:
            continue
        model = fit(train)
        ranker = train_sentence_ranker.fit(
            [e for name, rows in sentence_examples.items() if name != held.name for e in rows]
        )
        if say is not None:
            say(f"{held.name}: trained on {', '.join(model.trained_on)}, threshold {model.threshold}")
        kept = work / f"store-{held.name}-all"
        before = evaluate_ask(
            held.path, like=like, no_llm=True, keep=kept, use_answerability=False, request_options=BEFORE
        )
        now = {"sentence_ranker": ranker}
        after = evaluate_ask(
            held.path, like=like, no_llm=True, keep=kept, use_answerability=False, request_options=now
        )
        learned = evaluate_ask(
            held.path, like=like, no_llm=True, keep=kept, answerability=model, request_options=now
        )
        folds.append(
            {
                "held_out": held.name,
                "trained_on": list(model.trained_on),
                "threshold": model.threshold,
                "before": _figures(before, _made_up(examples[held.name], None)),
                "after": _figures(after, dict.fromkeys(MADE_UP)),
                "learned": _figures(learned, _made_up(examples[held.name], model)),
                "by_category": {"before": before["by_category"], "after": after["by_category"]},
            }
        )
    summary: dict[str, Any] = {}
    for side in SIDES:
        summary[side] = {}
        for key in (*KEYS, *MADE_UP):
            values = [f[side][key] for f in folds if f[side][key] is not None]
            summary[side][key] = round(mean(values), 4) if values else None
    return {"folds": folds, "mean": summary, "licensed": list(LICENSED)}


def _pct(value: float | None) -> str:
    return "    -" if value is None else f"{value * 100:5.1f}%"


def format_cross(report: dict[str, Any]) -> list[str]:
    lines = [
        "eval ask --cross: what is learned trained on the other licensed sets, extractive answers",
        f"{'held out':<18}{'':<8}{'supported':>10}{'abstain(u)':>11}{'false abst':>11}"
        f"{'abst(made)':>11}{'false(halves)':>14}",
    ]
    rows = [(f["held_out"], f) for f in report["folds"]] + [("mean", report["mean"])]
    for name, f in rows:
        for side in SIDES:
            r = f[side]
            lines.append(
                f"{name if side == 'before' else '':<18}{side:<8}{_pct(r['answer_supported']):>10}"
                f"{_pct(r['abstain_unanswerable']):>11}{_pct(r['false_abstain']):>11}"
                f"{_pct(r['abstain_made_unanswerable']):>11}{_pct(r['false_abstain_halves']):>14}"
            )
    return lines
