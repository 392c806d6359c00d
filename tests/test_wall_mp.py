# mp: yes
# Wall panels on the board-like VM: the wall view, the NeoPixel and MAX7219 drivers on fakes, read back.
# ruff: noqa: I001  (host_tools.fakes must come first: on CPython it puts framebuf on sys.path)
import gc
import time

from host_tools import fakes
from host_tools.fakes import wall as fw
from host_tools.fakes.matrix import MatrixDecoder
from host_tools.fakes.neopixel import NeoPixel, grid

from firmware.drivers.matrix import Matrix
from firmware.drivers.neopanel import NeoPanel
from firmware.wall_view import wall as wall_view

# (The board-like VM's 64 KB hold the drivers, the fakes and the reader, not the rules as well:
# the models are built by hand here, as the controller builds them; tests/test_wall.py plays
# real matches through the whole app.)


class _Match:
    # What the wall view asks a firmware.match.Match (get, warned), from the fields given.
    def __init__(self, s, fouls, winner):
        self.fields = s
        self.fouls = fouls
        self.winner = winner

    def get(self, k):
        return self.fields[k]

    def warned(self, i):  # C-S7, C-E4, C-N3
        return self.fields["three"] and self.winner is None and self.fouls[i] >= 2


def model(game="14.1", scores=(0, 0), shooter=0, fouls=(0, 0), bih=None, winner=None,
          breaking=False, goal=None, mode="play", three=True):
    k = "score" if game == "14.1" else "racks"
    players = []
    for i in (0, 1):
        p = {"name": "AB"[i], "score": 0, "racks": 0, "fouls": fouls[i]}
        p[k] = scores[i]
        players.append(p)
    goal = goal or ((100, 100) if game == "14.1" else (5, 5))
    s = {"target": goal, "race": goal, "three": three}
    st = {"game": game, "players": players, "shooter": shooter, "bih": bih, "winner": winner,
          "breaking": breaking}
    return {"mode": mode, "state": st, "match": _Match(s, fouls, winner)}


def wall(*args, **kw):
    return wall_view(model(*args, **kw))


M141_RUN = ("14.1", (2, 9), 1, (0, 0), None, None, False, (100, 75))  # A 2, B 9 shooting
M141_WARN = ("14.1", (-2, 3), 1, (2, 0))  # A -2 on two fouls, B 3 to shoot
M9 = ("9ball", (0, 0), 0)  # race to 5, A at the table


def neo(w=32, h=8, **wiring):
    np = NeoPixel(fakes.FakePin(0), w * h, keep=2)  # (a frame is 768 bytes of a 64 KB heap)
    return np, NeoPanel(np, w, h, **wiring)


def neo_read(np, w=32, h=8, **wiring):
    return fw.read(grid(np.last(), w, h, **wiring))


def mx(w=32, h=8, **opts):
    spi = fakes.FakeSPI()
    return spi, Matrix(spi, fakes.FakePin(1, spi), w, h, **opts)


def mx_read(spi, w=32, h=8, **opts):
    return fw.read(MatrixDecoder(w, h, **opts).feed(spi.records).bitmap())


def test_wall_view():
    assert wall(*M141_RUN) == [1, 2, 9, 1, 100, 75, 0, 0, -1]
    assert wall(*M141_WARN) == [1, -2, 3, 1, 100, 100, 1, 0, -1]
    assert wall(*M141_WARN, three=False)[6] == 0  # no three-foul rule: no warning
    assert wall(*M9) == [2, 0, 0, 0, 5, 5, 0, 0, -1]
    assert wall("9ball", (0, 0), 1, bih="table") == [2, 0, 0, 1, 5, 5, 0, 2, -1]
    assert wall("9ball", (0, 0), 1, bih="kitchen", breaking=True)[7] == 0  # a break: not shown
    assert wall("8ball", (3, 5), None, (2, 0), winner=1) == [2, 3, 5, -1, 5, 5, 0, 0, 1]
    assert wall(mode="setup")[0] == 0
    assert wall_view({"mode": "play", "state": None})[0] == 0


