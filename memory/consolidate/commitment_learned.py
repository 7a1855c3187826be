"""A commitment the learned detector (memory/consolidate/commitment_detector.py) finds in a sentence
the parse rules read nothing in: who, what, whom and when are read from the sentence's main verb by
the same readers the rules use, and the rules' blockers still apply (negation, hedges, conditions,
tentative verbs, wishes), so the detector only decides *that* something is owed, never what.

The main verb is the root, or the clause a report carries ("Declan reckons he'll ..."), followed
down through "going to / need to / got to" to the verb whose object is the thing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memory.consolidate.commitment_detector import sentence_features
from memory.consolidate.commitment_owed import OwedOtherwise
from memory.consolidate.commitment_parties import opens_unsaid
from memory.consolidate.commitment_spans import Predicate, children
from memory.consolidate.commitment_text import CALENDAR, ME, TENTATIVE, Found

if TYPE_CHECKING:
    from spacy.tokens import Token

# Said of what is wished or thought, not owed: "he'd love to have it by Christmas"
_WISHED = frozenset({"love", "like", "prefer", "hope", "wish", "want"}) | TENTATIVE
_VERBS = ("VERB", "AUX")
_TIME_WORDS = frozenset({"week", "day", "month", "year", "time", "end", "while", "moment", "fortnight"})


class LearnedReading(OwedOtherwise):
    def learned(self) -> Found | None:
        detector = self.context.detector
        if detector is None:
            return None
        if detector.probability(sentence_features(self.tokens, self.sentence.text)) < detector.threshold:
            return None
        verbs = self._main_verb()
        if verbs is None:
            return None
        owner, verb = verbs
        p = Predicate(verb, owner, "learned")
        if self.blocked(p) or self._wished(owner, verb):
            return None
        agent = self.agent(p)
        if agent is None and not opens_unsaid(owner):
            return None
        who = self.party(agent) if agent is not None else ME
        recipient, thing = self.objects(p)
        to_whom = self.party(recipient) if recipient is not None else None
        if to_whom is not None and to_whom == who:
            return None
        first, last = self.quote_range(p, agent)
        if thing is not None and (thing.ent_type_ in CALENDAR or thing.lemma_.lower() in _TIME_WORDS):
            return None  # "he has a week to chase it", "he said end of the month": a time, no thing
        if thing is not None:
            what = self.thing(thing)
        else:
            words = [t for t in self._clause(verb) if t.i > verb.i]
            what = self.text_of(self._until_stop(words, verb)) if words else ""
        if not what:
            return None
        due = self.due_in(first, last)
        start, end = self.at(self.tokens[first]), self.at(self.tokens[last]) + len(self.tokens[last].text)
        still = any(c.lower_ == "still" for t in (verb, owner) for c in t.children)
        return Found(
            "commitment", start, end, who, what, to_whom, due.text if due else None,
            due.date if due else None, "en", still,
        )  # fmt: skip

    def _main_verb(self) -> tuple[Token, Token] | None:
        """(the verb with the subject, the verb with the thing)."""
        root = next((t for t in self.tokens if t.dep_ == "ROOT"), None)
        if root is None or root.pos_ not in _VERBS:
            root = next((t for t in self.tokens if t.pos_ == "VERB"), None)
        if root is None:
            return None
        owner = root
        content = next((c for c in children(root, "ccomp") if c.pos_ in _VERBS and c.i > root.i), None)
        if content is not None and children(content, "nsubj"):
            owner = content  # "Declan reckons he'll have the survey to us": what he will do
        verb = owner
        while (below := next((c for c in children(verb, "xcomp") if c.pos_ in _VERBS), None)) is not None:
            verb = below  # "is going to dig out", "got to get"
        return owner, verb

    def _wished(self, owner: Token, verb: Token) -> bool:
        """ "Wendell would love to have every server out by Christmas": a wish, not a promise."""
        return any(t.lemma_.lower() in _WISHED for t in {owner, verb, owner.head})
