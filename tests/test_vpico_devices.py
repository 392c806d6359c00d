# The virtual Pico's other devices (host_tools/vpico/devices.mjs): the firmware deployed with a
# profile's display and wall options boots, on the real rp2 MicroPython, to a new-match screen
# that the emulated chips hold exactly as the host simulator's fakes record it (the SH1106's RAM,
# the HD44780's DDRAM and CGRAM, the MAX7219 registers, the NeoPixel strip's bytes), and a match
# keyed on the emulated buttons shows the host simulator's screens and leaves on flash the state
# the rules core gives for its events.
#
# The module's boards start from one flash that holds the build as `make deploy` lays it out,
# written by littlefs-python (the module fixture `base`; test_deploy.py deploys with mpremote to
# a blank board); each test writes its profile options' board.py into a copy of it the same
# way, but the buttons' match, which deploys them with `make deploy`'s code (the deploy copies
# board.py only): a kind costs a boot, not a deploy.
import json
import shutil
import time

import pytest

from firmware.app import new_controller
from firmware.match import Match
from firmware.store import Store
from host_tools import bench_vpico, deploy, journal_read, replay, sim, vpico

pytestmark = pytest.mark.skipif(vpico.missing() is not None, reason=str(vpico.missing()))

# (display, wall) pairs: every display kind, each wall panel beside a display and alone (the
# digits alone refuse to start: test_the_digits_alone_say_they_need_a_display).
KINDS = [("sh1106", "neopixel"), ("lcd20", None), ("lcd16", "matrix"),
         ("neopixel", None), ("matrix", None)]
SETTLE_MS = 250
FIGURES: dict = {}


@pytest.fixture(scope="module")
def base(tmp_path_factory, board_build):
    # The build with the default profile, on a blank board's flash (the snapshot every board of
    # the module starts from).
    tmp = tmp_path_factory.mktemp("vpdev")
    tree = board_build
    flash = tmp / "base.bin"
    vpico.VPico(flash=flash).put_files(deploy.laid_out(tree, "pico"))
    yield {"tmp": tmp, "tree": tree, "flash": flash}
    bench_vpico.save_test_figures("test_vpico_devices", FIGURES)  # make bench-pico prints them


NACKS = {}  # _board's name -> the I2C NACKs the emulator counted before its deploy


def _board(base, name, display, wall=None, options=None, layout="keypad", deployed=False):
    """A started VPico with the devices of (display, wall), on a copy of the base flash with
    the board.py of those profile options: written into the flash before it starts, or, if
    deployed, put there by `make deploy`'s code on the running board."""
    flash = base["tmp"] / (name + ".bin")
    shutil.copyfile(base["flash"], flash)
    opts = {"display": display, "input": layout}
    if wall:
        opts["wall"] = wall
    opts.update(options or {})
    b = vpico.VPico(flash=flash, display=display, wall=wall)
    NACKS[name] = 0
    if not deployed:
        b.put_files({"board.py": deploy.laid_out(base["tree"], "pico", opts)["board.py"]})
        return b.start()
    b.start()
    try:
        # Let the board's main.py get going first (as a board plugged in a moment ago): the app
        # with its watchdog, or (the old board.py's OLED missing) the REPL after its error.
        b.wait(1500)

        def attempt():
            n = b.boots()
            # (the I2C addresses NACKed so far: the old profile's OLED, absent here; the deploy
            # starts the new build with a soft reset, which keeps the emulator's counts)
            NACKS[name] = b.stats()["i2cNacks"]
            res = deploy.deploy(b.pty, "pico", tree=base["tree"], options=opts,
                                out=lambda s: None)
            b.wait_boot(n + res["resets"])
            return res

        try:
            res = attempt()
        except deploy.DeployError:  # mpremote's 20 s for the probe, on a busy host: once more
            b.wait(1000)
            res = attempt()
        assert res["copied"] == ["board.py"], res["copied"]
    except BaseException:
        b.stop()
        raise
    return b


def _same_screen(b, s, timeout=90.0):
    """Wait until the board's display and wall panel show what the host simulator s shows."""
    want = s._text()
    wall = s.panel() if s.wall_kind else None
    deadline = time.monotonic() + timeout
    while True:
        got = b.text()
        if got == want and (wall is None or b.wall_rows() == wall):
            return got
        if time.monotonic() > deadline:
            raise AssertionError("the board shows %r (wall %r); the host simulator %r"
                                 % (got, b.wall_state(), want))
        b.wait(50)


