"""PNG plots of a `verbatim bench all` run (matplotlib, no display: the Agg backend).

Bar charts put the product and its baseline side by side; search growth is log-log. Every figure
carries the machine, its load and the versions under it. matplotlib is an optional extra
(`pip install -e '.[bench]'`); without it no plot is written and the run says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.bench_env import figure_caption

Result = dict[str, Any]
SEARCH_MODES = (
    "hybrid",
    "keyword",
    "vector_float",
    "vector_bit_rescored",
    "vector_int8_rescored",
    "numpy_bruteforce",
)


def _ok(record: Result | None) -> Result | None:
    return record.get("result") if record and "result" in record else None


def _figure(title: str, panels: int = 1) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 4.6), squeeze=False)
    fig.suptitle(title, fontsize=11)
    return fig, axes[0]


def _save(fig: Any, summary: Result, path: Path) -> str:
    import matplotlib.pyplot as plt

    fig.text(0.01, 0.01, figure_caption(summary, summary.get("load_average_end")), fontsize=6.5, va="bottom")
    fig.tight_layout(rect=(0, 0.12, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


def _bars(ax: Any, labels: list[str], series: dict[str, list[float]], ylabel: str) -> None:
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        xs = [x + i * width for x in range(len(labels))]
        ax.bar(xs, values, width, label=name)
    ax.set_xticks([x + width * (len(series) - 1) / 2 for x in range(len(labels))], labels, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7)


def transcription(results: Result, summary: Result, out: Path) -> str | None:
    rows = [
        (name.removeprefix("transcription-"), r["summary"])
        for name, record in results.items()
        if name.startswith("transcription-") and (r := _ok(record)) and "summary" in r
    ]
    if not rows:
        return None
    fig, (left, right) = _figure("Transcription on speech-dev: product pipeline vs bare faster-whisper", 2)
    labels = [label for label, _ in rows]
    _bars(
        left,
        labels,
        {"product": [s["rtf_product"] for _, s in rows], "bare": [s["rtf_bare"] for _, s in rows]},
        "real-time factor (lower is faster)",
    )
    _bars(
        right,
        labels,
        {"product": [s["wer"] * 100 for _, s in rows], "bare": [s["wer_bare"] * 100 for _, s in rows]},
        "WER %",
    )
    return _save(fig, summary, out / "transcription.png")


def search_growth(results: Result, summary: Result, out: Path) -> str | None:
    r = _ok(results.get("search"))
    if not r or not r["runs"]:
        return None
    runs = r["runs"]
    sizes = [run["chunks"] for run in runs]
    fig, (left, right) = _figure("Search latency as the store grows (all projects, log-log)", 2)
    for mode in SEARCH_MODES:
        points = [(n, run["latency_ms"].get(f"{mode}/all")) for n, run in zip(sizes, runs, strict=True)]
        kept = [(n, v) for n, v in points if v]
        if kept:
            left.plot([n for n, _ in kept], [v["p50"] for _, v in kept], marker="o", label=mode)
            right.plot([n for n, _ in kept], [v["p95"] for _, v in kept], marker="o", label=mode)
    for ax, name in ((left, "p50"), (right, "p95")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("passages")
        ax.set_ylabel(f"{name} ms")
        ax.axhline(100, color="grey", linestyle=":", linewidth=1)
        ax.legend(fontsize=6)
    return _save(fig, summary, out / "search_growth.png")


def ingest_and_ask(results: Result, summary: Result, out: Path) -> str | None:
    ingest, ask = _ok(results.get("ingest")), _ok(results.get("ask"))
    if not ingest and not ask:
        return None
    fig, (left, right) = _figure("Recording to searchable, and where an answer's time goes", 2)
    rec = (ingest or {}).get("record_to_searchable", {})
    if "stop_to_indexed_s" in rec:
        labels = ["live text\nsearchable", "final transcript\nindexed", "baseline: import\nas a file"]
        values = [
            rec["stop_to_live_text_searchable_s"],
            rec["stop_to_indexed_s"],
            rec["baseline_import_to_indexed_s"],
        ]
        left.bar(labels, values, color=["C0", "C0", "C1"])
        left.set_ylabel(f"seconds after stop ({rec['audio_seconds']:.0f} s recording)")
    if ask:
        n, m = ask["no_llm_ms"], ask["model_ms"]
        phases = ["retrieve", "prompt", "first token", "total"]
        _bars(
            right,
            phases,
            {
                "--no-llm": [n["retrieve"]["p50"], n["prompt"]["p50"], 0.0, n["total"]["p50"]],
                ask["model"]: [
                    m["retrieve_and_prompt"]["p50"],
                    0.0,
                    m["first_token"]["p50"],
                    m["total"]["p50"],
                ],
            },
            "p50 ms",
        )
        right.set_yscale("symlog")
    return _save(fig, summary, out / "ingest_ask.png")


def quality(results: Result, summary: Result, out: Path) -> str | None:
    r = _ok(results.get("quality"))
    if not r or not r["retrieval"]:
        return None
    fig, (left, right) = _figure("Retrieval and answer quality on the dev sets", 2)
    sets = list(r["retrieval"])
    modes = ("hybrid", "keyword", "vector")
    series = {m: [r["retrieval"][s]["results"][m]["all"]["recall@400"] for s in sets] for m in modes}
    _bars(left, sets, series, "evidence recall within 400 words")
    runs = r["ask"]
    labels = [f"{a['set']}\n{'no-llm' if a['no_llm'] else a['model']}" for a in runs]
    keys = ("answer_supported", "evidence_cited", "false_abstain")
    _bars(right, labels, {k: [(a["overall"][k] or 0.0) for a in runs] for k in keys}, "share of questions")
    return _save(fig, summary, out / "quality.png")


def stages(results: Result, summary: Result, out: Path) -> str | None:
    ran = {name: r for name, r in results.items() if "peak_rss_mb" in r}
    if not ran:
        return None
    fig, (left, right) = _figure("Each stage in a fresh process: peak memory and time", 2)
    names = list(ran)
    left.barh(names, [r["peak_rss_mb"] for r in ran.values()])
    left.set_xlabel("peak RSS, MB (the stage or a child it waited for)")
    right.barh(names, [r["wall_s"] for r in ran.values()], label="wall")
    right.barh(names, [r["cpu_s"] for r in ran.values()], height=0.4, label="CPU")
    right.set_xlabel("seconds")
    right.legend(fontsize=7)
    for ax in (left, right):
        ax.tick_params(axis="y", labelsize=7)
        ax.invert_yaxis()  # stages top to bottom, in the order they ran
    return _save(fig, summary, out / "stages.png")


def write_plots(results: Result, summary: Result, out: Path) -> list[str]:
    """The PNG files written into `out` (names only); none when matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        summary["plots_skipped"] = "matplotlib is not installed (pip install -e '.[bench]')"
        return []
    makers = (transcription, search_growth, ingest_and_ask, quality, stages)
    return [name for make in makers if (name := make(results, summary, out))]