def test_14_1_scores_and_shooter_on_both_panels():
    v = wall(*M141_RUN)  # targets 100 and 75: no room for them on 32x8
    np, d = neo()
    d.show(v)
    r = neo_read(np)
    assert (r["a"], r["b"], r["ma"], r["mb"], r["kb"]) == ("2", "9", None, "full", "green")
    assert r["ca"] == r["cb"] == "white" and not r["wa"] and not r["wb"] and r["goal"] == ""
    assert r["other"] == 0  # nothing lit that is not read
    spi, m = mx()
    m.show(v)
    r = mx_read(spi)
    assert (r["a"], r["b"], r["ma"], r["mb"]) == ("2", "9", None, "full")
    d.show(wall("14.1", (100, 125), 0))
    r = neo_read(np)
    assert (r["a"], r["b"], r["ma"], r["mb"]) == ("100", "125", "full", None)


def test_negative_score_and_two_foul_warning():
    v = wall(*M141_WARN)
    np, d = neo()
    d.show(v)
    r = neo_read(np)
    assert (r["a"], r["ca"], r["wa"], r["b"], r["cb"], r["wb"]) == ("-2", "red", True, "3",
                                                                  "white", False)
    spi, m = mx()
    m.show(v)
    r = mx_read(spi)
    assert r["a"] == "-2" and r["wa"] and not r["wb"]
    # the marks blink on the one-colour panel: off 500 ms later, on again after 500 more
    assert m.tick(100) == 0  # too early
    assert m.tick(500) > 0
    assert not mx_read(spi)["wa"] and mx_read(spi)["a"] == "-2"
    m.tick(1000)
    assert mx_read(spi)["wa"]
    assert d.tick(2000) == 0  # colour panels do not blink


def test_racks_race_ball_in_hand_and_winner():
    np, d = neo()
    d.show(wall(*M9))
    r = neo_read(np)
    assert (r["a"], r["b"], r["goal"], r["ma"], r["ka"]) == ("0", "0", "5", "full", "green")
    hand = wall("9ball", (1, 0), 0, (0, 1), "table")  # B fouled: A has ball in hand
    d.show(hand)
    r = neo_read(np)
    assert (r["a"], r["ma"], r["ka"], r["mb"]) == ("1", "full", "blue", None)
    spi, mt = mx()
    mt.show(hand)
    assert mx_read(spi)["ma"] == "dashed"
    assert mt.tick(600) > 0 and mx_read(spi)["ma"] is None  # blinking
    d.show(wall("9ball", (0, 0), 0, goal=(5, 7)))  # a handicap race: both shown
    assert neo_read(np)["goal"] == "5-7"
    d.show(wall("8ball", (12, 3), 0, goal=(13, 9)))  # "13-9" does not fit: left out
    r = neo_read(np)
    assert (r["a"], r["b"], r["goal"]) == ("12", "3", "")
    d.show(wall("8ball", (3, 5), None, winner=1))  # match over: B's digits and marker gold
    r = neo_read(np)
    assert (r["cb"], r["mb"], r["kb"], r["ma"]) == ("gold", "full", "gold", None)


def test_only_what_changed_is_written():
    np, d = neo()
    d.show(wall("14.1", (3, 0)))
    n = np.count
    assert d.show(wall("14.1", (3, 0))) == 0 and np.count == n  # the same: no write()
    assert d.show(wall("14.1", (4, 0))) == 1 and np.count == n + 1  # 3 -> 4: sent once
    a = np.writes[-2]
    b = np.writes[-1]
    leds = [i for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3]]
    assert 0 < len(leds) < 30  # one digit's pixels changed on the strip, nothing else
    spi, mt = mx()
    mt.show(wall("14.1", (4, 0)))
    k = spi.mark()
    assert mt.show(wall("14.1", (4, 0))) == 0 and spi.nbytes(k) == 0
    rows = mt.show(wall("14.1", (5, 0)))  # 4 -> 5: the rows of one digit in one module
    assert 0 < rows <= 8 and spi.nbytes(k) == rows * 8  # 8 bytes (a word a module) a row
    for f in spi.frames(k):
        regs = [f[i] for i in range(0, len(f), 2)]
        assert sum([1 for g in regs if g]) == 1  # one module's row, no-ops for the others
    assert mx_read(spi)["a"] == "5"


