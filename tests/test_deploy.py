# make deploy on the virtual Pico (the real rp2 firmware in rp2040js): the real mpremote puts the
# build on a blank board, which boots main.py to the new-match screen; a deploy again copies
# nothing, one after a change copies that file only, to a board running the app with its
# watchdog. A match keyed on the emulated keypad shows what the host simulator shows and leaves
# on flash the state the rules core gives; power cuts between shots and in the middle of a journal
# write resume the same match.
#
# Each test gets its own board from the fixtures, in the state it needs, so that any test runs
# alone or in any order (and the two test workers share them, tests/conftest.py SPREAD): a blank
# board for the first deploy; for the others a flash written on the host with littlefs-python in
# the Pico's geometry (host_tools.norflash, as VPico.put_files writes one) that holds the build
# as a deploy to a blank board lays it out, its manifest included (deploy.laid_out;
# test_make_deploy_to_a_blank_board checks that a real deploy leaves exactly those files), so
# that a deploy to it copies nothing and a boot, not a deploy, makes it. A board in a match has
# its match journal and settings written there by the firmware's own app, Store and Match run on
# the host for the keys (host_tools.norflash.installed, as tests/test_vpico_start.py does), where
# only the board's reading, resuming and keeping of the match is under test;
# test_a_match_keyed_on_the_keypad keys its match on the board, the board's own writing being
# what it tests (and so do the cuts of test_power_cut_during_journal_writes, from a match
# written on the host).
import json
import re
import shutil
import subprocess
import sys
import threading
import time

import pytest

from firmware import lang
from firmware.app import Runner, new_controller
from firmware.store import Store
from host_tools import bench_vpico, deploy, norflash, sim, vpico
from host_tools.mpy import ROOT, mpy_cross_cmd

pytestmark = pytest.mark.skipif(vpico.missing() is not None, reason=str(vpico.missing()))

# A 14.1 match from the new-match screen: up to Start, ok; P1 breaks; a dry break, ...
KEYS = ["2", "5", "1", "B", "A", "A", "B", "1", "2", "A", "C", "B", "*"]
SETTLE_MS = 250  # a press (80 ms), the debounce and a few loop passes, in emulated time
# Lines of firmware/lang_en.py that the changed builds change (_changed_build): the new-match
# screen's title, and the play screen's "Made" ("MADE" in that build).
MODE_SETUP = "\\nmode_setup\\tNew match"
MADE, MADE_NEW = "\\nmade\\tMade", "\\nmade\\tMADE"
# A user's files on a board in a match (what test_mpremote_exec_ls_cp_reach_a_board_in_a_match
# copies there with mpremote): a deploy leaves them.
USER_FILES = {"players.txt": b"Efren\nEarl\n", "lib/mylib.py": b"X = 1\n"}


@pytest.fixture(scope="module")
def rig(tmp_path_factory, board_build):
    # What the module's tests share and none changes: the build, the flash images made from it
    # (_image), the figures measured.
    tmp = tmp_path_factory.mktemp("deploy")
    figures: dict = {}
    yield {"tree": board_build, "tmp": tmp, "figures": figures, "images": {},
           "files": len(deploy.files_for(board_build, "pico"))}
    _save_figures(figures)


