"""`verbatim eval consolidation`: self-corrections, superseded facts and connections against a
scenario set's answer key (key.json, format in the eval README), and inference traps stated.

A fresh library is built through the normal import path (the transcripts, or with `audio` the
audio files, transcribed), every recording is consolidated oldest first, and each reported item is
matched to the key by quote overlap in the same recording: two quotes overlap when they cover a
common stretch of the recording's words (see Locator; with audio, the key's quotes are placed
where most of their words are in the transcript).
- self_corrections: a detected correction matches when its taken-back and its correcting words
  both overlap the key item's quote.
- superseded: a (superseded fact, superseding fact) pair matches when each quote overlaps the key's
  old and new quote, in the key's notes.
- connections: both passages overlap the key's two quotes (either way round).
- traps_stated: key inference traps among whose words a stated fact's value is said (goal: none).
With `with_ask`, the set's latest-value and self-correction questions are asked too.
"""

from __future__ import annotations

import calendar
import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

from app.consolidation.service import consolidate, list_connections
from app.ingest.imports import import_files
from app.jobs.worker import run_pending
from app.library import Library
from app.paths import DataDir
from app.settings import Settings
from bench.evals.common import EvalSet, temporary_library
from memory.consolidate import stretches
from memory.consolidate.commitment_store import list_commitments
from memory.consolidate.correction_store import list_corrections
from memory.consolidate.fact_store import list_facts
from memory.store import recordings
from memory.text.quotes import normalise
from models.catalogue import Role
from models.errors import InputError

FUZZY_SHARE = 0.5  # a quote not verbatim in the transcript (audio): where half its words are


class Locator:
    """Where a quote sits in a recording's words (normalised word positions), so that two quotes
    overlap when they cover a common stretch of the recording. A quote that is not verbatim (a
    transcription's spelling) is placed where the most of its words are, if at least half are."""

    def __init__(self, library: Library) -> None:
        self.store = library.store
        self.words: dict[int, list[str]] = {}

        self.offsets: dict[int, int] = {}  # segment id → its first word's position in the recording

    def _words(self, recording_id: int) -> list[str]:
        if recording_id not in self.words:
            words: list[str] = []
            for segment in recordings.list_segments(self.store, recording_id):
                self.offsets[segment.id] = len(words)
                words += normalise(segment.raw_text).split()
            self.words[recording_id] = words
        return self.words[recording_id]

    def span(self, recording_id: int, quote: str, segment_id: int | None = None) -> tuple[int, int] | None:
        words, wanted = self._words(recording_id), normalise(quote).split()
        n = len(wanted)
        if not n or n > len(words):
            return None
        first = self.offsets.get(segment_id, 0) if segment_id is not None else 0
        for i in list(range(first, len(words) - n + 1)) + list(range(0, first)):
            if words[i : i + n] == wanted:
                return i, i + n
        best, at = 0, -1
        for i in range(len(words) - n + 1):
            shared = sum(1 for a, b in zip(words[i : i + n], wanted, strict=True) if a == b) or len(
                set(words[i : i + n]) & set(wanted)
            )
            if shared > best:
                best, at = shared, i
        return (at, at + n) if best >= FUZZY_SHARE * n else None

    def overlaps(self, recording_id: int, a: str, b: str, segment_id: int | None = None) -> bool:
        """Whether quote `a` (reported, found from `segment_id` on) and key quote `b` overlap."""
        sa, sb = self.span(recording_id, a, segment_id), self.span(recording_id, b)
        return sa is not None and sb is not None and sa[0] < sb[1] and sb[0] < sa[1]

    def value_in(
        self, recording_id: int, quote: str, value: str, key_quote: str, segment_id: int | None
    ) -> bool:
        """Whether the value said in a reported quote lies among the words of key quote `key_quote`;
        when the value's place in its quote cannot be told, whether the two quotes overlap."""
        sa, sb = self.span(recording_id, quote, segment_id), self.span(recording_id, key_quote)
        if sa is None or sb is None or not (sa[0] < sb[1] and sb[0] < sa[1]):
            return False
        said, wanted = normalise(quote).split(), normalise(value).split()
        at = next(
            (i for i in range(len(said) - len(wanted) + 1) if said[i : i + len(wanted)] == wanted), None
        )
        if not wanted or at is None:
            return True
        a = sa[0] + at
        return a < sb[1] and sb[0] < a + len(wanted)


