"""Developer tooling for the desktop app, not part of it: screenshots for docs, their demo notes, and
the start-time benchmark. No other ui module imports it."""
