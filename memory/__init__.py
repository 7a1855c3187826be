"""The library's memory: everything stored and everything derived from it. All SQL in Verbatim lives
in this package; it never imports Qt, capture or app.

Sub-packages, each importing only those before it:
- store/        the database: schema and migrations, projects, recordings and raw segments, jobs,
                the model-call log, snapshots for backups
- text/         reading spoken text: sentences, dates, entities, stop words, word evidence, the
                verbatim quote checker
- search/       chunks, FTS5 and vector indexes, hybrid retrieval and ranking (the query path)
- consolidate/  background layers: self-corrections, facts with validity, connections, digests,
                off-project stretches
- answer/       answers with provenance: context selection, the model's claims, stated/inferred
health.py checks a library's database after a crash (store and index together)."""
