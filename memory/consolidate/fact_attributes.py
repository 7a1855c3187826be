"""What a fact's value is about, and how it is said: its attribute, its subject, and whether it is
said as a change.

- the attribute (`attribute_of`): the words of the value's clause that say what it is (the path
  from the value to its clause's head and the subjects, objects and compounds on it: "go-live",
  "hiring plan implementation consultants", "owns data migration"), with the stems it is matched
  on; who said or did it is not what the value is about. The stems carry marks for validity
  (memory/consolidate/fact_validity.py): PAST (the date of something that happened) and REPLACES
  (a word of what a change replaces).
- the subject: the project a sentence opens with, by a distinctive word of its name
  (`project_mentions`: "Oh, Kranich, the board approved ..."), else the note's.
- a change (`is_change`): said as one ("now", "moved to", "cut ... to", "approved", "jetzt":
  CHANGE) and not as none ("stays", "still", "bleibt": NO_CHANGE).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from memory.consolidate.fact_values import INCREMENT, NOT_CONTEXT, Value
from memory.text.doc import Doc
from memory.text.fact_parse import (
    ParsedSentence,
    attribute_tokens,
    chosen_over,
    counted_noun,
    past_event,
    pronoun_subject,
    replaced_tokens,
    word_of,
)
from memory.text.relevance import STOPWORDS
from memory.text.stems import stem

CHANGE = re.compile(
    r"(?<!right )\bnow\b|\bnew\s+(?:[\w-]+\s+)?(?:date|deadline|target|budget|price|rate|plan|contact|owner|"
    r"lead|head|version|timeline|schedule|figure|number|total|scope|vendor|supplier|provider|tool|system|name|"
    r"time|day|venue|location)\b|\bmov(?:ed|ing|es?)\b|\bswitch(?:ed|ing|es)?\b|\bchang(?:ed|ing|es?)\b|"
    r"\binstead\b|\bno\s+longer\b|\banymore\b|\b(?:is|are|was|were|now)\s+(?:\w+\s+)?(?:up|down)\s+to\b|"
    r"['’]re\s+(?:\w+\s+)?(?:up|down)\s+to\b|\bput\s+(?:\S+\s+){0,4}?(?:up|down|back)\b|"
    r"\b(?:gone|went|goes|come|came|comes)\s+(?:back\s+)?(?:up|down)\b|\bback\s+(?:up|down)\b|\braised?\b|"
    r"\bincreased?\b|\breduced?\b|\bcut\b|\blowered\b|\bpushed\b|\bpostponed\b|\bdelayed\b|\bslipped\b|"
    r"\bslip(?:s|ping)?\s+(?:back\s+)?(?:to|into|by|until)\b|"
    r"\bbrought\s+forward\b|\brescheduled\b|\breplac(?:ed|ing|es?)\b|\bgrown\b|\bdropp(?:ed|ing)\b|"
    r"\bapproved\b|\bdecided\b|\bpulled\b|\bextended\b|\btak(?:en|es|ing)\s+over\b|"
    r"\bhanded\s+over\b|\bsits\s+with\b|\bjetzt\b|\bnun\b|\binzwischen\b|\bmittlerweile\b|\bverschoben\b|"
    r"\bstattdessen\b|\bab\s+sofort\b|\bgeändert\b|\bgenehmigt\b|\bbeschlossen\b|\bfreigegeben\b|\berhöht\b|"
    r"\bgekürzt\b|\bgesenkt\b|\bumgestellt\b|\bneue[rnms]?\s+(?:termin|datum|frist|budget|preis|stand|"
    r"zeitplan|ansprechpartner\w*)\b",
    re.I,
)
NO_CHANGE = re.compile(
    r"\b(?:stays?|stayed|still|remains?|remained|holding|unchanged|as\s+planned|as\s+before|bleibt|"
    r"weiterhin|wie\s+geplant|unverändert|nach\s+wie\s+vor)\b",
    re.I,
)
_WORDS = re.compile(r"[A-Za-zÄÖÜäöüß][\wÄÖÜäöüß]*(?:-[\wÄÖÜäöüß]+)*")
ASIDE_OPENING_WORDS = 5  # an aside names its project in its first words
ATTRIBUTE_WORDS = 5
PAST = "~past"  # in a fact's context: the date of something that happened, which nothing supersedes
REPLACES = "<"  # in a fact's context, before a stem: a word of what the change replaces ("from the day rate")


def attribute_of(
    ps: ParsedSentence,
    doc: Doc,
    v: Value,
    clauses: list[tuple[int, int]],
    people: set[str],
    skip: Sequence[tuple[int, int]] = (),
) -> tuple[str, set[str]]:
    """(the attribute as words, the stems it is matched on); who said or did it is not what the value
    is about ("Priya cut the hiring plan to two"). A clause whose subject is a pronoun ("the
    languages have grown, it's now six") takes the nouns of the clause before. `skip`: doc ranges
    whose words never name the attribute: self-corrections' markers ("no wait", "sorry") and the
    sentence's other values ("the 13th, the 6th is the board meeting")."""
    index = next((i for i, (a, b) in enumerate(clauses) if a <= v.start < b + 1), 0)
    clause = clauses[index]
    if ps.tokens is not None and (anchor := ps.anchor(v.start, v.end)) is not None:
        value_ids = {t.i for t in ps.tokens_in(v.start, v.end)}
        path = ps.path(anchor)
        described = attribute_tokens(path, value_ids)
        if v.kind == "count" and not any(w.lemma_.lower() == v.unit for w in described):
            noun = counted_noun(anchor, value_ids)
            if noun is not None:
                described = sorted([*described, noun], key=lambda t: t.i)
        chosen = [w for w in described if w.lemma_.lower() not in NOT_CONTEXT and w.lower_ not in people]
        # A dislocated topic ("Key users, we're up to sixteen now") names what the value is.
        root = path[-1]
        for child in root.children:
            if child.dep_ in ("dep", "npadvmod") and child.pos_ in ("NOUN", "PROPN") and child.i < anchor.i:
                chosen += [t for t in child.subtree if t.pos_ in ("NOUN", "PROPN", "ADJ")]
        if pronoun_subject(path) and index > 0:
            a, b = clauses[index - 1]
            chosen += [
                t
                for t in ps.tokens_in(a, b)
                if t.pos_ in ("NOUN", "PROPN")
                and t.lower_ not in people
                and t.lemma_.lower() not in NOT_CONTEXT
            ]
        if v.kind == "number":  # a bare number is what its nouns say it is ("four at launch, languages")
            chosen = [t for t in chosen if t.pos_ == "NOUN" or (t.pos_ == "PROPN" and t.i == 0)] or chosen
        chosen = [w for w in chosen if not any(x <= ps.sentence.start + w.idx < y for x, y in skip)]
        # matched on lemmas ("users", "user"), shown as said ("data freeze", not "datum freeze")
        pairs = {word_of(t): word_of(t, surface=True) for t in chosen}
        pairs = {w: shown for w, shown in pairs.items() if len(w) > 2 and w not in STOPWORDS}
        marks = {PAST} if v.kind == "date" and past_event(path) else set()
        marks |= {
            REPLACES + stem(word_of(t)) for t in replaced_tokens(path, value_ids) if t.lower_ not in people
        }
        # the one a choice was preferred to, a person too ("picked Dana over Ruth")
        marks |= {REPLACES + stem(word_of(t)) for t in chosen_over(path, value_ids)}
        if v.rate:  # "1,150 euros a day" is a day rate
            pairs |= {w: w for w in ["rate", *v.rate.split()[1:]]}
        if pairs:
            return " ".join(list(pairs.values())[:ATTRIBUTE_WORDS]), {stem(w) for w in pairs} | marks
    language = ps.language
    a, b = clause

    def words(x: int, y: int) -> list[str]:
        return [
            w
            for w in (m.group(0).lower() for m in _WORDS.finditer(doc.text[x:y]))
            if w not in STOPWORDS and w not in NOT_CONTEXT and w not in people and len(w) > 2
        ]

    before, after = words(a, v.start), words(v.end, b)
    nearest = before[-3:] or after[:3]
    return " ".join(nearest), {stem(w, language) for w in before + after}


def project_mentions(text: str, project_names: dict[int, str]) -> set[int]:
    """Projects a sentence opens with, by a distinctive word of their name, capitalised, in its first
    words ("Oh, Kranich, the board approved ...", "Quick Harrow thing, ..."): the sentence is an
    aside about that project. A name said later in the sentence is only mentioned
    (`client_named`)."""
    text = " ".join(text.split()[:ASIDE_OPENING_WORDS])
    found = set()
    for pid, name in project_names.items():
        for word in re.split(r"[-_\s]+", name):
            if len(word) >= 4 and re.search(rf"\b{re.escape(word.capitalize())}\b", text):
                found.add(pid)
                break
    return found


def client_named(text: str, name: str) -> bool:
    """The project's client said anywhere in the text: the first word of the project's name (of four
    letters or more), capitalised, not the second word of a longer name ("Bramblecroft's report",
    "the Edlinger Hof", not the "Packaging" of "Northern Packaging Transition Fund" for
    brackenridge-packaging, nor "Veronika Edlinger"). Letters compare as a project's folder name
    spells them ("Weißenstauf" is weissenstauf-hospital-wing's client)."""
    word = client_word(name)
    if word is None:
        return False
    text = _folded(text)
    for m in re.finditer(rf"\b{re.escape(word.capitalize())}\b", text):
        before = text[: m.start()].split()[-1:]
        named_before = (
            bool(before)
            and before[0][:1].isupper()
            and before[0][-1] not in ",.;:!?—–-"
            and before[0].lower() not in STOPWORDS  # "For Weißenstauf, …" opens a sentence
        )
        if not named_before:
            return True
    return False


def client_word(name: str) -> str | None:
    """The word of a project's name its client is said by: the first of four letters or more."""
    return next((w for w in re.split(r"[-_\s]+", _folded(name)) if len(w) >= 4), None)


def _folded(text: str) -> str:
    """Letters without their accents, "ß" as "ss" (as slugify writes a project's folder name)."""
    decomposed = unicodedata.normalize("NFKD", text.replace("ß", "ss"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Values a verb can set "to": a sum, a count or a day ("reworked my price to 16,750 pounds"), not a
# person or a thing ("send the deck to Jana").
_SET_TO_KINDS = frozenset({"amount", "count", "number", "percent", "date"})


def _changed_to(ps: ParsedSentence, v: Value) -> bool:
    """The value is what a verb sets something *to* ("I've reworked my price for the season to
    sixteen thousand pounds", "they put the review back to the 22nd"): a change said by its grammar,
    whatever the verb (spaCy's parse: the value's head is the preposition "to" of a verb; "up to",
    "from 9 to 5" and "due to" hang elsewhere)."""
    if v.kind not in _SET_TO_KINDS or ps.tokens is None:
        return False
    inside = ps.tokens_in(v.start, v.end)
    heads = {t.head for t in inside if not v.start <= t.head.idx + ps.sentence.start < v.end}
    return any(h.lower_ == "to" and h.dep_ == "prep" and h.head.pos_ == "VERB" for h in heads)


_VERB_PARTS = frozenset({"aux", "auxpass", "prt", "advmod", "neg"})


def _verb_says_change(ps: ParsedSentence, v: Value) -> bool:
    """The verbs the value hangs from say a change, wherever their clause ends: "Harriet Mbeki, the
    senior brand manager, has taken over the roadshow", "Bram Okonjo, who owns the garden centre,
    has agreed to lead the campaign instead" (spaCy's parse: the verbs on the value's path, with
    their auxiliaries, particles and adverbs, and the verbs they govern)."""
    if ps.tokens is None or (anchor := ps.anchor(v.start, v.end)) is None:
        return False
    verbs = [t for t in ps.path(anchor) if t.pos_ in ("VERB", "AUX")]
    verbs += [c for t in verbs for c in t.children if c.dep_ == "xcomp" and c.pos_ == "VERB"]
    words = sorted(
        {w for t in verbs for w in (t, *(c for c in t.children if c.dep_ in _VERB_PARTS))}, key=lambda t: t.i
    )
    return bool(CHANGE.search(" ".join(w.text for w in words)))


def _chosen_over_another(ps: ParsedSentence, v: Value) -> bool:
    """A name chosen over another ("the board picked Northlight Contact over Chorus", "they've gone
    with Ketterley Roast over Brewhold"): a change, which replaces the other (memory/text/fact_parse.py
    `chosen_over`)."""
    if v.kind not in ("person", "name") or ps.tokens is None or (anchor := ps.anchor(v.start, v.end)) is None:
        return False
    return bool(chosen_over(ps.path(anchor), {t.i for t in ps.tokens_in(v.start, v.end)}))


def _new_holder(ps: ParsedSentence, v: Value) -> bool:
    """A name said to be the *new* holder of a role ("the new site manager is Martina Oswald", "their
    new contact, Harriet Mbeki"): the role changed hands (spaCy's parse: "new" on the noun the name
    is said to be, by the copula or in apposition)."""
    if v.kind not in ("person", "name") or ps.tokens is None or (anchor := ps.anchor(v.start, v.end)) is None:
        return False
    if anchor.dep_ == "appos" or anchor.head.dep_ == "appos":
        roles = [anchor.head] if anchor.dep_ == "appos" else [anchor.head.head]
    elif anchor.dep_ in ("attr", "nsubj") and anchor.head.lemma_ == "be":
        roles = [c for c in anchor.head.children if c.dep_ in ("attr", "nsubj") and c is not anchor]
    else:
        return False
    return any(
        r.pos_ == "NOUN" and any(c.dep_ == "amod" and c.lower_ == "new" for c in r.children) for r in roles
    )


def is_change(ps: ParsedSentence, doc: Doc, v: Value, clauses: list[tuple[int, int]], index: int) -> bool:
    text = doc.text[clauses[max(0, index - 1)][0] : clauses[index][1]]
    if NO_CHANGE.search(doc.text[clauses[index][0] : clauses[index][1]]):
        return False
    if not CHANGE.search(text):
        return (
            _changed_to(ps, v)
            or _verb_says_change(ps, v)
            or _chosen_over_another(ps, v)
            or _new_holder(ps, v)
        )
    if ps.tokens is not None:  # "two new customers": new things, not a changed value
        for t in ps.tokens_in(v.start, v.end):
            if t.head.pos_ == "NOUN" and any(
                c.dep_ == "amod" and c.lower_ in INCREMENT for c in t.head.children
            ):
                return bool(CHANGE.search(text.replace(" new ", " ")))
    return True
