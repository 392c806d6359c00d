# The README pictures: each is reproduced pixel for pixel from its key presses on the simulator.
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import screens

ROOT = Path(__file__).resolve().parent.parent
NAMES = [pic[0] for pic in screens.PICTURES]


# Each picture is played and drawn once a run: the CLI writes them all (what
# `python -m host_tools.screens` does), and the simulators after their keys are kept.
@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("screens")
    assert screens.main([str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def played():
    return {pic[0]: screens.play(pic) for pic in screens.PICTURES}


def test_the_pictures_are_the_ones_the_readme_shows_and_no_others():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"docs/screens/([\w.-]+\.png)", readme)
    assert sorted(set(shown)) == sorted(NAMES)
    # no picture in docs/screens without keys that make it (it could drift from the device)
    assert sorted(p.name for p in screens.DOCS.glob("*.png")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_readme_picture_is_reproduced_from_its_keys(name, rendered):
    fresh = rendered / name
    assert screens.pixels(fresh) == screens.pixels(screens.DOCS / name), (
        "%s no longer shows what its keys give: run python -m host_tools.screens" % name)


# The headless simulator, a process of its own for each picture: one picture of each display.
HEADLESS = [next(p for p in screens.PICTURES if p[1] == kind) for kind in ("oled", "lcd")]


@pytest.mark.parametrize("pic", HEADLESS, ids=lambda pic: pic[0])
def test_the_simulators_headless_mode_gives_the_same_pictures(pic, tmp_path):
    keys = tmp_path / (pic[0] + ".keys")
    keys.write_text(screens.key_file(pic), encoding="utf-8")
    out = tmp_path / pic[0]
    res = subprocess.run([sys.executable, "-m", "host_tools.sim", *screens.sim_args(pic),
                          "--keys", str(keys), "--shots", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in out.iterdir()) == ["000.png"]
    assert screens.pixels(out / "000.png") == screens.pixels(screens.DOCS / pic[0]), pic[0]


def test_the_push_out_picture_is_where_the_device_offers_it(played):
    s = played["oled-9ball-push-out-en.png"]
    ctl = s.runner.app.ctl
    assert ctl.mode == "menu" and ctl.match.s["push"]
    assert s.text()[1].startswith(">Push out")  # the menu's first row, under the cursor
    for name, s in played.items():  # `*` is a safety: no picture offers a push out on it
        assert not any("*=Push" in line for line in s.text()), name


def test_the_pictures_show_the_states_they_are_named_after(played):
    def ctl(name):
        return played[name].runner.app.ctl

    assert ctl("oled-14-1-play-en.png").mode == "play"
    c = ctl("oled-8ball-choice-tr.png")
    assert c.mode == "choice" and c.lang == "tr"
    c = ctl("oled-match-over-en.png")
    assert c.mode == "over" and c.match.s["winner"] == 0
    for name in ("oled-foul-warning-tr.png", "lcd20x4-foul-warning-tr.png"):
        c = ctl(name)
        assert c.mode == "play" and c.lang == "tr"
        st = c.match.state()
        assert st["players"][0]["fouls"] == 2, st


def test_a_key_the_app_refuses_is_an_error_in_the_sequence():
    with pytest.raises(ValueError, match="line 2"):
        screens.play(("x.png", "oled", "keypad", "en", "14.1", "# a comment\nB\n"))


def test_the_cli_checks_and_prints_key_files(rendered, monkeypatch):
    # --check compares docs/screens/ with fresh pictures: the fixture's (render is tested there)
    monkeypatch.setattr(screens, "render", lambda pic, path: shutil.copyfile(rendered / pic[0], path))
    assert screens.main(["--check"]) == 0
    res = subprocess.run([sys.executable, "-m", "host_tools.screens", "--keys",
                          "oled-9ball-push-out-en.png"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.endswith("##\nshot\n"), res.stdout
    assert sorted(p.name for p in rendered.iterdir()) == sorted(NAMES)  # the CLI wrote them all


def test_help_prints_usage_and_writes_no_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        screens.main(["--help"])
    assert e.value.code == 0
    assert "usage: python -m host_tools.screens" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []  # no "--help/" of pictures


def test_keys_takes_a_picture_name_without_png_and_names_the_pictures_when_wrong(capsys):
    assert screens.main(["--keys", "oled-9ball-push-out-en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# python -m host_tools.sim --display oled --input keypad --lang en "
                          "--game 9ball")
    assert out.endswith("##\nshot\n")
    with pytest.raises(SystemExit) as e:
        screens.main(["--keys", "oled-9ball-push"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "no picture 'oled-9ball-push'" in err and "oled-9ball-push-out-en" in err
    assert "Traceback" not in err
