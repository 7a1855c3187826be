"""`verbatim eval ask`: are answers honest, supported, and do they abstain when they should?

Each query is asked across all projects, at its `asked_at`, on a fresh library built from the
set's corpus (bench.evals.common). Measured, per category and overall:
- quote_violations: stated claims whose quote is not verbatim in the raw segments it cites,
  re-checked here independently of the checker (normalised text of the cited segments, read back
  from the store). Must be 0.
- answer_supported (answerable queries): at least half of the gold answer's content words (stemmed)
  appear in the stated claims or the passages they cite.
- evidence_cited (answerable queries with evidence): a cited passage holds an evidence segment;
  evidence_shown: any passage shown holds one (the nearest passages of a "not in your notes").
- abstain_unanswerable: share of unanswerable queries answered "not in your notes".
- false_abstain: share of answerable queries answered "not in your notes".
- model_share: share of found answers whose stated claims came from the model (else extractive).
- latency: retrieval, first token (first text for extractive answers) and total, p50/p95.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.ask import AskRequest, ask
from app.library import Library
from bench.evals.common import EvalQuery, EvalSet, mean, percentile, temporary_library
from memory.answer.answerability import AnswerabilityModel
from memory.answer.answers import Answer
from memory.answer.relevance_gate import Gate
from memory.search.index import external_segment_ids
from memory.store.recordings import get_segments
from memory.store.store import Store
from memory.text.numbers import find_quantities
from memory.text.quotes import normalise
from memory.text.relevance import content_words, stem
from models.catalogue import Role

Progress = Callable[[float], None]
SUPPORTED_SHARE = 0.5


@dataclass
class QueryResult:
    query: EvalQuery
    found: bool
    stated: int
    violations: int
    supported: bool
    evidence_cited: bool
    evidence_shown: bool
    model_answer: bool
    timings: dict[str, float]


def quote_violations(store: Store, answer: Answer) -> int:
    """Stated claims whose quote is not a run of whole words of the consecutive raw segments cited."""
    bad = 0
    for claim in answer.stated:
        for cite in claim.citations:
            segments = get_segments(store, list(cite.segment_ids))
            consecutive = [s.idx for s in segments] == list(
                range(segments[0].idx, segments[0].idx + len(segments))
            )
            same_recording = {s.recording_id for s in segments} == {cite.recording_id}
            raw = normalise(" ".join(s.raw_text for s in segments))
            quote = normalise(cite.quote)
            times = bool(segments) and (segments[0].start, segments[-1].end) == (cite.start, cite.end)
            if not (
                segments and consecutive and same_recording and times and quote and f" {quote} " in f" {raw} "
            ):
                bad += 1
        if not claim.citations:
            bad += 1
    return bad


def stems(text: str) -> set[str]:
    """The words an answer is checked on: content-word stems, with every number read as its value
    (memory/text/numbers.py), so that "forty-three accounts", "43 accounts", "fifty-one thousand
    three hundred" and "51,300", "four point three million" and "4.3 million" are the same word,
    and a day's ordinal ("September 3rd") as its number ("3 September")."""
    values = find_quantities(text)
    blanked = list(text)
    for q in values:
        blanked[q.start : q.end] = " " * (q.end - q.start)
    words = {_ORDINAL_DIGITS.sub(r"\1", w) for w in content_words("".join(blanked))}
    return {f"#{int(w)}" if w.isdigit() else stem(w) for w in words} | {f"#{q.value:.10g}" for q in values}


_ORDINAL_DIGITS = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


def gold_supported(answer: Answer, gold: str) -> bool:
    wanted = stems(gold)
    if not wanted or not answer.answer_found:
        return False
    cited = {c.passage for claim in answer.stated for c in claim.citations}
    text = " ".join([c.text for c in answer.stated] + [p.text for p in answer.passages if p.number in cited])
    return len(wanted & stems(text)) / len(wanted) >= SUPPORTED_SHARE


def _evidence_cited(answer: Answer, evidence: set[str], external: dict[int, str]) -> bool:
    """A stated claim cites an evidence segment: through the passage it cites, or directly (a
    current value or a commitment cites its own segments, which need not be a shown passage)."""
    cited = {c.passage for claim in answer.stated for c in claim.citations}
    ids = {external.get(s) for p in answer.passages if p.number in cited for s in p.segment_ids}
    ids |= {external.get(s) for claim in answer.stated for c in claim.citations for s in c.segment_ids}
    return bool(evidence & ids)


def _evidence_shown(answer: Answer, evidence: set[str], external: dict[int, str]) -> bool:
    return bool(evidence & {external.get(s) for p in answer.passages for s in p.segment_ids})


