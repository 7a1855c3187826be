"""Typed ids for the rows whose ids cross layers (store -> app -> ui): a recording id is not a
project id nor a job id.

They are plain ints at run time (`NewType`); mypy keeps them apart where a signature names them.
"""

from __future__ import annotations

from typing import NewType

ProjectId = NewType("ProjectId", int)
RecordingId = NewType("RecordingId", int)
JobId = NewType("JobId", int)

__all__ = ["JobId", "ProjectId", "RecordingId"]
