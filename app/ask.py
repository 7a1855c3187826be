"""Ask across all projects: retrieve, select a small context, let the model propose, check, answer.

The pipeline (each step measured):
1. hybrid retrieval (app.search), scoped to projects and to what was said up to `as_of`;
2. a small context of whole raw segments within the word budget (memory.answer.context), each passage
   judged relevant or not by word evidence (memory.answer.relevance_gate.judge_passages);
3. nothing relevant: "Not in your notes", with the nearest passages; no model call at all;
4. otherwise the chat model answers as JSON claims over the relevant passages only; each claim is
   checked as soon as it is complete and streamed if it survives (app/ask_model.py);
5. no surviving stated claim (or `no_llm`, or no chat model): the extractive answer, the best
   sentence of each relevant passage, verbatim.
Every model call is written to the llm_calls table, failed ones included.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from app.answer_text import claim_text, corrected_text, replaced_text
from app.ask_model import ModelPrompt, build_prompt, chat_model, fitted_prompt, model_claims
from app.ask_run import EXTRACTIVE_CLAIMS, AskRun, TextSink
from app.library import Library
from app.search import resolve_scope, search
from memory.answer.across import asks_across_projects, passages_across
from memory.answer.answerability import AnswerabilityModel, features, shipped_model
from memory.answer.answers import Answer, Claim, Labeller, show_corrected_lines
from memory.answer.asked_kind import frame_stems, lacks_asked_kind, question_kind
from memory.answer.commitment_answers import commitment_claims, commitment_question, matching_commitments
from memory.answer.connection_answers import connection_claims, matching_connections
from memory.answer.context import ContextPassage, passages_from_hits
from memory.answer.date_readings import with_date_readings
from memory.answer.fact_answers import with_current_values
from memory.answer.near_words import with_near_words
from memory.answer.not_yet_known import says_not_known
from memory.answer.question_parts import with_parts
from memory.answer.quoted_passages import with_quoted_passages
from memory.answer.relevance_gate import Gate, judge_passages
from memory.answer.sentence_ranker import SentenceRanker, shipped_ranker
from memory.search.hits import Hit
from memory.search.ranking import merge_per_project
from memory.search.retrieval import preload_vectors
from memory.store import projects as project_store
from memory.store.clock import parse_time, to_store_time
from memory.store.llm_log import LoggedCall
from memory.text.name_book import names_said_in
from memory.text.nlp import parse
from memory.text.quotes import ClaimKind
from memory.text.relevance import QuestionTerms, load_question_terms, question_names, stems
from models.catalogue import Role
from models.errors import InputError, ModelError
from models.prompts import answer_messages

log = logging.getLogger(__name__)

NOT_FOUND = "Not in your notes."
RETRIEVE_K = 10
NEAREST = 3
# A question asked across projects is also searched in each of the first few projects found (and
# the ones it names), and each project's best passage is put first (memory/answer/across.py).
ACROSS_PROJECTS = 3
PER_PROJECT = 3


@dataclass(frozen=True)
class AskRequest:
    """A question and how to answer it: what the CLI, the Ask panel and the evaluations send.

    `as_of` answers as of a past moment: notes spoken later are left out, and recency is measured
    from then. `no_llm` answers with the best passages themselves; `model_path` uses another GGUF
    chat model; `gate` and `word_budget` override the relevance gate and the context size.
    """

    question: str
    projects: list[str] | None = None
    as_of: datetime | str | None = None
    no_llm: bool = False
    model_path: Path | None = None
    gate: Gate | None = None
    word_budget: int | None = None
    include_archived: bool = False  # archived projects are left out unless named or asked for
    answerability: AnswerabilityModel | None = None  # another model than the shipped one (evaluations)
    use_answerability: bool = True  # False: the relevance gate alone decides (evaluations' baseline)
    # Asked across projects (searched per project, one passage each first): None = read from the
    # question (memory/answer/across.py); always False when one project is named.
    across_projects: bool | None = None
    sentence_ranker: SentenceRanker | None = None  # another ranker than the shipped one (evaluations)
    use_sentence_ranker: bool = True  # False: word coverage chooses the quoted sentence (baseline)

    def asked_at(self) -> datetime | None:
        return parse_time(self.as_of) if isinstance(self.as_of, str) else self.as_of

    def asked_until(self) -> str | None:
        """The store time the question is asked as of (later notes and facts do not count)."""
        when = parse_time(self.as_of) if isinstance(self.as_of, str) else self.as_of
        return to_store_time(when) if when is not None else None


def ask(
    library: Library,
    request: AskRequest,
    *,
    on_text: TextSink | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Answer:
    """Answer the request's question from the library's notes; `on_text` receives the answer as it
    is checked, `cancelled` is polled while the model writes."""
    question = " ".join(request.question.encode("utf-8", "surrogatepass").decode("utf-8", "replace").split())
    if not question:
        raise InputError(
            "the question is empty", fix='ask something, e.g. verbatim ask "when is the workshop?"'
        )
    model_path = request.model_path
    if model_path is not None and not request.no_llm and not Path(model_path).expanduser().is_file():
        raise ModelError(
            f"no chat model at {model_path}", fix="give the path of a GGUF file, or leave out --model"
        )
    started = time.perf_counter()
    when = parse_time(request.as_of) if isinstance(request.as_of, str) else request.as_of
    until = to_store_time(when) if when is not None else None
    hits = search(
        library,
        question,
        projects=request.projects,
        k=RETRIEVE_K,
        as_of=when,
        until=until,
        include_archived=request.include_archived,
    )
    across = request.across_projects
    if request.projects is not None and len(request.projects) == 1:
        across = False
    named = _named_projects(library, question, request)
    if across is None:
        across = len(named) > 1 or asks_across_projects(question)
    if across:
        hits = _hits_across_projects(library, question, hits, named, request, when, until)
    return answer_hits(
        library,
        replace(request, question=question, across_projects=across),
        hits,
        on_text=on_text,
        cancelled=cancelled,
        started=started,
    )


def _named_projects(library: Library, question: str, request: AskRequest) -> list[str]:
    """Projects in scope whose name the question says ("at Millbrook … the Tidewater museum"): a word
    of a project's name among the question's names (read by spaCy, memory/text/relevance.py)."""
    asked = {stem for stem in question_names(question) if len(stem) > 2}
    every = project_store.list_projects(library.store, include_archived=request.include_archived)
    if request.projects:
        every = [p for p in every if p.name in request.projects or p.slug in request.projects]
    return [p.name for p in every if asked & {s for s in stems(p.name.replace("-", " ")) if len(s) > 2}]


def _hits_across_projects(
    library: Library,
    question: str,
    hits: list[Hit],
    named: list[str],
    request: AskRequest,
    when: datetime | None,
    until: str | None,
) -> list[Hit]:
    """The all-project hits merged with searches of single projects: the projects the question
    names, then those of the best hits, up to ACROSS_PROJECTS; each project's best passage first."""
    order = list(dict.fromkeys([*named, *(h.project for h in hits)]))[:ACROSS_PROJECTS]
    if len(order) < 2:
        return hits
    per_project = [
        search(library, question, projects=[name], k=PER_PROJECT, as_of=when, until=until) for name in order
    ]
    return merge_per_project(hits, per_project, RETRIEVE_K)


