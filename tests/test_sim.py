# The host simulator: key tokens, headless key files with screenshots and state, pipe and terminal modes.
import json
import os
import subprocess
import sys
import time
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


def test_oled_is_drawn_with_half_blocks():
    s = sim.Sim("oled", "keypad")
    art = s.screen()
    assert len(art) == 32 + 2 and all(len(line) == 130 for line in art)
    assert set("".join(art[1:-1])) <= set(" ▀▄█│")


def test_stuck_and_chatter_keys_reach_the_controller():
    s = sim.Sim("oled", "buttons")
    s.press("P2", "stuck")
    assert s.runner.app.ctl.fault == ["stuck", "P2"]
    s.press("FOUL", "chatter")
    assert s.runner.app.ctl.fault == ["chatter", "FOUL"]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def test_terminal_mode_quits_on_q_and_restores_the_terminal():
    import termios

    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen([sys.executable, "-m", "host_tools.sim"], cwd=ROOT, stdin=slave,
                            stdout=slave, stderr=subprocess.PIPE)
    out = b""
    try:
        deadline = time.monotonic() + 30
        sent = False
        while time.monotonic() < deadline and proc.poll() is None:
            import select

            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                out += os.read(master, 65536)
            if not sent and b"q quit" in out:
                os.write(master, b"2")
                time.sleep(0.3)
                os.write(master, b"q")
                sent = True
        proc.wait(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
        after = termios.tcgetattr(slave)
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert after == before
