"""unit/: the core's logic in memory: parsing, chunking, quotes, claims, ranking, dates, facts, the
store's transactions and migrations, and the import layers of the code itself.

May use: the in-memory `store` and the tmp folders (tests/conftest.py), hypothesis, small
synthetic data. Not: the shipped models, audio, the network, child processes, or the wall clock
(assert what happened, never how long it took; benchmarks are commands, see docs/benchmarks.md).
Marked `slow` (left out by `make test-fast`): the child process checking that the core imports
without Qt, and the property tests whose hundreds of examples take over a second.
"""