def _save_figures(figures):
    # The figures a test worker measured, merged into those of the file's other tests (the other
    # worker's, or the last run's where a test did not run): make bench-pico prints them. A lock
    # keeps the two workers from writing at once.
    import fcntl

    bench_vpico.FIGURES.mkdir(parents=True, exist_ok=True)
    path = bench_vpico.FIGURES / "test_deploy.json"
    with open(bench_vpico.FIGURES / "test_deploy.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            got = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            got = {}
        got.update(figures)
        bench_vpico.save_test_figures("test_deploy", got)


def _image(rig, tree=None, keys=None, extra=None):
    """A flash file (made once a module, boards boot copies of it): the build tree (the rig's
    unless given) as a deploy to a blank board lays it out, the files extra ({board path:
    bytes}) and, with keys, the match those keys make from the new-match screen: its journal,
    settings.json and recent.txt written by the firmware's app (firmware.app.Runner with its
    Store, on the host simulator's devices) into the littlefs, as the board's app writes them,
    each record with a time (the clock norflash.installed gives the board)."""
    tree = tree or rig["tree"]
    name = (str(tree), tuple(keys or ()), tuple(sorted((extra or {}).items())))
    if name in rig["images"]:
        return rig["images"][name]
    nor, fs = norflash.new_fs(norflash.PICO_BLOCKS)
    norflash.write_files(fs, dict(deploy.laid_out(tree, "pico"), **(extra or {})))
    if keys is not None:
        with norflash.installed(fs):
            s = sim.Sim()
            s.runner = Runner(s.hw, lang="en", game="14.1", log=False, store=Store(""))
            for k in keys:
                s.press(k)
            s.tick(4000)  # past the 3 s a boot runs until it counts as healthy (Store.booting)
            assert s.state() == sim_for(keys).state() and s.text() == sim_for(keys).text()
    fs.unmount()
    path = rig["tmp"] / ("image-%d.bin" % len(rig["images"]))
    path.write_bytes(b"\xff" * vpico.FS_START + bytes(nor.buffer))
    assert path.stat().st_size == vpico.FS_END
    rig["images"][name] = path
    return path


@pytest.fixture
def boot(tmp_path):
    """boot(image): a virtual Pico on a copy of the flash file image (None: a blank flash), its
    own, started unless start=False; stopped when the test ends."""
    boards = []

    def start(image, start=True):
        flash = tmp_path / ("flash-%d.bin" % len(boards))
        if image is not None:
            shutil.copyfile(image, flash)
        b = vpico.VPico(flash=flash, fresh=image is None)
        boards.append(b)
        return b.start() if start else b

    yield start
    for b in boards:
        b.stop()


@pytest.fixture
def board(rig, boot):
    """A board with the build laid out as a deploy leaves it, running the app (with its
    watchdog) on its new-match screen."""
    b = boot(_image(rig))
    wait_rows(b, first_screen())
    return b


def _deployed(rig, b, tree=None):
    # A deploy of tree (the rig's build unless given) to the running board b, waited for until
    # the app runs again on its new-match screen; deploy.deploy's result.
    n = b.boots()
    res = deploy.deploy(b.pty, "pico", tree=tree or rig["tree"], out=lambda line: None)
    b.wait_boot(n + res["resets"])
    wait_rows(b, first_screen())
    return res


@pytest.fixture
def clock_set(rig, board):
    """The board, its clock set by a deploy (one with nothing to copy: the clock set, the app
    started again with a soft reset, which keeps it)."""
    assert _deployed(rig, board)["copied"] == []
    return board


@pytest.fixture
def copy_deployed(rig, boot):
    """A board that a deploy which copied a file left: the build with one text changed laid
    out, then the rig's build deployed (its hold's hard reset, the copy, the clock set, the app
    started with a soft reset), on its new-match screen."""
    b = boot(_image(rig, _changed_build(rig, "changed", MODE_SETUP, MODE_SETUP + "!")))
    want = first_screen()
    want[0] = "New match!"
    wait_rows(b, want)
    assert _deployed(rig, b)["copied"] == ["firmware/lang_en.mpy"]
    return b


@pytest.fixture
def in_match(rig, boot):
    """in_match(keys=KEYS, tree=None, extra=None): a board whose flash holds the build (tree's,
    the rig's unless given), the files extra and the match of keys (written on the host, _image),
    booted: it resumed that match and shows it."""

    def start(keys=KEYS, tree=None, extra=None):
        b = boot(_image(rig, tree, keys, extra))
        wait_rows(b, _resumed(sim_for(keys)))
        return b

    return start


@pytest.fixture
def stopped(rig, boot):
    """A board whose flash holds the build as a deploy leaves it and a match (in_match's, of
    KEYS), not started."""
    return boot(_image(rig, keys=KEYS), start=False)


def first_screen():
    return sim.Sim().text()


def wait_rows(b, want, timeout=90.0):
    """The panel's rows once they equal want (a list) or satisfy it (a function)."""
    ok = want if callable(want) else (lambda rows: rows == want)
    return b.wait_text(ok, timeout=timeout)


def board_state(b, tmp):
    """The match state the board keeps on flash (its journal, read off the flash file and
    resumed on CPython, as the board resumes it at boot)."""
    d = tmp / ("fs-%d" % time.monotonic_ns())
    names = b.listdir("/")
    if "match" not in names:
        return None
    b.copy_tree("/match", d / "match")
    if "settings.json" in names:
        (d / "settings.json").write_bytes(b.read_file("/settings.json"))
    ctl = new_controller("keypad", store=Store(str(d)))
    return ctl.match.state()


def test_make_deploy_to_a_blank_board(rig, boot):
    b = boot(None)
    t0 = time.monotonic()
    # What `make deploy BOARD=pico PORT=...` runs.
    r = subprocess.run([sys.executable, "-m", "host_tools.deploy", "--board", "pico", "--port",
                        b.pty, "--tree", str(rig["tree"])], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    rig["figures"]["first deploy s"] = time.monotonic() - t0
    b.wait_boot(2)  # the deploy's reset to hold the app (then a soft reset starts it)
    n = rig["files"]  # the build, the profile, main.py, board.py
    assert re.search(r"deploy: %d copied \(\d+ bytes\), 0 removed, 0 unchanged" % n,
                     r.stdout), r.stdout
    for name in ("main.py", "board.py", "boards/pico.mpy", "firmware/app.mpy", "lib/ssd1306.mpy"):
        assert "  copy %s (" % name in r.stdout
    assert "esp32" not in r.stdout  # only the board's own profile
    # The board boots main.py: the first complete screen is the new-match screen.
    assert wait_rows(b, first_screen())[0] == "New match"
    names = b.listdir("/")
    assert "deploy.flag" not in names and "deploy.json" in names
    assert b.read_file("/board.py") == b"BOARD = 'pico'\n"
    # every file as deploy.laid_out gives it, the manifest too: the flash the other tests' boards
    # start from is the one this deploy leaves
    want = deploy.laid_out(rig["tree"], "pico")
    assert {p: b.read_file("/" + p) for p in want} == want


def test_a_deploy_sets_the_boards_clock_to_utc(copy_deployed):
    # The Pico's RTC starts at 2021-01-01 at every hard boot: the deploy sets it from the host,
    # in UTC, after its last hard reset, and the app runs on it (started by a soft reset).
    b = copy_deployed
    r, _ = _mpremote(b, "exec", "import time; print('RTC', time.time(), time.gmtime()[0])")
    assert r.returncode == 0, r.stderr
    t, year = (int(x) for x in r.stdout.split("RTC", 1)[1].split())
    # (the emulated clock runs slower than the host's: behind it by the emulation's lag only)
    assert year >= 2025 and -300 < t - time.time() < 5, r.stdout
    n = b.boots()
    deploy.Board(b.pty).start()  # the app again, as the deploy starts it: a soft reset
    assert wait_rows(b, first_screen())[0] == "New match" and b.boots() == n


def test_a_second_deploy_copies_nothing(rig, board):
    # (the board holds what the first deploy leaves: test_make_deploy_to_a_blank_board)
    b = board
    lines = []
    n = b.boots()
    res = deploy.deploy(b.pty, "pico", tree=rig["tree"], out=lines.append)
    b.wait_boot(n + res["resets"])
    assert res["copied"] == [] and res["removed"] == []
    assert "nothing to copy (%d files up to date)" % rig["files"] in lines[-1]
    rig["figures"]["deploy, nothing to copy, s"] = res["seconds"]
    assert wait_rows(b, first_screen())[0] == "New match"


def test_make_deploy_players_puts_the_clubs_roster_on_the_board(rig, board, tmp_path):
    b = board
    roster = tmp_path / "roster.txt"
    roster.write_bytes("Zehra\nÖmer\n".encode("utf-8"))
    lines = []
    n = b.boots()
    res = deploy.deploy(b.pty, "pico", tree=rig["tree"], out=lines.append, players=roster)
    b.wait_boot(n + res["resets"])
    assert res["copied"] == [] and "  copy players.txt (12 bytes, from %s)" % roster in lines
    assert b.read_file("/players.txt") == roster.read_bytes()
    # the board's new-match screen steps through it (P2 is player 2's, skipped)
    wait_rows(b, first_screen())
    for k in ("8", "6"):
        b.press(k)
        b.wait(SETTLE_MS)
    rows = wait_rows(b, lambda rows: any("Zehra" in r for r in rows), timeout=60)
    assert any(r.startswith(">Player 1: Zehra") for r in rows), rows
    for k in ("4", "2"):  # back to P1, the cursor to the top: the first screen again
        b.press(k)
        b.wait(SETTLE_MS)
    wait_rows(b, first_screen())
    # a deploy without a roster leaves it there
    n = b.boots()
    res = deploy.deploy(b.pty, "pico", tree=rig["tree"], out=lines.append)
    b.wait_boot(n + res["resets"])
    assert res["removed"] == [] and "players.txt" in b.listdir("/")
    wait_rows(b, first_screen())


def test_a_deploy_after_a_change_copies_that_file_only(rig, board):
    b = board
    tree2 = _changed_build(rig, "changed", MODE_SETUP, MODE_SETUP + "!")
    wait_rows(b, first_screen())  # the app runs, its watchdog on
    lines = []
    n = b.boots()
    res = deploy.deploy(b.pty, "pico", tree=tree2, out=lines.append)
    b.wait_boot(n + res["resets"])
    assert res["copied"] == ["firmware/lang_en.mpy"], lines
    assert "  copy firmware/lang_en.mpy (" in "\n".join(lines)
    rig["figures"]["deploy of one file s"] = res["seconds"]
    want = first_screen()
    want[0] = "New match!"
    wait_rows(b, want)  # the board runs the new file
    # and back: again that one file only
    n = b.boots()
    res = deploy.deploy(b.pty, "pico", tree=rig["tree"], out=lines.append)
    b.wait_boot(n + res["resets"])
    assert res["copied"] == ["firmware/lang_en.mpy"]
    wait_rows(b, first_screen())


def sim_for(keys):
    """The host simulator after keys: the screen and the state the board should show."""
    s = sim.Sim()
    for k in keys:
        s.press(k)
    return s


def _press(b, s, key):
    b.press(key)
    s.press(key)
    b.wait(SETTLE_MS)
    return wait_rows(b, s.text(), timeout=60)


def test_a_match_keyed_on_the_keypad(clock_set, tmp_path):
    # The board's own writing of the match is under test: it is keyed on the board.
    b = clock_set
    s = sim.Sim()
    wait_rows(b, s.text())
    for i, k in enumerate(KEYS):
        if i < 3:
            _press(b, s, k)  # each screen is the host simulator's for the same keys
            continue
        # in play: one screen update a press, within twice the 50 ms budget (make bench-pico
        # measures it: docs/figures.md)
        r = bench_vpico.press_to_pixels(b, k)
        s.press(k)
        wait_rows(b, s.text(), timeout=60)
        assert r["updates"] == 1 and r["ms"] <= 100, r
    # in play with no key the loop leaves the core idle most of each millisecond (make
    # bench-pico measures it: docs/figures.md); a frame allocated on the heap at each pass took
    # it past 100%, where the loop never sleeps
    b.wait(300)
    busy = bench_vpico.idle_cpu(b, 500)
    assert busy < 80, busy
    # the journal on the board's flash gives the rules core's state for the same keys
    assert board_state(b, tmp_path) == s.state()
    # and each record its time: the clock the last deploy set (UTC), behind the PC's by the
    # emulation's lag only
    got = _journal(b, tmp_path)
    assert got.timed == got.records > 0 and got.started is not None
    assert -600 < got.started - time.time() <= 5 and got.last >= got.started


def _journal(b, tmp):
    # The board's journal as host_tools.journal_read reads a copy of it.
    from host_tools import journal_read

    d = tmp / ("j-%d" % time.monotonic_ns())
    b.copy_tree("/match", d)
    return journal_read.read_journal(str(d))


def _resumed(s):
    # What the board shows after resuming the simulator's match: its screen, with the message
    # (one to three rows: "Resumed N ev.,", "last: P1 Made 3") saying it resumed.
    want = s.text()

    def ok(rows):
        diff = [i for i, (a, w) in enumerate(zip(rows, want)) if a != w]
        return (len(rows) == len(want) and 0 < len(diff) <= 3 and diff[-1] - diff[0] < 3
                and rows[diff[0]].startswith("Resumed"))
    return ok


def test_power_cut_between_shots_resumes_the_match(rig, in_match, tmp_path):
    # The board's reading and resuming of its match is under test: the match is written on the
    # host (in_match), each record with a time.
    keys = list(KEYS)
    b = in_match(keys)
    s = sim_for(keys)
    t0 = time.monotonic()
    b.power_cut()
    rows = wait_rows(b, _resumed(s))
    rig["figures"]["power cut to resumed screen, wall s"] = time.monotonic() - t0
    assert lang.t("en", "m_resumed").format(len(s.runner.app.ctl.match.log)) in " ".join(rows), rows
    assert board_state(b, tmp_path) == s.state()
    _press(b, s, "B")  # play goes on on the resumed match
    keys.append("B")
    assert board_state(b, tmp_path) == s.state()
    # the power cut put the Pico's clock back to 2021: that record has no time, the ones
    # before keep theirs
    got = _journal(b, tmp_path)
    assert got.times[-1] is None and got.started is not None and got.timed == got.records - 1


def _either(a, b):
    ra, rb = _resumed(a), _resumed(b)
    return lambda rows: ra(rows) or rb(rows)


# The flash operation torn in each of six shots in a row (made balls): the first of the shot's
# littlefs commits, or a later one where the shot has more (a new journal file every 4
# records); a shot with fewer operations is played uncut.
CUTS = (1, 2, 1, 3, 1, 2)


def test_power_cut_during_journal_writes(rig, in_match, tmp_path):
    # A power cut in the middle of a flash program of a shot's journal append (half of its bytes
    # written): the board boots, resumes the match from before the shot or after it, and shows
    # it; the journal on flash holds that same state. The board's own appends are cut: the match
    # they go on from is written on the host (in_match), one shot past KEYS so that CUTS fall on
    # the appends they are for.
    keys = KEYS + ["B"]
    b = in_match(keys)
    seen = []
    for k in CUTS:
        before, after = sim_for(keys), sim_for(keys + ["A"])
        cuts = b.log_text().count("power cut during a flash")
        seq = b.stats()["seq"]
        b.cut_during_flash(k)
        b.press("A")
        b.wait(400)
        if b.log_text().count("power cut during a flash") == cuts:
            b.cut_during_flash(0)  # this append took fewer operations: no cut
            ops = len([e for e in b.log(seq) if e.get("ev") == "flash"])
            seen.append("uncut (%d operations)" % ops)
            wait_rows(b, after.text())
            keys.append("A")
            continue
        rows = wait_rows(b, _either(before, after))
        state = board_state(b, tmp_path)
        assert state in (before.state(), after.state()), rows
        seen.append("op %d: %s" % (k, "after" if state == after.state() else "before"))
        if state == after.state():
            keys.append("A")
        assert _resumed(sim_for(keys))(rows), rows
    assert sum(x.startswith("op") for x in seen) >= 3, seen
    rig["figures"]["journal cuts"] = seen


MPREMOTE = deploy.mpremote_exe()
# Each mpremote command on a board running a match answers within this, in wall-clock seconds
# (generous: on the 2-core build machine the other test worker may run a virtual Pico too).
ANSWER_S = 20


def _mpremote(b, *args, timeout=60):
    t0 = time.monotonic()
    r = subprocess.run([MPREMOTE, "connect", b.pty, *args], capture_output=True, text=True,
                       timeout=timeout, stdin=subprocess.DEVNULL)
    return r, time.monotonic() - t0


def _at_repl(rows):
    return rows[0] == "At the USB REPL" and "Ctrl-D: back" in rows


def _resumes_exactly(b, tmp, s):
    # The board shows the simulator's screen of the same keys with "Resumed" on it, and keeps
    # the same state on flash.
    rows = wait_rows(b, _resumed(s))
    assert "Resumed %d ev." % len(s.runner.app.ctl.match.log) in " ".join(rows), rows
    assert board_state(b, tmp) == s.state()


def test_mpremote_exec_ls_cp_reach_a_board_in_a_match(rig, in_match, tmp_path):
    # mpremote's Ctrl-C hands the board to the REPL: its display says so, its watchdog does not
    # reset it there (9 s of emulated time at the REPL, past the watchdog's 8 s, after the soft
    # reset each command makes), and machine.reset() brings the match back, exactly. (The
    # board's resuming is under test: the match is written on the host, in_match.)
    b = in_match(KEYS)
    s = sim_for(KEYS)
    wait_rows(b, lambda rows: rows[-1] == s.text()[-1])  # in play
    n, dogs, t0 = b.boots(), b.log_text().count("watchdog reset"), b.time_us()
    took = {}
    r, took["exec"] = _mpremote(b, "exec", "print(6 * 7)")
    assert r.returncode == 0 and r.stdout.strip() == "42", r.stdout + r.stderr
    assert _at_repl(b.text()), b.text()
    r, took["fs ls"] = _mpremote(b, "fs", "ls", ":")
    assert r.returncode == 0 and "match/" in r.stdout and "main.py" in r.stdout, r.stderr
    for name, text in (("players.txt", "Efren\nEarl\n"), ("mylib.py", "X = 1\n")):
        (tmp_path / name).write_text(text)
    r, took["fs cp to"] = _mpremote(b, "fs", "cp", str(tmp_path / "players.txt"),
                                    ":players.txt", "+", "fs", "cp",
                                    str(tmp_path / "mylib.py"), ":lib/mylib.py")
    assert r.returncode == 0, r.stderr
    r, took["fs cp from"] = _mpremote(b, "fs", "cp", ":settings.json",
                                      str(tmp_path / "settings.json"))
    assert r.returncode == 0 and (tmp_path / "settings.json").read_bytes() == \
        b.read_file("/settings.json")
    rig["figures"]["mpremote s"] = {k: round(v, 1) for k, v in took.items()}
    assert max(took.values()) < ANSWER_S, took
    left = 9000 - (b.time_us() - t0) / 1000
    if left > 0:
        b.wait(left)
    assert b.boots() == n and b.log_text().count("watchdog reset") == dogs  # never reset
    assert _at_repl(b.text()), b.text()
    r, _ = _mpremote(b, "reset")
    assert r.returncode == 0, r.stderr
    b.wait_boot(n + 1)
    _resumes_exactly(b, tmp_path, s)


def test_mpremote_repl_then_ctrl_d_resumes_the_match(in_match, tmp_path):
    # `mpremote repl`, Ctrl-C: the REPL's prompt and the screen saying so; a line typed there
    # runs; Ctrl-D (a soft reset) starts the scoreboard again, resumed exactly. (The board's
    # resuming is under test: the match is written on the host, in_match.)
    import os
    import select
    import tty

    b = in_match(KEYS)
    s = sim_for(KEYS)
    master, slave = os.openpty()
    tty.setraw(slave)  # a terminal in raw mode from the start: the Ctrl-C is mpremote's to send
    p = subprocess.Popen([MPREMOTE, "connect", b.pty, "repl"], stdin=slave, stdout=slave,
                         stderr=slave, start_new_session=True)
    os.close(slave)
    seen = [b""]

    def expect(text, timeout=ANSWER_S):
        deadline = time.monotonic() + timeout
        while text.encode() not in seen[0]:
            left = deadline - time.monotonic()
            assert left > 0, "no %r in %.0f s: %r" % (text, timeout, seen[0][-500:])
            if select.select([master], [], [], left)[0]:
                seen[0] += os.read(master, 4096)
        i = seen[0].index(text.encode()) + len(text)
        seen[0] = seen[0][i:]

    try:
        expect("Use Ctrl-] or Ctrl-x to exit this shell")
        n = b.boots()
        os.write(master, b"\x03")
        expect(">>> ")
        assert _at_repl(b.text()), b.text()
        os.write(master, b"print(6 * 7)\r")
        expect("42")
        os.write(master, b"\x04")
        expect("soft reboot")
        _resumes_exactly(b, tmp_path, s)
        assert b.boots() == n  # a soft reset: the same boot
        os.write(master, b"\x1d")  # Ctrl-]: mpremote leaves
        p.wait(10)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        os.close(master)


def _changed_build(rig, name, old, new):
    # The build with one text of lang_en changed: a screen text only this build shows.
    tree2 = rig["tmp"] / name
    if not tree2.exists():
        shutil.copytree(rig["tree"], tree2)
        src = rig["tmp"] / (name + "_lang_en.py")
        text = (ROOT / "firmware" / "lang_en.py").read_text(encoding="utf-8")
        assert old in text
        src.write_text(text.replace(old, new), encoding="utf-8")
        subprocess.run(mpy_cross_cmd(src, tree2 / "firmware" / "lang_en.mpy"), check=True)
    return tree2


def test_deploy_over_a_mip_install_runs_the_new_build(rig, in_match, tmp_path):
    # `mpremote mip install` on the board in its match (the sources laid out as package.json
    # lays them out: a .py beside each .mpy it shadows, both profiles, lib/ssd1306.py), a file an
    # older build left, then `make deploy` of a build whose play screen says "MADE": the board
    # shows it (the .py sources are gone, MicroPython imports them first), the match is the
    # same, and the user's files, the match and the settings are as they were. (The match and
    # the user's files are written on the host, in_match: the deploy keeping them is under test.)
    b = in_match(KEYS, extra=USER_FILES)
    s = sim_for(KEYS)
    mip = tmp_path / "mip"
    urls = [u for u in deploy.mip_urls() if u[0] in (
        "main.py", "boards/pico.py", "boards/esp32_devkit.py", "firmware/lang_en.py",
        "firmware/notice.py", "lib/ssd1306.py")]
    for _, src in urls:
        (mip / src).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / src, mip / src)
    (mip / "package.json").write_text(json.dumps({"urls": urls, "version": "0.9.0"}))
    r, took = _mpremote(b, "mip", "install", "--target", "/", str(mip / "package.json"))
    assert r.returncode == 0 and r.stdout.count("Installing:") == len(urls), r.stdout + r.stderr
    assert took < ANSWER_S, took
    rig["figures"]["mip install of %d sources s" % len(urls)] = round(took, 1)
    r, _ = _mpremote(b, "fs", "cp", str(rig["tree"] / "firmware" / "rules.mpy"),
                     ":firmware/old_view.mpy")  # what an older build left
    assert r.returncode == 0, r.stderr
    kept = {p: b.read_file("/" + p) for p in ("players.txt", "lib/mylib.py", "settings.json")}
    state = board_state(b, tmp_path)
    with b.filesystem() as fs:
        assert fs.stat("/firmware/lang_en.py") and fs.stat("/firmware/lang_en.mpy")
    tree2 = _changed_build(rig, "made", MADE, MADE_NEW)
    lines = []
    n = b.boots()
    res = deploy.deploy(b.pty, "pico", tree=tree2, out=lines.append)
    b.wait_boot(n + res["resets"])
    gone = sorted([u[0] for u in urls if u[0] != "main.py"] + ["firmware/old_view.mpy"])
    assert sorted(res["removed"]) == gone, lines
    assert "firmware/lang_en.mpy" in res["copied"]
    want = s.text()
    want[-1] = want[-1].replace("Made", "MADE")
    assert want != s.text()
    ok = _resumed(s)
    wait_rows(b, lambda rows: rows[-1] == want[-1] and ok(rows[:-1] + [s.text()[-1]]))
    assert board_state(b, tmp_path) == state == s.state()
    with b.filesystem() as fs:
        for p in gone:
            folder, name = ("/" + p).rsplit("/", 1)
            assert name not in fs.listdir(folder or "/"), p
    assert {p: b.read_file("/" + p) for p in kept} == kept


def test_a_deploy_cut_short_says_so_and_the_next_one_finishes_it(rig, in_match, tmp_path):
    # A power cut in the middle of the copy: the deploy reports within 15 s what happened and
    # what to do; the board, held by /deploy.flag, says on its display that a deploy is
    # unfinished and how to finish it; the next deploy finishes it and the match resumes. The
    # board runs the build whose play screen says "MADE", in a match written on the host
    # (in_match: the board's resuming is under test), so that the deploy of the rig's build has
    # a file to copy.
    b = in_match(KEYS, tree=_changed_build(rig, "made", MADE, MADE_NEW))
    s = sim_for(KEYS)
    armed = []

    def out(line):
        if line.startswith("  copy") and not armed:
            b.cut_during_flash(2)  # the board is held now: the copy's second flash operation
            armed.append(1)

    n = b.boots()
    cuts = b.log_text().count("power cut during a flash")
    done = []

    def run():
        try:
            deploy.deploy(b.pty, "pico", tree=rig["tree"], out=out)
            done.append(None)
        except deploy.DeployError as e:
            done.append(e)
        done.append(time.monotonic())

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t_cut = None
    while not done:
        if t_cut is None and b.log_text().count("power cut during a flash") > cuts:
            t_cut = time.monotonic()
        time.sleep(0.1)
    t.join()
    err = done[0]
    assert isinstance(err, deploy.DeployError) and t_cut is not None, (err, t_cut)
    took = done[1] - t_cut
    rig["figures"]["cut deploy reported in s"] = round(took, 1)
    assert took < 30, (took, str(err))  # (15 s is the promise; twice that on a loaded machine)
    assert "held by /deploy.flag" in str(err) and "deploy again" in str(err), err
    rows = wait_rows(b, lambda rows: rows[0] == "Deploy not done")
    assert "Run make deploy" in rows, rows
    assert b.boots() >= n + 2  # the hold's reset, then the cut
    res = deploy.deploy(b.pty, "pico", tree=rig["tree"], out=lambda line: None)
    assert "firmware/lang_en.mpy" in res["copied"]
    _resumes_exactly(b, tmp_path, s)  # "Made" again: the build of the rig
    assert "deploy.flag" not in b.listdir("/")


def _new_match_keys():
    # From play: the menu (# #), down to New match, ok twice (it asks), start, P1 breaks.
    from firmware.ui import Controller

    c = Controller("keypad", "en", "14.1")
    for k in ("2", "5", "1", "#", "#"):
        c.key("press", k)
    keys = ["#", "#"]
    while c.model()["items"][c.cursor][0] != "newmatch":
        c.key("press", "8")
        keys.append("8")
    return keys + ["5", "5", "5", "1"]


def test_make_pull_copies_a_running_match_then_an_archived_one(in_match, tmp_path):
    # `make pull` copies the current match and the archived ones off the board (only
    # what is new), on a board running the scoreboard with its watchdog, in a match written on
    # the host (in_match: the board's reading of it is under test).
    from firmware.match import Match
    from host_tools import journal_read, pull

    b = in_match(KEYS)
    want = board_state(b, tmp_path)
    dest = tmp_path / "records"
    n = b.boots()
    r = subprocess.run([sys.executable, "-m", "host_tools.pull", "--port", b.pty, "--out",
                        str(dest)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"pull: [1-9]\d* copied", r.stdout), r.stdout
    resumed = _resumed(sim_for(KEYS))
    wait_rows(b, resumed)  # the app started again: the board resumes its match (the display
    # showed the REPL's notice meanwhile)
    got = journal_read.read_journal(str(dest / "match"))
    m = Match()
    for ev in got.events:
        m.apply(ev)
    assert got.stop is None and m.state() == want  # the running match, as the board has it
    again = pull.pull(b.pty, dest, out=lambda line: None)
    assert again["copied"] == [] and again["unchanged"] > 0  # nothing new
    assert b.boots() == n  # (no hard reset: the clock set keeps its time)
    # A new match on the board archives this one: the next pull brings hist/1 and the new one.
    wait_rows(b, resumed)  # (keys pressed before the app is back would be lost)
    for k in _new_match_keys():
        b.press(k)
        b.wait(SETTLE_MS)
    third = pull.pull(b.pty, dest, out=lambda line: None)
    assert any(p.startswith("hist/1/") for p in third["copied"]), third
    old = journal_read.read_journal(str(dest / "hist" / "1"))
    assert old.stop is None and old.events == got.events
    new = journal_read.read_journal(str(dest / "match"))
    assert [ev["t"] for ev in new.events] == ["new", "lag"]


def _edit_flash(b, edit):
    # The board off, its littlefs edited with littlefs-python in the Pico's geometry (4096-byte
    # blocks, prog 256, cache 1024), then powered on again.
    from littlefs import LittleFS, UserContext

    b.stop()
    raw = bytearray(b.flash.read_bytes())
    data = bytearray(raw[vpico.FS_START:vpico.FS_END])
    ctx = UserContext(buffer=data)
    fs = LittleFS(context=ctx, block_size=4096, block_count=len(data) // 4096, read_size=256,
                  prog_size=256, cache_size=1024, lookahead_size=32, mount=True)
    edit(fs)
    fs.unmount()
    raw[vpico.FS_START:vpico.FS_END] = ctx.buffer
    b.flash.write_bytes(bytes(raw))
    b.fresh = False
    b.start()


def _remove(fs, path):
    if fs.stat(path).type == 2:  # a folder
        for name in fs.listdir(path):
            _remove(fs, path + "/" + name)
    fs.remove(path)


def test_boot_on_damaged_files_shows_a_screen_that_says_so(stopped):
    # The real firmware on the virtual Pico: a valid 100 KB settings.json (a MemoryError at
    # boot before), then /match made a file: each boot comes up with a screen naming it, the
    # match or the file kept. (The board, in a match written on the host, starts at the first
    # edit: its reading of what flash holds is under test.)
    b = stopped

    def big(fs):
        with fs.open("/settings.json", "wb") as f:
            f.write(b'{"p1": "' + b"x" * 100000 + b'"}')

    _edit_flash(b, big)
    rows = wait_rows(b, lambda rows: "Bad setting" in " ".join(rows), timeout=120)
    assert "settings" in " ".join(rows), rows

    def match_file(fs):
        _remove(fs, "/match")
        with fs.open("/match", "wb") as f:
            f.write(b"not a folder")

    _edit_flash(b, match_file)
    rows = wait_rows(b, lambda rows: "Unreadable match" in " ".join(rows), timeout=120)
    assert "match.bad" in " ".join(rows) and "Game: 14.1" in " ".join(rows), rows  # setup
    assert b.read_file("/match.bad") == b"not a folder"
    assert "rebooted by the watchdog" not in b.log_text()
