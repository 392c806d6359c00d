# The wall panels in the whole app: key presses -> referee's display and wall panel, read back.
# ruff: noqa: I001  (host_tools.fakes must come first: it puts framebuf on sys.path)
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from host_tools import fakes, sim
from host_tools.fakes import neopixel as fake_neopixel
from host_tools.fakes import wall as fw
from host_tools.fakes.matrix import MatrixDecoder

from firmware import views
from firmware.app import App, new_controller
from firmware.drivers.matrix import Matrix
from firmware.drivers.neopanel import NeoPanel
from matchkeys import match_keys
from views_models import DRY_BREAK, FOUL, m141_two_fouls, model

from tests.builders import lag, new, play, shot

ROOT = Path(__file__).resolve().parent.parent


def start(s):
    s.press("5")  # start the match with the settings as they are
    s.press("1")  # player 1 breaks


def score(st, i):
    p = st["players"][i]
    return str(p["score"] if st["game"] == "14.1" else p["racks"])


@pytest.mark.parametrize("wall", ["neopixel", "matrix"])
@pytest.mark.parametrize("game", ["14.1", "8ball", "9ball"])
def test_the_wall_follows_every_game(game, wall):
    # After every key of a match: both scores, the shooter's marker, the warning marks and the
    # race/target, as the wall panel beside the OLED shows them, agree with the match's state.
    setup = {"race1": 2, "race2": 2} if game != "14.1" else {"target1": 25, "target2": 25}
    keys, ctl = match_keys(game, setup)  # a whole match, from the setup screen to its end
    s = sim.Sim("oled", "keypad", "en", game, wall)
    r = s.wall_reading()
    assert (r["a"], r["b"]) == ("-", "-")  # the setup screen: dashes
    seen = set()
    for i, k in enumerate(keys):
        s.press(k)
        st = s.state()
        if st is None or (st["shooter"] is None and st["winner"] is None):
            continue  # setup and lag
        r = s.wall_reading()
        assert (r["a"], r["b"]) == (score(st, 0), score(st, 1)), (i, k, st, r)
        sh = st["shooter"]
        if sh is not None and not (wall == "matrix" and st["bih"] and not st["breaking"]):
            assert r["m" + "ab"[sh]] == "full" and r["m" + "ba"[sh]] is None, (i, k, st, r)
        if st["winner"] is not None and wall == "neopixel":
            assert r["m" + "ab"[st["winner"]]] == "full" and r["k" + "ab"[st["winner"]]] == "gold"
        warned = [p["fouls"] >= 2 and st["winner"] is None for p in st["players"]]
        if wall == "neopixel":  # (the matrix's marks blink: tested apart)
            assert [r["wa"], r["wb"]] == warned, (i, k, st, r)
        if game != "14.1":
            assert r["goal"] == "2"  # race to 2 between the scores
        seen.add((score(st, 0), score(st, 1)))
    assert st["winner"] is not None and s.state() == ctl.match.state()
    assert len(seen) > 2  # the scores moved


def test_ball_in_hand_and_warning_in_colour_through_the_app():
    s = sim.Sim("lcd", "keypad", "en", "9ball", "neopixel")
    start(s)
    s.press("B")  # a dry break: P2 to shoot
    s.press("C")  # P2 fouls: P1 has ball in hand
    assert s.state()["bih"] == "table" and s.state()["shooter"] == 0
    r = s.wall_reading()
    assert (r["ma"], r["ka"], r["mb"]) == ("full", "blue", None)
    assert s.text()[-1].startswith("A 0 [full blue]")


def test_two_foul_warning_in_red():
    m = m141_two_fouls()
    np = fake_neopixel.NeoPixel(fakes.FakePin(0), 256)
    d = NeoPanel(np)
    d.show(views.render(model(m), "wall"))
    r = fw.read(fake_neopixel.grid(np.last(), 32, 8))
    assert (r["a"], r["ca"], r["wa"], r["b"], r["mb"]) == ("-2", "red", True, "3", "full")


def test_8ball_ball_in_hand_and_racks():
    m = play(new("8ball", ("Ann", "Bob")), lag(0), DRY_BREAK, shot(first=3, pots=[3], made=True, rail=True),
             shot(first=4, rail=True), FOUL)  # Ann fouls: Bob has ball in hand
    v = views.render(model(m), "wall")
    assert v == [2, 0, 0, 1, 5, 5, 0, 2, -1]
    spi = fakes.FakeSPI()
    mt = Matrix(spi, fakes.FakePin(1, spi))
    mt.show(v)
    r = fw.read(MatrixDecoder().feed(spi.records).bitmap())
    assert (r["a"], r["b"], r["mb"], r["goal"]) == ("0", "0", "dashed", "5")