def run_ask_queries(
    library: Library,
    queries: list[EvalQuery],
    *,
    no_llm: bool,
    model_path: Path | None = None,
    gate: Gate | None = None,
    answerability: AnswerabilityModel | None = None,
    use_answerability: bool = True,
    progress: Progress | None = None,
    request_options: Mapping[str, Any] | None = None,
) -> list[QueryResult]:
    """`request_options`: more AskRequest fields (e.g. `kind_check=False` for a baseline)."""
    external = external_segment_ids(library.store)
    results = []
    for n, q in enumerate(queries):
        request = AskRequest(
            q.question,
            as_of=q.asked_at,
            no_llm=no_llm,
            model_path=model_path,
            gate=gate,
            answerability=answerability,
            use_answerability=use_answerability,
            **dict(request_options or {}),
        )
        answer = ask(library, request)
        results.append(
            QueryResult(
                query=q,
                found=answer.answer_found,
                stated=len(answer.stated),
                violations=quote_violations(library.store, answer),
                supported=q.answerable and gold_supported(answer, q.answer),
                evidence_cited=q.answerable and _evidence_cited(answer, set(q.evidence), external),
                evidence_shown=q.answerable and _evidence_shown(answer, set(q.evidence), external),
                model_answer=answer.mode == "model",
                timings=dict(answer.timings),
            )
        )
        if progress is not None:
            progress((n + 1) / len(queries))
    return results


def summarise(results: list[QueryResult]) -> dict[str, Any]:
    answerable = [r for r in results if r.query.answerable]
    unanswerable = [r for r in results if not r.query.answerable]
    with_evidence = [r for r in answerable if r.query.evidence]
    found = [r for r in results if r.found]

    def share(rows: list[QueryResult], test: Callable[[QueryResult], bool]) -> float | None:
        return round(mean([1.0 if test(r) else 0.0 for r in rows]), 4) if rows else None

    latency: dict[str, dict[str, float]] = {}
    for key in ("retrieve_ms", "first_token_ms", "total_ms"):
        values = [r.timings.get(key, 0.0) for r in results]
        latency[key.removesuffix("_ms")] = {
            "p50": round(percentile(values, 50), 1),
            "p95": round(percentile(values, 95), 1),
        }
    return {
        "questions": len(results),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "stated_claims": sum(r.stated for r in results),
        "quote_violations": sum(r.violations for r in results),
        "answer_supported": share(answerable, lambda r: r.supported),
        "evidence_cited": share(with_evidence, lambda r: r.evidence_cited),
        "evidence_shown": share(with_evidence, lambda r: r.evidence_shown),
        "abstain_unanswerable": share(unanswerable, lambda r: not r.found),
        "false_abstain": share(answerable, lambda r: not r.found),
        "model_share": share(found, lambda r: r.model_answer),
        "latency_ms": latency,
    }


def evaluate_ask(
    set_dir: Path,
    *,
    like: Library | None = None,
    limit: int | None = None,
    no_llm: bool = False,
    model_path: Path | None = None,
    gate: Gate | None = None,
    keep: Path | None = None,
    answerability: AnswerabilityModel | None = None,
    use_answerability: bool = True,
    progress: Progress | None = None,
    request_options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON `verbatim eval ask --json` prints."""
    eval_set = EvalSet.open(set_dir)
    queries = eval_set.queries()[:limit] if limit else eval_set.queries()
    with temporary_library(eval_set, like=like, keep=keep, consolidated=True) as built:
        library = built.library
        results = run_ask_queries(
            library,
            queries,
            no_llm=no_llm,
            model_path=model_path,
            gate=gate,
            answerability=answerability,
            use_answerability=use_answerability,
            progress=progress,
            request_options=request_options,
        )
        model = None if no_llm else (model_path.name if model_path else library.models.name_for(Role.CHAT))
    by_category: dict[str, list[QueryResult]] = defaultdict(list)
    for r in results:
        by_category[r.query.category].append(r)
    return {
        "set": eval_set.name,
        "model": model,
        "no_llm": no_llm,
        "gate": vars(gate or Gate()),
        "overall": summarise(results),
        "by_category": {c: summarise(rs) for c, rs in sorted(by_category.items())},
    }


def _pct(value: float | None) -> str:
    return "   -  " if value is None else f"{value * 100:5.1f}%"


def format_report(report: dict[str, Any]) -> list[str]:
    o = report["overall"]
    lines = [
        f"{report['set']}: {o['questions']} questions ({o['answerable']} answerable,"
        f" {o['unanswerable']} not), model {report['model'] or 'none (extractive)'}",
        f"stated claims {o['stated_claims']}, quote violations {o['quote_violations']} (must be 0)",
        "",
        f"{'category':<18}{'n':>4}{'supported':>11}{'evidence':>10}{'abstain(u)':>12}"
        f"{'false abst':>12}{'model':>8}",
    ]
    rows = [("overall", o), *report["by_category"].items()]
    for name, r in rows:
        lines.append(
            f"{str(name)[:17]:<18}{r['questions']:>4}{_pct(r['answer_supported']):>11}{_pct(r['evidence_cited']):>10}"
            f"{_pct(r['abstain_unanswerable']):>12}{_pct(r['false_abstain']):>12}{_pct(r['model_share']):>8}"
        )
    lines += ["", "latency ms (p50 / p95):"]
    for name, v in o["latency_ms"].items():
        lines.append(f"  {name:<12} {v['p50']:>8.1f} / {v['p95']:.1f}")
    return lines