def _pr(reported: int, matched_reported: int, key: int, matched_key: int) -> dict[str, float | int]:
    return {
        "precision": round(matched_reported / reported, 4) if reported else 0.0,
        "recall": round(matched_key / key, 4) if key else 0.0,
        "reported": reported,
        "key": key,
    }


def score(library: Library, key: dict[str, Any], notes: dict[int, str]) -> dict[str, Any]:
    """Match what consolidation reported against the key. `notes`: recording id → key note id."""
    store = library.store
    locate = Locator(library)

    def overlaps(recording_id: int, a: str, b: str, segment_id: int | None = None) -> bool:
        return locate.overlaps(recording_id, a, b, segment_id)

    corrections = [c for c in list_corrections(store) if c.recording_id in notes]
    sc = key.get("self_corrections", [])

    def corr_match(c: Any, k: dict[str, Any]) -> bool:
        rid = c.recording_id
        return (
            notes[rid] == k["note"]
            and overlaps(rid, c.wrong_text, k["quote"], c.wrong_segment_id)
            and overlaps(rid, c.right_text, k["quote"], c.right_segment_id)
        )

    facts = [f for f in list_facts(store, include_restatements=True) if f.recording_id in notes]
    by_id = {f.id: f for f in facts}
    # One replacing per (first saying of the old value, new fact): a fact that said the old value
    # again is replaced with it, and either one's quote may be the key's.
    grouped: dict[tuple[int, int], list[Any]] = {}
    for f in facts:
        if f.superseded_by in by_id:
            grouped.setdefault((f.restates or f.id, f.superseded_by), []).append(f)
    pairs = [(olds, by_id[new]) for (_, new), olds in grouped.items()]
    ss = key.get("superseded", [])

    def side(f: Any, k: dict[str, Any]) -> bool:
        return notes[f.recording_id] == k["note"] and overlaps(
            f.recording_id, f.quote, k["quote"], f.segment_ids[0]
        )

    def pair_match(p: Any, k: dict[str, Any]) -> bool:
        return any(side(old, k["old"]) for old in p[0]) and side(p[1], k["new"])

    links = [c for c in list_connections(library) if c.a.recording_id in notes and c.b.recording_id in notes]
    cx = key.get("connections", [])

    def link_side(s: Any, k: dict[str, Any]) -> bool:
        return notes[s.recording_id] == k["note"] and overlaps(
            s.recording_id, s.quote, k["quote"], s.segment_ids[0]
        )

    def link_match(c: Any, k: dict[str, Any]) -> bool:
        return (link_side(c.a, k["a"]) and link_side(c.b, k["b"])) or (
            link_side(c.a, k["b"]) and link_side(c.b, k["a"])
        )

    traps = key.get("inference_traps", [])
    stated = [f for f in facts if f.kind == "stated"]

    def states_trap(f: Any, t: dict[str, Any]) -> bool:
        # the fact's value is among the trap's words; a fact quotes its whole sentence, and a value
        # said in the same sentence but outside the trap ("..., but realistically the first pick
        # stays in January") is what the note states, not the trap
        return notes[f.recording_id] == t["note"] and locate.value_in(
            f.recording_id, f.quote, f.value, t["quote"], f.segment_ids[0]
        )

    surfaced = [t["id"] for t in traps if any(states_trap(f, t) for f in stated)]
    return {
        "self_corrections": _pr(
            len(corrections), sum(any(corr_match(c, k) for k in sc) for c in corrections),
            len(sc), sum(any(corr_match(c, k) for c in corrections) for k in sc),
        ),
        "superseded": _pr(
            len(pairs), sum(any(pair_match(p, k) for k in ss) for p in pairs),
            len(ss), sum(any(pair_match(p, k) for p in pairs) for k in ss),
        ),
        "connections": _pr(
            len(links), sum(any(link_match(c, k) for k in cx) for c in links),
            len(cx), sum(any(link_match(c, k) for c in links) for k in cx),
        ),
        "traps_stated": len(surfaced),
        "traps_surfaced": surfaced,
        "missed": {
            "self_corrections": [k["id"] for k in sc if not any(corr_match(c, k) for c in corrections)],
            "superseded": [k["id"] for k in ss if not any(pair_match(p, k) for p in pairs)],
            "connections": [k["id"] for k in cx if not any(link_match(c, k) for c in links)],
        },
        "facts": len([f for f in facts if f.restates is None]),
    }  # fmt: skip


