"""Background work that survives crashes: the queue (`queue`), the table of job kinds (`kinds`) and
what runs them (`worker`)."""

__all__ = ["kinds", "queue", "worker"]
