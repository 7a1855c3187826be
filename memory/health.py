"""Checks of the SQLite engine itself, for `verbatim doctor`."""

from __future__ import annotations

import apsw
import sqlite_vec


def sqlite_features() -> dict[str, object]:
    """SQLite version, whether sqlite-vec loads, whether FTS5 works, in a throwaway database."""
    result: dict[str, object] = {"sqlite": apsw.sqlite_lib_version(), "apsw": apsw.apsw_version()}
    conn = apsw.Connection(":memory:")
    try:
        try:
            conn.enable_load_extension(True)
            conn.load_extension(sqlite_vec.loadable_path())
            result["sqlite_vec"] = next(iter(conn.execute("SELECT vec_version()")))[0]
        except apsw.Error as exc:
            result["sqlite_vec_error"] = str(exc)
        try:
            conn.execute("CREATE VIRTUAL TABLE t USING fts5(x); INSERT INTO t VALUES ('ok')")
            result["fts5"] = next(iter(conn.execute("SELECT count(*) FROM t WHERE t MATCH 'ok'")))[0] == 1
        except apsw.Error as exc:
            result["fts5"] = False
            result["fts5_error"] = str(exc)
    finally:
        conn.close()
    return result