_KEY_DAY = re.compile(
    r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m>january|february|march|april|may|june|july|august|september|"
    r"october|november|december)\b(?:\s+(?P<y>\d{4}))?",
    re.I,
)


_KEY_MONTH_END = re.compile(
    r"\bend\s+of\s+(?P<m>january|february|march|april|may|june|july|august|september|october|november|"
    r"december)\b(?:\s+(?P<y>\d{4}))?",
    re.I,
)


def key_due(text: str, year: int) -> str | None:
    """The calendar day a key item's due says: what follows "i.e." ("end of next week, i.e. Friday
    26 June 2026"), else the words before a bracket, which tells what happened later ("before the
    end of March 2027 (arrived Monday 12 April)"), else the whole text ("KW 44 (1 to 5 November)");
    "end of March" is its last day."""
    text = text or ""
    said = re.search(r"\b(?:19|20)\d{2}\b", text)
    meant = re.search(r"\bi\.e\.\s*(.*)", text)
    for part in ([meant.group(1)] if meant else []) + [text.split("(")[0], text]:
        m = _KEY_DAY.search(part) or _KEY_MONTH_END.search(part)
        if m is None:
            continue
        month = list(calendar.month_name).index(m.group("m").capitalize())
        y = int(m.group("y") or (said.group(0) if said else year))
        day = int(m.group("d")) if m.re is _KEY_DAY else calendar.monthrange(y, month)[1]
        return date(y, month, day).isoformat()
    return None


def score_commitments(library: Library, key: dict[str, Any], notes: dict[int, str]) -> dict[str, Any]:
    """Commitments against the key's `commitments` (matched by quote overlap in the same recording),
    and whether each matched one has the key's due date. Without that list: what was found."""
    locate = Locator(library)
    found = [c for c in list_commitments(library.store) if c.recording_id in notes]
    items = [
        {"note": notes[c.recording_id], "quote": c.quote, "who": c.who, "what": c.what, "to_whom": c.to_whom,
         "due": c.due_date, "done": c.done_quote}
        for c in found
    ]  # fmt: skip
    if "commitments" not in key:
        return {"reported": len(found), "key": None, "found": items}
    cm = key["commitments"]

    def match(c: Any, k: dict[str, Any]) -> bool:
        rid = c.recording_id
        return notes[rid] == k["note"] and locate.overlaps(rid, c.quote, k["quote"], c.segment_ids[0])

    years = {notes[r]: int(recordings.get_recording(library.store, r).spoken_at[:4]) for r in notes}
    dated = right = 0
    for k in cm:
        wanted = key_due(k.get("due", ""), years.get(k["note"], date.today().year))
        matched = [c for c in found if match(c, k)]
        if matched and wanted:
            dated += 1
            right += any(c.due_date == wanted for c in matched)
    result: dict[str, Any] = _pr(
        len(found), sum(any(match(c, k) for k in cm) for c in found),
        len(cm), sum(any(match(c, k) for c in found) for k in cm),
    )  # fmt: skip
    result.update(
        {
            "due_accuracy": round(right / dated, 4) if dated else 0.0,
            "due_right": right,
            "due_dated": dated,
            "missed": [k["id"] for k in cm if not any(match(c, k) for c in found)],
            "unmatched": [i for c, i in zip(found, items, strict=True) if not any(match(c, k) for k in cm)],
            "found": items,
        }
    )
    return result


