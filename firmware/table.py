# The board at its table (docs/ui-contract.md): the store (firmware/store.py) where the match and
# the settings go, the journal of the match being played, the settings and the wall panel's
# brightness, and the new-match screen's module. The controller (firmware/ui.py) only asks it;
# without a store everything stays in RAM.
from firmware.match import Log
from firmware.mem import unload


class Table:
    def __init__(self, store=None, game="14.1"):
        self.store = store  # firmware.store.Store, or None: RAM only
        self.log = None  # the log of the controller's match (a journal, or in RAM): take()
        self.wall = False  # a wall panel is wired: the menus set its brightness (cfg "bright")
        self.hold = False  # the journal holds a key's records until after_screen() (the app's)
        self.cfg = {"game": game, "p1": "P1", "p2": "P2", "t1": 100, "t2": 100, "r1": 5,
                    "r2": 5, "break": None, "three": True, "nine": "win", "ten": "spot",
                    "bright": None, "clock": None, "ck": [35, 60, 25, 1, 10]}

    def panel(self, level):
        # A wall panel is wired at this level (its board profile's) until a setting says another.
        self.wall = True
        if self.cfg["bright"] is None:
            self.cfg["bright"] = level or 1

    def open(self, lang, keep=None):
        """The log of a new match: the store archives the last one, makes the journal and saves
        the settings a step a pass (keep: the fewest archived matches pruning keeps; None: the
        store's rule, and None is returned if the flash is short of room, to ask first)."""
        st = self.store
        if st is None:
            return self.take(None)
        if keep is None and st.full():
            return None
        c = dict(self.cfg)
        c["lang"] = lang
        return self.take(st.start(c, keep))

    def take(self, log):
        """Take over log (a soft restart), or None: a new log in RAM; returns it."""
        self.log = Log() if log is None else log
        self.log.hold = self.hold
        return self.log

    def defer(self):
        # The app writes a key's records once its screens are out (after_screen): the journal
        # holds them until then (a new match's, once Start's steps make it: Store.start).
        self.hold = self.log.hold = True

    def started(self, players):
        # The match is under way: the new-match screen's names and code are let go; its message.
        from firmware import setup

        st = self.store
        setup.remember(st, players)
        unload("setup")  # its code is not needed until the next new match
        return ["moved", st.moved] if st and st.moved else ["started"]

    def close(self, look=False):
        # Let go of the match's journal file (the new-match screen comes); look: a match was
        # played, the room left is measured again while that screen is up.
        self.log.close()
        if look and self.store is not None:
            self.store.look()

    def setting(self, key, d):
        # The new-match screen's field key one step on (firmware/setup.py); a message or None.
        from firmware import setup

        return setup.change(self.cfg, key, d, self.store)

    def save(self, lang, bright=0):
        """The settings (and the language) to settings.json, where there is a store, bright
        first: the wall panel's brightness that many steps up or down (1-15); False if the
        flash would not take them (what was played is saved, in the journal)."""
        c = self.cfg
        if bright:
            c["bright"] = ((c["bright"] or 8) - 1 + bright) % 15 + 1
        st = self.store
        if st is None:
            return True
        c = dict(c)
        c["lang"] = lang
        st.cfg = c  # (what Start's step saves, if it is still to come)
        return st.save_settings(c)

    def after_screen(self):
        """A key's screens are out: the journal's held records written (Journal.commit; what
        they leave for later, work() writes once the display lost its mark). True if records
        were held (the screens marked them unsaved); OSError if the flash would not take them
        (the journal is then as flash holds it)."""
        log = self.log
        n = log.held
        log.commit()
        return n > 0

    def work(self):
        """One step of what the store leaves for the app's passes (Start's archive, journal,
        settings, then pruning), after what the journal's records left for later (Journal.tidy:
        a snapshot, a full folder's pack, the next file); a message key for the screen, or
        None."""
        self.log.tidy()
        st = self.store
        if st is None or not st.due:
            return None
        try:
            return st.work()
        except OSError:
            return "not_saved"
