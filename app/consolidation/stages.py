"""Consolidating one recording, stage by stage; each finished stage is recorded, so an interrupted
run resumes at the next one. Stages: self-corrections, off-project stretches, entities, rule facts,
model facts (within a time budget), validity (restatements and supersession), commitments (who owes
what to whom by when, and what later notes say was done), digest, connections.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TypeVar

import numpy as np

from app.library import Library
from memory.consolidate import (
    commitment_store,
    commitments,
    connection_kinds,
    connection_store,
    correction_store,
    digest,
    fact_model,
    fact_store,
    fact_validity,
    facts,
    state,
    stretches,
)
from memory.consolidate import connections as links
from memory.consolidate import corrections as corr
from memory.search import index
from memory.search.chunking import content_hash
from memory.store import note_ops
from memory.store.llm_log import LoggedCall
from memory.store.recordings import get_recording, list_segments
from memory.text import entities, name_book
from memory.text.doc import Doc
from memory.text.name_words import common_word
from memory.text.names import NamedEntity
from memory.text.relevance import STOPWORDS, chunk_count, stems, term_document_counts
from memory.text.said_values import Entity
from models.catalogue import Role
from models.chat import ChatModel
from models.consolidation_prompts import fact_messages, rationale_messages
from models.errors import CancelledError, ModelError

log = logging.getLogger(__name__)

STAGES = (
    "corrections",
    "stretches",
    "entities",
    "facts",
    "model_facts",
    "validity",
    "commitments",
    "digest",
    "connections",
)
MODEL_SECONDS = 90.0  # the model's share of one recording's consolidation (the rules do the rest)
FACT_BATCH = 6  # sentences per model call
MAX_RATIONALES = 6  # connections per recording whose rationale the model writes


@dataclass
class ConsolidationReport:
    recording_id: int
    stages_run: list[str] = field(default_factory=list)
    corrections: int = 0
    stretches: int = 0
    facts: int = 0
    model_facts: int = 0
    superseded: int = 0
    digest_items: int = 0
    commitments: int = 0
    connections: int = 0
    model_calls: int = 0
    seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


Key = TypeVar("Key")


class _Vectors:
    """Segment texts → unit vectors, through the library's embedding cache; {} without a model."""

    def __init__(self, library: Library) -> None:
        self.store = library.store
        try:
            self.embedder = library.models.embedder()
            self.model = library.models.embedding_model_name()
        except ModelError as exc:
            log.warning("connections without meaning: %s", exc.message)
            self.embedder, self.model = None, ""  # type: ignore[assignment]

    def of(self, texts: Mapping[Key, str]) -> dict[Key, np.ndarray]:
        if self.embedder is None or not texts:
            return {}
        shas = {key: content_hash(text) for key, text in texts.items()}
        cached = index.cached_vectors(self.store, shas.values(), self.model)
        missing = {sha: texts[key] for key, sha in shas.items() if sha not in cached}
        if missing:
            order = list(missing)
            computed = dict(zip(order, self.embedder.embed([missing[s] for s in order]), strict=True))
            with self.store.transaction():
                index.cache_vectors(self.store, self.model, computed)
            cached.update(computed)
        return {key: cached[sha] for key, sha in shas.items() if sha in cached}