def answer_hits(
    library: Library,
    request: AskRequest,
    hits: list[Hit],
    *,
    on_text: TextSink | None = None,
    cancelled: Callable[[], bool] | None = None,
    started: float | None = None,
) -> Answer:
    """Everything after retrieval (also what `bench ask` times on a synthetic store).

    `started` is when the question was asked (perf_counter); retrieval is the time up to now.
    """
    question = request.question
    started = started if started is not None else time.perf_counter()
    timings = {"retrieve_ms": (time.perf_counter() - started) * 1000, "first_token_ms": 0.0, "total_ms": 0.0}
    store = library.store
    scope = resolve_scope(library, request.projects, None, None, include_archived=request.include_archived)
    # The words that say what kind of thing answers ("the name of", "what time") are not words the
    # answer says.
    terms = load_question_terms(store, question, scope.project_ids).without(frame_stems(question))
    budget = request.word_budget or int(library.settings.ask_word_budget)
    passages = passages_from_hits(store, hits, terms, word_budget=budget)
    gate = request.gate or Gate()
    terms = with_parts(_with_near_words(library, terms, passages, gate), question)
    run = AskRun(library, question, passages, terms, gate, on_text, cancelled, started, timings)
    run.until = request.asked_until()
    across = bool(request.across_projects)
    # Across projects, a name may live in any of the projects the passages come from.
    homes = {p.project_id for p in passages} if across else None
    found = judge_passages(store, passages, terms, run.gate, name_projects=homes, asked_at=request.asked_at())
    if across:
        found = bool(passages_across(store, passages, terms, max_rank=run.gate.max_rank)) or found
    run.across = across
    run.ranker = (request.sentence_ranker or shipped_ranker()) if request.use_sentence_ranker else None
    values = features(terms, passages, hits, request.asked_at())
    model = (request.answerability or shipped_model()) if request.use_answerability else None
    probability = model.probability(values) if model is not None else None
    if model is not None and probability is not None and found and probability < model.threshold:
        found = veto(passages)
    answer = _consolidated_answer(run, scope.project_ids, across)
    if found and answer is None and _quotes_do_not_answer(run):
        found = False
    prompt = build_prompt(run) if found and answer is None else None
    run.timings["prompt_ready_ms"] = run.ms()
    if answer is None and prompt is not None:
        answer = _answer(run, prompt, request.no_llm, request.model_path)
    if answer is None:  # nothing relevant, or nothing that could be stated
        run.emit(NOT_FOUND)
        answer = Answer(question, False, None, [], passages[:NEAREST], timings, mode="not_found")
    if not timings["first_token_ms"]:
        timings["first_token_ms"] = run.first_text_ms if run.first_text_ms is not None else run.ms()
    timings["total_ms"] = run.ms()
    answer.answerable_p, answer.features = probability, values
    return answer