def _check_chips(b, s):
    """The emulated chips hold what the host fakes recorded for the same screen."""
    dev = b.device()
    kind = s.display
    if kind in ("oled", "sh1106"):
        assert b.decoder(dev).bitmap() == s.bitmap()  # every pixel, read off the chip's RAM
    elif kind.startswith("lcd"):
        host = s.dec
        s._feed()
        assert [bytes(r) for r in dev["codes"]] == host.codes()  # DDRAM, cell by cell
        assert bytes(dev["cgram"]) == bytes(host.cgram)
        assert dev["display_on"] and dev["backlight"] and dev["busy_violations"] == 0
    elif kind == "digits":
        s._feed()
        chip = dev["chips"][0]
        assert bytes(chip["digit"]) == bytes(s.dec.digit)
        assert (chip["intensity"], chip["scan_limit"], chip["shutdown"]) == (
            s.dec.intensity, s.dec.scan_limit, s.dec.shutdown)
    wall = b.wall_state()
    if s.wall_kind == "neopixel":
        dev_ = s.wall_dev
        assert wall and wall["errors"] == 0 and wall["last_bytes"] == len(dev_.buf)
        assert b.wall_frame() == dev_.last()  # the strip's bytes exactly as the fake recorded
        FIGURES["neopixel frame"] = {"us": wall["frame_us"], "high0_ns": wall["high0_ns"],
                                    "high1_ns": wall["high1_ns"]}
    elif s.wall_kind == "matrix":
        from host_tools.fakes.matrix import MatrixDecoder

        host = MatrixDecoder(*s.wall_size).feed(s.wall_dev.records)
        assert [c["digit"] for c in wall["chips"]] == [list(m.digit) for m in host.mods]
        assert [c["intensity"] for c in wall["chips"]] == host.intensity()
        assert not any(c["shutdown"] for c in wall["chips"])


@pytest.mark.parametrize("display,wall,lang", [k + ("en",) for k in KINDS] + [("lcd20", None, "tr")],
                         ids=["%s+%s" % k if k[1] else k[0] for k in KINDS] + ["lcd20-tr"])
def test_new_match_screen_on_each_device(base, display, wall, lang):
    # (in Turkish the LCD shows letters loaded into its CGRAM: the glyphs are compared too)
    t0 = time.monotonic()
    name = "%s-%s-%s" % (display, wall, lang)
    b = _board(base, name, display, wall, {"lang": lang})
    try:
        s = sim.Sim(display=display, wall=wall, lang=lang)
        rows = _same_screen(b, s)
        _check_chips(b, s)
        if display not in vpico.WALLS:
            assert any(rows)
        st = b.stats()
        assert st["kind"] == display and st["i2cNacks"] == NACKS[name]  # none: no device absent
        png = base["tmp"] / ("%s-%s.png" % (display, lang))
        assert b.png(png).startswith("ok") and png.read_bytes()[:4] == b"\x89PNG"
        # boot to the first screen complete: the last display or wall write of this boot
        ev = [e for e in b.log() if e.get("ev") in ("spi", "neopixel")
              or (e.get("ev") == "i2c" and e.get("data"))]
        if lang != "en":
            assert any(ch in "".join(rows) for ch in "ıİşŞğĞçÇÖÜ"), rows  # CGRAM letters shown
        FIGURES[display + (" + " + wall if wall else "") + (" " + lang if lang != "en" else "")] = {
            "test s": round(time.monotonic() - t0, 1), "screen at ms": ev[-1]["t1"] / 1000,
            "writes": len(ev)}
    finally:
        b.stop()


def test_the_digits_alone_say_they_need_a_display(base):
    # Eight 7-segment digits can't show the setup's names or a choice's options (README): a
    # board whose only display they are shows so on them and stops.
    b = _board(base, "digits-alone", "digits")
    try:
        b.wait_text("no LCd", timeout=60)
    finally:
        b.stop()


# A 9-ball match on the wall buttons (P1 P2 FOUL UNDO MISS OK): setup (FOUL = ok), P1 breaks,
# made balls, misses, a foul, an undo, a rack won (a long press of the shooter's button)...
BUTTON_KEYS = ["FOUL", "P1", "P1", "P2", "P2", "P1", "FOUL", "UNDO", "FOUL", "P2", "MISS",
               "long:P2", "P1", "OK", "P2"]


def _board_events(b, tmp):
    d = tmp / ("fs-%d" % time.monotonic_ns())
    b.copy_tree("/match", d / "match")
    if "settings.json" in b.listdir("/"):
        (d / "settings.json").write_bytes(b.read_file("/settings.json"))
    return d


def test_a_match_keyed_on_the_buttons(base):
    b = _board(base, "buttons", "lcd20", "neopixel", {"game": "9ball"}, layout="buttons",
               deployed=True)
    try:
        s = sim.Sim(display="lcd20", layout="buttons", game="9ball", wall="neopixel")
        _same_screen(b, s)
        t0 = time.monotonic()
        for k in BUTTON_KEYS:
            long = k.startswith("long:")
            name = k[5:] if long else k
            b.press(name, 1000 if long else 80)
            s.press(name, "long" if long else "press")
            b.wait(SETTLE_MS)
            _same_screen(b, s, timeout=60)  # the display and the wall panel, each press
        FIGURES["buttons: %d presses, wall s" % len(BUTTON_KEYS)] = round(time.monotonic() - t0, 1)
        _check_chips(b, s)
        want = s.state()
        assert want["game"] == "9ball" and want["rack"] >= 2  # a rack was won on the buttons
        d = _board_events(b, base["tmp"])
        # the events on the board's flash, applied by the rules core, give the host's state...
        events = journal_read.read_journal(str(d / "match")).events
        m = Match()
        for ev in events:
            m.apply(ev)
        assert m.state() == want
        lines = [json.dumps(ev) for ev in events]
        rm, bad = replay.replay(lines, _Quiet())
        assert bad is None and rm.state() == want
        assert events == s.runner.app.ctl.match.events
        # ... and so does the board's own resume of that journal (as after a power cut)
        assert new_controller("buttons", store=Store(str(d))).match.state() == want
    finally:
        b.stop()


class _Quiet:
    def write(self, text):
        raise AssertionError("the board's journal holds a refused event: " + text)

