# The journal on real littlefs on the emulated NOR flash (host_tools/norflash.py): a power cut
# at every flash operation of a referee action of many events (won rack) and of its undo, and
# random bit flips in the written blocks of a match's flash. CPython only (littlefs-python).
import json
import random
import time

from littlefs import LittleFSError

from firmware import journal, store
from firmware.match import Match
from firmware.table import Table
from firmware.ui import Controller
from host_tools import norflash
from host_tools.norflash import installed, match_141


def _state(m):
    return json.dumps(m.s, sort_keys=True)


def _press(c, keys):
    for k in keys.split():
        long = k.startswith("long:")
        c.key("long" if long else "press", k[5:] if long else k)
        log = c.match.log
        log.tidy()  # as the app does once a key's screens are out
        while c.table.store.due:  # Start's steps and the pruning, as the app's passes make them
            c.table.store.work()


def _resume(image):
    # (state JSON or "null", the journal or None) as the board boots on image.
    nor, fs = norflash.mount(image)
    with installed(fs):
        j = store.Store("").resume()
        if j is None:
            return "null", None
        m = Match(j)
        m.rebuild()
        j.close()
        return _state(m), j


def test_a_power_cut_at_every_flash_operation_of_a_won_rack_and_its_undo():
    # A cut during a won rack's records resumes the state before the action or after it, never a
    # state inside it that was never on screen. A long press of the player not at the table: the
    # shooter's miss, then that player's 9 (N2), one action.
    nor, fs = norflash.new_fs(64)
    with installed(fs):
        c = Controller("buttons", "en", "9ball", table=Table(store.Store(""), "9ball"))
        _press(c, "FOUL P1 P2")  # started, P1 breaks dry; P2 at the table
        before = _state(c.match)
        n = len(c.match.log)
        image = bytes(nor.buffer)
        nor.log = []  # pyright: ignore
        _press(c, "long:P1")  # P1 won the rack: one action of several events
        k = len(c.match.log) - n
        after = _state(c.match)
        mid = len(nor.log)  # pyright: ignore
        _press(c, "UNDO")  # its undo: one press
        assert _state(c.match) == before and len(c.match.log) == n
        c.match.log.close()
    log = list(nor.log or [])
    assert k >= 2 and mid >= k, (k, mid)  # the events were written one record at a time
    seen = {"before": 0, "after": 0}
    for cut, how, img in norflash.cuts(image, log):
        got, j = _resume(img)
        allowed = (before, after)
        assert got in allowed, (cut, how, mid)
        seen["before" if got == before else "after"] += 1
        if got == after:
            assert j is not None and j.action() == k and j.lost == 0  # undo: one press
    print("\nwon rack (%d events): %d flash operations cut (%d in its undo), resumed before "
          "it %d times, after it %d, never inside" % (k, len(log), len(log) - mid,
                                                     seen["before"], seen["after"]))
    assert seen["before"] > 2 and seen["after"] > 2


def test_a_power_cut_at_every_flash_operation_of_a_long_action():
    # Eight events as one action (Match.apply_all: the seven solids one by one, then the 8),
    # crossing a file of the journal: every cut resumes before or after all eight.
    nor, fs = norflash.new_fs(64)
    pot = [{"t": "shot", "first": b, "pots": [b], "call": b, "made": True, "rail": True}
           for b in range(1, 9)]
    with installed(fs):
        m = Match(store.Store("").fresh())
        for ev in ({"t": "new", "game": "8ball", "players": ["Can", "Deniz"], "race": [3, 3]},
                   {"t": "lag", "breaker": 0},
                   {"t": "shot", "first": 1, "break_rails": 4, "rail": True}):
            m.apply(ev)
            m.log.tidy()
        before = _state(m)
        image = bytes(nor.buffer)
        nor.log = []  # pyright: ignore
        assert m.apply_all(pot) == 8
        m.log.tidy()
        after = _state(m)
        assert m.state()["players"][1]["racks"] == 1  # the rack won
        m.log.close()
    seen = {before: 0, after: 0}
    for _, _, img in norflash.cuts(image, nor.log):  # pyright: ignore
        got, j = _resume(img)
        assert got in seen
        seen[got] += 1
    assert seen[before] >= 8 and seen[after] >= 1, seen


def _session(seed):
    # A 14.1 match played as the app does, on a 48-block flash: (image, state by record seq).
    nor, fs = norflash.new_fs(48)
    by_seq = {-1: "null"}
    with installed(fs):
        m = Match(store.Store("").fresh())
        for ev in match_141(seed=seed, target=45, undo_rate=0.05):
            m.apply(ev)
            m.log.tidy()
            by_seq[m.log.head] = _state(m)  # pyright: ignore
        head = m.log.head  # pyright: ignore
        m.log.close()
    return bytes(nor.buffer), by_seq, head


def test_random_bit_flips_in_the_written_blocks_never_crash_nor_resume_an_unshown_state():
    # Finding: bit flips in the raw flash resumed older states with nothing said, or raised at
    # boot. littlefs may roll a damaged commit back (a silent loss the journal can only bound
    # by its evidence) or refuse the file; the journal must resume a state that was shown.
    t0 = time.perf_counter()
    rnd = random.Random(21)
    out = {"unmountable": 0, "filesystem error": 0, "exact": 0, "older, said": 0,
           "older, unsaid": 0, "blank": 0}
    images = 0
    for seed in (4, 5, 6):
        image, by_seq, head = _session(seed)
        written = [b for b in range(len(image) // norflash.BLOCK)
                   if image[b * norflash.BLOCK:(b + 1) * norflash.BLOCK].count(0xFF)
                   < norflash.BLOCK]
        for _ in range(200):
            img = bytearray(image)
            b = rnd.choice(written)
            base = b * norflash.BLOCK
            used = [i for i in range(0, norflash.BLOCK, 7) if img[base + i] != 0xFF]
            at = base + (rnd.choice(used) + rnd.randrange(7) if used and rnd.random() < 0.8
                         else rnd.randrange(norflash.BLOCK))
            img[min(at, base + norflash.BLOCK - 1)] ^= 1 << rnd.randrange(8)
            images += 1
            try:
                got, j = _resume(bytes(img))
            except LittleFSError:
                out["unmountable"] += 1  # (littlefs's own refusal: before any journal code)
                continue
            except journal.Damaged:
                raise
            except OSError:
                out["filesystem error"] += 1  # a littlefs error the boot keeps the files for
                continue
            h = j.head if j is not None else -1
            assert by_seq.get(h) == got, (seed, b, at, h)  # the state after record h: shown
            true = head - h
            assert 0 <= (j.lost if j else 0) <= true
            if got == "null":
                out["blank"] += 1
            elif not true:
                out["exact"] += 1
            else:
                out["older, said" if j.lost or j.uncertain else "older, unsaid"] += 1
    dt = time.perf_counter() - t0
    print("\nraw flash: %d images with a bit flipped in a written block: %s; %.1f s"
          % (images, ", ".join("%s %d" % kv for kv in out.items()), dt))
    assert images >= 600 and out["exact"] > 300
