# The room view's store: every record a table published, in SQLite, idempotent by
# (table, match id, seq): a broker's duplicate delivery (QoS 1) changes nothing.
import json
import sqlite3
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    tbl TEXT NOT NULL, match TEXT NOT NULL, seq INTEGER NOT NULL,
    ev TEXT NOT NULL, at REAL, received REAL NOT NULL, depth INTEGER,
    PRIMARY KEY (tbl, match, seq));
CREATE TABLE IF NOT EXISTS tables (
    tbl TEXT PRIMARY KEY, status TEXT, state TEXT, seen REAL);
"""


class Store:
    """The records and each table's last status and retained state. tbl is "<club>/<n>"."""

    def __init__(self, path=":memory:"):
        self.db = sqlite3.connect(path, check_same_thread=False)
        if path != ":memory:":  # a commit per record without an fsync per record
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        cols = [r[1] for r in self.db.execute("PRAGMA table_info(records)")]
        if "depth" not in cols:  # (a store made before records kept their depth)
            self.db.execute("ALTER TABLE records ADD COLUMN depth INTEGER")
        self.db.commit()
        self.duplicates = 0  # deliveries that were already stored

    def close(self):
        self.db.close()

    def add(self, tbl, match, seq, ev, at=None, received=None, depth=None):
        """Store one record (depth: the journal's depth after it, None if the record has
        none); True if it is new, False if (tbl, match, seq) was stored already (then nothing
        changes: INSERT OR IGNORE keeps the first)."""
        cur = self.db.execute(
            "INSERT OR IGNORE INTO records (tbl, match, seq, ev, at, received, depth) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tbl, str(match), int(seq), json.dumps(ev, sort_keys=True), at,
             time.time() if received is None else received,
             None if depth is None else int(depth)))
        self.db.commit()
        if cur.rowcount == 0:
            self.duplicates += 1
            return False
        return True

    def events(self, tbl, match):
        """[(seq, event, at)] of one match, in seq order."""
        rows = self.db.execute("SELECT seq, ev, at FROM records WHERE tbl = ? AND match = ? "
                               "ORDER BY seq", (tbl, match))
        return [(s, json.loads(e), at) for s, e, at in rows]

    def records(self, tbl, match):
        """[(seq, event, at, depth)] of one match, in seq order."""
        rows = self.db.execute("SELECT seq, ev, at, depth FROM records WHERE tbl = ? AND "
                               "match = ? ORDER BY seq", (tbl, match))
        return [(s, json.loads(e), at, d) for s, e, at, d in rows]

    def matches(self, tbl=None):
        """[(tbl, match, records, first received, last received)], oldest first."""
        q = ("SELECT tbl, match, COUNT(*), MIN(received), MAX(received) FROM records %s "
             "GROUP BY tbl, match ORDER BY MIN(received)" % ("WHERE tbl = ?" if tbl else ""))
        return list(self.db.execute(q, (tbl,) if tbl else ()))

    def count(self):
        return self.db.execute("SELECT COUNT(*) FROM records").fetchone()[0]

    def set_table(self, tbl, status=None, state=None, seen=None):
        self.db.execute("INSERT OR IGNORE INTO tables (tbl) VALUES (?)", (tbl,))
        if status is not None:
            self.db.execute("UPDATE tables SET status = ? WHERE tbl = ?", (status, tbl))
        if state is not None:
            self.db.execute("UPDATE tables SET state = ? WHERE tbl = ?",
                            (json.dumps(state), tbl))
        if seen is not None:
            self.db.execute("UPDATE tables SET seen = ? WHERE tbl = ?", (seen, tbl))
        self.db.commit()

    def tables(self):
        """{tbl: (status, retained state or None, last seen)}."""
        out = {}
        for tbl, status, state, seen in self.db.execute(
                "SELECT tbl, status, state, seen FROM tables"):
            out[tbl] = (status, json.loads(state) if state else None, seen)
        return out
