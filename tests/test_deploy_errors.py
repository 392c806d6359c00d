# make deploy's errors, each a clear message and nothing copied: no board on the port, a port
# that is not MicroPython, a MicroPython whose .mpy format does not match the build, not enough
# flash. The last two on the virtual Pico (one blank board for the module).
import json
import os
import re
import select
import shutil
import subprocess
import sys
import threading

import pytest

from host_tools import deploy, vpico
from host_tools.mpy import ROOT


def test_no_board_on_that_port():
    with pytest.raises(deploy.DeployError, match="no board on /dev/ttyACM-none"):
        deploy.deploy("/dev/ttyACM-none", "pico", tree=ROOT / "nowhere")
    r = subprocess.run([sys.executable, "-m", "host_tools.deploy", "--port", "/dev/ttyACM-none"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith("deploy: error: no board on /dev/ttyACM-none: no such port")


def test_unknown_board_profile(tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "pico.mpy").write_bytes(b"M\x06\x00\x1f")
    with pytest.raises(deploy.DeployError, match="no board profile 'uno'.*there are: pico"):
        deploy.files_for(tmp_path, "uno")


def test_a_roster_is_checked_before_anything_is_copied(tmp_path):
    good = tmp_path / "players.txt"
    good.write_bytes("Ayşe\n\nİsmail\n".encode("utf-8") + b"Bad\xff\n")
    assert deploy.check_players(good) == ["players.txt line 2: empty, left out",
                                          "players.txt line 4: not UTF-8, left out"]
    with pytest.raises(deploy.DeployError, match="no roster file .*nope.txt"):
        deploy.check_players(tmp_path / "nope.txt")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"\n\xff\n")
    with pytest.raises(deploy.DeployError, match="holds no name .*line 1: empty.*line 2: not UTF-8"):
        deploy.check_players(empty)
    # the command line says so, and copies nothing (no board is even asked)
    r = subprocess.run([sys.executable, "-m", "host_tools.deploy", "--port", "/dev/null",
                        "--players", str(empty)], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1 and "holds no name" in r.stderr, r.stderr


def test_a_port_that_is_not_micropython():
    # A serial device that prints a login prompt every 0.2 s whatever it is sent: no raw REPL.
    # (mpremote then waits for ever on a pty: the deploy's own timeout says what is wrong.)
    master, slave = os.openpty()
    stop = threading.Event()

    def device():
        while not stop.wait(0.2):
            try:
                os.write(master, b"\r\nlogin: ")
                while select.select([master], [], [], 0)[0]:
                    os.read(master, 1024)
            except OSError:
                return

    t = threading.Thread(target=device, daemon=True)
    t.start()
    try:
        with pytest.raises(deploy.DeployError, match="(not as a MicroPython REPL|gave no answer "
                           "in 5 s .*is the board running MicroPython)"):
            deploy.Board(os.ttyname(slave)).probe(timeout=5)
    finally:
        stop.set()
        t.join()
        os.close(slave)
        os.close(master)


def test_the_format_check(board_build):
    info = {"impl": "micropython", "mpy": 5 | (2 << 8), "version": [1, 19, 1],
            "machine": "Raspberry Pi Pico with RP2040"}
    tree = board_build
    files = deploy.files_for(tree, "pico")
    with pytest.raises(deploy.DeployError, match=r"loads \.mpy format 5\.2.*is format 6"):
        deploy.check(info, "pico", "6.3", files)
    with pytest.raises(deploy.DeployError, match=r"MicroPython 1\.22\.2 takes \.mpy format "
                       r"6\.2; this build is 6\.3"):
        deploy.check(dict(info, mpy=6 | (2 << 8), version=[1, 22, 2]), "pico", "6.3", files)
    deploy.check(dict(info, mpy=6 | (3 << 8) | (4 << 10)), "pico", "6.3", files)  # armv6m
    with pytest.raises(deploy.DeployError, match="not MicroPython"):
        deploy.check(dict(info, impl="circuitpython"), "pico", "6.3", files)
    with pytest.raises(deploy.DeployError, match="BOARD=esp32_devkit is for a ESP32"):
        deploy.check(dict(info, mpy=6 | (3 << 8)), "esp32_devkit", "6.3",
                     deploy.files_for(tree, "esp32_devkit"))


needs_vpico = pytest.mark.skipif(vpico.missing() is not None, reason=str(vpico.missing()))


@pytest.fixture(scope="module")
def board(tmp_path_factory, board_build):
    tmp = tmp_path_factory.mktemp("errors")
    with vpico.VPico(flash=tmp / "flash.bin", fresh=True) as b:
        yield b, board_build, tmp


@needs_vpico
def test_a_build_in_another_mpy_format(board):
    b, tree, tmp = board
    other = tmp / "format5"
    shutil.copytree(tree, other)
    p = other / "firmware" / "rules.mpy"
    data = bytearray(p.read_bytes())
    data[1] = 5  # as MicroPython 1.19's mpy-cross wrote it
    p.write_bytes(bytes(data))
    with pytest.raises(deploy.DeployError, match=r"MicroPython 1\.29\.0 loads \.mpy format "
                       r"6\.3, but rules\.mpy is format 5"):
        deploy.deploy(b.pty, "pico", tree=other, out=lambda s: None)
    assert b.listdir("/") == []  # nothing copied


@needs_vpico
def test_not_enough_flash(board):
    b, tree, _ = board
    # Fill the filesystem but for 20 blocks (80 KB): the build takes 30 files.
    fill = ("import os\n"
            "s = os.statvfs('/')\n"
            "n = s[3] - 20\n"
            "z = bytes(4096)\n"
            "with open('/fill.bin', 'wb') as f:\n"
            "    for _ in range(n):\n"
            "        f.write(z)\n"
            "print(os.statvfs('/')[3])\n")
    r = subprocess.run([deploy.mpremote_exe(), "connect", b.pty, "exec", fill],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout.split()[-1]) <= 21
    with pytest.raises(deploy.DeployError, match=r"not enough flash on the board: these files "
                       r"need \d+ KB, \d+ KB is free"):
        deploy.deploy(b.pty, "pico", tree=tree, out=lambda s: None)
    assert sorted(b.listdir("/")) == ["fill.bin"]  # nothing copied


def test_deploy_removes_the_projects_files_it_does_not_install(board_build):
    # What a board holds after `mpremote mip install` (sources beside the build's .mpy, both
    # profiles, lib/ssd1306.py, and a mip install without --target under /lib), an older build
    # (a module since dropped, a folder) and the user's own files: the plan removes exactly the
    # project's files it does not install, then the folders left empty, deepest first.
    tree = board_build
    files = deploy.files_for(tree, "pico")
    mine = {p: 1 for p in files}
    leftovers = ["firmware/app.py", "firmware/lang_en.py", "firmware/drivers/oled.py",
                 "boards/pico.py", "boards/esp32_devkit.py", "boards/esp32_devkit.mpy",
                 "lib/ssd1306.py", "firmware/old_view.mpy", "firmware/gone/x.mpy",
                 "lib/main.py", "lib/firmware/app.py", "lib/boards/pico.py"]
    user = ["settings.json", "players.txt", "secrets.json", "ca.pem", "lib/mylib.py",
            "lib/mylib.mpy",
            "boot.py", "main.mpy", "deploy.json"]
    folders = ["firmware", "firmware/drivers", "firmware/gone", "boards", "lib",
               "lib/firmware", "lib/boards"]
    board_tree = dict(mine, **{p: 10 for p in leftovers + user}, **{d: -1 for d in folders})
    copy, remove, _ = deploy.plan({"tree": board_tree, "manifest": None}, files)
    assert sorted(copy) == sorted(files)  # no manifest: everything is copied
    assert remove == sorted(leftovers) + ["firmware/gone/", "lib/boards/", "lib/firmware/"]
    # the last deploy's manifest names a lib file the build no longer has: it goes too
    old = {"format": 1, "files": {"lib/sh1106.mpy": ["0", 10]}}
    board_tree["lib/sh1106.mpy"] = 10
    _, remove, _ = deploy.plan({"tree": board_tree, "manifest": old}, files)
    assert "lib/sh1106.mpy" in remove
    assert not set(remove) & set(user)


def test_mpremote_runs_in_utc_so_rtc_set_writes_the_utc_time(tmp_path, monkeypatch):
    # `mpremote rtc --set` writes the host's local time (datetime.now()): the deploy and the pull
    # run mpremote with TZ=UTC, so the board's clock keeps UTC, whatever the PC's zone.
    fake = tmp_path / "mpremote"
    fake.write_text("#!%s\nimport datetime, os, sys\nprint(os.environ.get('TZ'), "
                    "datetime.datetime.now().isoformat(), ' '.join(sys.argv[1:]))\n"
                    % sys.executable)
    fake.chmod(0o755)
    monkeypatch.setattr(deploy, "mpremote_exe", lambda: str(fake))
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    import datetime

    r = deploy.Board("/dev/ttyACM9").mpremote(["rtc", "--set"], timeout=30)
    tz, now, args = r.stdout.split(" ", 2)
    assert tz == "UTC" and args.strip() == "connect /dev/ttyACM9 resume rtc --set"
    utc = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    assert abs((datetime.datetime.fromisoformat(now) - utc).total_seconds()) < 30


def test_secrets_are_checked_and_their_ca_goes_on_the_board_as_ca_pem(tmp_path):
    # docs/network.md: the board's /secrets.json names its CA as it lies on the board; a file
    # that is not a JSON object, has a broker without a club or the other way round, or names a
    # CA that is not there, stops the deploy before it touches the board, saying which.
    sec = tmp_path / "club-t1.json"
    (tmp_path / "certs").mkdir()
    (tmp_path / "certs" / "club-ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    sec.write_text(json.dumps({"broker": "10.0.0.5", "club": "c", "table": 2, "tls": True,
                               "ca": "certs/club-ca.pem"}))
    data, ca = deploy.board_secrets(sec)
    assert json.loads(data) == {"broker": "10.0.0.5", "club": "c", "table": 2, "tls": True,
                                "ca": deploy.CA}
    assert ca == tmp_path / "certs" / "club-ca.pem" and deploy.CA == "ca.pem"
    sec.write_text(json.dumps({"broker": "10.0.0.5", "club": "c"}))
    assert deploy.board_secrets(sec)[1] is None
    sec.write_text('{"pin": "2468"}')  # a PIN alone: no network
    assert json.loads(deploy.board_secrets(sec)[0]) == {"pin": "2468"}
    for text, said in (("{broker: 1}", "is not JSON"), ('{"club": "c"}', '"broker" and "club"'),
                       ("[1]", "not a JSON object"),
                       ('{"broker": "b", "club": "c", "ca": "no.pem"}', "no.pem: no such file")):
        sec.write_text(text)
        with pytest.raises(deploy.DeployError, match=re.escape(said)):
            deploy.board_secrets(sec)
    with pytest.raises(deploy.DeployError, match="no secrets file"):
        deploy.board_secrets(tmp_path / "none.json")
    sec.write_text("x")
    with pytest.raises(deploy.DeployError, match="is not JSON"):  # before any board is asked
        deploy.deploy("/dev/null", tree=tmp_path, secrets=sec, out=lambda line: None)
