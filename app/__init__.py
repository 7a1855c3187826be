"""Services, job queue, configuration, logging and the CLI: the one place that wires capture,
memory and models together. Never imports Qt (ui/ does)."""

import models  # noqa: F401  (sets the offline environment before anything else loads)

__version__ = "0.1.0"
