"""The store: schema and migrations, raw segments, chunks, FTS5 and vector indexes, retrieval,
answers with provenance. All SQL in Verbatim lives in this package. Never imports Qt."""
