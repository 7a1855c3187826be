"""Train the self-repair tagger of memory/text/repair_tagger.py on Disfl-QA train (CC BY 4.0).

    python -m bench.train_repair_tagger [--train PATH] [--out PATH] [--folds N] [--ranker-only]

Labels come from the pairs themselves: the disfluent and the fluent words (lower-cased, letters
and digits only) are aligned with difflib.
- When the fluent words are the disfluent ones with some left out, the words left out are taken
  back; each left-out stretch is shifted left while the word before it equals its last word, and
  its longest tail of marker words (repair_features.MARKER_WORDS / MARKER_PHRASES) is the marker (M), the
  rest replaced (R).
- Otherwise, when moving a stretch that follows a marker into the place of an earlier stretch
  (and leaving words out as above) gives the fluent words, that is a displaced repair: the earlier
  stretch is S, the words between the marker and it are M, the moved stretch P.
- Other pairs (rewordings: "type" -> "types", reordered questions) are left out of training.
- Every fluent sentence is a training sequence too, all its words kept: without them the tagger
  learns that every sentence holds a repair (in Disfl-QA nearly every disfluent one does).

Hyper-parameters (L1 and L2 weights, repair_features.NEIGHBOUR_REACH) are chosen by K-fold cross-validation
inside the training file on the exact match of the meant reading (ties: replaced-word F1, then the
smaller model); the final model is then trained on all of it. `--c1/--c2` skip the search.
Deterministic: fixed folds (by position), L-BFGS, one thread.

Then the start ranker (memory/text/repair_starts.py, written to repair_starts.json): CRFs trained
on all folds but one (`--ranker-folds`, 3) tag the fold left out, each taken-back stretch's
candidate starts are read, and a logistic regression learns which start gives the fluent sentence's
words. The CRFs decode with a bias towards taking words back (repair_tagger.Decoder); the bias
(BIAS_GRID) and the ranker's C (RANKER_GRID) are chosen together by the same folds on exact
match (ties: F1), the bias is stored with the ranker, and nothing is written unless it beats the
CRF's own starts (no bias) there. The table also says how many of the held-out pairs' fluent
sentences each setting's reading changes (a bias finds more repairs in them too); the choice
does not read it. `--ranker-only --c1 2.0 --c2 0.01` trains the ranker
alone for the shipped CRF setting.
`--markers` prints the marker words and phrases as derived from the data instead of training.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pycrfsuite

from bench.evals.corrections_eval import score_pairs
from bench.repair_labels import deletions, keys, labels_of
from memory.text import nlp, repair_starts
from memory.text.nlp import language_of
from memory.text.quotes import normalise
from memory.text.repair_features import (
    KEEP,
    MARKER_PHRASES,
    MARKER_WORDS,
    MOVED,
    NEIGHBOUR_REACH,
    NO_POS,
    SOURCE,
    parts_of_speech,
    token_features,
    tokenise,
)
from memory.text.repair_starts import Choice, StartRanker, Stretch
from memory.text.repair_tagger import Decoder, segments, tag_text
from memory.text.repairs import apply_repairs, read_labels

Item = tuple[str, list[str]]
REPO = Path(__file__).resolve().parents[1]
DEFAULT_TRAIN = REPO.parent / "shared" / "eval" / "disflqa-dev" / "train.jsonl"
DEFAULT_OUT = REPO / "memory" / "text" / "repair_tagger.crfsuite"
DEFAULT_RANKER_OUT = REPO / "memory" / "text" / repair_starts.RANKER_FILE
Setting = tuple[float, float, int]  # (L1 weight, L2 weight, repair_features.NEIGHBOUR_REACH)
# L1 keeps the model small; the reach is how many words either side a word fully sees (2 chosen
# among 1, 2 and 3 on 24 Nov; L1 0.1 and 0.3 lost to 1.0 then and again on 25 Nov, 3-fold: exact
# match 63.1 % against 63.8 %). The settings compared with today's features:
GRID: list[Setting] = [(1.0, 0.01, 2), (2.0, 0.01, 2), (1.0, 0.1, 2)]
MAX_ITERATIONS = 300
# The start ranker's inverse regularisation strengths compared by the same folds (exact match).
RANKER_GRID = (0.3, 1.0, 3.0)
# The biases of the CRF's decoding towards taking words back (repair_tagger.Decoder) compared with
# each C (0: CRFsuite's own Viterbi).
BIAS_GRID = (0.0, 0.125, 0.25, 0.375)


def read_jsonl(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def training_items(pairs: Sequence[dict[str, str]], labels: Sequence[list[str] | None]) -> list[Item]:
    """The labelled disfluent sentences, then every fluent sentence with all its words kept."""
    items = [(p["disfluent"], y) for p, y in zip(pairs, labels, strict=True) if y]
    return items + [(p["fluent"], [KEEP] * len(tokenise(p["fluent"]))) for p in pairs]


def parts_of_speech_of(texts: Iterable[str]) -> dict[str, list[str]]:
    """Each text's words' parts of speech, as `repair_features.english_parts_of_speech` gives them, read in
    one batch (the dependency parser and the entity recogniser do not change the tags: left out)."""
    wanted = sorted(set(texts))
    english = [t for t in wanted if language_of(t) == "en"]
    out = {t: [NO_POS] * len(tokenise(t)) for t in wanted}
    docs = nlp.english().pipe(english, disable=["parser", "ner", "lemmatizer"], batch_size=256)
    for text, doc in zip(english, docs, strict=True):
        out[text] = parts_of_speech(tokenise(text), doc)
    return out


def sequences(
    items: Sequence[Item], pos: dict[str, list[str]], reach: int
) -> list[tuple[list[list[str]], list[str]]]:
    """CRF training sequences, cut the same way as at tagging time."""
    out = []
    for text, labels in items:
        toks = tokenise(text)
        tags = pos[text]
        for a, b in segments(text, toks):
            out.append((token_features(text, toks[a:b], tags[a:b], reach), labels[a:b]))
    return out


def train(items: Sequence[Item], pos: dict[str, list[str]], out: Path, setting: Setting) -> None:
    c1, c2, reach = setting
    trainer = pycrfsuite.Trainer(verbose=False)
    for xseq, yseq in sequences(items, pos, reach):
        trainer.append(xseq, yseq)
    trainer.set_params(
        {
            "c1": c1,
            "c2": c2,
            "max_iterations": MAX_ITERATIONS,
            "feature.possible_transitions": True,
            "feature.possible_states": False,
            "feature.minfreq": 1,
        }
    )
    trainer.train(str(out))


def reader_of(
    model: Path, pos: dict[str, list[str]] | None = None, reach: int = NEIGHBOUR_REACH
) -> Callable[[str], str]:
    """Disfluent text -> meant reading by the model file `model` (trained with `reach`); `pos`:
    parts of speech known beforehand by text (parts_of_speech_of), else the pipeline reads each."""
    tagger = pycrfsuite.Tagger()
    tagger.open(str(model))
    decoder = Decoder(tagger)

    def reading(text: str) -> str:
        toks = tokenise(text)
        if not toks:
            return text
        known = pos.get(text) if pos is not None else None
        labels = tag_text(text, toks, tagger=decoder, pos=known, reach=reach, rerank_starts=False).labels
        return apply_repairs(text, *read_labels(text, toks, labels))

    return reading


def _fold(args: tuple[list[Item], list[dict[str, str]], dict[str, list[str]], Setting]) -> dict[str, float]:
    items, held_out, pos, setting = args
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "fold.crfsuite"
        train(items, pos, model, setting)
        report = score_pairs(held_out, reader_of(model, pos, setting[2]), kinds_too=False)
        size = model.stat().st_size
        return {"exact_match": report["exact_match"], "f1": report["replaced_f1"], "bytes": size}


def cross_validate(
    pairs: list[dict[str, str]],
    labels: list[list[str] | None],
    pos: dict[str, list[str]],
    folds: int,
    workers: int,
) -> list[dict[str, Any]]:
    """Mean held-out figures of each GRID setting; fold k holds the pairs at positions i % folds == k.
    Training folds use training_items; held-out folds are scored on all their pairs."""
    jobs = []
    for setting in GRID:
        for k in range(folds):
            held = [p for i, p in enumerate(pairs) if i % folds == k]
            rest = [i for i in range(len(pairs)) if i % folds != k]
            items = training_items([pairs[i] for i in rest], [labels[i] for i in rest])
            jobs.append((items, held, pos, setting))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_fold, jobs))
    table = []
    for g, (c1, c2, reach) in enumerate(GRID):
        rows = results[g * folds : (g + 1) * folds]
        table.append(
            {
                "c1": c1,
                "c2": c2,
                "reach": reach,
                "exact_match": sum(r["exact_match"] for r in rows) / folds,
                "f1": sum(r["f1"] for r in rows) / folds,
                "bytes": sum(r["bytes"] for r in rows) / folds,
            }
        )
    return table


# One stretch of one segment: the stretch, its candidate readings, their features, and which of
# them give the training labels (None for pairs without labels).
Group = tuple[Stretch, list[Choice], list[dict[str, float]], list[bool] | None]
# One segment of a pair: its first and end word, the CRF's labels, its groups.
Segment = tuple[int, int, list[str], list[Group]]


def start_groups(
    pair: dict[str, str],
    gold: list[str] | None,
    pos: dict[str, list[str]],
    decoder: Decoder,
    reach: int,
    bias: float,
) -> list[Segment]:
    """The CRF's labels (decoded with `bias`) of each segment of a pair's disfluent sentence and
    the candidate readings of each stretch (repair_starts), with which of them give the training
    labels: the same words left out from the stretch's floor to its repair, and the same words
    moved (P) after it."""
    text = pair["disfluent"]
    toks = tokenise(text)
    tags = pos[text]
    out: list[Segment] = []
    for a, b in segments(text, toks):
        crf = decoder.tag(token_features(text, toks[a:b], tags[a:b], reach), bias)
        lower = [t[0].lower() for t in toks[a:b]]
        groups: list[Group] = []
        for s, choices, features in repair_starts.candidate_features(decoder.tagger, crf, lower, tags[a:b]):
            right = None
            if gold is not None:
                want = gold[a:b]
                right = []
                for c in choices:
                    got = repair_starts.choose(crf, s, c)
                    same = all(
                        (got[t] == KEEP) == (want[t] == KEEP) and (got[t] == SOURCE) == (want[t] == SOURCE)
                        for t in range(s.floor, s.repair)
                    )
                    moved = all((got[t] == MOVED) == (want[t] == MOVED) for t in range(s.repair, b - a))
                    right.append(same and moved)
            groups.append((s, choices, features, right))
        out.append((a, b, crf, groups))
    return out


def ranked_reading(pair: dict[str, str], segs: Sequence[Segment], ranker: StartRanker | None) -> str:
    """The meant reading of a pair's disfluent sentence with each stretch read as `ranker`
    chooses (None: as the CRF tagged it), as repair_tagger.tag_text gives it."""
    text = pair["disfluent"]
    toks = tokenise(text)
    if not toks:
        return text
    labels: list[str] = []
    for _, _, crf, groups in segs:
        out = list(crf)
        for s, choices, features, _ in groups:
            if ranker is not None:
                out = repair_starts.choose(
                    out, s, choices[repair_starts.best_choice(ranker, s, choices, features)]
                )
        labels.extend(out)
    return apply_repairs(text, *read_labels(text, toks, labels))


def fit_ranker(segs: Iterable[Sequence[Segment]], c: float, bias: float = 0.0) -> StartRanker:
    """A logistic regression over the candidates of every stretch that has a right one (right
    start: 1, other starts: 0), as a StartRanker (weights by feature name) for stretches the CRF
    decoded with `bias`."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    rows: list[dict[str, float]] = []
    ys: list[int] = []
    for pair_segs in segs:
        for _, _, _, groups in pair_segs:
            for _, _, features, right in groups:
                if right is None or not any(right):
                    continue
                rows.extend(features)
                ys.extend(int(r) for r in right)
    vectoriser = DictVectorizer()
    x = vectoriser.fit_transform(rows)
    model = LogisticRegression(C=c, max_iter=3000)
    model.fit(x, ys)
    weights = {
        name: float(w)
        for name, w in zip(vectoriser.get_feature_names_out(), model.coef_[0], strict=True)
        if w
    }
    return StartRanker(weights, float(model.intercept_[0]), bias)


