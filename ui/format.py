"""How times, durations and statuses read in the window. Plain functions, no Qt."""

from __future__ import annotations

from datetime import date, datetime, timedelta

STATUS_WORDS = {
    "recording": "Recording",
    "queued": "Waiting to transcribe",
    "transcribing": "Transcribing",
    "indexed": "Ready",
    "consolidated": "Ready",
    "failed": "Failed",
}


def recording_title(recording: object) -> str:
    """What a recording is called: its title, else its first words, else its file, else its state."""
    for name in ("title", "first_line", "source_name"):
        value = getattr(recording, name, None)
        if value:
            return str(value)
    return "New recording" if getattr(recording, "status", "") == "recording" else "Untitled note"


def parse_store_time(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def clock(seconds: float | None) -> str:
    """12.3 -> '0:12', 3725 -> '1:02:05'."""
    if seconds is None or seconds < 0:
        return "–:––"
    total = int(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def duration(seconds: float | None) -> str:
    """A recording's length as people say it: '45 s', '38 min', '1 h 05 min'."""
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


# A note imported as text is never transcribed: until it is indexed it is being made searchable.
TEXT_STATUS_WORDS = {"queued": "Being made searchable", "transcribing": "Being made searchable"}
UNTIMED_TEXT = (".txt", ".md")  # prose files: their times are made up from a reading pace


def recording_status(recording: object) -> str:
    """The status of a note in words; a text import has no transcription (nor its ETA)."""
    status = str(getattr(recording, "status", ""))
    if getattr(recording, "source", "") == "transcript" and status in TEXT_STATUS_WORDS:
        return TEXT_STATUS_WORDS[status]
    return status_text(
        status, getattr(recording, "progress", 0.0), getattr(recording, "status_message", None)
    )


def recording_length(recording: object) -> str:
    """How long a note lasts, or "" for a text import without real times: a 60 MB .txt read at
    2.5 words a second 'lasts' 1291 h, which next to its status read as a transcription ETA."""
    name = str(getattr(recording, "source_name", "") or "").lower()
    if getattr(recording, "source", "") == "transcript" and name.endswith(UNTIMED_TEXT):
        return ""
    return duration(getattr(recording, "duration", None))


def status_text(status: str, progress: float = 0.0, message: str | None = None) -> str:
    word = STATUS_WORDS.get(status, status.capitalize())
    if status == "transcribing" and progress > 0:
        return f"{word} {int(progress * 100)}%"
    if status == "failed" and message:
        return f"{word}: {message}"
    return word


def week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def week_label(day: date, today: date) -> str:
    start = week_start(day)
    this_week = week_start(today)
    if start == this_week:
        return "This week"
    if start == this_week - timedelta(days=7):
        return "Last week"
    year = f" {start.year}" if start.year != today.year else ""
    return f"Week of {start.day} {start:%B}{year}"


def day_label(day: date, today: date) -> str:
    if day == today:
        return f"Today, {day:%A} {day.day} {day:%B}"
    if day == today - timedelta(days=1):
        return f"Yesterday, {day:%A} {day.day} {day:%B}"
    year = f" {day.year}" if day.year != today.year else ""
    return f"{day:%A} {day.day} {day:%B}{year}"


def short_date(text: str | None) -> str:
    """'2026-06-02T08:40:00' -> '2 Jun 2026, 08:40'."""
    when = parse_store_time(text)
    if when is None:
        return ""
    return f"{when.day} {when:%b %Y}, {when:%H:%M}"


def last_activity(text: str | None, today: date) -> str:
    when = parse_store_time(text)
    if when is None:
        return "no notes yet"
    days = (today - when.date()).days
    if days == 0:
        return f"today {when:%H:%M}"
    if days == 1:
        return "yesterday"
    if 1 < days < 7:
        return f"{days} days ago"
    # A note's time is when it was spoken, which an imported file or a changed clock can put after
    # today: such a day is named by its date, never as "today".
    year = f" {when.year}" if when.year != today.year else ""
    return f"{when.day} {when:%b}{year}"


def notes_count(n: int) -> str:
    return f"{n:,} note" + ("" if n == 1 else "s")
