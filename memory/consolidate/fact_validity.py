"""Facts' validity, recomputed per project: which fact restates an earlier one, which supersedes one
(what two facts have in common, and the rows read: memory/consolidate/fact_pairs.py).

Validity is resolved per subject (the project a fact is about, wherever it was said: an aside
about project A in project B's note is filed under B and resolved with A's facts), oldest first:
- a fact whose value an earlier comparable fact already said restates it (the earlier one stays
  the origin): values compare by meaning (dates by the days they cover, "seven eighty" as 780,000
  when said short, names by their words);
- a fact said as a change supersedes an earlier current fact of another note when the values are
  comparable (the same kind: an amount never replaces a date; a count of the same thing; an amount
  in the same currency and rate; in or out of scope of the same thing) and differ, and there is
  evidence that they are about the same attribute: their attributes share rare words (lemmas and
  Snowball stems, weighted by rarity among the subject's facts; also the cosine of the attributes'
  MiniLM embeddings when the stage passes `embed`), or the change names the earlier value or what
  it replaces ("from Textwell to ...", "switch me from the day rate to ..."), or, between notes in
  different languages (whose words cannot be compared), it is the only earlier amount of about
  the same size; failing all of these, the earlier fact whose sentence says most the same as the
  new one's (MiniLM cosine of the two sentences, at least MIN_SENTENCE_COSINE; with `embed`), or
  the only earlier sum of thousands or more of about the same size (in the same language); where
  none of these chose one, a learned reader of the same signals may (memory/consolidate/
  supersession_model.py, a logistic regression trained on the keyed sets, above its threshold);
- a fact said plainly, not as a change ("go-live is the 4th of January"), supersedes only an
  earlier value of the same kind (a bare number and an amount count as one: "the budget is a
  hundred and ten thousand" names no currency) whose attribute is most alike (at least
  PLAIN_SHARE), and never
  when it says what happened ("sent it on Wednesday, two days early" meets a deadline, it does not
  move it) or says nothing of what its value is of, and only in English (a German attribute is
  the words near the value, not what the parse says it is of: "das Angebot liegt bei" is any offer).
  The earlier fact gets valid_until and superseded_by; both stay. A fact that said the replaced
  value again before it was replaced (a restatement) is replaced with it. The date of
  something that happened ("I sent the plan on Monday") is never superseded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.consolidate.fact_pairs import (
    MIN_SHARE,
    NUMERIC,
    Attributes,
    Embed,
    Row,
    comparable,
    day_named_in,
    named_in,
    names_what,
    number_of,
    project_rows,
    replaced,
    same_day_of_month,
    same_value,
)
from memory.consolidate.supersession_model import learned_choice, shipped_model
from memory.store.store import Store
from memory.text.dates import WEEKDAYS
from memory.text.quotes import ClaimKind

MIN_SHARE_BARE = 0.5  # two bare numbers (no unit, no currency): only their attributes say what they are
# A value said plainly, not as a change ("go-live is the 4th of January 2028" after "go-live is
# planned for the first of October"), supersedes only an earlier value of the same kind whose
# attribute is this alike: what a new note says of the same thing is its value now. Lower (0.65)
# took wrong pairs on supply-chain-advisor; higher (0.75) found none. Chosen leave one set out over
# the eight keyed sets, the same on every fold (docs/benchmarks.md).
PLAIN_SHARE = 0.7
MAX_RATIO = 1.5  # two amounts said in different languages: how far apart the same budget may move
# A change said as a sum of thousands or more ("the appeal is now going for two point one million")
# with one earlier sum of about its size in the subject's current facts replaces that one: figures
# that large rarely meet by chance, small counts do ("eight days", "at nine"). Decided on
# charity-fundraising alone (no other keyed set moves; docs/benchmarks.md).
MIN_DISTINCT = 1000.0
# MiniLM cosine of two sentences that say a value of the same thing, when their attributes' words
# do not show it ("the new pots are now pencilled in for ..." after "relaunch the range in the new
# pots on ..."): chosen leave one set out over the five keyed sets (docs/benchmarks.md)
MIN_SENTENCE_COSINE = 0.5


def _near(old: Row, new: Row, at_least: float = 0.0) -> bool:
    """Two amounts (or bare numbers) of about the same size (within MAX_RATIO), each at least
    `at_least`."""
    x, y = number_of(old), number_of(new)
    if old.value_kind not in ("amount", "number") or x is None or y is None or min(x, y) <= 0:
        return False
    return min(x, y) >= at_least and max(x, y) / min(x, y) <= MAX_RATIO


_WEEKDAY_ONLY = re.compile(rf"(?:on\s+)?(?:(?:this|next|last)\s+)?(?:{'|'.join(WEEKDAYS)})s?", re.I)


def _by_sentence(current: Sequence[Row], new: Row, attributes: Attributes) -> Row | None:
    """The earlier fact whose sentence says the most the same as the new one's (MiniLM cosine at
    least MIN_SENTENCE_COSINE), for a change whose attribute matches no earlier one by its words.
    Not a day named by its weekday alone ("they like Thursday evenings": a day of every week), nor
    a date the new sentence names again as its day of the month ("a clash on the 23rd")."""
    candidates = [
        o
        for o in current
        if not (
            o.value_kind == "date" and (_WEEKDAY_ONLY.fullmatch(o.value.strip()) or same_day_of_month(o, new))
        )
    ]
    scored = [(attributes.sentences(o, new), o.spoken_at, o.id, o) for o in candidates]
    best = max(scored, default=None, key=lambda s: s[:3])
    return best[3] if best is not None and best[0] >= MIN_SENTENCE_COSINE else None


def _without_shared_words(current: Sequence[Row], new: Row, attributes: Attributes) -> Row | None:
    """The earlier fact a change replaces when no attribute is alike enough: the only amount of
    about its size in a note of the other language, else the fact whose sentence is most like
    the new one's, else the only earlier sum of thousands or more of about its size."""
    across = [o for o in current if o.language != new.language and _near(o, new)]
    if len(across) == 1:
        return across[0]
    if (alike_sentence := _by_sentence(current, new, attributes)) is not None:
        return alike_sentence
    near = [o for o in current if o.language == new.language and _near(o, new, MIN_DISTINCT)]
    return near[0] if len(near) == 1 else None


