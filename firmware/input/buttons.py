# Direct buttons, one pin each: Buttons(pins, names).poll(now_ms) -> (kind, name) or None.
from .debounce import KeyScanner, reader


class Buttons(KeyScanner):
    # Each pin reads 0 when its button is down if active_low (pull-up wiring), else 1.
    def __init__(self, pins, names, debounce_ms=30, long_ms=800, stuck_ms=5000,
                 active_low=True, chatter_ms=200, chatter_edges=6, quiet_ms=1000, queue=8):
        if len(pins) != len(names) or not pins:
            raise ValueError("one name per pin")
        KeyScanner.__init__(self, names, debounce_ms, long_ms, stuck_ms,
                            chatter_ms, chatter_edges, quiet_ms, False, queue)
        self._reads = [reader(p) for p in pins]
        self._low = 1 if active_low else 0

    def _scan(self, now):
        reads = self._reads
        low = self._low
        for i in range(len(reads)):
            if reads[i]():
                self._step(i, 1 - low, now)
            else:
                self._step(i, low, now)