def _with_near_words(
    library: Library, terms: QuestionTerms, passages: Sequence[ContextPassage], gate: Gate
) -> QuestionTerms:
    """The question's words with the passages' words that say them another way ("last" for
    "final"), by the embedding model (memory/answer/near_words.py); as asked when there is none."""
    try:
        embed = library.models.embedder().embed
        return with_near_words(
            terms, passages, embed, library.models.embedding_model_name(), max_rank=gate.max_rank
        )
    except ModelError as exc:
        log.info("question words as asked only: %s", exc)
        return terms


def _consolidated_answer(run: AskRun, project_ids: Sequence[int] | None, across: bool) -> Answer | None:
    """An answer from what consolidation found, when it speaks to the question: who owes what
    (memory/answer/commitment_answers.py: each promise and the words that said it was done,
    quoted), or, asked across projects, what two projects share (memory/answer/connection_answers.py:
    both sides quoted, and why they meet). Each line cites the stretch of its note it was said in
    (memory/answer/quoted_passages.py: who "he" is, what list); the passages the search found for
    the question's words are not what answers it, so they are not shown beside it. None when
    neither speaks to it."""
    store, claims, mode = run.library.store, [], ""
    asked = commitment_question(run.question)
    if asked is not None:
        owed = matching_commitments(store, asked, project_ids=project_ids, until=run.until)
        today = parse_time(run.until).date() if run.until else datetime.now().date()
        claims, mode = commitment_claims(owed, today=today), "commitments"
    if not claims and across:
        shared = matching_connections(
            store, run.terms, min_support=run.gate.min_support, project_ids=project_ids, until=run.until
        )
        claims, mode = connection_claims(shared), "connections"
    if not claims:
        return None
    claims, passages = with_quoted_passages(store, claims)
    for claim in claims:
        run.emit(claim_text(claim))
    return Answer(run.question, True, None, claims, passages, run.timings, mode=mode)


