"""The chat model's part of an answer (app/ask.py step 4): what it is given, a few relevant passages
narrowed to its token budget (a small model reads 300 words faster and better), and which of the
claims it streams survive the checks (memory.answer.answers.Labeller), each shown as soon as it does.
"""

from __future__ import annotations

import logging
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.answer_text import claim_text
from app.ask_run import AskRun
from app.library import Library
from memory.answer.across import one_per_project
from memory.answer.answers import Claim, Labeller, prompt_sentences
from memory.answer.claims import ClaimReader, claim_schema, sentences
from memory.answer.context import ContextPassage, focus_passage
from memory.store.llm_log import LoggedCall
from models.chat import ChatModel
from models.errors import ModelError
from models.prompts import PromptPassage, answer_messages

log = logging.getLogger(__name__)

MAX_CLAIMS = 2  # each claim costs ~60 generated tokens: the first must show quickly
MAX_ANSWER_TOKENS = 320  # constrained output streams in short pieces: ~2 claims
MODEL_PASSAGES = 3
MODEL_WORDS = 300  # of the context, what the model reads (prompt time dominates its first token)
# The model's first token waits for it to read the prompt: ~300 tokens a second for SmolLM2 on 2
# cores (the rules before the passages are read once and kept). The passages and question stay
# within this many of the model's own tokens: fewer words per passage first, then fewer passages.
MODEL_TOKENS = 300
MIN_PASSAGE_WORDS = 40


def chat_model(library: Library, model_path: Path | None) -> ChatModel | None:
    """The chat model, loaded; None (extractive answers) when the configured one is unavailable.

    A model the user names with --model must work: its failure is an error, not a silent fallback.
    """
    try:
        chat = library.models.chat(model_path)
        chat.load()
        return chat
    except ModelError as exc:
        if model_path is not None:
            raise
        log.warning("answering without a chat model: %s", exc.message)
        return None


@dataclass(frozen=True)
class ModelPrompt:
    """What the chat model is given: the messages and the schema its output must follow."""

    passages: list[ContextPassage]
    messages: list[dict[str, str]]
    schema: dict[str, Any]


def build_prompt(run: AskRun, words: int = MODEL_WORDS, count: int = MODEL_PASSAGES) -> ModelPrompt | None:
    """None when no relevant passage has raw segments to quote (e.g. only a live transcript).

    `words`: what the model reads of the passages, at most; `count`: how many passages at most."""
    relevant = _model_context(run, words, count)
    if not relevant:
        return None
    each = max(MIN_PASSAGE_WORDS, words // len(relevant))
    shown = [(p, prompt_sentences(p, run.terms, each)) for p in relevant]
    schema = claim_schema([(p.number, chosen) for p, chosen in shown], max_claims=MAX_CLAIMS)
    messages = answer_messages(run.question, [_prompt_passage(p, chosen) for p, chosen in shown])
    return ModelPrompt(relevant, messages, schema)


def model_claims(
    run: AskRun, prompt: ModelPrompt, chat: ChatModel, model_name: str, labeller: Labeller
) -> tuple[list[Claim], int | None]:
    call = LoggedCall(
        run.library.store,
        chat,
        purpose="ask",
        model=model_name,
        messages=prompt.messages,
        schema=prompt.schema,
        max_tokens=MAX_ANSWER_TOKENS,
        cancelled=run.cancelled,
        recording_ids=[p.recording_id for p in prompt.passages],
    )
    reader = ClaimReader()
    claims: list[Claim] = []
    try:
        with closing(call.stream()) as pieces:
            for piece in pieces:
                if not run.timings["first_token_ms"]:
                    run.timings["first_token_ms"] = run.ms()
                for raw in reader.feed(piece):
                    for claim in labeller.label(raw):
                        claims.append(claim)
                        run.emit(claim_text(claim))
                if labeller.repeated:
                    break  # a weak model repeats itself until it runs out of tokens
    except ModelError as exc:
        log.warning("the chat model failed; answering extractively: %s", exc.message)
    return claims, call.call_id  # logged once its stream closed


def fitted_prompt(run: AskRun, prompt: ModelPrompt, chat: ChatModel) -> ModelPrompt:
    """`prompt` narrowed until the passages and question are within MODEL_TOKENS of the model's
    tokens: fewer words per passage, down to MIN_PASSAGE_WORDS, then fewer passages."""
    words, count = MODEL_WORDS, len(prompt.passages)
    while chat.count_tokens(prompt.messages[-1]["content"]) > MODEL_TOKENS:
        if words > MIN_PASSAGE_WORDS * count:
            words = max(MIN_PASSAGE_WORDS * count, words * 3 // 4)
        elif count > 1:
            count -= 1
        else:
            break  # one passage at its fewest words: the model reads it all
        prompt = build_prompt(run, words, count) or prompt
    return prompt


def _model_context(
    run: AskRun, words: int = MODEL_WORDS, count: int = MODEL_PASSAGES
) -> list[ContextPassage]:
    """The few most relevant passages, narrowed: a small model reads 300 words faster and better."""
    ranked = sorted(
        (p for p in run.passages if p.relevant and p.segments), key=lambda p: (-p.support.coverage, p.rank)
    )
    if run.across:
        ranked = one_per_project(ranked)
    chosen = sorted(ranked[:count], key=lambda p: p.number)
    each = max(MIN_PASSAGE_WORDS, words // max(1, len(chosen)))
    return [focus_passage(p, run.terms, each) for p in chosen]


def _prompt_passage(p: ContextPassage, chosen: list[str]) -> PromptPassage:
    """The passage as the model reads it: whole (speakers named) when it fits, else its chosen
    sentences (the prompt's time to first token grows with every word)."""
    whole = sentences(p.text)
    if chosen == whole or not chosen:
        text = p.labelled_text()
    else:
        first, last = whole.index(chosen[0]), whole.index(chosen[-1])
        text = ("… " if first > 0 else "") + " ".join(chosen) + (" …" if last < len(whole) - 1 else "")
    return PromptPassage(p.number, p.project, p.spoken_at, p.start, p.title, text)