def resolve_validity(
    store: Store, project_id: int, embed: Embed | None = None, *, learned: bool = True
) -> int:
    """Recompute restatements and supersession for the facts about one project (its own, and
    those said about it in other projects' notes), oldest first. Returns supersessions.

    A fact whose value an earlier fact already said (dates by what they cover, "seven eighty" as
    780,000) restates it. A fact said as a change supersedes the most alike earlier current fact of
    another note with a comparable value (same kind; a count of the same thing; an amount in the
    same currency and rate) when their attributes say the same thing (shared rare words, or the
    embeddings' cosine with `embed`), or when the earlier value is named again where the new
    one is said ("from Textwell to Pingmate"), or, between notes in different languages (where
    words cannot be compared), when it is the only earlier amount of about the same size, or,
    with `embed` and none of these, the earlier fact whose sentence is most like the new one's;
    where none of these chose one, the learned reader's choice (`learned`, when a model ships:
    memory/consolidate/supersession_model.py).
    """
    model = shipped_model() if learned else None
    rows = project_rows(store, project_id)
    attributes = Attributes(rows, embed)
    said_with: dict[tuple[int, str], list[Row]] = {}  # the facts of one sentence
    for r in rows:
        said_with.setdefault((r.recording_id, r.quote), []).append(r)
    superseded = 0
    seen: dict[str, list[Row]] = {}  # earlier facts by family of value (only those can compare)
    for new in rows:
        family = seen.setdefault("numeric" if new.value_kind in NUMERIC else new.value_kind, [])
        earlier = [
            old
            for old in family
            if old.kind in (ClaimKind.STATED, ClaimKind.INFERRED) and comparable(old, new)
        ]
        family.append(new)
        same = [
            o
            for o in earlier
            if same_value(o, new)
            and (attributes.alike(o, new) > 0 or (o.language != new.language and o.value_kind in NUMERIC))
        ]
        if same:
            origin = same[0]
            new.restates = origin.restates or origin.id
            continue
        plain = not new.changed  # said as it is now, not as a change
        if plain and (new.happened or not names_what(new) or new.language != "en"):
            continue  # German attributes are words near the value, not its parse: too loose alone
        current = [
            o
            for o in earlier
            if o.valid_until is None and o.restates is None and o.spoken_at < new.spoken_at and not o.happened
        ]
        scored: list[tuple[int, float, str, Row]] = []
        for o in current:
            alike = attributes.alike(o, new)
            if plain:  # only what plainly says the same thing, with a value of the same kind
                kinds = {o.value_kind, new.value_kind}
                if alike >= PLAIN_SHARE and (len(kinds) == 1 or kinds == {"number", "amount"}):
                    scored.append((1, alike, o.spoken_at, o))
                continue
            if named_in(o, new, alike) or replaced(o, new) or day_named_in(o, new, said_with):
                scored.append((2, alike, o.spoken_at, o))
            elif alike >= (MIN_SHARE_BARE if o.value_kind == new.value_kind == "number" else MIN_SHARE):
                scored.append((1, alike, o.spoken_at, o))
        if not scored and not plain and (other := _without_shared_words(current, new, attributes)):
            scored.append((0, 0.0, other.spoken_at, other))
        if (
            not scored
            and model is not None
            and (other := learned_choice(model, earlier, new, attributes, said_with))
        ):
            scored.append((0, 0.0, other.spoken_at, other))
        if scored:
            old = max(scored, key=lambda s: s[:3])[3]
            old.superseded_by, old.valid_until = new.id, new.spoken_at
            superseded += 1
    # A fact that said an earlier value again is replaced with it, when the replacing came later:
    # an answer quoting either sentence shows what the value is now.
    by_id = {r.id: r for r in rows}
    for again in rows:
        said_first = by_id.get(again.restates) if again.restates is not None else None
        replacing = (
            by_id.get(said_first.superseded_by)
            if said_first and said_first.superseded_by is not None
            else None
        )
        if replacing is not None and replacing.spoken_at > again.spoken_at and again.superseded_by is None:
            again.superseded_by, again.valid_until = replacing.id, replacing.spoken_at
    with store.transaction():
        store.executemany(
            "UPDATE facts SET restates = ?, superseded_by = ?, valid_until = ? WHERE id = ?",
            [(r.restates, r.superseded_by, r.valid_until, r.id) for r in rows],
        )
    return superseded