class Consolidation:
    def __init__(
        self,
        library: Library,
        recording_id: int,
        *,
        model_path: Path | None = None,
        use_model: bool = True,
        model_seconds: float = MODEL_SECONDS,
        cancelled: Callable[[], bool] | None = None,
        progress: Callable[[float, str], None] | None = None,
    ) -> None:
        read_from = time.perf_counter()
        self.library, self.store = library, library.store
        self.recording = get_recording(self.store, recording_id)
        # the people the library has named: "Fenella wants, ugh, wrong client, Lorna wants" puts a
        # name right at the start of a sentence, where only a known name is read as one
        people, _ = commitment_store.party_names(self.store)
        self.doc = Doc(list_segments(self.store, recording_id), self.recording.spoken_at, known_names=people)
        self.entities = entities.doc_entities(self.doc)
        self.corrections = corr.find_corrections(self.doc)
        # The note's one parse, its names and its self-repairs, which every stage reads: part of
        # what consolidating a note costs, though no stage of its own.
        self.read_seconds = round(time.perf_counter() - read_from, 3)
        self.names = state.project_names(self.store)
        self.model_path, self.use_model, self.model_seconds = model_path, use_model, model_seconds
        self.cancelled, self.progress = cancelled, progress
        self.report = ConsolidationReport(recording_id)
        self._chat: ChatModel | None = None
        self._chat_failed = False
        self.rule_facts: list[facts.FactIn] = []

    # --- running ------------------------------------------------------------------------------------
    def run(self) -> ConsolidationReport:
        began = time.perf_counter()
        rid = self.recording.id
        done = state.start(self.store, rid, state.fingerprint(self.store, rid), self._model_name())
        for number, stage in enumerate(STAGES):
            if stage in done:
                continue
            self._check_not_trashed()
            if self.cancelled is not None and self.cancelled():
                raise CancelledError("consolidation stopped; it resumes at the next stage")
            if self.progress is not None:
                self.progress(number / len(STAGES), stage)
            t = time.perf_counter()
            getattr(self, f"_{stage}")()
            state.mark_done(self.store, rid, stage)
            self.report.stages_run.append(stage)
            self.report.stage_seconds[stage] = round(time.perf_counter() - t, 3)
        self._check_not_trashed()
        state.finish(self.store, rid)
        self.report.stage_seconds = {"read": self.read_seconds, **self.report.stage_seconds}
        self.report.seconds = round(self.read_seconds + time.perf_counter() - began, 3)
        return self.report

    def _check_not_trashed(self) -> None:
        """A note put in the trash while it was consolidated: what a stage wrote since goes too."""
        if note_ops.is_trashed(self.store, self.recording.id):
            note_ops.clear_derived(self.store, self.recording.id, keep_decisions=True)
            raise CancelledError("the note was moved to the trash")

    def projects(self) -> list[int]:
        eff = stretches.effective_projects(
            self.store, self.recording.id, self.recording.project_id, [s.idx for s in self.doc.segments]
        )
        return [eff[s.idx] for s in self.doc.segments]

    def _correction_ids(self) -> list[int]:
        return [c.id for c in correction_store.list_corrections(self.store, recording_id=self.recording.id)]

    # --- stages -------------------------------------------------------------------------------------
    def _corrections(self) -> None:
        correction_store.store_corrections(self.store, self.recording.id, self.corrections, self.doc)
        self.report.corrections = len(self.corrections)

    def _read_names(self) -> None:
        """The names read again against the library's known names (once a run; stretches, entities
        and the stages after them use them)."""
        if not getattr(self, "_names_read", False):
            book = name_book.library_names(self.store, self.recording.id)
            self.entities = entities.doc_entities(self.doc, book)
            self._names_read = True

    def _stretches(self) -> None:
        self._read_names()
        runs = stretches.find_stretches(
            self.store, self.recording.id, self.recording.project_id, self.doc, self.entities
        )
        stretches.store_stretches(self.store, self.recording.id, self.doc, runs)
        self.report.stretches = len(runs)

    def _entities(self) -> None:
        self._read_names()
        # A project's own name links nothing: "back to Millbrook" is where the note goes, not a connection
        # (a person named like the firm, "Ilse Kranich", still does). A name is a project's own when
        # it says a word of a project's name that is not an English word, or says only words of it
        # ("Van Aalst" for van-aalst-scope3): "brackenridge-packaging" does not make the "Northern
        # Packaging Transition Fund" one.
        words = [w for n in self.names.values() for w in n.replace("-", " ").replace("_", " ").split()]
        named = set().union(*(facts.context_stems(w) for w in words))
        own = set().union(*(facts.context_stems(w) for w in words if not common_word(w)))

        def project_named(e: Entity) -> bool:
            said = facts.context_stems(e.text)
            if isinstance(e, NamedEntity) and e.label == "person":
                return bool(said & named) and said <= named
            return bool(said & own) or (bool(said) and said <= named)

        # A name said by mistake and put right ("Fenella wants, ugh, wrong client, Lorna wants") is
        # not a mention of that one: it links nothing to her project.
        slips = [(c.wrong.start, c.wrong.end) for c in self.corrections if c.kind == "name"]

        def slip(e: Entity) -> bool:
            return any(a <= e.start and e.end <= b for a, b in slips)

        kept = [
            e for e in self.entities if not (e.kind in entities.NAME_KINDS and (project_named(e) or slip(e)))
        ]
        entities.store_entities(self.store, self.recording.id, self.doc, kept, self.projects())

    def _facts(self) -> None:
        about = fact_store.about_projects(  # asides about another project: filed here, about that one
            self.store, self.recording.id, self.recording.project_id, [s.idx for s in self.doc.segments]
        )
        self.rule_facts = facts.rule_facts(
            self.doc, self.entities, self.corrections, self.projects(), self.names, about
        )
        self.report.facts = fact_store.store_facts(
            self.store, self.recording.id, self.doc, self.rule_facts, self._correction_ids(), source="rules"
        )

    def _model_facts(self) -> None:
        chat = self.chat()
        if chat is None:
            return
        if not self.rule_facts:
            self.rule_facts = facts.rule_facts(
                self.doc, self.entities, self.corrections, self.projects(), self.names
            )
        covered = {self.doc.sentence_at(f.value_start).number for f in self.rule_facts}
        todo = [
            s for s in self.doc.sentences
            if s.number not in covered and not facts.hedged_ranges(s) and len(s.text.split()) >= 4
            and any(s.start <= e.start < s.end for e in self.entities)
        ]  # fmt: skip
        deadline = time.perf_counter() + self.model_seconds
        found: list[facts.FactIn] = []
        for start in range(0, len(todo), FACT_BATCH):
            if time.perf_counter() > deadline or (self.cancelled is not None and self.cancelled()):
                break
            batch = todo[start : start + FACT_BATCH]
            project = self.names.get(self.recording.project_id, "")
            texts = [s.text for s in batch]
            output = self._call(
                chat, "facts", fact_messages(project, texts), fact_model.fact_schema(texts), 200
            )
            found += fact_model.checked_facts(
                self.doc,
                batch,
                fact_model.read_facts(output),
                self.corrections,
                self.projects(),
                self.names,
                self.rule_facts + found,
            )
        self.report.model_facts = fact_store.store_facts(
            self.store, self.recording.id, self.doc, found, self._correction_ids(), source="model"
        )

    def _validity(self) -> None:
        touched = set(self.projects()) | state.fact_projects(self.store, self.recording.id)
        touched |= fact_store.subject_projects(self.store, self.recording.id)  # facts about another project
        vectors = _Vectors(self.library)  # attributes compared by meaning too (MiniLM), when it loads

        def embed(texts: Sequence[str]) -> Mapping[str, np.ndarray]:
            return vectors.of({t: t for t in texts})

        self.report.superseded = sum(
            fact_validity.resolve_validity(self.store, p, embed if vectors.embedder is not None else None)
            for p in sorted(touched)
        )

    def _commitments(self) -> None:
        people, not_people = commitment_store.party_names(self.store)
        found = commitments.find_commitments(self.doc, self.entities, people=people, not_people=not_people)
        self.report.commitments = commitment_store.store_commitments(
            self.store, self.recording.id, self.doc, found, self.projects()
        )

    def _digest(self) -> None:
        items = digest.digest_items(self.doc, self.entities, self.projects())
        digest.store_digest(self.store, self.recording.id, self.doc, items)
        self.report.digest_items = len(items)

    def _connections(self) -> None:
        connection_store.forget_recording(self.store, self.recording.id)
        # Only named things and days connect: pairs close in meaning alone found no link on the
        # development sets that a shared name did not; meaning and shared words order the pairs.
        candidates = links.entity_candidates(self.store, self.recording.id)
        vectors = _Vectors(self.library)
        words = _SharedWords(self.store)
        links.describe(
            candidates,
            lambda refs: vectors.of({r.segment_id: r.text for r in refs}),
            words.score,
            entities.explicit_dates(self.entities, self.doc),
        )
        covered = links.covered_things(self.store, set(self.projects()))
        chosen = links.choose(candidates.values(), links.load_weights(self.store), covered)
        for number, c in enumerate(chosen):
            rationale, source = (
                connection_kinds.template_rationale(c, words.common(c.a.text, c.b.text)),
                "template",
            )
            if number < MAX_RATIONALES and (line := self._rationale(c)) is not None:
                rationale, source = line, "model"
            if connection_store.store_connection(self.store, c, rationale, source) is not None:
                self.report.connections += 1

    # --- the model ----------------------------------------------------------------------------------
    def _model_name(self) -> str | None:
        if not self.use_model:
            return None
        return self.model_path.name if self.model_path else self.library.models.name_for(Role.CHAT)

    def chat(self) -> ChatModel | None:
        if not self.use_model or self._chat_failed:
            return None
        if self._chat is None:
            try:
                self._chat = self.library.models.chat(self.model_path)
                self._chat.load()
            except ModelError as exc:
                if self.model_path is not None:
                    raise
                log.warning("consolidating without a chat model: %s", exc.message)
                self._chat_failed = True
                return None
        return self._chat

    def _call(
        self,
        chat: ChatModel,
        purpose: str,
        messages: list[dict[str, str]],
        schema: dict | None,
        max_tokens: int,
        quoting: tuple[int, ...] = (),
    ) -> str:
        """One logged call; `quoting`: the notes whose words the messages hold besides this one."""
        call = LoggedCall(
            self.store,
            chat,
            purpose=purpose,
            model=chat.name,
            messages=messages,
            schema=schema,
            max_tokens=max_tokens,
            cancelled=self.cancelled,
            recording_ids=(self.recording.id, *quoting),
        )
        try:
            call.text()
        except ModelError as exc:
            log.warning("the chat model failed during consolidation: %s", exc.message)
        finally:
            self.report.model_calls += 1
        return call.completion.text

    def _rationale(self, c: links.Candidate) -> str | None:
        chat = self.chat()
        if chat is None:
            return None
        messages = rationale_messages(
            self.names.get(c.a.project_id, ""),
            c.a.text,
            self.names.get(c.b.project_id, ""),
            c.b.text,
            connection_kinds.shared_text(c),
        )
        output = self._call(
            chat, "connection", messages, None, 48, quoting=(c.a.recording_id, c.b.recording_id)
        )
        return usable_rationale(output, c, self.names)


