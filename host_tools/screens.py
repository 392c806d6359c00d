# The README screenshots, each made by pressing real keys on the simulated scoreboard.
"""Every picture in docs/screens/ is what the app shows after a stated sequence of key presses:
the simulator (host_tools.sim: the Controller, the views, the real drivers and the real
debounced keypad on fake pins and buses) is driven by key names, and the picture is drawn from
the bytes the fake display bus received. No screen model is built by hand, so a picture can only
show what the device shows.

    python -m host_tools.screens [OUTDIR]     write the pictures (default docs/screens/)
    python -m host_tools.screens --check      compare docs/screens/ with fresh pictures
    python -m host_tools.screens --keys NAME  print a picture's key file

A picture's key file plays the same in the simulator's headless mode:

    python -m host_tools.sim --display oled --input keypad --lang tr --game 8ball \\
        --keys FILE --shots DIR        # DIR/000.png is the picture
"""

from __future__ import annotations

import sys
from pathlib import Path

from host_tools import sim

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "screens"

# Setup rows (firmware/setup.py): 14.1: game, player 1, player 2, target 1, target 2, 3 fouls,
# language, start; 8/9-ball: race 1 and 2 and the break instead of the targets (9-ball: and the
# 9 on the break before the language). Keypad in setup: 8 down, 2 up, 4/6 change, 5 ok. Names
# step through Ali Ayşe Burak Can Deniz Elif Emre Furkan Gül Hakan Mehmet Zeynep P1 P2; both
# players start as P1 and P2. Lines starting with "# " are comments; "##" is the key # twice.

_ALI_BURAK = """# setup: player 1 P1 -> Ali, player 2 P2 -> Burak
8 6 6
8 6 6 6
"""
_AYSE_GUL = """# setup: player 1 P1 -> Ayşe, player 2 P2 -> Gül
8 6 6 6
8 4 4 4 4 4
"""

PLAY_141 = _ALI_BURAK + """# target 2: 100 -> 75; down to start, ok
8 8 4
8 8 8 5
# lag: Ali breaks; a legal break, nothing in
1
B
# Burak runs 5 (balls 1-5 down, made), then misses
1 2 3 4 5 A
B
# Ali makes 2 and misses; Burak makes 4
1 2 A
B
1 2 3 4 A
"""

CHOICE_8 = _AYSE_GUL + """# up to start (around the top), ok
2 2 2 5
# lag: Ayşe breaks and pockets the 8: she chooses, 8 spotted or a re-rack
1
8 A
"""

PUSH_9 = _ALI_BURAK + """# race 5 -> 1 each; up to start (around the top), ok
8 4 4 4 4
8 4 4 4 4
2 2 2 2 2 5
# lag: Ali breaks; a legal break, nothing in: Burak may push out
1
B
# the menu (# twice): Push out is its first row
##
"""

OVER_9 = _ALI_BURAK + """# race 5 -> 1 each; up to start, ok
8 4 4 4 4
8 4 4 4 4
2 2 2 2 2 5
# lag: Ali breaks and pockets the 9: he wins the rack and the race
1
9 A
"""

WARN_141 = _AYSE_GUL + """# up to start, ok
2 2 2 5
# lag: Ayşe breaks; a legal break, nothing in
1
B
# Gül makes 3 and misses; Ayşe fouls (no ball hit, -1); Gül misses; Ayşe fouls again
1 2 3 A
B
C
B
C
"""

# (file name, display, input, language, game, keys): the pictures README.md shows.
PICTURES = (
    ("oled-14-1-play-en.png", "oled", "keypad", "en", "14.1", PLAY_141),
    ("oled-8ball-choice-tr.png", "oled", "keypad", "tr", "8ball", CHOICE_8),
    ("oled-9ball-push-out-en.png", "oled", "keypad", "en", "9ball", PUSH_9),
    ("oled-foul-warning-tr.png", "oled", "keypad", "tr", "14.1", WARN_141),
    ("oled-match-over-en.png", "oled", "keypad", "en", "9ball", OVER_9),
    ("lcd20x4-foul-warning-tr.png", "lcd", "keypad", "tr", "14.1", WARN_141),
)


def picture(name):
    # The picture of a file name, with or without its ".png".
    for pic in PICTURES:
        if name in (pic[0], pic[0][:-4]):
            return pic
    raise KeyError("no picture %r (%s)" % (name, ", ".join(p[0][:-4] for p in PICTURES)))


def sim_args(pic):
    # The simulator's options for a picture (python -m host_tools.sim ...).
    _, display, layout, lang, game, _ = pic
    return ["--display", display, "--input", layout, "--lang", lang, "--game", game]


def key_file(pic):
    # The picture's keys as a key file for `python -m host_tools.sim --keys`: a shot at the end.
    return pic[5] + "shot\n"


def play(pic):
    # A simulator after the picture's key presses, played line by line as --keys files are. A
    # key the app answers with a refusal or "bad key" is an error in the sequence.
    _, display, layout, lang, game, keys = pic
    s = sim.Sim(display, layout, lang, game)
    for n, line in enumerate(keys.splitlines(), 1):
        for item in sim.parse_tokens(line, layout):
            sim.play(s, [item])
            msg = s.runner.app.ctl.msg
            if msg and msg[0] in ("refused", "bad_key"):
                raise ValueError("%s, line %d %r: %s answered %r" % (pic[0], n, line, item, msg))
    if s.errors:
        raise ValueError("%s: app errors %s" % (pic[0], s.errors))
    return s


def render(pic, path):
    return play(pic).shot(str(path))


def pixels(path):
    # (size, RGB bytes) of a PNG file.
    from PIL import Image

    with Image.open(path) as img:
        return img.size, img.convert("RGB").tobytes()


def check(outdir, names=None):
    # The pictures of outdir that differ, pixel for pixel, from fresh ones (or are missing).
    import tempfile

    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        for pic in PICTURES:
            if names is not None and pic[0] not in names:
                continue
            fresh = Path(tmp) / pic[0]
            render(pic, fresh)
            old = Path(outdir) / pic[0]
            if not old.exists() or pixels(old) != pixels(fresh):
                bad.append(pic[0])
    return bad


def main(argv=None):
    from host_tools import cli

    ap = cli.parser("host_tools.screens", "The README's pictures, made from key presses.",
                    epilog="pictures: " + ", ".join(p[0][:-4] for p in PICTURES))
    ap.add_argument("outdir", nargs="?", default=str(DOCS),
                    help="write the pictures there (default docs/screens/)")
    ap.add_argument("--check", action="store_true",
                    help="compare docs/screens/ with fresh pictures")
    ap.add_argument("--keys", metavar="NAME",
                    help="print a picture's key file for host_tools.sim --keys")
    ns = ap.parse_args(argv)
    if ns.keys:
        try:
            pic = picture(ns.keys)
        except KeyError as e:
            ap.error(e.args[0])
        print("# python -m host_tools.sim %s --keys FILE --shots DIR" % " ".join(sim_args(pic)))
        sys.stdout.write(key_file(pic))
        return 0
    if ns.check:
        bad = check(DOCS)
        for name in bad:
            print("differs from its keys: %s" % (DOCS / name))
        return 1 if bad else 0
    out = Path(ns.outdir)
    out.mkdir(parents=True, exist_ok=True)
    for pic in PICTURES:
        path = out / pic[0]
        render(pic, path)
        print(path)
    return 0


if __name__ == "__main__":
    from host_tools import cli

    cli.run(main)