def test_brightness():
    np, d = neo()
    d.show(wall(*M141_RUN))
    hi = max(np.last())
    d.brightness(15)
    assert max(np.last()) > hi and max(np.last()) == 255
    d.brightness(0)
    assert 0 < max(np.last()) < hi and neo_read(np)["a"] == "2"
    spi, mt = mx(brightness=9)
    assert MatrixDecoder().feed(spi.records).intensity() == [9, 9, 9, 9]
    mt.brightness(2)
    assert MatrixDecoder().feed(spi.records).intensity() == [2, 2, 2, 2]


def test_wiring_options():
    v = wall(*M141_RUN)
    for wiring in ({}, {"zigzag": False}, {"flip_x": True}, {"flip_y": True}):
        np, d = neo(**wiring)
        d.show(v)
        r = neo_read(np, **wiring)
        assert (r["a"], r["b"]) == ("2", "9"), wiring
    # two 8x32 panels chained: 64x8; two 16x16 panels wired in rows: 32x16 (digits 16 rows tall)
    np, d = neo(64, 8, pw=32)
    d.show(v)
    assert neo_read(np, 64, 8, pw=32)["goal"] == "100-75"  # room for the targets in the middle
    np, d = neo(32, 16, pw=16, cols=False)
    d.show(wall(*M9))
    r = neo_read(np, 32, 16, pw=16, cols=False)
    assert (r["a"], r["b"], r["goal"], r["ma"]) == ("0", "0", "5", "full")
    np, d = neo(16, 16, cols=False)  # one 16x16 panel: A above B
    d.show(v)
    r = neo_read(np, 16, 16, cols=False)
    assert (r["a"], r["b"], r["mb"]) == ("2", "9", "full")
    for opts in ({"reverse": True}, {"flip": True}):
        spi, mt = mx(**opts)
        mt.show(v)
        assert mx_read(spi, **opts)["b"] == "9", opts
    spi, mt = mx(32, 16)  # eight modules in two rows
    mt.show(v)
    assert mx_read(spi, 32, 16)["a"] == "2"


def test_idle_and_error_screens_draw_dashes():
    np, d = neo()
    d.show(wall(mode="setup"))
    r = neo_read(np)
    assert r["a"] == "-" and r["b"] == "-"
    d.show(["ERROR: MemoryError", "restarting..."])  # what app.error_screen gives a text kind
    assert neo_read(np)["a"] == "-"


def test_one_frame_heap_and_time():
    # A score change drawn and sent: the heap it takes (the bus keeps nothing, as on a board:
    # none) and its time on this VM (host_tools/wall_heap.py measures more frames).
    alloc = getattr(gc, "mem_alloc", None)  # MicroPython
    if alloc is None:
        import pytest  # CPython only: MicroPython has gc.mem_alloc

        pytest.skip("CPython has no gc.mem_alloc: the frame's heap is measured on MicroPython")
    np, d = neo()
    spi = fakes.FakeSPI()
    mt = Matrix(spi, fakes.FakePin(1), 32, 8)  # a CS pin that records nothing
    spi.write = lambda buf: None
    np.write = lambda: None
    out = []
    for dev in (d, mt):
        v = wall(*M141_RUN)
        dev.show(v)
        v2 = list(v)
        v2[1] += 1
        gc.collect()
        a = alloc()
        t = time.ticks_us()  # pyright: ignore[reportAttributeAccessIssue]
        dev.show(v2)
        t = time.ticks_diff(time.ticks_us(), t)  # pyright: ignore[reportAttributeAccessIssue]
        used = alloc() - a
        out.append((used, t))
        assert used == 0, used
    print("wall frame heap (bytes) and time (us): neopixel %d %d, matrix %d %d" % (
        out[0][0], out[0][1], out[1][0], out[1][1]))
