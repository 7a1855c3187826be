"""A text file of tens of megabytes, as a long exported document reads: paragraphs of sentences."""

from __future__ import annotations

import random
from pathlib import Path

SENTENCE_WORDS = (
    "the budget for phase one was agreed with the client and the warehouse team will review the pilot"
    " plan next week while Priya checks the invoices from the Oslo depot before the steering meeting"
)
WORDS = tuple(SENTENCE_WORDS.split())


def big_text(path: Path, megabytes: float) -> Path:
    """Prose of `megabytes` MB (same words every time: seeded) in paragraphs of six sentences."""
    chooser = random.Random(18)
    size, limit = 0, int(megabytes * 1_000_000)
    with path.open("w", encoding="utf-8") as out:
        while size < limit:
            sentences = (
                " ".join(chooser.choice(WORDS) for _ in range(chooser.randint(8, 20))).capitalize() + "."
                for _ in range(6)
            )
            paragraph = " ".join(sentences) + "\n\n"
            out.write(paragraph)
            size += len(paragraph)
    return path
