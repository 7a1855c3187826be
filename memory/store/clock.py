"""The store's one time format: ISO 8601 local wall-clock time to the second, no offset.

A note's time is when the user spoke, as they would say it ("Monday 8:40"). Times with an offset
(file metadata, `--spoken-at 2026-03-02T08:40:00+01:00`) are converted to this machine's local time.
"""

from __future__ import annotations

from datetime import datetime

from models.errors import InputError


def to_store_time(value: datetime) -> str:
    if value.tzinfo is not None:
        value = value.astimezone().replace(tzinfo=None)
    return value.replace(microsecond=0).isoformat()


def parse_time(text: str) -> datetime:
    """Accept ISO 8601 dates and times ('2026-03-02', '2026-03-02 08:40', '...Z', '...+01:00')."""
    cleaned = text.strip()
    if cleaned.endswith(("Z", "z")):
        cleaned = cleaned[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(cleaned)
    except ValueError as exc:
        raise InputError(
            f"{text!r} is not a date and time", fix="use ISO 8601, e.g. 2026-03-02T08:40:00"
        ) from exc
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone().replace(tzinfo=None)
        except OverflowError as exc:  # '0001-01-01T00:00+14:00' has no local time
            raise InputError(f"{text!r} is out of the range of dates Verbatim can use") from exc
    return parsed


def normalise_time(text: str) -> str:
    return to_store_time(parse_time(text))