def score_asides(
    library: Library, eval_set: EvalSet, key: dict[str, Any], notes: dict[int, str]
) -> dict[str, Any]:
    """Asides (stretches of a note about another project) against what the key itself places: the
    sets have no list of asides, so the expected ones are the key's quotes about one project that
    sit in a note of another ("news of another client": superseded facts whose `subject` project is
    not the note's, and the evidence of questions about one project, cross-project questions left
    out, that lies in another project's note). Each must be inside a suggested (or assigned) aside
    of that project: recall. The key's quotes about a note's own project must be inside none.
    A reported aside is judged when it holds any such quote: right when it holds one about its
    project and none about the note's own (precision over the judged ones; the rest are counted
    as unjudged). Also: notes with an aside (the READMEs say each note has one) and the largest
    share of a note's words inside asides (an aside is never the whole note)."""
    locate = Locator(library)
    store = library.store
    project_of: dict[str, str] = {}
    for line in eval_set.corpus.read_text("utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            project_of[str(item["id"])] = str(item["project"])
    quotes: list[tuple[str, str, str]] = []  # (note, quote, the project it is about)
    for item in key.get("superseded", []):
        quotes += [(item[side]["note"], item[side]["quote"], item["subject"]) for side in ("old", "new")]
    for q in eval_set.queries():
        if q.project and q.raw.get("type", q.category) != "cross-project":
            quotes += [(e["note"], e["quote"], q.project) for e in q.raw.get("evidence_quotes") or []]
    quotes = sorted(set(quotes))
    rid_of = {note: rid for rid, note in notes.items()}
    asides = [
        s for s in stretches.list_stretches(store) if s.recording_id in notes and s.status != "dismissed"
    ]

    def segment_idx(note: str, quote: str) -> int | None:
        rid = rid_of.get(note)
        span = locate.span(rid, quote) if rid is not None else None
        if rid is None or span is None:
            return None
        segments = recordings.list_segments(store, rid)
        at = [s.idx for s in segments if locate.offsets.get(s.id, 1 << 30) <= span[0]]
        return at[-1] if at else None

    placed = [(note, project, segment_idx(note, quote)) for note, quote, project in quotes]
    expected = [(n, p, i) for n, p, i in placed if p != project_of.get(n) and i is not None]
    own = [(n, p, i) for n, p, i in placed if p == project_of.get(n) and i is not None]

    def inside(a: Any, note: str, idx: int) -> bool:
        return notes[a.recording_id] == note and a.first_idx <= idx <= a.last_idx

    found = sum(any(inside(a, n, i) and a.project == p for a in asides) for n, p, i in expected)
    judged = right = 0
    for a in asides:
        about = [p for n, p, i in expected if inside(a, n, i)]
        wrong = any(inside(a, n, i) for n, _, i in own)
        if about or wrong:
            judged += 1
            right += a.project in about and not wrong
    share = 0.0
    for rid in {a.recording_id for a in asides}:
        words = [len(s.raw_text.split()) for s in recordings.list_segments(store, rid)]
        covered = {i for a in asides if a.recording_id == rid for i in range(a.first_idx, a.last_idx + 1)}
        share = max(share, sum(w for i, w in enumerate(words) if i in covered) / max(1, sum(words)))
    return {
        "reported": len(asides),
        "notes_with_aside": len({a.recording_id for a in asides}),
        "notes": len(notes),
        "expected": len(expected),
        "recall": round(found / len(expected), 4) if expected else 0.0,
        "judged": judged,
        "precision": round(right / judged, 4) if judged else 0.0,
        "own_quotes_inside": sum(any(inside(a, n, i) for a in asides) for n, _, i in own),
        "largest_share_of_a_note": round(share, 4),
    }


def asides_line(r: dict[str, Any] | None) -> str:
    if not r:
        return "asides: not scored"
    return (
        f"asides: {r['reported']} in {r['notes_with_aside']}/{r['notes']} notes; the key's news of another"
        f" client inside the right aside {r['recall']:.0%} of {r['expected']}; judged asides right"
        f" {r['precision']:.0%} of {r['judged']}; own-project key quotes inside one {r['own_quotes_inside']}"
        f" (goal 0); largest share of a note {r['largest_share_of_a_note']:.0%}"
    )


@contextmanager
def _audio_library(eval_set: EvalSet, like: Library | None) -> Iterator[tuple[Library, dict[int, str]]]:
    """A fresh library holding the set's audio, imported and transcribed as a user's would be."""
    root = Path(tempfile.mkdtemp(prefix=f"verbatim-eval-audio-{eval_set.name}-"))
    models_dir = like.data_dir.models_dir if like else DataDir.resolve().models_dir
    data_dir = DataDir(root.resolve(), models_dir)
    data_dir.ensure()
    Settings(models=dict(like.settings.models) if like else {}).save(data_dir.settings_path)
    library = Library(data_dir)
    try:
        notes: dict[int, str] = {}
        for line in eval_set.corpus.read_text("utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            audio = eval_set.path / "audio" / f"{item['id']}.wav"
            if not audio.is_file():
                raise InputError(f"{audio} is missing", fix="run without --audio")
            [result] = import_files(library, [audio], project=item["project"], spoken_at=item["spoken_at"])
            if result.recording_id is None:
                raise InputError(f"{audio.name} failed to import: {result.message}")
            notes[result.recording_id] = item["id"]
        run_pending(library, kinds=["transcribe"])
        yield library, notes
    finally:
        library.close()
        shutil.rmtree(root, ignore_errors=True)


def evaluate_consolidation(
    set_dir: Path,
    *,
    like: Library | None = None,
    audio: bool = False,
    use_model: bool = True,
    model_path: Path | None = None,
    with_ask: bool = False,
    keep: Path | None = None,
) -> dict[str, Any]:
    eval_set = EvalSet.open(set_dir)
    key_path = eval_set.path / "key.json"
    if not key_path.is_file():
        raise InputError(
            f"{eval_set.path} has no key.json", fix="consolidation needs a scenario set with an answer key"
        )
    key = json.loads(key_path.read_text("utf-8"))
    began = time.perf_counter()
    with _library(eval_set, like, audio, keep) as (library, notes):
        ingest = time.perf_counter() - began
        before = _ask(library, eval_set, model_path, use_model) if with_ask else None
        started = time.perf_counter()
        reports = consolidate(library, sorted(notes), model_path=model_path, use_model=use_model)
        seconds = time.perf_counter() - started
        result = score(library, key, notes)
        result["commitments"] = score_commitments(library, key, notes)
        result["asides"] = score_asides(library, eval_set, key, notes)
        if with_ask:
            result["ask"] = {
                "before_consolidation": before,
                "after": _ask(library, eval_set, model_path, use_model),
            }
        model = (
            None if not use_model else (model_path.name if model_path else library.models.name_for(Role.CHAT))
        )
    result.update(
        {
            "set": eval_set.name,
            "audio": audio,
            "model": model,
            "recordings": len(notes),
            "ingest_seconds": round(ingest, 2),
            "consolidation_seconds": round(seconds, 2),
            "model_calls": sum(r.model_calls for r in reports),
            "stage_seconds": {
                stage: round(sum(r.stage_seconds.get(stage, 0.0) for r in reports), 3)
                for stage in reports[0].stage_seconds
            }
            if reports
            else {},
        }
    )
    return result


@contextmanager
def _library(
    eval_set: EvalSet, like: Library | None, audio: bool, keep: Path | None
) -> Iterator[tuple[Library, dict[int, str]]]:
    if audio:
        with _audio_library(eval_set, like) as built:
            yield built
        return
    with temporary_library(eval_set, like=like, keep=keep) as built:
        library = built.library
        notes = {rid: str(ext) for rid, ext in recordings.external_ids(library.store).items()}
        yield library, notes


def _current_first(answer_claims: list[Any], gold: str) -> bool:
    """The first stated claim carries the gold answer's value (its words before any parenthesis)."""
    from bench.evals.ask_eval import stems

    stated = [c for c in answer_claims if c.kind == "stated"]
    wanted = stems(gold.split("(")[0])
    return bool(stated and wanted) and len(wanted & stems(stated[0].text)) / len(wanted) >= 0.5


def _ask(library: Library, eval_set: EvalSet, model_path: Path | None, use_model: bool) -> dict[str, Any]:
    """Latest-value and self-correction questions: supported (see ask_eval) and current value first."""
    from app.ask import AskRequest, ask
    from bench.evals.ask_eval import gold_supported

    out: dict[str, Any] = {}
    for kind in ("latest-value", "self-correction"):
        queries = [q for q in eval_set.queries() if q.raw.get("type", q.category) == kind]
        if not queries:
            continue
        supported = first = 0
        for q in queries:
            request = AskRequest(q.question, as_of=q.asked_at, no_llm=not use_model, model_path=model_path)
            answer = ask(library, request)
            supported += gold_supported(answer, q.answer)
            first += _current_first(answer.claims, q.answer)
        out[kind] = {
            "questions": len(queries),
            "answer_supported": round(supported / len(queries), 4),
            "current_value_first": round(first / len(queries), 4),
        }
    return out


def format_report(report: dict[str, Any]) -> list[str]:
    source = "audio, transcribed" if report["audio"] else "transcripts"
    model = report["model"] or "none (rules only)"
    lines = [
        f"{report['set']}: {report['recordings']} recordings ({source}), model {model}",
        f"consolidation {report['consolidation_seconds']:.1f} s ({report['model_calls']} model calls),"
        f" {report['facts']} facts",
        "",
        f"{'':<18}{'precision':>10}{'recall':>8}{'reported':>10}{'key':>5}",
    ]
    for name in ("self_corrections", "superseded", "connections"):
        r = report[name]
        lines.append(f"{name:<18}{r['precision']:>10.1%}{r['recall']:>8.1%}{r['reported']:>10}{r['key']:>5}")
    lines.append(f"inference traps stated as facts: {report['traps_stated']} (goal: 0)")
    lines.append(commitments_line(report.get("commitments")))
    lines.append(asides_line(report.get("asides")))
    missed = {k: v for k, v in report["missed"].items() if v}
    if missed:
        lines.append("missed: " + "; ".join(f"{k} {', '.join(v)}" for k, v in missed.items()))
    for when, by_kind in (report.get("ask") or {}).items():
        for kind, r in (by_kind or {}).items():
            lines.append(
                f"ask {kind} ({when.replace('_', ' ')}): {r['questions']} questions, supported"
                f" {r['answer_supported']:.0%}, current value first {r['current_value_first']:.0%}"
            )
    return lines


def commitments_line(r: dict[str, Any] | None) -> str:
    if not r:
        return "commitments: not scored"
    if r.get("key") is None:
        return f"commitments: {r['reported']} found (the set has no commitments key)"
    return (
        f"{'commitments':<18}{r['precision']:>10.1%}{r['recall']:>8.1%}{r['reported']:>10}{r['key']:>5}"
        f"  due dates right {r['due_right']}/{r['due_dated']} ({r['due_accuracy']:.0%})"
    )