def test_screens_that_do_not_change_the_wall_send_nothing_to_it():
    s = sim.Sim("oled", "keypad", "en", "14.1", "matrix")
    start(s)
    s.press("A")
    s.tick(600)
    dev: Any = s.wall_dev
    k = dev.mark()
    s.press("#")  # a ball entry begins on the OLED ("Balls: 1_"): the wall keeps the scores
    assert dev.nbytes(k) == 0 and "1_" in s.text()[6]
    s = sim.Sim("oled", "keypad", "en", "14.1", "matrix")
    start(s)
    s.press("A")
    dev = s.wall_dev
    k = dev.mark()
    s.press("A")  # a ball made: 1 -> 2, the rows of one digit
    frames = dev.frames(k)
    assert 0 < len(frames) <= 8 and dev.nbytes(k) == 8 * len(frames)
    assert s.wall_reading()["a"] == "2"


def test_neopixel_skips_write_when_nothing_changed():
    s = sim.Sim("oled", "keypad", "en", "14.1", "neopixel")
    start(s)
    np: Any = s.wall_dev
    n = len(np.writes)
    s.press("#")  # the OLED changes, the wall does not: no write()
    assert len(np.writes) == n
    s.press("#")
    s.press("A")
    assert len(np.writes) == n + 1


@pytest.mark.parametrize("display", ["neopixel", "matrix"])
def test_the_wall_panel_alone(display):
    s = sim.Sim(display, "buttons", "en", "8ball")
    s.press("FOUL")  # start
    s.press("P1")  # P1 breaks
    st = s.state()
    assert st["shooter"] == 0
    r = s.wall_reading()
    assert (r["a"], r["b"], r["ma"], r["goal"]) == ("0", "0", "full", "5")
    lines = s.text()
    assert len(lines) == 9 and lines[-1].startswith("A 0 [full")
    assert max([len(x) for x in sim.frame(s, 80, 24)]) <= 80


@pytest.mark.parametrize("display", ["oled", "sh1106", "lcd", "lcd16", "digits"])
@pytest.mark.parametrize("wall", ["neopixel", "matrix"])
@pytest.mark.parametrize("layout", ["keypad", "buttons"])
def test_two_displays_fit_80x24(display, wall, layout):
    s = sim.Sim(display, layout, "en", "9ball", wall)
    f = sim.frame(s, 80, 24, "t=0.0s")
    assert len(f) <= 24 and max([len(sim.visible(x)) for x in f]) <= 80
    assert f[0].startswith("┌") and any("t=0.0s" in x for x in f)
    coloured = sim.frame(s, 80, 24, "t=0.0s", colour=True)
    assert [len(sim.visible(x)) for x in coloured] == [len(x) for x in f]  # colours take no room
    big = sim.frame(s, 200, 60, "t=0.0s")
    assert sum([len(x) for x in big]) > sum([len(x) for x in f])  # larger terminals: larger
    small = sim.frame(s, 30, 8)
    assert len(small) == 1 and "too small" in small[0]


