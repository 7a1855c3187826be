"""What two facts have in common, for deciding whether one replaces the other (memory/consolidate/
fact_validity.py, by rules; memory/consolidate/supersession_model.py, learned): the facts of a
project as validity reads them, whether two values can be compared and are the same (dates by the
days they cover, "seven eighty" as 780,000 when said short), how alike their attributes and
sentences are (rare shared words, MiniLM cosine), and the signs in the new sentence that it replaces
the earlier value (the value named again as what goes, a day said again beside a word of replacing,
what the change says it replaces).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.consolidate.fact_attributes import PAST, REPLACES
from memory.store.store import Store
from memory.text.dates import date_interval
from memory.text.nlp import language_of, parse
from memory.text.quotes import normalise, tokens
from memory.text.relevance import STOPWORDS
from memory.text.stems import stem


@dataclass
class Row:
    id: int
    recording_id: int
    spoken_at: str
    value_kind: str
    value_norm: str
    value: str
    attribute: str
    context: set[str]
    changed: bool
    kind: str
    quote: str
    language: str = "en"
    happened: bool = False  # the date of something that happened
    replaces: set[str] = field(default_factory=set)  # stems of what the change says it replaces
    restates: int | None = None
    superseded_by: int | None = None
    valid_until: str | None = None


Embed = Callable[[Sequence[str]], Mapping[str, np.ndarray]]  # texts → unit vectors (MiniLM)
MIN_SHARE = 0.34  # share of the rarer side's attribute weight two facts must have in common
MIN_COSINE = 0.6  # embedding cosine of two attributes that say the same thing
MAX_FOLD = 10  # a value that changes tenfold or more is another quantity, not the same one changed
NUMERIC = ("amount", "count", "number", "percent")
REPLACING = re.compile(
    r"\b(?:instead|replac\w*|switch\w*|swap\w*|dropp?\w*|no\s+longer|out|off|pulled|mov(?:e|es|ed|ing)|"
    r"tak(?:en|es|ing)\s+over|leav\w+|left|stepp(?:ed|ing)|resign\w*|quit\w*|retir\w*|"
    r"statt|stattdessen|ersetz\w*|raus|wechsel\w*|umgestellt)\b",
    re.I,
)


def number_of(row: Row) -> float | None:
    try:
        return float(row.value_norm.split(" ", 1)[0])
    except ValueError:
        return None


def value_parts(row: Row) -> tuple[str, str]:
    """(currency, rate) of an amount; (unit, rate) of a count."""
    rest = row.value_norm.split(" ", 1)[1] if " " in row.value_norm else ""
    head, _, rate = rest.partition(" per ")
    return head, ("per " + rate if rate else "")


def comparable(a: Row, b: Row) -> bool:
    """The same kind of value: an amount does not supersede a date; a count counts the same thing."""
    kinds = {a.value_kind, b.value_kind}
    if len(kinds) > 1 and not (kinds <= {"number", "amount"} or kinds <= {"number", "count"}):
        return False
    if a.value_kind == "status" and a.value_kind == b.value_kind:
        return value_parts(a)[0] == value_parts(b)[0]  # in or out of scope: of the same thing
    if a.value_kind in ("amount", "count") and a.value_kind == b.value_kind:
        (ha, ra), (hb, rb) = value_parts(a), value_parts(b)
        if a.value_kind == "count" and ha != hb and not (ha in b.context or hb in a.context):
            return False
        if a.value_kind == "amount" and ha != hb:
            return False
        if ra and rb and ra != rb:
            return False
    # not "ten years of fish counts" and "the fish pass at a hundred and twelve thousand"
    return not (a.value_kind in NUMERIC and b.value_kind in NUMERIC and fold(a, b) > MAX_FOLD)


def fold(a: Row, b: Row) -> float:
    """How many times the larger of two numbers is the smaller (1 when either is unreadable), a
    bare number also read as said short ("seven eighty" for 780,000)."""
    x, y = number_of(a), number_of(b)
    if x is None or y is None or x <= 0 or y <= 0:
        return 1.0
    pairs = (
        [(x, y)] + [(x * 1000, y)] * (a.value_kind == "number") + [(x, y * 1000)] * (b.value_kind == "number")
    )
    return min(max(p, q) / min(p, q) for p, q in pairs)


def same_value(a: Row, b: Row) -> bool:
    if a.value_kind == "date" or b.value_kind == "date":
        ia, ib = date_interval(a.value_norm), date_interval(b.value_norm)
        if ia is None or ib is None:
            return a.value_norm == b.value_norm
        return (ia[0] <= ib[0] and ib[1] <= ia[1]) or (ib[0] <= ia[0] and ia[1] <= ib[1])
    if a.value_kind in NUMERIC:
        x, y = number_of(a), number_of(b)
        if x is None or y is None:
            return a.value_norm == b.value_norm
        if abs(x - y) < 1e-9:
            return True
        # "seven eighty" for 780,000: a bare number said short for an amount
        return "number" in (a.value_kind, b.value_kind) and (
            abs(x * 1000 - y) < 1e-6 or abs(y * 1000 - x) < 1e-6
        )
    if a.value_kind == "status":
        return a.value_norm == b.value_norm
    na, nb = set(a.value_norm.split()), set(b.value_norm.split())
    return na == nb or (bool(na) and bool(nb) and (na <= nb or nb <= na))


def named_in(old: Row, new: Row, alike: float) -> bool:
    """The earlier value is named again where the new one is said, as what goes ("from Textwell to
    Pingmate", "EduNest is out, ... going with Campusly instead"): with a word of replacing when
    the attributes share nothing."""
    if old.value_kind not in ("person", "name"):
        return False
    words = {t.norm for t in tokens(new.quote)} - set(normalise(new.value).split())
    named = any(len(w) >= 3 and w not in STOPWORDS and w in words for w in normalise(old.value).split())
    return named and (alike > 0 or _said_to_go(old, new))


REPLACED_WITHIN = 2  # dependency edges from the word saying something goes down to what goes


def _said_to_go(old: Row, new: Row) -> bool:
    """The word of replacing is said of the earlier value, not of something else in the sentence:
    in spaCy's parse of the new sentence, a word of the earlier value hangs under it ("switching
    ... from Textwell", "Textwell was dropped") or beside it when it is no verb ("EduNest is out");
    a verb beside it has it as its doer ("Oren wants to move off Kobaltnetz": Kobaltnetz goes,
    Oren stays). German has no parse: a word of replacing anywhere."""
    if new.language != "en":
        return bool(REPLACING.search(new.quote))
    parsed = parse(new.quote)
    value_words = {w for w in normalise(old.value).split() if len(w) >= 3 and w not in STOPWORDS}
    said_new = set(normalise(new.value).split())
    names = [t for t in parsed if t.lower_ in value_words and t.lower_ not in said_new]
    going = [t for t in parsed if REPLACING.fullmatch(t.text)]
    return any(
        b in list(a.ancestors)[:REPLACED_WITHIN] or (a.head == b.head and a != b and b.pos_ != "VERB")
        for a in names
        for b in going
    )


def day_named_in(old: Row, new: Row, said_with: Mapping[tuple[int, str], Sequence[Row]]) -> bool:
    """The earlier date is said again beside the new one, as what goes ("The steering group on the
    21st is off, they've moved it to Thursday the 19th of November"): another date of the new
    sentence covers the earlier one, and the sentence says a word of replacing."""
    if old.value_kind != "date" or new.value_kind != "date" or not REPLACING.search(new.quote):
        return False
    if same_value(old, new):
        return False  # said again, not replaced
    return any(
        other.id != new.id
        and other.value_kind == "date"
        and (same_value(old, other) or same_day_of_month(old, other))
        for other in said_with.get((new.recording_id, new.quote), ())
    )


_BARE_DAY = re.compile(r"(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)", re.I)


def same_day_of_month(old: Row, bare: Row) -> bool:
    """Whether a bare day ("the 14th", said alone) names the earlier date: its month is not said,
    and the note's date may not settle it (said on 10 March of the 14th of April), so the day of
    the month has to agree."""
    said = _BARE_DAY.fullmatch(bare.value.strip())
    return said is not None and old.value_norm[8:10] == f"{int(said.group(1)):02d}"


def names_what(row: Row) -> bool:
    """The fact's attribute is words of its sentence, not only the kind or unit of its value (a
    fact whose sentence says nothing of what the value is of gets "date", "buildings"): two such
    attributes are alike whatever they are about."""
    return bool(row.attribute) and row.attribute not in (row.value_kind, value_parts(row)[0])


def replaced(old: Row, new: Row) -> bool:
    """The change names what it replaces, and that is the earlier fact ("switch me from the day
    rate to ...": the earlier 1,150 a day; "from Textwell to ...")."""
    return bool(new.replaces) and new.replaces <= old.context | {
        stem(w) for w in normalise(old.value).split()
    }


class Attributes:
    """How alike two facts' attributes are: the rarity-weighted share of their stems (within one
    language), and, with `similarity`, the cosine of their embeddings."""

    def __init__(self, rows: Sequence[Row], embed: Embed | None) -> None:
        df = Counter(w for r in rows for w in r.context)
        self.weights = {w: math.log(1 + len(rows) / n) for w, n in df.items()}
        texts = sorted({r.attribute for r in rows if r.attribute} | {r.quote for r in rows})
        self.vectors = embed(texts) if embed is not None and texts else {}

    def share(self, a: Row, b: Row) -> float:
        """Shared weight over the geometric mean of the two sides' weights (0..1)."""
        shared = sum(self.weights.get(w, 0.0) for w in a.context & b.context)
        wa = sum(self.weights.get(w, 0.0) for w in a.context)
        wb = sum(self.weights.get(w, 0.0) for w in b.context)
        return shared / math.sqrt(wa * wb) if wa > 0 and wb > 0 else 0.0

    def alike(self, a: Row, b: Row) -> float:
        """0..1; 0 when they cannot be compared (different languages)."""
        if a.language != b.language:
            return 0.0
        score = self.share(a, b)
        va, vb = self.vectors.get(a.attribute), self.vectors.get(b.attribute)
        if va is not None and vb is not None:
            cosine = float(np.dot(va, vb))
            score = max(
                score,
                (cosine - MIN_COSINE) / (1 - MIN_COSINE) * (1 - MIN_SHARE) + MIN_SHARE
                if cosine >= MIN_COSINE
                else 0.0,
            )
        return score

    def sentences(self, a: Row, b: Row) -> float:
        """Cosine of the two facts' sentences (0 without vectors, or in different languages)."""
        va, vb = self.vectors.get(a.quote), self.vectors.get(b.quote)
        if va is None or vb is None or a.language != b.language:
            return 0.0
        return float(np.dot(va, vb))


def project_rows(store: Store, project_id: int) -> list[Row]:
    name = store.one("SELECT name FROM projects WHERE id = ?", (project_id,))
    names = {r[0] for r in store.rows("SELECT name FROM projects")}
    subject = name["name"] if name else ""
    found = store.all(
        "SELECT id, recording_id, project_id, subject, spoken_at, value_kind, value_norm, value, attribute,"
        " context, changed, kind, quote FROM facts WHERE subject = ? OR project_id = ?"
        " ORDER BY spoken_at, id",
        (subject, project_id),
    )
    return [
        Row(
            r["id"],
            r["recording_id"],
            r["spoken_at"],
            r["value_kind"],
            r["value_norm"],
            r["value"],
            r["attribute"],
            {w for w in r["context"].split() if not w.startswith(("~", REPLACES))},
            bool(r["changed"]),
            r["kind"],
            r["quote"],
            language_of(r["quote"]),
            PAST in r["context"].split(),
            {w[len(REPLACES) :] for w in r["context"].split() if w.startswith(REPLACES)},
        )
        for r in found
        # a fact filed here but about another project is resolved with that project's facts
        if r["subject"] == subject or r["subject"] not in names
    ]
