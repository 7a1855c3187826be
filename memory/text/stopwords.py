"""Function words: dropped from keyword queries and ignored when words are compared."""

from __future__ import annotations

# Function words of English questions. Kept short on purpose: names and content words must stay.
_ENGLISH = """
    a about above after again against all am an and any are aren as at be because been before being
    below between both but by can could did didn do does doesn doing don down during each few for from
    further had hadn has hasn have haven having he her here hers herself him himself his how i if in into
    is isn it its itself just ll m me more most my myself no nor not now of off on once only or other our
    ours ourselves out over own re s same she should so some such t than that the their theirs them
    themselves then there these they this those through to too under until up ve very was wasn we were
    weren what when where which while who whom why will with won would wouldn y you your yours yourself
    yourselves d o ever also get got"""
STOPWORDS = frozenset(_ENGLISH.split())