def revalidate(library: Library, project_ids: Iterable[int]) -> int:
    """Restatement and supersession of the facts about these projects, computed again (as the
    validity stage does) after a note left them: trashed, or moved to another project. Returns
    the supersessions found."""
    vectors = _Vectors(library)

    def embed(texts: Sequence[str]) -> Mapping[str, np.ndarray]:
        return vectors.of({t: t for t in texts})

    return sum(
        fact_validity.resolve_validity(library.store, p, embed if vectors.embedder is not None else None)
        for p in sorted(set(project_ids))
    )


_ALLOWED = stems(
    "both same also link links linked relate related share shares shared mention mentions project projects"
    " notes note one two and the a is are in of to for with works work working involved appears appear"
    " across each person people company vendor supplier date day clash amount similar topic about on at"
)


def usable_rationale(text: str, c: links.Candidate, names: dict[int, str]) -> str | None:
    """One line whose every content word is in one of the passages (or names their projects)."""
    line = " ".join(text.strip().strip('"').split())
    line = line.split("\n")[0]
    if not 3 <= len(line.split()) <= 30 or "{" in line or "<" in line:
        return None
    allowed = stems(c.a.text) | stems(c.b.text) | stems(" ".join(names.values())) | _ALLOWED
    content = {s for s in stems(line) if s not in STOPWORDS}
    return line if content and content <= allowed else None


