"""Built-in evaluations (`verbatim eval ...`): shared helpers in common.py, one module per kind."""
