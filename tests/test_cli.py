# CPython only: every host tool's command line (host_tools.cli.parser). --help prints the usage,
# a line of what the tool does and each option, and does nothing else: exit 0, no file written,
# no board or emulator started. A bad option is a usage error: exit 2, naming the option.
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.mpy import ROOT

# Each command line, and the arguments it needs besides a bad option for the option to be what
# is wrong (a required DIR, FILE, --out, COMMAND given, so only the unknown option is refused).
CLIS = {
    "host_tools.bench": [],
    "host_tools.bench_vpico": [],
    "host_tools.club": [],
    "host_tools.club_bench": [],
    "host_tools.deploy": [],
    "host_tools.glyph_art": [],
    "host_tools.journal_read": ["records"],
    "host_tools.mpy": ["-c", "pass"],
    "host_tools.pull": [],
    "host_tools.replay": ["match.jsonl"],
    "host_tools.scoresheet": ["records", "--out", "sheets"],
    "host_tools.screens": [],
    "host_tools.sheet_demo": ["board"],
    "host_tools.sim": [],
    "host_tools.sim_vpico": [],
    "host_tools.vpico": ["time"],
    "host_tools/vpico/bridge.py": [],  # a script: vpico starts it as `bridge.py -- node ...`
}
BAD = "--no-such-option"


def _command(cli):
    return [sys.executable] + ([str(ROOT / cli)] if cli.endswith(".py") else ["-m", cli])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    # Every tool's --help and bad option at once, each in an empty folder of its own.
    procs = {}
    for cli, need in CLIS.items():
        for kind, args in (("help", ["--help"]), ("bad", [BAD] + need)):
            cwd = tmp_path_factory.mktemp("cwd")
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            procs[cli, kind] = (cwd, subprocess.Popen(
                _command(cli) + args, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    out = {}
    for key, (cwd, p) in procs.items():
        stdout, stderr = p.communicate(timeout=120)
        out[key] = (p.returncode, stdout, stderr, sorted(os.listdir(cwd)))
    return out


def test_every_host_command_line_is_listed():
    # A module run as a program (a __main__ block, a package's __main__.py, a parser) is a host
    # command line, but for those the board-like MicroPython runs (host_tools.mpy -m ...),
    # which has no argparse: bench_mp, core_mp, wall_heap.
    found = set()
    for p in sorted((ROOT / "host_tools").rglob("*.py")):
        text = p.read_text(encoding="utf-8")
        if p.name == "__main__.py" or '__name__ == "__main__"' in text or "ArgumentParser" in text:
            rel = p.relative_to(ROOT)
            if rel.name == "__main__.py":
                found.add(".".join(rel.parent.parts))
            elif rel.parent.name == "host_tools":
                found.add("host_tools." + rel.stem)
            else:
                found.add(str(rel))
    assert found - {"host_tools.cli"} == set(CLIS)  # cli: the parser they share


@pytest.mark.parametrize("cli", sorted(CLIS))
def test_help_prints_usage_and_each_option_and_does_nothing_else(runs, cli):
    code, out, err, files = runs[cli, "help"]
    assert code == 0, err
    assert err == "" and files == []  # nothing written: no "--help/" folder, no build, no flash
    prog = cli if cli.endswith(".py") else "python -m " + cli
    assert out.startswith("usage: " + (Path(cli).name if cli.endswith(".py") else prog)), out
    body = out.split("\n\n")
    assert len(body) >= 3 and body[1].strip(), out  # usage, what it does, then the options
    # each option of the usage is described below it, with a line of its own
    usage = body[0]
    for opt in set(re.findall(r"\[(--[a-z0-9-]+)", usage)) - {"--help"}:
        assert re.search(r"^\s+%s\b.*" % re.escape(opt), out, re.M), (opt, out)


@pytest.mark.parametrize("cli", sorted(CLIS))
def test_a_bad_option_is_a_usage_error_naming_it(runs, cli):
    code, out, err, files = runs[cli, "bad"]
    assert code == 2, (out, err)
    assert out == "" and files == []
    assert err.startswith("usage: ") and BAD in err.splitlines()[-1], err
    assert "Traceback" not in err


def test_mpy_passes_the_program_its_own_options(capsys):
    # Everything after -c CODE / -m MODULE is the program's (its mp_argv.ARGV), options too.
    from host_tools import mpy

    res = subprocess.run([sys.executable, "-m", "host_tools.mpy", "--heap", "96K", "-c",
                          "import mp_argv\nprint(mp_argv.ARGV[1:])", "--help", "-x"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "['--help', '-x']"
    for args, what in ((["-m"], "argument -m: expected MODULE"),
                       (["--heap", "lots", "-c", "pass"], "argument --heap: not a heap size")):
        with pytest.raises(SystemExit) as e:
            mpy.main(args)
        assert e.value.code == 2
        assert what in capsys.readouterr().err, args


def test_deploy_refuses_options_it_would_ignore_and_options_not_json(capsys):
    from host_tools import deploy

    for args, what in ((["build", "--board", "esp32_devkit"], "build takes no options (--board)"),
                       (["--options", "{display: oled}"], "argument --options: not JSON"),
                       (["--options", "[1]"], "argument --options: not a JSON object"),
                       (["flash"], "invalid choice: 'flash'")):
        with pytest.raises(SystemExit) as e:
            deploy.main(args)
        assert e.value.code == 2
        assert what in capsys.readouterr().err, args
