-- A count of every change to the passages (chunks), which the in-memory word counts are keyed by
-- (memory/store/word_stats.py). The largest id and the number of passages do not tell every change
-- apart: SQLite gives a new row the largest id + 1, which is the id just deleted when the newest
-- passage is replaced (an edit of the newest note's last line), and a note moved to another
-- project keeps its ids. Both left the counts of before in use: words the new text holds weighed
-- nothing, the moved note's project seemed empty, and questions about them went unanswered until
-- the app restarted. The triggers count inserts, deletions and moves, whatever code writes them.
CREATE TABLE passage_changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n INTEGER NOT NULL
);
INSERT INTO passage_changes (id, n) VALUES (1, 0);
CREATE TRIGGER passage_added AFTER INSERT ON chunks BEGIN
    UPDATE passage_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER passage_removed AFTER DELETE ON chunks BEGIN
    UPDATE passage_changes SET n = n + 1 WHERE id = 1;
END;
CREATE TRIGGER passage_moved AFTER UPDATE OF project_id ON chunks BEGIN
    UPDATE passage_changes SET n = n + 1 WHERE id = 1;
END;