def held_out_figures(
    pairs: Sequence[dict[str, str]],
    segs: Sequence[Sequence[Segment]],
    folds: int,
    c: float | None,
    bias: float,
    fluent_segs: Sequence[Sequence[Segment]] | None = None,
) -> tuple[float, float, int]:
    """Mean exact match and F1 over the folds of rankers with C `c` (None: the CRF's own starts)
    fitted on the other folds' stretches (decoded with `bias`), and how many of the held-out
    pairs' fluent sentences the reading changes (`fluent_segs`: their segments, as `segs`; not
    scored by exact match or F1, which read the disfluent side only)."""
    reports = []
    changed = 0
    for k in range(folds):
        held = [i for i in range(len(pairs)) if i % folds == k]
        rest = (segs[i] for i in range(len(pairs)) if i % folds != k)
        ranker = fit_ranker(rest, c, bias) if c else None
        readings = {pairs[i]["disfluent"]: ranked_reading(pairs[i], segs[i], ranker) for i in held}
        reports.append(score_pairs([pairs[i] for i in held], readings.__getitem__, kinds_too=False))
        if fluent_segs is not None:
            for i in held:
                text = pairs[i]["fluent"]
                reading = ranked_reading({"disfluent": text}, fluent_segs[i], ranker)
                changed += normalise(reading) != normalise(text)
    return (
        sum(r["exact_match"] for r in reports) / folds,
        sum(r["replaced_f1"] for r in reports) / folds,
        changed,
    )


