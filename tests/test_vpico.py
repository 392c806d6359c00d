# The virtual Pico (host_tools/vpico): the real rp2 firmware answers mpremote on its pty, its
# flash survives a power cut, its watchdog takes its real time, and the keypad and OLED are there.
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host_tools import vpico

pytestmark = pytest.mark.skipif(vpico.missing() is not None, reason=str(vpico.missing()))

MPREMOTE = str(Path(sys.executable).parent / "mpremote")


def mpremote(board, *args, timeout=60):
    return subprocess.run([MPREMOTE, "connect", board.pty, *args], capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def board():
    with vpico.VPico() as b:  # one boot for the whole module
        yield b


def test_mpremote_talks_to_the_real_firmware(board):
    r = mpremote(board, "exec", "import sys, os; print(sys.implementation._machine, "
                 "sys.implementation._mpy, os.statvfs('/')[2])")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Raspberry Pi Pico with RP2040 ")
    mpy, blocks = r.stdout.split("with RP2040")[1].split()
    assert int(mpy) & 0xFF == 6 and (int(mpy) >> 8) & 3 == 3  # .mpy 6.3
    assert int(blocks) == 352  # littlefs on 1.4 MB of the 2 MB flash


def test_flash_survives_a_power_cut(board):
    r = mpremote(board, "exec", "with open('kept.txt', 'w') as f: f.write('hello')")
    assert r.returncode == 0, r.stderr
    board.power_cut()
    r = mpremote(board, "exec", "print(open('kept.txt').read())")
    assert r.stdout.strip() == "hello", r.stderr
    mpremote(board, "rm", ":kept.txt")


def test_the_keypad_matrix_reads_a_key(board):
    code = ("from machine import Pin\n"
            "import time\n"
            "rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in (6, 7, 8, 9)]\n"
            "cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in (10, 11, 12, 13)]\n"
            "seen = set()\n"
            "for _ in range(20):\n"
            "    for r in range(4):\n"
            "        rows[r].value(0)\n"
            "        for c in range(4):\n"
            "            if not cols[c].value():\n"
            "                seen.add('123A456B789C*0#D'[r * 4 + c])\n"
            "        rows[r].value(1)\n"
            "    time.sleep_ms(1)\n"
            "print(sorted(seen))\n")
    board.down("B")
    try:
        r = mpremote(board, "exec", code)
    finally:
        board.up("B")
    assert r.stdout.strip() == "['B']", (r.stdout, r.stderr)
    r = mpremote(board, "exec", code)
    assert r.stdout.strip() == "[]", (r.stdout, r.stderr)


def test_back_to_back_presses_take_turns_instead_of_overlapping(board):
    # `python -m host_tools.vpico press K` from a script: each command returns at once, so
    # without a queue the second press came while the first key was still held (and the first
    # one's release let go of a key pressed again): keys were lost.
    seq = board.stats()["seq"]
    (d1, u1), (d2, u2), (d3, u3) = [board.press(k, 80) for k in ("5", "5", "6")]
    assert u1 - d1 == u2 - d2 == u3 - d3 == 80_000
    assert d2 - u1 >= 30_000 and d3 - u2 >= 30_000  # past the firmware's release debounce
    board.wait((u3 - board.time_us()) / 1000 + 5)
    got = [(e["ev"], e["key"], e["t"]) for e in board.log(seq) if e.get("ev") in ("down", "up")]
    assert [g[:2] for g in got] == [("down", "5"), ("up", "5"), ("down", "5"), ("up", "5"),
                                    ("down", "6"), ("up", "6")]
    assert [g[2] for g in got] == [d1, u1, d2, u2, d3, u3]


def test_make_sim_board_pico_keeps_its_own_flash_and_says_what_it_resumes(tmp_path):
    from host_tools import sim_vpico
    from host_tools.vpico.__main__ import DEFAULT_FLASH

    assert sim_vpico.DEFAULT_FLASH != DEFAULT_FLASH  # not the flash of `vpico run`
    kept = tmp_path / "sim.bin"
    assert "blank" in sim_vpico.flash_note(kept, False)
    kept.write_bytes(b"\xff")
    assert "resumes" in sim_vpico.flash_note(kept, False)
    assert "blank" in sim_vpico.flash_note(kept, True)


def test_the_watchdog_takes_its_real_time(board):
    # At the REPL the core sleeps until the watchdog's alarm: the emulator lets that time pass
    # in wall time (pacing), so a host has the window a real board gives it.
    n = board.boots()
    t0 = time.monotonic()
    r = mpremote(board, "exec", "from machine import WDT; WDT(timeout=2000)")
    assert r.returncode == 0, r.stderr
    board.wait_boot(n + 1, timeout=30)
    assert time.monotonic() - t0 > 1.5


def test_package_json_lists_the_firmware_for_mip():
    import json

    from host_tools.deploy import mip_urls
    from host_tools.mpy import ROOT

    # (after adding a module, `python -m host_tools.deploy urls` rewrites the list)
    assert json.loads((ROOT / "package.json").read_text())["urls"] == mip_urls()


def test_mip_install_puts_a_working_scoreboard_on_the_board(board):
    # What `mpremote mip install --target / github:OWNER/REPO` does, from the local package.json
    # (the same urls, relative to it): sources, which the board compiles as it imports them.
    from host_tools.mpy import ROOT

    r = subprocess.run([MPREMOTE, "connect", board.pty, "mip", "install", "--target", "/",
                        str(ROOT / "package.json")], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Installing: //main.py" in r.stdout  # (mpremote joins "/" + "/" + path)
    assert "Installing: //lib/ssd1306.py" in r.stdout
    assert "main.py" in mpremote(board, "exec", "import os; print(os.listdir('/'))").stdout
    n = board.boots()
    mpremote(board, "reset")
    board.wait_boot(n + 1)
    rows = board.wait_text("New match", timeout=120)
    assert rows[0] == "New match"
