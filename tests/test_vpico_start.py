# Start on the virtual Pico (the real rp2 firmware, real littlefs): a key pressed while Start
# archives the match and the pruning deletes the oldest is acted on. The board's flash is made on
# the host with littlefs-python in the Pico's geometry (host_tools/norflash.py): the build, as
# `make deploy` puts it, and a store with twenty archived matches and a long one being played,
# so that this Start archives the 21st and the oldest goes.
import json

import pytest

from firmware.app import new_controller
from firmware.journal import Journal
from firmware.match import Match
from firmware.store import Store
from host_tools import deploy, norflash, vpico
from host_tools.norflash import installed
from tests.helpers import long_141

pytestmark = pytest.mark.skipif(vpico.missing() is not None, reason=str(vpico.missing()))

def _flash(tmp):
    nor, fs = norflash.new_fs(norflash.PICO_BLOCKS)
    tree = deploy.build(tmp / "board")
    norflash.write_files(fs, deploy.laid_out(tree, "pico"))
    with installed(fs):
        st = Store("")
        lengths = []
        for k in range(21):  # twenty short matches archived, and a long one being played
            m = Match(st.fresh())
            for ev in long_141(300 if k == 20 else 10, seed=k):
                m.apply(ev, False)
            lengths.append(len(m.log))
            m.log.close()
        assert st.archived() == list(range(1, 21)) and st.free() > 50
        image = bytes(nor.buffer)
        # the keys to the new-match screen: the menu, down to New match, confirmed
        ctl = new_controller("keypad", store=Store(""))
        keys = ["#", "#"]
        for k in keys:
            ctl.key("press", k)
        while ctl.model()["items"][ctl.cursor][0] != "newmatch":
            ctl.key("press", "8")
            keys.append("8")
        keys += ["5", "5"]
    path = tmp / "flash.bin"
    path.write_bytes(b"\xff" * vpico.FS_START + image + b"\xff" * (0x200000 - vpico.FS_END))
    return path, lengths, keys


def _match(b):
    # The board's current match and archive as on its flash now: (events of match/, state,
    # {n: events} of hist/), read with the firmware's own code on a copy.
    nor, fs = norflash.mount(bytes(b.flash.read_bytes()[vpico.FS_START:vpico.FS_END]))
    with installed(fs):
        st = Store("")
        j = st.resume()
        assert j is not None
        m = Match(j)
        m.rebuild()
        hist = {}
        for n in st.archived():
            h = Journal("%s/%d" % (st.hist, n)).open()
            hist[n] = len(h)
        return len(j), m.state(), hist


def test_a_key_pressed_during_start_is_acted_on(tmp_path):
    flash, lengths, keys = _flash(tmp_path)
    with vpico.VPico(flash=flash) as b:
        b.wait_text(lambda rows: any("Resumed" in r or "A=Made" in r for r in rows), timeout=120)
        for k in keys:
            b.press(k)
            b.wait(250)
        b.wait_text(lambda rows: rows[0] == "New match", timeout=30)
        seq = b.stats()["seq"]
        t0 = b.time_us()
        b.press("5")  # Start: acted on at its release (80 ms), then the archive and pruning
        b.wait(110)
        b.press("1")  # player 1 breaks, pressed while Start's work goes on
        b.wait(1500)
        n, state, hist = _match(b)
        ev = b.log(seq)
        passes = [t for _, t in b.feeds(t0)]  # (each pass ends with the watchdog's feed)
    gaps = [(b2 - a) / 1000 for a, b2 in zip(passes, passes[1:])]
    print("\nvirtual Pico, Start with pruning: the longest passes (ms, at ms from the key) %s; "
          "the archive %s" % (sorted(((round(g), (t - t0) // 1000) for g, t in zip(gaps, passes)),
                                     reverse=True)[:6], json.dumps(hist)))
    assert [e["key"] for e in ev if e.get("ev") == "down"] == ["5", "1"]
    assert n == 2 and state["shooter"] == 0, (n, state["shooter"])  # new match, 1 breaks
    assert hist[21] == lengths[-1] and 1 not in hist and len(hist) >= 3  # archived, 1 gone
    # Start's work goes a step a pass: the longest is one littlefs operation that allocates a
    # block (its lookahead refilled: a walk of the filesystem, as statvfs), not the whole Start
    assert max(gaps) < 150, sorted(gaps)[-5:]