def _best(table: dict[tuple[float, float | None], tuple[float, float, int]]) -> tuple[float, float | None]:
    """The (bias, C) of the best ranker: exact match to a tenth of a point, then F1 to three
    places, then the smaller bias and C."""
    return max(
        (key for key in table if key[1] is not None),
        key=lambda key: (round(table[key][0], 3), round(table[key][1], 3), -key[0], -(key[1] or 0.0)),
    )


def train_start_ranker(
    pairs: list[dict[str, str]],
    labels: list[list[str] | None],
    pos: dict[str, list[str]],
    setting: Setting,
    folds: int,
    out: Path,
) -> None:
    """The start ranker (memory/text/repair_starts.py): CRFs trained on all folds but one tag the
    one left out, so that the ranker learns from the CRF's output on sentences it has not seen;
    each bias of BIAS_GRID (the CRF's decoding) with each C of RANKER_GRID is compared by the same
    folds (a ranker fitted on the other folds' stretches reads each fold), and the chosen pair is
    fitted on every fold's stretches and written to `out`."""
    started = time.perf_counter()
    table: dict[tuple[float, float | None], tuple[float, float, int]] = {}
    best_segs: dict[float, list[list[Segment]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        decoders = []
        for k in range(folds):
            rest = [i for i in range(len(pairs)) if i % folds != k]
            items = training_items([pairs[i] for i in rest], [labels[i] for i in rest])
            model = Path(tmp) / f"fold{k}.crfsuite"
            train(items, pos, model, setting)
            tagger = pycrfsuite.Tagger()
            tagger.open(str(model))
            decoders.append(Decoder(tagger))
            print(f"start ranker: fold {k} trained ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        for bias in BIAS_GRID:
            segs: list[list[Segment]] = [
                start_groups(pairs[i], labels[i], pos, decoders[i % folds], setting[2], bias)
                for i in range(len(pairs))
            ]
            fluent_segs = [
                start_groups({"disfluent": p["fluent"]}, None, pos, decoders[i % folds], setting[2], bias)
                for i, p in enumerate(pairs)
            ]
            for c in (None, *RANKER_GRID) if bias == 0.0 else RANKER_GRID:
                table[(bias, c)] = held_out_figures(pairs, segs, folds, c, bias, fluent_segs)
                name = f"bias {bias} start ranker C={c}" if c else "CRF's own starts"
                em, f1, changed = table[(bias, c)]
                print(
                    f"{name:<32} exact match {em:.2%}  F1 {f1:.4f}  fluent sentences changed {changed}"
                    f"  ({time.perf_counter() - started:.0f} s)",
                    file=sys.stderr,
                )
            best_segs[bias] = segs
            if len(best_segs) > 1:  # keep the stretches of the best bias so far only
                leader = _best(table)
                best_segs = {leader[0]: best_segs[leader[0]]}
    chosen = _best(table)
    if table[chosen][0] <= table[(0.0, None)][0]:
        print("the start ranker does not beat the CRF's own starts: none written", file=sys.stderr)
        return
    bias, c = chosen
    assert c is not None
    ranker = fit_ranker(best_segs[bias], c, bias)
    out.write_text(json.dumps({"C": c, **ranker.to_json()}, indent=0) + "\n", encoding="utf-8")
    print(f"chosen bias {bias}, C={c}; wrote {out} ({len(ranker.weights)} weights)", file=sys.stderr)


def derive_markers(pairs: Sequence[dict[str, str]], min_count: int = 8, min_ratio: float = 0.8) -> list[str]:
    """Words and phrases (up to 3 words) that end a left-out stretch right before kept words at least
    `min_count` times and are left out in at least `min_ratio` of their occurrences."""
    ends: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for p in pairs:
        lower = [w.lower() for w, _, _ in tokenise(p["disfluent"])]
        mask = deletions(keys(p["disfluent"]), keys(p["fluent"]))
        if mask is None:
            continue
        for size in (1, 2, 3):
            for i in range(len(lower) - size + 1):
                gram = " ".join(lower[i : i + size])
                total[gram] += 1
                removed[gram] += all(mask[i : i + size])
                end = i + size
                if all(mask[i:end]) and end < len(mask) and not mask[end]:
                    ends[gram] += 1
    found = [g for g, c in ends.items() if c >= min_count and removed[g] >= min_ratio * total[g]]
    words = {g for g in found if " " not in g}
    # A phrase is one when it is not just marker words in a row and its first word is itself
    # mostly left out ("i mean", "make that", "want to know"; not "did no", "when was er").
    phrases = [
        g
        for g in found
        if " " in g and not set(g.split()) <= words and removed[g.split()[0]] >= 0.6 * total[g.split()[0]]
    ]
    # ... and not two of them in a row ("actually i mean", "no make that").
    shorter = set(phrases) | words
    phrases = [
        g
        for g in phrases
        if not any(
            " ".join(g.split()[:k]) in shorter and " ".join(g.split()[k:]) in shorter
            for k in range(1, len(g.split()))
        )
    ]
    return sorted(words) + sorted(phrases)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.train_repair_tagger", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--train", type=Path, default=DEFAULT_TRAIN)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--folds", type=int, default=3, help="cross-validation folds (0: no search)")
    parser.add_argument("--c1", type=float, help="skip the search: this L1 weight (with --c2)")
    parser.add_argument("--c2", type=float)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--markers", action="store_true", help="print the marker words the data gives")
    parser.add_argument("--ranker-out", type=Path, default=DEFAULT_RANKER_OUT)
    parser.add_argument("--ranker-folds", type=int, default=3, help="folds of the start ranker (0: none)")
    parser.add_argument("--ranker-only", action="store_true", help="train the start ranker only")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    pairs = read_jsonl(args.train)
    if args.markers:
        print("\n".join(derive_markers(pairs)))
        return 0
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        labels = list(pool.map(labels_of, pairs, chunksize=64))
    derived = derive_markers(pairs)
    if derived != sorted(MARKER_WORDS) + sorted(" ".join(p) for p in MARKER_PHRASES):
        print(
            "note: the data gives other marker words than repair_features.MARKER_WORDS/PHRASES:",
            file=sys.stderr,
        )
        print("  " + " | ".join(derived), file=sys.stderr)
    items = training_items(pairs, labels)
    pos = parts_of_speech_of([p["disfluent"] for p in pairs] + [p["fluent"] for p in pairs])
    print(f"{len(pairs)} pairs, {sum(y is not None for y in labels)} labelled", file=sys.stderr)
    setting: Setting = (2.0, 0.01, NEIGHBOUR_REACH)  # the setting the folds chose on 25 Nov
    if args.c1 is not None and args.c2 is not None:
        setting = (args.c1, args.c2, NEIGHBOUR_REACH)
    elif args.folds >= 2 and not args.ranker_only:
        table = cross_validate(pairs, labels, pos, args.folds, args.workers)
        for row in table:
            print(
                f"c1={row['c1']:<5} c2={row['c2']:<5} reach {row['reach']}"
                f"  exact match {row['exact_match']:.2%}  F1 {row['f1']:.3f}"
                f"  model {row['bytes'] / 1e6:.2f} MB",
                file=sys.stderr,
            )
        best = max(table, key=lambda r: (round(r["exact_match"], 3), round(r["f1"], 3), -r["bytes"]))
        setting = (best["c1"], best["c2"], best["reach"])
        print(f"chosen c1={setting[0]} c2={setting[1]} reach={setting[2]}", file=sys.stderr)
        if setting[2] != NEIGHBOUR_REACH:
            print(
                f"the chosen reach differs from repair_features.NEIGHBOUR_REACH ({NEIGHBOUR_REACH}):"
                f" set it to {setting[2]} and train again (the shipped model must match the module)",
                file=sys.stderr,
            )
            return 1
    if not args.ranker_only:
        train(items, pos, args.out, setting)
        size = args.out.stat().st_size / 1e6
        print(f"wrote {args.out} ({size:.2f} MB) in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    if args.ranker_folds >= 2:
        train_start_ranker(pairs, labels, pos, setting, args.ranker_folds, args.ranker_out)
        print(f"done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