class _SharedWords:
    """Shared content words of two passages, weighted by how rare they are in the library."""

    def __init__(self, store: object) -> None:
        self.store = store
        self.df: dict[str, int] = {}
        self.documents = max(1, chunk_count(store))  # type: ignore[arg-type]

    def _words(self, text: str) -> set[str]:
        return {w for w in stems(text) if w not in STOPWORDS and len(w) > 3 and not w.isdigit()}

    def _idf(self, words: Sequence[str]) -> dict[str, float]:
        missing = [w for w in words if w not in self.df]
        if missing:
            self.df.update(term_document_counts(self.store, missing))  # type: ignore[arg-type]
        import math

        return {w: math.log(1 + self.documents / (1 + self.df.get(w, 0))) for w in words}

    def score(self, a: str, b: str) -> float:
        wa, wb = self._words(a), self._words(b)
        idf = self._idf(sorted(wa | wb))
        shared = sum(idf[w] for w in wa & wb)
        return min(1.0, shared / max(1e-9, min(sum(idf[w] for w in wa), sum(idf[w] for w in wb))))

    def common(self, a: str, b: str) -> list[str]:
        shared = sorted(self._words(a) & self._words(b))
        idf = self._idf(shared)
        return sorted(shared, key=lambda w: -idf[w])