def _quotes_do_not_answer(run: AskRun) -> bool:
    """The sentences an answer would quote (the extractive choice, also what the model is checked
    against) do not answer: they do not say the kind of thing asked for (memory/answer/asked_kind.py),
    or the newest of them says it is not known yet ("she wouldn't tell me who":
    memory/answer/not_yet_known.py; an older one is not enough, a later note may have the answer)."""
    quotes = [c for c in run.extractive() if c.kind == ClaimKind.STATED and c.citations]
    if not quotes:
        return False
    voices = max((len(p.speakers) for p in run.passages if p.relevant), default=0)
    projects = sorted({p.project for p in run.passages if p.relevant})
    said = names_said_in(
        run.library.store, [s for c in quotes for cite in c.citations for s in cite.segment_ids]
    )
    stated = [c.text for c in quotes]
    if lacks_asked_kind(run.question, run.terms, stated, voices, projects, across=run.across, names=said):
        return True
    newest = max(quotes, key=lambda c: (c.citations[0].spoken_at, c.citations[0].start))
    return says_not_known(newest.text, question_kind(run.question), run.question)


def veto(passages: list[ContextPassage]) -> bool:
    """The answerability model says the notes do not answer what the gate kept passages for (the
    passages share the question's words, not what it asks): nothing is relevant. The model only
    ever takes an answer away; where the gate kept nothing it is not asked (measured: letting it
    also answer what the gate refused cost more false answers than it found, docs/benchmarks.md)."""
    for p in passages:
        p.relevant = False
    return False


def _answer(run: AskRun, prompt: ModelPrompt, no_llm: bool, model_path: Path | None) -> Answer | None:
    claims: list[Claim] = []
    dropped, model_name, call_id = 0, None, None
    chat = None if no_llm else chat_model(run.library, model_path)
    if chat is not None:
        labeller = Labeller(run.passages, run.terms, run.gate)
        model_name = run.library.models.name_for(Role.CHAT) if model_path is None else chat.name
        claims, call_id = model_claims(run, fitted_prompt(run, prompt, chat), chat, model_name, labeller)
        dropped = labeller.dropped
    stated = sum(1 for c in claims if c.kind == ClaimKind.STATED)
    mode = "model" if stated else "extractive"
    # The best sentences of the relevant passages the model did not cite follow its claims (or
    # stand alone when none of its claims survived the checks): every relevant passage speaks.
    cited = {c.citations[0].passage for c in claims}
    extra = [c for c in run.extractive() if c.citations[0].passage not in cited]
    streamed = list(claims)  # the model's claims were shown as they were checked
    claims += extra[: max(0, EXTRACTIVE_CLAIMS - stated)]
    if not claims:
        return None
    # A value a later note superseded is preceded by the current one; a current value says what
    # it replaced, and when (consolidation's facts: memory.answer.fact_answers).
    claims = with_current_values(run.library.store, claims, until=run.until)
    show_corrected_lines(claims, run.passages)
    if question_kind(run.question) == "time":  # "when": the days a quote says, as calendar days
        claims = with_date_readings(claims)
    for claim in claims:
        if claim not in streamed:
            run.emit(claim_text(claim))
            continue
        if claim.replaces:
            run.emit(replaced_text(claim))
        if claim.corrected is not None:
            run.emit(corrected_text(claim))
    answer = Answer(
        run.question, True, model_name, claims, run.passages, run.timings, mode=mode, dropped=dropped
    )
    answer.llm_call_id = call_id
    return answer


def warm_up(library: Library) -> bool:
    """Load what the first question needs, so that it is answered as fast as the next ones: the
    embedding model, the chat model with the answer rules already read (a one-token call over the
    same rules; the next question reuses them, ~200 tokens the model does not read again), and a
    large library's in-memory vector copy (memory/search/binary_index.py).
    Returns whether the chat model is ready. Meant for the desktop app's start, in the background."""
    search(library, "warm up", k=1)  # the embedding model loaded, the index's first pages read
    preload_vectors(library.store)
    with suppress(ModelError):  # without the language model, the first question says what is missing
        parse("Who did we meet in June?")  # spaCy reads every question (its names, asked across projects)
    chat = chat_model(library, None)
    if chat is None:
        return False
    messages = answer_messages("Are you ready?", [])
    call = LoggedCall(
        library.store,
        chat,
        purpose="warm-up",
        model=library.models.name_for(Role.CHAT),
        messages=messages,
        max_tokens=1,
    )
    try:
        call.text()
    except ModelError:
        return False
    return True
