"""`verbatim eval corrections PAIRS.jsonl`: spoken self-repairs against pairs of (disfluent, fluent)
sentences, one JSON object a line ({"id", "disfluent", "fluent"}, the Disfl-QA format of
../shared/eval/disflqa-dev).

- exact_match: the share of pairs whose meant reading (memory/text/repairs.py) equals the fluent
  sentence after normalisation (memory.text.quotes.normalise: case, punctuation, whitespace).
- replaced precision/recall/F1, over all words of all pairs: a word of the disfluent sentence
  counts as replaced when the reading leaves it out. Which words a reading leaves out is decided
  the same way for the fluent sentence (gold) and for the meant reading (prediction): difflib's
  alignment of the words (lower-cased, letters and digits only), the disfluent side of every
  delete and replace, each removed stretch shifted left while the word before it equals its last
  word ("the 6th no the 13th": "the 6th no" rather than "6th no the"). Replaced thus means the
  replaced words and the markers together: every word the speaker did not mean.
- by_kind: exact match split by what the fluent sentence needs: "in place" (only words left out),
  "displaced" (a repair moved into an earlier place, as the training script's labelling finds
  it), "other" (rewordings, reordered questions, typos: no reading of the spoken words gives it).
- errors: the misses counted by kind (error_kind), with a few examples each.
- seconds: wall-clock time of the readings; cpu_seconds: this process's CPU time (the wall clock
  is slower on a busy machine).
- corrections (when the pairs say which words were taken back and which replace them,
  `wrong_phrase` and `corrected_phrase`, as bench/repairs-prose does; a pair with neither is a
  decoy): the product's self-corrections (memory/consolidate/corrections.py `find_corrections`,
  every reader) of each sentence read as a note of its own: recall (a correction whose taken-back
  words overlap the wrong phrase and whose replacing words overlap the corrected one), decoys taken
  (any correction in a decoy), and both by the pairs' `shape` when they have one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from app.library import Library
from bench.evals.common import EvalSet, jsonl_rows, temporary_library
from bench.evals.consolidation_eval import Locator
from bench.repair_labels import pair_kind, removed_mask
from memory.consolidate.correction_phrases import Correction
from memory.consolidate.corrections import MIN_CONFIDENCE, find_corrections
from memory.store import recordings
from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.entities import doc_entities
from memory.text.quotes import normalise
from memory.text.repair_features import tokenise
from memory.text.repairs import meant_reading
from models.errors import InputError

PAIR_FORMAT = '{"id": ..., "disfluent": ..., "fluent": ...} per line'


def read_pairs(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        raise InputError(f"no pairs file at {path}", fix="pass ../shared/eval/disflqa-dev/dev.jsonl")
    pairs = []
    for number, raw in jsonl_rows(path, fix=PAIR_FORMAT):
        try:
            pair = {"id": str(raw.get("id", number)), "disfluent": raw["disfluent"]}
            pair["fluent"] = raw["fluent"]
            for extra in ("wrong_phrase", "corrected_phrase", "shape"):
                if isinstance(raw.get(extra), str):
                    pair[extra] = raw[extra]
        except (KeyError, TypeError, AttributeError) as exc:
            raise InputError(f"{path}:{number} is not a pair", fix=PAIR_FORMAT) from exc
        pairs.append(pair)
    return pairs


def _stretches(mask: Sequence[bool]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for i, gone in enumerate(mask):
        if gone and out and out[-1][1] == i:
            out[-1] = (out[-1][0], i + 1)
        elif gone:
            out.append((i, i + 1))
    return out


def error_kind(kind: str, gold: Sequence[bool], pred: Sequence[bool]) -> str:
    """Why a reading missed: the pair's kind when it is not "in place", else how the words left
    out differ from the fluent sentence's (a restart takes back from the sentence's first word)."""
    if kind != "in place":
        return kind
    g, p = _stretches(gold), _stretches(pred)
    if not p:
        return "nothing left out"
    if not g:
        return "left out words of a fluent sentence"
    if len(g) != len(p):
        return "another number of stretches"
    if (g[0][0] == 0) != (p[0][0] == 0):
        return "local repair read as a restart" if p[0][0] == 0 else "restart read as a local repair"
    found = set()
    for (ga, gb), (pa, pb) in zip(g, p, strict=True):
        if gb != pb:
            found.add("stretch ends elsewhere")
        elif pa < ga:
            found.add("starts too early")
        elif pa > ga:
            found.add("starts too late")
    return " / ".join(sorted(found)) or "same words, other text"


def score_pairs(
    pairs: Iterable[dict[str, str]], reading: Callable[[str], str], examples: int = 3, kinds_too: bool = True
) -> dict[str, Any]:
    """The figures of the module doc for `reading` (disfluent text -> meant reading) on `pairs`,
    with the misses counted by error_kind and up to `examples` of each (by_kind and the error
    kinds need pair_kind, which is slow on pairs that are not "in place"; `kinds_too=False` skips it)."""
    n = exact = tp = fp = fn = 0
    kinds: dict[str, list[int]] = {}
    errors: dict[str, list[dict[str, str]]] = {}
    items = list(pairs)
    started, cpu = time.perf_counter(), time.process_time()
    readings = [reading(p["disfluent"]) for p in items]
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    words = 0
    for p, got in zip(items, readings, strict=True):
        n += 1
        words += len(tokenise(p["disfluent"]))
        ok = normalise(got) == normalise(p["fluent"])
        exact += ok
        kind = pair_kind(p["disfluent"], p["fluent"]) if kinds_too else "all"
        counts = kinds.setdefault(kind, [0, 0])
        counts[0] += 1
        counts[1] += ok
        gold = removed_mask(p["disfluent"], p["fluent"])
        pred = removed_mask(p["disfluent"], got)
        if not ok:
            errors.setdefault(error_kind(kind, gold, pred), []).append({**p, "got": got})
        for g, q in zip(gold, pred, strict=True):
            tp += g and q
            fp += q and not g
            fn += g and not q
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return {
        "pairs": n,
        "exact_match": exact / n if n else 0.0,
        "replaced_precision": precision,
        "replaced_recall": recall,
        "replaced_f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "words": words,
        "words_per_second": words / seconds if seconds else 0.0,
        "words_per_cpu_second": words / cpu_seconds if cpu_seconds else 0.0,
        "by_kind": {k: {"pairs": v[0], "exact_match": v[1] / v[0]} for k, v in sorted(kinds.items())},
        "errors": {
            k: {"pairs": len(v), "examples": v[:examples]}
            for k, v in sorted(errors.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        },
    }


def evaluate_pairs(path: Path | str) -> dict[str, Any]:
    """Score the shipped repair tagger on a pairs file (see the module doc)."""
    pairs = read_pairs(Path(path))
    meant_reading("warm up: load the model, no wait, the tagger.")
    report = score_pairs(pairs, meant_reading)
    report["path"] = str(path)
    if any("wrong_phrase" in p for p in pairs):
        report["corrections"] = score_readers(pairs)
    return report


def score_readers(pairs: Sequence[dict[str, str]]) -> dict[str, Any]:
    """The `corrections` figures of the module doc."""
    shapes: dict[str, list[int]] = {}
    found = repairs = taken = decoys = 0
    for p in pairs:
        text = p["disfluent"]
        segment = Segment(1, RecordingId(1), 0, None, 0.0, 5.0, None, text, text, False)
        doc = Doc([segment], "2027-03-10T09:00:00")
        got = find_corrections(doc)
        counts = shapes.setdefault(p.get("shape", ""), [0, 0])
        counts[0] += 1
        wrong, right = p.get("wrong_phrase", ""), p.get("corrected_phrase", "")
        if not wrong or not right:
            decoys += 1
            taken += bool(got)
            counts[1] += bool(got)
            continue
        repairs += 1
        wa = text.find(wrong)
        ra = text.find(right, wa + len(wrong))
        hit = (
            wa >= 0
            and ra >= 0
            and any(
                c.wrong.start < wa + len(wrong)
                and wa < c.wrong.end
                and c.right.start < ra + len(right)
                and ra < c.right.end
                for c in got
            )
        )
        found += hit
        counts[1] += hit
    return {
        "repairs": repairs,
        "recall": round(found / repairs, 4) if repairs else 0.0,
        "decoys": decoys,
        "decoys_taken": taken,
        "by_shape": {k: {"pairs": v[0], "found": v[1]} for k, v in sorted(shapes.items()) if k},
    }


def format_report(report: dict[str, Any]) -> list[str]:
    lines = [
        f"{report['path']}: {report['pairs']} pairs, {report['words']} words tagged in"
        f" {report['seconds']:.2f} s ({report['words_per_second']:,.0f} words/s;"
        f" {report['words_per_cpu_second']:,.0f} words per CPU second)",
        f"exact match of the meant reading {report['exact_match']:.1%}",
        f"replaced words: precision {report['replaced_precision']:.1%},"
        f" recall {report['replaced_recall']:.1%}, F1 {report['replaced_f1']:.3f}",
    ]
    for kind, r in report["by_kind"].items():
        lines.append(f"  {kind:<10} {r['pairs']:>5} pairs, exact match {r['exact_match']:.1%}")
    lines.append("misses by kind:")
    for kind, r in report["errors"].items():
        lines.append(f"  {r['pairs']:>5}  {kind}")
    if "corrections" in report:
        c = report["corrections"]
        lines.append(
            f"self-corrections found (every reader, each sentence a note): {c['recall']:.1%} of"
            f" {c['repairs']} repairs; decoys taken {c['decoys_taken']} of {c['decoys']}"
        )
        for shape, r in c["by_shape"].items():
            lines.append(f"  {shape:<28} {r['found']:>3} of {r['pairs']}")
    return lines


# Thresholds of corrections.MIN_CONFIDENCE reported for a scenario set (the leave-one-set-out choice).
THRESHOLDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def evaluate_set(set_dir: Path, like: Library | None = None) -> dict[str, Any]:
    """The self-corrections of a scenario set's notes against its key (`self_corrections`, matched
    as `verbatim eval consolidation` matches them: the taken-back and the correcting words both
    overlap the key's quote in the same note), and the key's `correction_decoys` reported as
    corrections (either side overlapping a decoy's quote). Figures for the shipped
    MIN_CONFIDENCE and for each of THRESHOLDS; `seconds`: finding the corrections of all notes."""
    eval_set = EvalSet.open(set_dir)
    key_path = eval_set.path / "key.json"
    if not key_path.is_file():
        raise InputError(f"{eval_set.path} has no key.json", fix="pass a scenario set with an answer key")
    key = json.loads(key_path.read_text("utf-8"))
    wanted, decoys = key.get("self_corrections", []), key.get("correction_decoys", [])
    with temporary_library(eval_set, like=like) as built:
        library = built.library
        locate = Locator(library)
        notes = {rid: str(ext) for rid, ext in recordings.external_ids(library.store).items()}
        segments = {rid: recordings.list_segments(library.store, rid) for rid in sorted(notes)}
        spoken = {rid: recordings.get_recording(library.store, rid).spoken_at for rid in sorted(notes)}
        # the people the set's notes name, as consolidation knows the library's (app/consolidation)
        people = {
            e.value
            for rid in notes
            for e in doc_entities(Doc(segments[rid], spoken[rid]))
            if e.kind == "person" and e.value
        }
        docs = {rid: Doc(segments[rid], spoken[rid], known_names=people) for rid in sorted(notes)}

        def figures(found: dict[int, list[Correction]]) -> dict[str, Any]:
            def overlaps(rid: int, c: Correction, quote: str) -> bool:
                return locate.overlaps(rid, c.wrong.text, quote, c.wrong.segment_ids[0]) and locate.overlaps(
                    rid, c.right.text, quote, c.right.segment_ids[0]
                )

            def near(rid: int, c: Correction, quote: str) -> bool:
                return locate.overlaps(rid, c.wrong.text, quote, c.wrong.segment_ids[0]) or locate.overlaps(
                    rid, c.right.text, quote, c.right.segment_ids[0]
                )

            reported = [(rid, c) for rid, cs in found.items() for c in cs]
            right = [
                (rid, c)
                for rid, c in reported
                if any(notes[rid] == k["note"] and overlaps(rid, c, k["quote"]) for k in wanted)
            ]
            hit = [
                k
                for k in wanted
                if any(notes[rid] == k["note"] and overlaps(rid, c, k["quote"]) for rid, c in reported)
            ]
            on_decoys = [
                d["id"]
                for d in decoys
                if any(notes[rid] == d["note"] and near(rid, c, d["quote"]) for rid, c in reported)
            ]
            return {
                "reported": len(reported),
                "key": len(wanted),
                "precision": round(len(right) / len(reported), 4) if reported else 0.0,
                "recall": round(len(hit) / len(wanted), 4) if wanted else 0.0,
                "decoys_reported": len(on_decoys),
                "decoys": len(decoys),
                "missed": [k["id"] for k in wanted if k not in hit],
                "decoys_taken": on_decoys,
                "wrong": [
                    {"note": notes[rid], **c.to_json()} for rid, c in reported if (rid, c) not in right
                ],
            }

        started = time.perf_counter()
        found = {rid: find_corrections(doc) for rid, doc in docs.items()}
        seconds = time.perf_counter() - started
        report = figures(found)
        report["by_threshold"] = {
            str(t): {
                k: v
                for k, v in figures(
                    {rid: find_corrections(doc, min_confidence=t) for rid, doc in docs.items()}
                ).items()
                if k not in ("wrong",)
            }
            for t in THRESHOLDS
        }
    report.update(
        {
            "set": eval_set.name,
            "path": str(set_dir),
            "notes": len(docs),
            "seconds": round(seconds, 2),
            "min_confidence": MIN_CONFIDENCE,
        }
    )
    return report


def format_set_report(report: dict[str, Any]) -> list[str]:
    lines = [
        f"{report['set']}: {report['notes']} notes, corrections found in {report['seconds']:.2f} s",
        f"self-corrections (confidence >= {report['min_confidence']}): precision {report['precision']:.1%},"
        f" recall {report['recall']:.1%} ({report['reported']} reported, {report['key']} in the key);"
        f" decoys reported {report['decoys_reported']} of {report['decoys']} (goal 0)",
    ]
    if report["missed"]:
        lines.append("missed: " + ", ".join(report["missed"]))
    for w in report["wrong"]:
        lines.append(
            f"  not in the key: {w['note']} {w['wrong']['text']!r} -> {w['right']['text']!r} ({w['marker']})"
        )
    lines.append("by threshold:  precision recall reported decoys")
    for t, r in report["by_threshold"].items():
        lines.append(
            f"  {float(t):>5.2f} {r['precision']:>14.1%} {r['recall']:>6.1%}"
            f" {r['reported']:>8} {r['decoys_reported']:>6}"
        )
    return lines
