"""The connections search follows: from a passage's recording to the passage of another note that
consolidation connected it to (memory/consolidate/ finds and stores connections; search only reads
the ones that are kept and not dismissed)."""

from __future__ import annotations

from dataclasses import dataclass

from memory.store.store import Store

KEEP = 0.5  # the probability a connection must reach to be kept (shown, and followed by search)


@dataclass(frozen=True)
class Link:
    """One end of a connection (a recording and the segment quoted there) and the other end (its
    quoted segment and the chunk holding it)."""

    recording_id: int
    segment_id: int
    to_chunk: int
    score: float  # the connection's strength (1.0 when the user accepted it)
    to_segment: int


def links_from_recordings(store: Store, recording_ids: list[int]) -> list[Link]:
    """Connections (not dismissed; strong, or accepted) with one end in these recordings, as links
    to the chunk holding the other end; strongest first."""
    if not recording_ids:
        return []
    marks = ",".join("?" * len(recording_ids))
    ends = (
        "SELECT c.{here}_recording_id AS recording, json_extract(c.{here}_segment_ids, '$[0]') AS here,"
        " json_extract(c.{there}_segment_ids, '$[0]') AS there,"
        " CASE WHEN c.verdict = 'accepted' THEN 1.0 ELSE c.score END AS score FROM connections c"
        " WHERE coalesce(c.verdict, '') != 'dismissed' AND (c.score >= ? OR c.verdict = 'accepted')"
        f" AND c.{{here}}_recording_id IN ({marks})"
    )
    rows = store.rows(
        f"WITH ends AS ({ends.format(here='a', there='b')} UNION ALL {ends.format(here='b', there='a')})"
        " SELECT e.recording, e.here, ch.id, e.score, e.there FROM ends e"
        " JOIN segments st ON st.id = e.there"
        " JOIN chunks ch ON ch.recording_id = st.recording_id"
        " AND st.idx BETWEEN ch.first_idx AND ch.last_idx AND ch.provisional = 0"
        " ORDER BY e.score DESC, ch.id",
        [KEEP, *recording_ids, KEEP, *recording_ids],
    )
    return [Link(int(r), int(h), int(c), float(sc), int(t)) for r, h, c, sc, t in rows]
