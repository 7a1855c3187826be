"""Helpers shared by the tests: audio, CLI runs, corpora, fault injection, hostile files."""