def test_cli_wall_shots(tmp_path):
    keys = tmp_path / "k.txt"
    keys.write_text("5 1\nA\n")
    shots = tmp_path / "shots"
    res = subprocess.run([sys.executable, "-m", "host_tools.sim", "--wall", "neopixel", "--keys",
                          str(keys), "--shots", str(shots)], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    names = sorted(p.name for p in shots.iterdir())
    assert names == ["000-wall.png", "000.png", "001-wall.png", "001.png"]
    from PIL import Image

    img = Image.open(shots / "001-wall.png")
    assert img.size[0] > 3 * img.size[1]  # 32x8 LEDs
    lines = res.stdout.splitlines()
    assert len(lines) <= 24 and "█" in res.stdout
    res = subprocess.run([sys.executable, "-m", "host_tools.sim", "--display", "matrix", "--keys",
                          str(keys), "--input", "keypad"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0 and "██" in res.stdout


# ---------------------------------------------------------------- board profiles


@pytest.fixture
def machine(monkeypatch):
    from test_boards import _Machine

    fake: Any = _Machine()
    monkeypatch.setitem(sys.modules, "machine", fake.module)
    mod = types.ModuleType("neopixel")
    made = []

    def NeoPixel(pin, n, bpp=3, timing=1):
        np = fake_neopixel.NeoPixel(pin, n, bpp, timing)
        made.append((pin.n, n, np))
        return np

    mod.NeoPixel = NeoPixel  # pyright: ignore[reportAttributeAccessIssue]
    monkeypatch.setitem(sys.modules, "neopixel", mod)
    fake.neopixels = made
    return fake


@pytest.mark.parametrize("board", ["pico", "esp32_devkit"])
@pytest.mark.parametrize("display", ["oled", "lcd20", "lcd16"])
@pytest.mark.parametrize("wall", ["neopixel", "matrix"])
def test_boards_wire_a_wall_beside_the_display(machine, board, display, wall):
    mod = __import__("boards." + board, None, None, ["PROFILE"])
    p = dict(mod.PROFILE)
    p.update(display=display, wall=wall, input="keypad")
    hw = mod.build(p)
    assert hw.wall is not None and hw.display is not hw.wall
    pins = set(p["rows"]) | set(p["cols"]) | set(p["i2c"][1:3]) | set(p["spi"][1:4])
    own = p["neopixel_pin"] if wall == "neopixel" else p["matrix_cs"]
    assert own not in pins  # its own pin
    if wall == "neopixel":
        assert [(n, k) for n, k, _ in machine.neopixels] == [(p["neopixel_pin"], 256)]
        dev = machine.neopixels[0][2]
    else:
        spis = [x for x in machine.made if x[0] == "SPI"]
        assert len(spis) == 1  # (with the digits beside too: the bus shared, each its own CS)
        dev = None
    app = App(hw, new_controller("keypad", "en", "9ball"))
    app.step(0)
    app.step(5)
    if wall == "neopixel":
        assert len(dev.writes) >= 1
        r = fw.read(fake_neopixel.grid(dev.last(), 32, 8))
        assert (r["a"], r["b"]) == ("-", "-")


@pytest.mark.parametrize("board", ["pico", "esp32_devkit"])
def test_a_board_with_the_wall_panel_only(machine, board):
    mod = __import__("boards." + board, None, None, ["PROFILE"])
    p = dict(mod.PROFILE)
    p.update(display="matrix", input="buttons", wall_brightness=7)
    hw = mod.build(p)
    assert hw.wall is hw.display  # also the wall: its marks blink
    app = App(hw, new_controller("buttons", "en", "8ball"))
    app.step(0)
    app.step(5)
    # (the fake machine's pins are not bound to the bus: each write is one CS frame)
    dec = MatrixDecoder().feed([r[1] for r in machine.bus.records if r[0] == "w"])
    assert dec.intensity() == [7, 7, 7, 7]
    r = fw.read(dec.bitmap())
    assert (r["a"], r["b"]) == ("-", "-")


def test_the_wall_brightness_is_set_from_the_keypad_and_kept(machine, tmp_path):
    # The menu (and the new-match screen) of a board with a wall panel has a Brightness row:
    # 4/6 step it (1-15), the panel follows on the next screen, and settings.json keeps it, so
    # the next boot starts at that level.
    from firmware.store import Store

    mod = __import__("boards.pico", None, None, ["PROFILE"])
    p = dict(mod.PROFILE)
    p.update(display="oled", wall="matrix", input="keypad", wall_brightness=4)
    hw = mod.build(p)
    store = Store(str(tmp_path))
    ctl = new_controller("keypad", "en", "9ball", store=store)
    app = App(hw, ctl)
    assert ctl.table.wall and ctl.cfg["bright"] == 4   # the profile's level, until one is set
    rows = [it[0] for it in ctl.model()["items"]]
    assert rows[-2:] == ["bright", "start"], rows
    for k in "5 1 # #".split():   # start, P1 breaks, the menu
        ctl.key("press", k)
    assert ctl.mode == "menu"
    while ctl.model()["items"][ctl.cursor][0] != "bright":
        ctl.key("press", "8")
    for k in "6 6 6 4".split():
        ctl.key("press", k)
    app.step(0)
    spi = hw.wall.spi  # pyright: ignore
    dec = MatrixDecoder().feed([r[1] for r in spi.records if r[0] == "w"])
    assert dec.intensity() == [6, 6, 6, 6]   # the MAX7219s' intensity register
    text = "\n".join(views.render(ctl.model(), "oled")[0])  # pyright: ignore
    assert ">Brightness: 6" in text, text
    cfg, problem = store.load_settings()
    assert problem is None and cfg is not None and cfg["bright"] == 6
    ctl.key("press", "4")   # a step below 1 comes round to 15
    for _ in range(5):
        ctl.key("press", "4")
    assert ctl.cfg["bright"] == 15
    # a board without a wall panel shows no such row
    plain = new_controller("keypad", "en", "9ball")
    assert "bright" not in [it[0] for it in plain.model()["items"]]


def test_the_display_is_rendered_and_sent_before_the_wall_panel(monkeypatch):
    # Press to pixels: the display's screen is rendered and goes out first, the wall panel's
    # view is rendered and its frame (8 ms on the wire for 32x8 NeoPixels) sent after it, in
    # the same pass.
    from firmware import app

    s = sim.Sim("oled", "keypad", "en", "14.1", "neopixel")
    start(s)
    order = []
    hw = s.runner.app.hw
    for name, dev in (("display", hw.display), ("wall", hw.wall)):
        real = dev.show

        def spy(*a, real=real, name=name):
            order.append(name)
            return real(*a)

        dev.show = spy
    render = views.render

    def spy_render(m, kind, page=0):
        order.append("render " + kind)
        return render(m, kind, page)

    monkeypatch.setattr(app.views, "render", spy_render)
    s.press("A")
    assert order == ["render oled", "display", "render wall", "wall"]
    assert s.wall_reading()["a"] == "1"
