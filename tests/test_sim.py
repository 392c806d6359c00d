# The host simulator: key tokens, headless key files with screenshots and state, pipe and terminal modes.
import json
import os
import random
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from firmware import stjson
from firmware.match import Match
from host_tools import sim

ROOT = Path(__file__).resolve().parent.parent

# A one-rack 9-ball match from the setup screen: race 1-1, the 9 on the break wins it.
NINE_KEYS = """# setup: down to race1 and race2, 5 -> 1 each, then down to start and ok
8 8 8 4 4 4 4 8 4 4 4 4
8 8 8 8 8 5
# lag: player 1 breaks
1
# the 9 on the break
9 A
"""
NINE_EVENTS = [
    {"t": "new", "game": "9ball", "players": ["P1", "P2"], "three_foul": True,
     "race": [1, 1], "break": "winner", "nine_on_break": "win"},
    {"t": "lag", "breaker": 0},
    {"t": "shot", "first": 1, "rail": True, "break_rails": 4, "cue_rail": True, "pots": [9]},
]


def _py(args, **kw):
    return subprocess.run([sys.executable, "-m", "host_tools.sim", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, **kw)


def test_tokens():
    assert sim.parse_tokens("A B 0 C * #", "keypad") == [
        ("press", "A"), ("press", "B"), ("press", "0"), ("press", "C"), ("press", "*"),
        ("press", "#")]
    assert sim.parse_tokens("# a comment A B", "keypad") == []
    assert sim.parse_tokens("# *", "keypad") == [("press", "#"), ("press", "*")]   # help
    assert sim.parse_tokens("# # 8 5", "keypad") == [("press", k) for k in "##85"]
    assert sim.parse_tokens("long:P1 foul p2 shot wait:100", "buttons") == [
        ("long", "P1"), ("press", "FOUL"), ("press", "P2"), ("shot", None), ("wait", 100)]
    assert sim.parse_tokens("a1lb", "keypad") == [("press", "A"), ("press", "1"),
                                                      ("long", "B")]
    assert sim.parse_tokens("12fF!", "buttons") == [
        ("press", "P1"), ("press", "P2"), ("press", "FOUL"), ("long", "FOUL"), ("long", "P1")]
    assert sim.parse_tokens("stuck:A chatter:7 hash star", "keypad") == [
        ("stuck", "A"), ("chatter", "7"), ("press", "#"), ("press", "*")]
    with pytest.raises(ValueError):
        sim.parse_tokens("long:Q", "keypad")
    with pytest.raises(ValueError):
        sim.parse_tokens("P1", "keypad")


def _expected(events):
    m = Match()
    for ev in events:
        m.apply(ev)
    return m.state()


def test_key_file_gives_the_event_file_state(tmp_path):
    keys = tmp_path / "nine.keys"
    keys.write_text(NINE_KEYS)
    s = sim.Sim("oled", "keypad", "en", "9ball")
    sim.run_file(s, str(keys))
    assert stjson.dumps(s.state()) == stjson.dumps(_expected(NINE_EVENTS))
    assert s.state()["winner"] == 0


def test_headless_cli_shots_and_state(tmp_path):
    keys = tmp_path / "k.txt"
    keys.write_text("2 5 1\nA\nB\n")
    shots = tmp_path / "shots"
    res = _py(["--keys", str(keys), "--shots", str(shots), "--state", "--game", "8ball"])
    assert res.returncode == 0, res.stderr
    st = json.loads(res.stdout)
    assert st["game"] == "8ball" and st["shooter"] == 1
    pngs = sorted(os.listdir(shots))
    assert pngs == ["000.png", "001.png", "002.png"]
    assert (shots / "000.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_shot_tokens_choose_the_screenshots(tmp_path):
    keys = tmp_path / "k.txt"
    keys.write_text("2 5 shot\n1\nA shot\n")
    shots = tmp_path / "s"
    for display in ("lcd", "lcd16", "digits"):
        res = _py(["--keys", str(keys), "--shots", str(shots / display), "--display", display,
                   "--input", "keypad"])
        assert res.returncode == 0, res.stderr
        assert sorted(os.listdir(shots / display)) == ["000.png", "001.png"]


def test_pipe_mode_reads_lines_and_ends():
    res = _py(["--display", "lcd", "--input", "buttons", "--lang", "tr"],
              input="UNDO\nlong:UNDO\n")
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("┌────────────────────┐") == 3  # first screen + one per line
    assert "> long:UNDO" in res.stdout


def test_pipe_mode_with_no_input_does_not_hang():
    t0 = time.monotonic()
    res = _py(["--display", "digits"], stdin=subprocess.DEVNULL)
    assert res.returncode == 0 and time.monotonic() - t0 < 30
    assert "█" in res.stdout


KINDS = [(d, layout) for d in ("oled", "sh1106", "lcd", "lcd16", "digits")
         for layout in ("keypad", "buttons")]


def _width(line):
    # Terminal columns of a line: 2 for wide (East Asian W/F) characters, else 1.
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def _played(display, layout):
    # A display showing a match in play (the screens with the most on them).
    s = sim.Sim(display, layout)
    keys = "2 5 1 A 3 4 B" if layout == "keypad" else "FOUL P1 P1 P2"
    sim.play(s, sim.parse_tokens(keys, layout))
    return s


@pytest.mark.parametrize("display,layout", KINDS)
def test_every_display_and_its_legend_fit_80x24(display, layout):
    for s in (sim.Sim(display, layout), _played(display, layout)):
        note = sim.status(s) + "  long A" + " and a long note" * 10
        lines = sim.frame(s, 80, 24, note)
        assert len(lines) <= 24, lines
        assert all(_width(line) <= 80 for line in lines), lines
        assert lines[0].startswith("┌") and len(lines) > 4  # a picture, not the message
        assert any("q: quit" in line for line in lines)


def test_the_oled_at_80x24_is_braille_and_larger_terminals_get_larger_pictures():
    s = _played("oled", "keypad")
    pics = [s.screen(c, r) or [] for c, r in ((80, 24), (100, 40), (140, 40), (300, 80))]
    assert [(len(p[0]), len(p)) for p in pics] == [(66, 18), (66, 34), (130, 34), (258, 66)]
    assert s.screen(65, 24) is None
    small = sim.frame(s, 80, 24)
    assert len(small) == 18 + 3  # frame, two legend lines, the status line
    assert set("".join(small[1:17])) - set("│") <= {" "} | {chr(c) for c in range(0x2801, 0x2900)}
    assert len(sim.frame(s, 140, 40)[0]) == 130  # one pixel a column with the legend below


@pytest.mark.parametrize("display,cols,rows,need", [
    ("oled", 65, 24, "66x21"), ("oled", 80, 20, "80x21"), ("lcd", 21, 24, "22x13"),
    ("lcd16", 17, 24, "18x12"), ("lcd16", 80, 6, "80x7"), ("digits", 58, 24, "59x12")])
def test_a_terminal_too_small_gets_one_line_naming_the_size(display, cols, rows, need):
    s = sim.Sim(display, "keypad")
    lines = sim.frame(s, cols, rows)
    assert len(lines) == 1 and need in lines[0] and "%dx%d" % (cols, rows) in lines[0], lines
    c, r = map(int, need.split("x"))
    assert sim.frame(s, c, r)[0].startswith("┌")  # and the size it names is enough


def test_headless_and_pipe_modes_fit_the_size_given(tmp_path):
    keys = tmp_path / "k.txt"
    keys.write_text("2 5 1\nA\n")
    res = _py(["--keys", str(keys), "--size", "80x24"])
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 18 and all(len(line) == 66 for line in lines)
    res = _py(["--keys", str(keys), "--size", "140x40"])
    assert [len(line) for line in res.stdout.splitlines()] == [130] * 34
    res = _py(["--keys", str(keys), "--size", "40x10"])
    assert res.stdout == "terminal 40x10 is too small: the OLED needs 66x18\n"
    res = _py(["--size", "40x10", "--display", "lcd"], input="A\n")
    assert res.returncode == 0 and res.stdout.count("┌" + "─" * 20 + "┐") == 2


# What each character of the pictures shows, read from its Unicode name (not from the tables
# sim draws with): {char: [(x, y) of the lit pixels in its cell]}.
def _lit_of(ch):
    if ch == " ":
        return []
    name = unicodedata.name(ch)
    if name.startswith("BRAILLE PATTERN DOTS-"):
        where = {"1": (0, 0), "2": (0, 1), "3": (0, 2), "7": (0, 3),
                 "4": (1, 0), "5": (1, 1), "6": (1, 2), "8": (1, 3)}
        return [where[d] for d in name.rsplit("-", 1)[1]]
    quarters = {"UPPER LEFT": (0, 0), "UPPER RIGHT": (1, 0), "LOWER LEFT": (0, 1),
                "LOWER RIGHT": (1, 1)}
    if name.startswith("QUADRANT "):
        return [quarters[q] for q in name[len("QUADRANT "):].split(" AND ")]
    return {"FULL BLOCK": [(0, 0), (1, 0), (0, 1), (1, 1)], "UPPER HALF BLOCK": [(0, 0), (1, 0)],
            "LOWER HALF BLOCK": [(0, 1), (1, 1)], "LEFT HALF BLOCK": [(0, 0), (0, 1)],
            "RIGHT HALF BLOCK": [(1, 0), (1, 1)]}[name]


def _decode(lines, style, width=128, height=64):
    # The bitmap a terminal picture shows (its border checked and dropped).
    assert lines[0] == "┌" + "─" * (len(lines[0]) - 2) + "┐"
    assert lines[-1] == "└" + "─" * (len(lines[0]) - 2) + "┘"
    inner = [line[1:-1] for line in lines[1:-1]]
    assert all(line[0] == line[-1] == "│" for line in lines[1:-1])
    bm = [bytearray(width) for _ in range(height)]
    cw, ch = {"big": (1, 1), "half": (1, 2), "quad": (2, 2), "braille": (2, 4)}[style]
    for cy, row in enumerate(inner):
        cells = [row[i:i + 2] for i in range(0, len(row), 2)] if style == "big" else list(row)
        assert len(cells) == -(-width // cw)
        for cx, cell in enumerate(cells):
            if style == "big":
                lit = {"  ": [], "██": [(0, 0)]}[cell]
            elif style == "half":
                lit = [(0, y) for x, y in _lit_of(cell) if x == 0]  # a half block: both halves
                assert len(lit) == len(_lit_of(cell)) // 2 or cell == " "
            else:
                lit = _lit_of(cell)
            for x, y in lit:
                bm[cy * ch + y][cx * cw + x] = 1
    return bm


@pytest.mark.parametrize("style", sim.STYLE_NAMES)
def test_the_pictures_decode_back_to_the_pixels(style):
    from host_tools.fakes.oled import read_text

    s = _played("oled", "keypad")
    bitmap = [bytes(row) for row in s.bitmap()]
    assert any(any(row) for row in bitmap)
    back = _decode(s.art(style), style)
    assert [bytes(row) for row in back] == bitmap
    assert read_text(back) == s.text()
    # every pattern a cell can have, and a size that is no multiple of the cell
    rnd = random.Random(7)
    noise = [bytes(rnd.randint(0, 1) for _ in range(37)) for _ in range(23)]
    assert [bytes(r) for r in _decode(sim.oled_art(noise, style), style, 37, 23)] == noise


def test_stuck_and_chatter_keys_reach_the_controller():
    s = sim.Sim("oled", "buttons")
    s.press("P2", "stuck")
    assert s.runner.app.ctl.fault == ["stuck", "P2"]
    s.press("FOUL", "chatter")
    assert s.runner.app.ctl.fault == ["chatter", "FOUL"]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def _set_size(fd, cols, rows):
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def test_terminal_mode_fits_its_terminal_quits_on_q_and_restores_it():
    import select
    import termios

    master, slave = os.openpty()
    _set_size(slave, 80, 24)
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.sim"], cwd=ROOT, stdin=slave,
                            stdout=slave, stderr=subprocess.PIPE)
    out = b""

    def wait_for(what):
        nonlocal out
        deadline = time.monotonic() + 30
        while what not in out and time.monotonic() < deadline and proc.poll() is None:
            if select.select([master], [], [], 0.2)[0]:
                out += os.read(master, 65536)
        assert what in out, out[-2000:]

    try:
        wait_for(b"q: quit")
        os.write(master, b"2")
        wait_for(b"press 2")
        _set_size(slave, 50, 20)  # redrawn without a key: one line naming the size needed
        wait_for(b"too small")
        _set_size(slave, 140, 40)
        wait_for("─".encode() * 128 + "┐".encode())
        os.write(master, b"q")
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        after = termios.tcgetattr(slave)
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert after == before
    frames = out.decode("utf-8", "replace").replace("\r", "").split("\x1b[H\x1b[2J")[1:]
    small = [f for f in frames if "┌" + "─" * 64 + "┐" in f]
    assert len(small) >= 2  # the first screen and the one after the key
    for f in small:
        lines = f.replace("\x1b[?25l", "").split("\n")
        assert len(lines) <= 24 and all(_width(line) <= 80 for line in lines), lines
    assert any(f.strip() == "terminal 50x20 is too small: the OLED needs 66x21" for f in frames)
