# 4x4 matrix keypad: drive one row low at a time, read pulled-up columns; single-key rollover.
from .debounce import KeyScanner, reader


class Keypad(KeyScanner):
    # rows: output pins (.value(v) or callable(v)), best open-drain so two held keys never short
    # a high row to a low one; cols: input pins with pull-ups. keymap names keys row by row.
    def __init__(self, rows, cols, keymap="123A456B789C*0#D", debounce_ms=30, long_ms=800,
                 stuck_ms=5000, chatter_ms=200, chatter_edges=6, quiet_ms=1000, queue=8):
        if len(keymap) != len(rows) * len(cols) or not keymap:
            raise ValueError("keymap needs one name per row x column")
        KeyScanner.__init__(self, [keymap[i] for i in range(len(keymap))], debounce_ms, long_ms,
                            stuck_ms, chatter_ms, chatter_edges, quiet_ms, True, queue)
        self._rows = [reader(p) for p in rows]
        self._cols = [reader(p) for p in cols]
        for r in self._rows:
            r(1)

    def _scan(self, now):
        rows = self._rows
        cols = self._cols
        nc = len(cols)
        i = 0
        for r in range(len(rows)):
            drive = rows[r]
            drive(0)
            for c in range(nc):
                if cols[c]():
                    self._step(i, 0, now)
                else:
                    self._step(i, 1, now)
                i += 1
            drive(1)
